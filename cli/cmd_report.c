/* tracecheck report merge: the JSON reports of the shards of one validate
 * run (validate --shard K/N) joined into the reports of every kind that one
 * run over all the inputs would have written, and its exit status
 * (docs/reports.md, "Shards and merging"). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../reports/report_merge.h"
#include "cli.h"

static void help(void)
{
    puts("usage: tracecheck report merge [OPTIONS] SHARD.json...\n"
         "\n"
         "Joins the JSON reports of the shards of one validate run (validate --shard K/N\n"
         "--report json, every K from 1 to N) into the reports one run over every input\n"
         "would have written, inputs in that run's order, the per-rule summary counted\n"
         "over them all; and exits as that run would have.\n"
         "\n"
         "      --report KIND    text (default), json, junit, sarif, tap, markdown or html;\n"
         "                       repeatable or comma-separated with --report-dir, else\n"
         "                       one kind (docs/reports.md)\n"
         "  -o, --output FILE    write the report to FILE instead of standard output\n"
         "      --report-dir DIR write DIR/validate.{txt,json,xml,sarif,tap,md,html} (the\n"
         "                       kinds of --report, all seven without it); the text\n"
         "                       report still goes to standard output\n"
         "      --docs-uri URI   sarif, markdown, html: base URI of the rule links\n"
         "      --color WHEN     auto (default: on a terminal), always, never\n"
         "      --rule-summary WHEN  text: auto (default), always, never\n"
         "  -q, --quiet          text: only the per-rule summary and the summary line\n"
         "  -h, --help           this help\n"
         "\n"
         "The shards must come from the same tracecheck with the same options and\n"
         "arguments but --shard, over the same files, and be 1..N of one N, each once;\n"
         "else nothing is written and the exit status is 2. The time in the text\n"
         "report's last line is the merge's own.\n"
         "Exit status: that of the run the shards make up (0 every input valid, 1 a\n"
         "finding that fails it, 2 an input or argument that could not be read), or 2\n"
         "when the shards cannot be merged.");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int merge(int argc, char **argv)
{
    static const struct option options[] = {
        {"report", required_argument, NULL, 'r'},
        {"report-dir", required_argument, NULL, 'D'},
        {"output", required_argument, NULL, 'o'},
        {"docs-uri", required_argument, NULL, 'U'},
        {"color", required_argument, NULL, 'c'},
        {"colour", required_argument, NULL, 'c'},
        {"rule-summary", required_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_report_dest dest = {.color = "auto"};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (cli_report_kinds("report merge", optarg, &dest) != 0)
                return EXIT_TROUBLE;
            break;
        case 'D': dest.report_dir = optarg; break;
        case 'o': dest.output = optarg; break;
        case 'U': dest.docs_uri = optarg; break;
        case 'c':
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never"))
                return cli_usage_error("report merge", "--color takes auto, always or never");
            dest.color = optarg;
            break;
        case 'S':
            if (!strcmp(optarg, "auto"))
                dest.rule_summary = 0;
            else if (!strcmp(optarg, "always"))
                dest.rule_summary = 1;
            else if (!strcmp(optarg, "never"))
                dest.rule_summary = -1;
            else
                return cli_usage_error("report merge", "--rule-summary takes auto, always or "
                                       "never");
            break;
        case 'q': dest.quiet = 1; break;
        case 'h': help(); return EXIT_VALID;
        default: return cli_usage_error("report merge", "bad option");
        }
    }
    if (optind == argc)
        return cli_usage_error("report merge", "no shard report given (the JSON reports of "
                               "validate --shard K/N --report json)");
    if (cli_report_dest_check("report merge", &dest) != 0)
        return EXIT_TROUBLE;

    double start = now();
    tc_merge m;
    char err[1024];
    if (tc_merge_load(&m, (const char *const *)&argv[optind], (size_t)(argc - optind), err,
                      sizeof err) != 0) {
        fprintf(stderr, "tracecheck report merge: %s\n", err);
        tc_merge_free(&m);
        return EXIT_TROUBLE;
    }
    tc_report_set set;
    int status = m.totals.exit_status;
    if (tc_report_set_init(&set) != 0 || cli_reports_open(&set, &dest) != 0) {
        tc_report_totals none = {.exit_status = EXIT_TROUBLE};
        tc_report_set_close(&set, &none);
        status = EXIT_TROUBLE;
    } else {
        tc_merge_replay(&m, &set);
        m.totals.seconds = now() - start;
        tc_report_set_close(&set, &m.totals);
    }
    if (cli_reports_close(&dest) != 0)
        status = EXIT_TROUBLE;
    tc_merge_free(&m);
    return status;
}

int cmd_report(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return merge(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        help();
        return EXIT_VALID;
    }
    if (argc < 2)
        return cli_usage_error("report", "no subcommand: 'tracecheck report merge SHARD.json...'");
    return cli_usage_error("report", "unknown subcommand '%s' (merge)", argv[1]);
}
