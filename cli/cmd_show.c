/* tracecheck show: the bytes behind a finding, field by field (show.h). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../parsers/common/show.h"
#include "cli.h"

static void help(void)
{
    puts("usage: tracecheck show [OPTIONS] (--at OFFSET | --record N) PATH\n"
         "\n"
         "Prints the records of one trace around a byte offset (as findings give it)\n"
         "or a record number, split into their fields: each with its bytes (offset and\n"
         "hex for binary formats; line:column and the text for JSON and text), its\n"
         "name as spec/ gives it and its decoded value. The format's own parser draws\n"
         "it: what it shows is what validate read. The record that holds the offset\n"
         "is marked '>'. Records are numbered from 0 in file order (an ovni stream\n"
         "file on its own: its header, then its events).\n"
         "");
    puts("      --at OFFSET      the record that holds byte OFFSET (decimal, or hex\n"
         "                       with 0x), as in a finding's PATH:OFFSET\n"
         "      --length N       with --at: the records that hold N bytes from OFFSET\n"
         "      --record N       record number N (from 0)\n"
         "  -C, --context N      records shown before and after (default 1)");
    cli_help_formats("  -f, --format FORMAT  ", "auto (default), ", "");
    cli_format_options_help();
    puts("  -h, --help           this help\n"
         "\n"
         "Exit status: 0 when the view was drawn, 2 on a usage or I/O error.");
}

/* A number as the findings print them: decimal or 0x hex. */
static int number(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

int cmd_show(int argc, char **argv)
{
    enum { OPT_AT = 0x300, OPT_LENGTH, OPT_RECORD };
    static const struct option options[] = {
        {"at", required_argument, NULL, OPT_AT},
        {"length", required_argument, NULL, OPT_LENGTH},
        {"record", required_argument, NULL, OPT_RECORD},
        {"context", required_argument, NULL, 'C'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[sizeof options / sizeof options[0] + 64];
    memcpy(longopts, options, sizeof options);
    cli_format_longopts(longopts, sizeof options / sizeof options[0] - 1,
                        sizeof longopts / sizeof longopts[0]);
    tc_options opt = TC_OPTIONS_INIT;
    tc_show_target t = {0};
    int have_at = 0, have_record = 0;
    uint64_t context = TC_SHOW_CONTEXT;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "C:f:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_AT:
            if (number(optarg, &t.at) != 0)
                return cli_usage_error("show", "--at expects a byte offset, not '%s'", optarg);
            have_at = 1;
            break;
        case OPT_LENGTH:
            if (number(optarg, &t.len) != 0)
                return cli_usage_error("show", "--length expects a byte count, not '%s'", optarg);
            break;
        case OPT_RECORD:
            if (number(optarg, &t.record) != 0)
                return cli_usage_error("show", "--record expects a record number, not '%s'",
                                       optarg);
            have_record = 1;
            break;
        case 'C':
            if (number(optarg, &context) != 0 || context > 1000)
                return cli_usage_error("show", "--context expects 0 to 1000 records, not '%s'",
                                       optarg);
            break;
        case 'f':
            if ((opt.format = cli_parse_format(optarg, 1)) == TC_FORMAT__COUNT)
                return EXIT_TROUBLE;
            break;
        case 'h': help(); return 0;
        default:
            if (c < CLI_FORMAT_OPTION)
                return cli_usage_error("show", "bad option");
            if (cli_format_option("show", c, optarg, &opt) != 0)
                return EXIT_TROUBLE;
            break;
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("show", "exactly one input is needed");
    if (have_at == have_record)
        return cli_usage_error("show", "one of --at OFFSET and --record N is needed");
    t.by_record = have_record;
    const char *path = argv[optind];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_usage_error("show", "%s is a directory: name one file of the trace (an ovni "
                               "stream's stream.obs or stream.json, as findings do)", path);
    tc_check_opts copts = {.options = &opt};
    tc_error err = TC_ERROR_INIT;
    if (tc_show(path, NULL, &copts, (unsigned)context, &t, 1, &err) != 0) {
        char why[300];
        tc_error_format(&err, why, sizeof why);
        tc_error_free(&err);
        fprintf(stderr, "tracecheck show: %s: %s\n", path, why);
        return EXIT_TROUBLE;
    }
    if (have_record)
        printf("%s: record %" PRIu64 "\n", path, t.record);
    else
        printf("%s: byte %" PRIu64 " (0x%" PRIx64 ")\n", path, t.at, t.at);
    fputs(t.view ? t.view : "", stdout);
    free(t.view);
    return EXIT_VALID;
}
