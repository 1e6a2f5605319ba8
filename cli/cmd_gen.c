/* tracecheck gen: synthesise a trace, valid or breaking exactly one rule. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../generators/xray/xray_gen.h"
#include "../generators/xray/xray_mutate.h"
#include "cli.h"

static void help(void)
{
    puts("usage: tracecheck gen FORMAT [OPTIONS] -o FILE\n"
         "\n"
         "Synthesises a trace deterministically from a seed (same options, same bytes).\n"
         "With --violate RULE the trace breaks exactly that rule: tracecheck reports it\n"
         "and no other rule of error severity.\n"
         "\n"
         "  -o, --output FILE      where to write (- for standard output)\n"
         "      --seed N           the seed (default 1)\n"
         "      --size BYTES       about how large (default 64K; K, M, G suffixes)\n"
         "      --violate RULE     break this rule (see --list-mutators)\n"
         "      --list-mutators    the rules --violate can break, and how\n"
         "  -h, --help             this help\n"
         "\n"
         "xray:\n"
         "      --version V        file version 1 to 5 (default 5, or the highest version\n"
         "                         in which the --violate rule exists)\n"
         "      --threads T        threads whose buffers interleave (default 4)\n"
         "      --buffer-size B    per-thread buffer size in the header (default 16384)\n"
         "      --big-endian       write a big-endian trace (the FDR document's MSB-first\n"
         "                         layout; LLVM's reader does not read these)\n"
         "      --noisy-padding    version 1: random bytes after EndOfBuffer (never read;\n"
         "                         LLVM's reader parses them and fails) instead of zeros\n"
         "\n"
         "FORMAT: xray (the other formats follow).");
}

static int list_mutators(void)
{
    for (size_t i = 0; i < xray_mutator_count(); i++) {
        const xray_mutator *m = xray_mutator_at(i);
        char versions[16] = "";
        size_t n = 0;
        for (unsigned v = 1; v <= 5; v++)
            if (m->versions & XRAY_VERSION_BIT(v))
                n += (size_t)snprintf(versions + n, sizeof versions - n, "%s%u", n ? "," : "v", v);
        printf("%-34s %-12s %s\n", tc_rules[m->rule].id, versions, m->how);
    }
    return 0;
}

int cmd_gen(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, 's'},
        {"size", required_argument, NULL, 'z'},
        {"violate", required_argument, NULL, 'v'},
        {"list-mutators", no_argument, NULL, 'l'},
        {"version", required_argument, NULL, 'V'},
        {"threads", required_argument, NULL, 't'},
        {"buffer-size", required_argument, NULL, 'b'},
        {"big-endian", no_argument, NULL, 'B'},
        {"noisy-padding", no_argument, NULL, 'N'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    xray_gen_params p = {.seed = 1, .size = 64 << 10, .threads = 4};
    const char *output = NULL;
    int violate = -1, c;
    unsigned long long n;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 's':
            if (cli_parse_size(optarg, &n) != 0)
                return cli_usage_error("gen", "--seed needs a number");
            p.seed = n;
            break;
        case 'z':
            if (cli_parse_size(optarg, &n) != 0)
                return cli_usage_error("gen", "--size needs a number of bytes (K, M, G suffixes)");
            p.size = n;
            break;
        case 'v': {
            const tc_rule_info *r = tc_rule_find(optarg);
            if (!r)
                return cli_usage_error("gen", "no rule '%s' ('tracecheck rules' lists them)", optarg);
            violate = (int)tc_rule_index(r);
            break;
        }
        case 'l': return list_mutators();
        case 'V':
            if (cli_parse_size(optarg, &n) != 0 || n < 1 || n > 5)
                return cli_usage_error("gen", "--version takes 1 to 5");
            p.version = (unsigned)n;
            break;
        case 't':
            if (cli_parse_size(optarg, &n) != 0 || n < 1 || n > 65536)
                return cli_usage_error("gen", "--threads takes 1 to 65536");
            p.threads = (unsigned)n;
            break;
        case 'b':
            if (cli_parse_size(optarg, &n) != 0)
                return cli_usage_error("gen", "--buffer-size needs a number of bytes");
            p.buffer_size = n;
            break;
        case 'B': p.big_endian = 1; break;
        case 'N': p.noisy_padding = 1; break;
        case 'h': help(); return 0;
        default: return cli_usage_error("gen", "bad option");
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("gen", "name one format (xray)");
    tc_format f = cli_parse_format(argv[optind], 0);
    if (f == TC_FORMAT__COUNT)
        return EXIT_TROUBLE;
    if (f != TC_FORMAT_XRAY)
        return cli_usage_error("gen", "no generator for %s yet", tc_format_name(f));
    if (violate >= 0 && strcmp(tc_rules[violate].family, "XRAY") != 0)
        return cli_usage_error("gen", "%s is not an XRay rule", tc_rules[violate].id);
    if (!p.version)
        p.version = xray_default_version(violate);
    if (!output)
        return cli_usage_error("gen", "name the output with -o FILE (- for standard output)");

    FILE *out = stdout;
    if (strcmp(output, "-") != 0 && !(out = fopen(output, "wb"))) {
        perror(output);
        return EXIT_TROUBLE;
    }
    if (out == stdout && isatty(STDOUT_FILENO))
        return cli_usage_error("gen", "not writing a binary trace to a terminal");
    char err[256];
    xray_sink sink = {out, NULL};
    int rc = xray_generate(&p, violate, NULL, sink, NULL, err, sizeof err);
    if (out != stdout && fclose(out) != 0 && rc == 0) {
        perror(output);
        return EXIT_TROUBLE;
    }
    if (rc != 0) {
        fprintf(stderr, "tracecheck gen: %s\n", err);
        if (out != stdout)
            remove(output);
        return EXIT_TROUBLE;
    }
    return 0;
}
