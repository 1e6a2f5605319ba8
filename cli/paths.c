#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../parsers/common/formats.h"
#include "cli.h"

static int push(cli_paths *p, const char *path)
{
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        char **items = realloc(p->items, cap * sizeof *items);
        if (!items)
            return -1;
        p->items = items;
        p->cap = cap;
    }
    if (!(p->items[p->count] = strdup(path)))
        return -1;
    p->count++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Met in a search: a directory that a format takes as one trace. */
static int found_trace(const char *dir)
{
    for (size_t i = 0; tc_format_at(i); i++)
        if (tc_format_at(i)->dir && tc_format_at(i)->dir->found(dir))
            return 1;
    return 0;
}

/* Named on the command line: a directory that the format given, or a
 * format that claims it, takes as one trace. */
static int named_trace(const char *dir, tc_format format)
{
    const tc_format_ops *f = tc_format_ops_for(format);
    if (f && f->dir)
        return 1;
    for (size_t i = 0; tc_format_at(i); i++)
        if (tc_format_at(i)->dir && tc_format_at(i)->dir->named(dir))
            return 1;
    return 0;
}

static int walk(cli_paths *p, const char *dir, int depth)
{
    if (depth > 64) /* a loop of symbolic links */
        return 0;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "tracecheck: %s: cannot open directory: %s\n", dir, strerror(errno));
        return -1;
    }
    cli_paths names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && push(&names, e->d_name) != 0)
            break;
    closedir(d);
    if (names.count > 1) /* items is NULL in an empty directory: no qsort(NULL, 0) */
        qsort(names.items, names.count, sizeof *names.items, by_name);
    int rc = 0;
    for (size_t i = 0; i < names.count; i++) {
        size_t len = strlen(dir) + strlen(names.items[i]) + 2;
        char *full = malloc(len);
        if (!full) {
            rc = -1;
            break;
        }
        snprintf(full, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
                 names.items[i]);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode) && found_trace(full))
            rc |= push(p, full); /* one input: the checks span its streams */
        else if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
            rc |= walk(p, full, depth + 1);
        else if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
            rc |= push(p, full);
        free(full);
    }
    cli_paths_free(&names);
    return rc;
}

int cli_expand_paths(cli_paths *out, char **args, int nargs, tc_format format)
{
    int rc = 0;
    for (int i = 0; i < nargs; i++) {
        struct stat st;
        int dir = strcmp(args[i], "-") != 0 && stat(args[i], &st) == 0 && S_ISDIR(st.st_mode);
        /* A directory named on the command line is one trace when a format
         * claims it (ovni: it has streams, or the ovni layout, and an empty
         * trace is then reported as such) or --format names one whose
         * traces are directories; otherwise it is searched. */
        if (!dir || named_trace(args[i], format)) {
            rc |= push(out, args[i]); /* files, "-", and names that fail later with a reason */
            continue;
        }
        size_t before = out->count;
        rc |= walk(out, args[i], 0);
        if (out->count == before && rc == 0) {
            fprintf(stderr, "tracecheck: %s: no input found in this directory (no file", args[i]);
            for (size_t k = 0, n = 0; tc_format_at(k); k++)
                if (tc_format_at(k)->dir)
                    fprintf(stderr, "%s%s", n++ ? ", or no " : ", and no ", tc_format_at(k)->dir->what);
            fputs(")\n", stderr);
            rc = -1;
        }
    }
    return rc;
}

void cli_paths_free(cli_paths *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->items[i]);
    free(p->items);
    memset(p, 0, sizeof *p);
}
