/*
 * Pair cases: finding a pair directory's two files, and validating them as
 * `tracecheck validate --pair DCFG TRACE` does (parsers/dcfg/dtrc_pair.h),
 * in the case's one child process.
 */
#define _DEFAULT_SOURCE
#include "pair.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../parsers/dcfg/dtrc_pair.h"
#include "conformance.h"

int tc_conf_pair_name(const char *name, int which)
{
    static const char *const comp[] = {"", ".gz", ".bz2", ".zst"};
    const char *base = which == 'd' ? ".dcfg.json" : ".trace.json";
    size_t n = strlen(name), b = strlen(base);
    for (size_t i = 0; i < sizeof comp / sizeof *comp; i++) {
        size_t k = strlen(comp[i]);
        if (n > b + k && !strcmp(name + n - k, comp[i]) && !strncmp(name + n - k - b, base, b))
            return 1;
    }
    return 0;
}

int tc_conf_pair_find(const char *dir, char **dcfg, char **trace, char *err, size_t errlen)
{
    *dcfg = *trace = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot read the directory");
        return -1;
    }
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && !bad) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *path = tc_conf_printf("%s/%s", dir, e->d_name);
        struct stat st;
        char **slot = tc_conf_pair_name(e->d_name, 'd')   ? dcfg
                      : tc_conf_pair_name(e->d_name, 't') ? trace
                                                          : NULL;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !slot || *slot) {
            snprintf(err, errlen, "%s: a pair case holds one *.dcfg.json and one *.trace.json "
                                  "file (optionally .gz, .bz2, .zst) and nothing else",
                     e->d_name);
            bad = 1;
            free(path);
        } else {
            *slot = path;
        }
    }
    closedir(d);
    if (!bad && (!*dcfg || !*trace)) {
        snprintf(err, errlen, "no %s file: a pair case holds one *.dcfg.json and one "
                              "*.trace.json", *dcfg ? "*.trace.json" : "*.dcfg.json");
        bad = 1;
    }
    if (bad) {
        free(*dcfg);
        free(*trace);
        *dcfg = *trace = NULL;
        return -1;
    }
    return 0;
}

int tc_conf_pair_check(const char *dcfg, const char *trace, const tc_check_opts *c, char *err,
                       size_t errlen)
{
    tc_dcfg_model *m = NULL;
    int rc = tc_dtrc_load_dcfg(dcfg, c, &m, NULL, err, errlen);
    if (rc != 2) {
        int rt = tc_dtrc_check_paired(trace, m, dcfg, c, NULL, NULL, err, errlen);
        rc = rt > rc ? rt : rc;
    }
    tc_dcfg_model_free(m);
    return rc;
}
