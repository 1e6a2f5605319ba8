/*
 * Pair cases: finding a pair directory's two files by their names (each
 * format's tc_format_ops.by_name). They are validated as `tracecheck
 * validate --pair COMPANION INPUT` does, in the case's one child process
 * (impl.c).
 */
#define _DEFAULT_SOURCE
#include "pair.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conformance.h"

static int named(const tc_format_ops *f, const char *name) { return f->by_name && f->by_name(name); }

int tc_conf_pair_find(const char *dir, const tc_format_ops *f, char **companion, char **input,
                      tc_error *err)
{
    const tc_format_ops *cf = tc_format_ops_for(f->companion->format);
    *companion = *input = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        tc_error_set(err, "conformance", "cannot read the directory");
        return -1;
    }
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && !bad) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *path = tc_conf_printf("%s/%s", dir, e->d_name);
        struct stat st;
        char **slot = named(cf, e->d_name) ? companion : named(f, e->d_name) ? input : NULL;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !slot || *slot) {
            tc_error_set(err, "conformance",
                         "%s: a pair case holds one %s and one %s, each known by its "
                         "name (and possibly compressed), and nothing else",
                         e->d_name, cf->title, f->title);
            bad = 1;
            free(path);
        } else {
            *slot = path;
        }
    }
    closedir(d);
    if (!bad && (!*companion || !*input)) {
        tc_error_set(err, "conformance", "no %s: a pair case holds one %s and one %s",
                     *companion ? f->title : cf->title, cf->title, f->title);
        bad = 1;
    }
    if (bad) {
        free(*companion);
        free(*input);
        *companion = *input = NULL;
        return -1;
    }
    return 0;
}
