/* tracecheck dump: the canonical dump (spec/canonical-dump.md) on stdout. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/check.h"
#include "../reports/report.h"
#include "cli.h"

static void help(void)
{
    puts("usage: tracecheck dump [OPTIONS] PATH\n"
         "\n"
         "Writes the canonical dump of one trace: one JSON object per line, the same\n"
         "schema for every implementation, 64-bit values as decimal strings\n"
         "(spec/canonical-dump.md). Findings go to standard error as with validate;\n"
         "the dump goes on after errors wherever the parser can.\n"
         "");
    cli_help_formats("  -f, --format FORMAT  ", "auto (default), ", "");
    puts("  -o, --output FILE    write the dump to FILE instead of standard output\n"
         "      --pedantic       also report pedantic notes");
    cli_format_options_help();
    puts("  -h, --help           this help\n"
         "\n"
         "Exit status: as validate (0 valid, 1 findings, 2 usage or I/O error).");
}

int cmd_dump(int argc, char **argv)
{
    static const struct option options[] = {
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"pedantic", no_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[sizeof options / sizeof options[0] + 64];
    memcpy(longopts, options, sizeof options);
    cli_format_longopts(longopts, sizeof options / sizeof options[0] - 1,
                        sizeof longopts / sizeof longopts[0]);
    tc_options opt = TC_OPTIONS_INIT;
    const char *output = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if ((opt.format = cli_parse_format(optarg, 1)) == TC_FORMAT__COUNT)
                return EXIT_TROUBLE;
            break;
        case 'o': output = optarg; break;
        case 'p': opt.pedantic = 1; break;
        case 'h': help(); return 0;
        default:
            if (c < CLI_FORMAT_OPTION)
                return cli_usage_error("dump", "bad option");
            if (cli_format_option("dump", c, optarg, &opt) != 0)
                return EXIT_TROUBLE;
            break;
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("dump", "exactly one input is needed");
    const char *path = argv[optind];
    FILE *out = stdout;
    if (output && !(out = fopen(output, "w"))) {
        perror(output);
        return EXIT_TROUBLE;
    }
    static char buf[1 << 16];
    setvbuf(out, buf, _IOFBF, sizeof buf);

    tc_report_writer *w = tc_report_open(TC_REPORT_TEXT, stderr, NULL);
    if (!w)
        return EXIT_TROUBLE;
    opt.on_diag = tc_report_on_diag;
    opt.user = w;
    tc_check_opts copts = {.options = &opt, .dump = out};
    tc_error err = TC_ERROR_INIT;
    tc_summary sum;
    int rc = tc_check_path(path, &copts, &sum, &err);
    char why[300];
    tc_error_format(&err, why, sizeof why);
    tc_error_free(&err);
    w->input_end(w, path, rc, &sum, why);
    free(w); /* no summary line: the dump is the output */
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0)) {
        perror(output ? output : "stdout");
        return EXIT_TROUBLE;
    }
    return rc;
}
