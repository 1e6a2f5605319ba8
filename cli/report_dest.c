/* Where the reports of validate and report merge go (docs/reports.md): one
 * kind to -o FILE or standard output, or files in --report-dir with the text
 * report on standard output as well. Both commands take the same options for
 * it, so that a merge writes what one run would have. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../parsers/common/mkdirs.h"
#include "cli.h"

int cli_report_kinds(const char *cmd, const char *list, cli_report_dest *d)
{
    /* Comma-separated kinds, each counted once. */
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        tc_report_kind kind = tc_report_kind_from_name(k);
        if (kind == TC_REPORT__COUNT)
            return cli_usage_error(cmd, "unknown report '%s' (text, json, junit, sarif, tap, "
                                   "markdown, html)", k);
        d->nwant += !d->want[kind];
        d->want[kind] = 1;
    }
    return 0;
}

int cli_report_dest_check(const char *cmd, const cli_report_dest *d)
{
    if (d->report_dir && d->output)
        return cli_usage_error(cmd, "--report-dir and -o exclude each other: the text report "
                               "goes to standard output, the others to the directory");
    if (!d->report_dir && d->nwant > 1)
        return cli_usage_error(cmd, "several --report kinds need --report-dir");
    return 0;
}

static int keep_file(cli_report_dest *d, FILE *f, const char *path)
{
    char *copy = strdup(path);
    if (!copy) {
        fclose(f);
        return -1;
    }
    d->files[d->nfiles] = f;
    d->paths[d->nfiles++] = copy;
    return 0;
}

int cli_reports_open(tc_report_set *set, cli_report_dest *d)
{
    tc_report_opts ropts = {.docs_uri = d->docs_uri, .rule_summary = d->rule_summary,
                            .shard = d->shard};
    if (d->report_dir) {
        if (tc_mkdirs(d->report_dir) != 0) {
            fprintf(stderr, "tracecheck: cannot create %s: %s\n", d->report_dir, strerror(errno));
            return -1;
        }
        for (int k = 0; k < TC_REPORT__COUNT; k++) {
            if (d->nwant && !d->want[k])
                continue;
            size_t n = strlen(d->report_dir) + 32;
            char *path = malloc(n);
            if (!path)
                return -1;
            snprintf(path, n, "%s/validate.%s", d->report_dir,
                     tc_report_kind_extension((tc_report_kind)k));
            FILE *f = fopen(path, "w");
            if (!f) {
                perror(path);
                free(path);
                return -1;
            }
            int kept = keep_file(d, f, path);
            free(path);
            if (kept != 0 || tc_report_set_add(set, (tc_report_kind)k, f, &ropts) != 0)
                return -1;
        }
    }
    tc_report_kind kind = TC_REPORT_TEXT;
    for (int k = 0; !d->report_dir && k < TC_REPORT__COUNT; k++)
        if (d->want[k])
            kind = (tc_report_kind)k;
    FILE *out = stdout;
    if (d->output) {
        if (!(out = fopen(d->output, "w"))) {
            perror(d->output);
            return -1;
        }
        if (keep_file(d, out, d->output) != 0)
            return -1;
    }
    const char *color = d->color ? d->color : "auto";
    ropts.quiet = d->quiet;
    ropts.color = kind == TC_REPORT_TEXT &&
                  (!strcmp(color, "always") || (!strcmp(color, "auto") && !d->output &&
                                                isatty(fileno(out)) && !getenv("NO_COLOR")));
    return tc_report_set_add(set, kind, out, &ropts);
}

int cli_reports_close(cli_report_dest *d)
{
    int rc = 0;
    for (size_t i = 0; i < d->nfiles; i++) {
        if (fclose(d->files[i]) != 0) {
            perror(d->paths[i]);
            rc = -1;
        }
        free(d->paths[i]);
    }
    d->nfiles = 0;
    if (fflush(stdout) != 0)
        rc = -1;
    return rc;
}
