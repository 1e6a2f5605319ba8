/* tracecheck validate: every input through its parser, findings to a report. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/common/check.h"
#include "../reports/report.h"
#include "cli.h"
#include "progress.h"

static void help(void)
{
    puts("usage: tracecheck validate [OPTIONS] PATH...\n"
         "\n"
         "Checks each input against its format's rules and reports every finding as\n"
         "  PATH:OFFSET: error: RULE-ID: message with the offending values\n"
         "with the context (buffer, thread) on the line below and a summary at the end.\n"
         "\n"
         "  -f, --format FORMAT  auto (default: detect by content), xray, perf, dcfg,\n"
         "                       dcfg-trace, ovni\n"
         "      --report KIND    text (default) or json\n"
         "  -o, --output FILE    write the report to FILE instead of standard output\n"
         "      --pedantic       also report pedantic notes (non-zero reserved bytes ...)\n"
         "      --max-repeats N  findings of one rule shown per input (default 20); the\n"
         "                       rest are counted and summarised\n"
         "      --no-models      ovni: skip the model layer (ovni's own events)\n"
         "      --color WHEN     auto (default: on a terminal), always, never\n"
         "  -q, --quiet          text: only the summary line\n"
         "  -h, --help           this help\n"
         "\n"
         "PATH is a file, - for standard input, or a directory: an ovni trace when a\n"
         "stream.json lies below it, when it holds loom.* directories or is named ovni,\n"
         "or with --format ovni; else it is searched recursively for inputs (files and\n"
         "such traces), and finding none is an error.\n"
         "gzip, bzip2 and zstd inputs are decompressed on the fly.\n"
         "Exit status: 0 every input valid (warnings allowed), 1 at least one\n"
         "error-severity finding, 2 usage or I/O error.\n"
         "Rules: 'tracecheck rules', docs/rules/.");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void quiet_diag(void *user, const tc_diag *d)
{
    (void)user;
    (void)d;
}

int cmd_validate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"report", required_argument, NULL, 'r'},
        {"output", required_argument, NULL, 'o'},
        {"pedantic", no_argument, NULL, 'p'},
        {"max-repeats", required_argument, NULL, 'm'},
        {"no-models", no_argument, NULL, 'M'},
        {"color", required_argument, NULL, 'c'},
        {"colour", required_argument, NULL, 'c'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    tc_options opt = TC_OPTIONS_INIT;
    tc_report_kind kind = TC_REPORT_TEXT;
    const char *output = NULL, *color = "auto";
    int quiet = 0, c;
    unsigned long long n;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if ((opt.format = cli_parse_format(optarg, 1)) == TC_FORMAT__COUNT)
                return EXIT_TROUBLE;
            break;
        case 'r':
            if ((kind = tc_report_kind_from_name(optarg)) == TC_REPORT__COUNT)
                return cli_usage_error("validate", "unknown report '%s' (text, json)", optarg);
            break;
        case 'o': output = optarg; break;
        case 'p': opt.pedantic = 1; break;
        case 'M': opt.no_models = 1; break;
        case 'm':
            if (cli_parse_size(optarg, &n) != 0 || n == 0 || n > 1000000)
                return cli_usage_error("validate", "--max-repeats needs a number from 1 to 1000000");
            opt.max_repeats = (unsigned)n;
            break;
        case 'c':
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never"))
                return cli_usage_error("validate", "--color takes auto, always or never");
            color = optarg;
            break;
        case 'q': quiet = 1; break;
        case 'h': help(); return 0;
        default: return cli_usage_error("validate", "bad option");
        }
    }
    if (optind >= argc)
        return cli_usage_error("validate", "no input given");

    FILE *out = stdout;
    if (output && !(out = fopen(output, "w"))) {
        perror(output);
        return EXIT_TROUBLE;
    }
    tc_report_opts ropts = {0};
    ropts.color = !strcmp(color, "always") ||
                  (!strcmp(color, "auto") && !output && isatty(fileno(out)) && !getenv("NO_COLOR"));
    tc_report_writer *w = tc_report_open(kind, out, &ropts);
    if (!w)
        return EXIT_TROUBLE;
    opt.on_diag = quiet && kind == TC_REPORT_TEXT ? quiet_diag : tc_report_on_diag;
    opt.user = w;

    cli_paths paths = {0};
    int status = cli_expand_paths(&paths, argv + optind, argc - optind, opt.format == TC_FORMAT_OVNI) ? EXIT_TROUBLE : EXIT_VALID;
    tc_report_totals totals = {0};
    cli_progress progress;
    cli_progress_init(&progress);
    double start = now();
    for (size_t i = 0; i < paths.count; i++) {
        const char *path = paths.items[i];
        char err[300] = "";
        tc_summary sum = {0};
        tc_check_opts copts = {.options = &opt};
        cli_progress_begin(&progress, path);
        copts.progress = cli_progress_update;
        copts.progress_user = &progress;
        w->input_begin(w, path);
        int rc = tc_check_path(path, &copts, &sum, err, sizeof err);
        cli_progress_end(&progress);
        w->input_end(w, path, rc, &sum, err);
        totals.inputs++;
        totals.errors += sum.errors;
        totals.warnings += sum.warnings;
        totals.notes += sum.notes;
        totals.bytes += sum.bytes;
        if (rc == 0)
            totals.valid++;
        else if (rc == 1)
            totals.invalid++;
        else
            totals.unreadable++;
        if (rc > status)
            status = rc;
    }
    totals.seconds = now() - start;
    w->close(w, &totals);
    cli_paths_free(&paths);
    if (out != stdout && fclose(out) != 0) {
        perror(output);
        return EXIT_TROUBLE;
    }
    return status;
}
