/* tracecheck gen: synthesise a trace, valid or breaking exactly one rule. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../generators/dcfg/dcfg_gen.h"
#include "../generators/dcfg/dcfg_mutate.h"
#include "../generators/ovni/ovni_gen.h"
#include "../generators/ovni/ovni_mutate.h"
#include "../generators/xray/xray_basic_gen.h"
#include "../generators/xray/xray_basic_mutate.h"
#include "../generators/perf/perf_gen.h"
#include "../generators/perf/perf_mutate.h"
#include "../generators/xray/xray_gen.h"
#include "../generators/xray/xray_mutate.h"
#include "cli.h"

static void help(void)
{
    puts("usage: tracecheck gen FORMAT [OPTIONS] -o OUTPUT\n"
         "\n"
         "Synthesises a trace deterministically from a seed (same options, same bytes).\n"
         "With --violate RULE the trace breaks exactly that rule: tracecheck reports it\n"
         "and no other rule of error severity.\n"
         "\n"
         "  -o, --output OUTPUT    where to write: a file (- for standard output), or for\n"
         "                         ovni a directory (created; it must be empty)\n"
         "      --seed N           the seed (default 1)\n"
         "      --size BYTES       about how large (default 64K; K, M, G suffixes)\n"
         "      --violate RULE     break this rule (see --list-mutators)\n"
         "      --list-mutators    the rules --violate can break, and how (for FORMAT when\n"
         "                         one is named)\n"
         "      --big-endian       write big-endian streams\n"
         "  -h, --help             this help\n"
         "\n"
         "xray:\n"
         "      --mode M           fdr (Flight Data Recorder, the default) or basic (a\n"
         "                         basic-mode log; 'gen xray-basic' is the same)\n"
         "      --version V        file version 1 to 5, basic mode 1 to 3 (default 5 and\n"
         "                         3, or the highest version in which the --violate rule\n"
         "                         can be broken)\n"
         "      --threads T        threads whose buffers interleave (default 4)\n"
         "      --buffer-size B    per-thread buffer size (default 16384): in the FDR\n"
         "                         header; in basic mode the bytes of records a thread\n"
         "                         flushes at once (a multiple of 32)\n"
         "      --big-endian       the FDR document's MSB-first layout (LLVM's FDR reader\n"
         "                         does not read these)\n"
         "      --noisy-padding    FDR version 1: random bytes after EndOfBuffer (never\n"
         "                         read; LLVM's reader parses them and fails) instead of\n"
         "                         zeros\n"
         "\n"
         "ovni (a trace directory in libovni's layout, loom.L/proc.P/thread.T/):\n"
         "      --looms L          looms (machines), 1 to 64 (default 2)\n"
         "      --procs P          processes per loom, 1 to 256 (default 2)\n"
         "      --threads T        threads per process, 1 to 1024 (default 2)\n"
         "                         --size is the bytes of all stream.obs files together\n"
         "\n"
         "dcfg (a DCFG and its DCFG-trace: -o OUT writes OUT.dcfg.json and OUT.trace.json,\n"
         "      whose ids, counts and instruction counts agree):\n"
         "      --procs P          processes, 1 to 64 (default: 1 to 3, drawn)\n"
         "      --threads T        threads per process, 1 to 256 (default: 1 to 4, drawn)\n"
         "      --dcfg-size BYTES  about how large the DCFG (K, M, G suffixes): more\n"
         "                         images, routines, blocks, symbols and source lines,\n"
         "                         most never called (count 0); the trace stays --size\n"
         "                         --size is the bytes of the DCFG-trace; without\n"
         "                         --dcfg-size the DCFG grows slowly with it (0 gives a\n"
         "                         few routines and edges)\n"
         "\n"
         "perf (SiFive trace performance data: ITC writes of channel 6 from a simulated\n"
         "      run; a name ending in .itc picks the text container):\n"
         "      --count-type T     raw, delta or xor (delta XOR) (default: drawn from the\n"
         "                         seed)\n"
         "      --container C      rtd (Nexus Data Acquisition messages among other\n"
         "                         traffic, the default) or text (a message list)\n"
         "      --srcbits N        Nexus SRC field of N bits, 0 to 8 (default 0; validate\n"
         "                         with the same --srcbits)\n"
         "\n"
         "FORMAT: xray (xray-basic: --mode basic), ovni, dcfg (dcfg-trace is the same\n"
         "generator) or perf.");
}

static void list_xray(void)
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
}

static void list_xray_basic(int prefix)
{
    for (size_t i = 0; i < xray_basic_mutator_count(); i++) {
        const xray_basic_mutator *m = xray_basic_mutator_at(i);
        char versions[24] = "";
        size_t n = (size_t)snprintf(versions, sizeof versions, "%s", prefix ? "basic:" : "");
        for (unsigned v = 1; v <= 3; v++)
            if (m->versions & (1u << v))
                n += (size_t)snprintf(versions + n, sizeof versions - n, "%s%u",
                                      n > (prefix ? 6u : 0u) ? "," : "v", v);
        printf("%-34s %-12s %s\n", tc_rules[m->rule].id, versions, m->how);
    }
}

static void list_ovni(void)
{
    for (size_t i = 0; i < ovni_mutator_count(); i++) {
        const ovni_mutator *m = ovni_mutator_at(i);
        /* What it changes: a stream's events, its metadata, or the trace. */
        const char *what = m->header || m->event || m->end ? "stream.obs"
                           : m->meta || m->json           ? "stream.json"
                                                          : "trace";
        printf("%-34s %-12s %s\n", tc_rules[m->rule].id, what, m->how);
    }
}

static void list_dcfg(void)
{
    for (size_t i = 0; i < dcfg_mutator_count(); i++) {
        const dcfg_mutator *m = dcfg_mutator_at(i);
        printf("%-34s %-12s %s\n", tc_rules[m->rule].id, m->doc, m->how);
    }
}

static void list_perf(void)
{
    for (size_t i = 0; i < perf_mutator_count(); i++) {
        const perf_mutator *m = perf_mutator_at(i);
        const char *where = m->containers == PERF_IN_RTD    ? "rtd"
                            : m->containers == PERF_IN_TEXT ? "text"
                                                            : "rtd,text";
        printf("%-34s %-12s %s\n", tc_rules[m->rule].id, where, m->how);
    }
}

typedef struct gen_opts {
    const char *output;
    int violate;
    int big_endian;
    uint64_t seed, size;
    int seed_set, size_set;
    unsigned threads, looms, procs; /* 0: the format's default */
    unsigned version;
    uint64_t buffer_size;
    int noisy_padding;
    int basic;                      /* xray: --mode basic, or the format xray-basic */
    int xray_only, ovni_only;       /* an option only one format takes, for messages */
    int looms_set;                  /* --looms (ovni only; --procs is dcfg's too) */
    uint64_t dcfg_size;             /* --dcfg-size (dcfg only) */
    int dcfg_size_set;
    /* perf only; -1: not given */
    int perf_count_type, perf_container;
    unsigned srcbits;
    int perf_only;
} gen_opts;

static int gen_xray(const gen_opts *g)
{
    if (g->ovni_only)
        return cli_usage_error("gen", "--looms and --procs are ovni options");
    if (g->violate >= 0 && strcmp(tc_rules[g->violate].family, "XRAY") != 0)
        return cli_usage_error("gen", "%s is not an XRay rule", tc_rules[g->violate].id);
    if (g->basic && g->noisy_padding)
        return cli_usage_error("gen", "--noisy-padding is an FDR version 1 option");
    if (g->basic && g->version > 3)
        return cli_usage_error("gen", "basic-mode logs have versions 1 to 3");
    xray_gen_params p = {.seed = g->seed, .size = g->size, .version = g->version,
                         .threads = g->threads ? g->threads : 4, .buffer_size = g->buffer_size,
                         .big_endian = g->big_endian, .noisy_padding = g->noisy_padding};
    if (!p.version)
        p.version = g->basic ? xray_basic_default_version(g->violate)
                             : xray_default_version(g->violate);
    FILE *out = stdout;
    if (strcmp(g->output, "-") != 0 && !(out = fopen(g->output, "wb"))) {
        perror(g->output);
        return EXIT_TROUBLE;
    }
    if (out == stdout && isatty(STDOUT_FILENO))
        return cli_usage_error("gen", "not writing a binary trace to a terminal");
    char err[256];
    xray_sink sink = {out, NULL};
    xray_basic_params bp = {.seed = p.seed, .size = p.size, .version = p.version,
                            .threads = p.threads, .buffer_size = p.buffer_size,
                            .big_endian = p.big_endian};
    int rc = g->basic ? xray_basic_generate(&bp, g->violate, NULL, sink, NULL, err, sizeof err)
                      : xray_generate(&p, g->violate, NULL, sink, NULL, err, sizeof err);
    if (out != stdout && fclose(out) != 0 && rc == 0) {
        perror(g->output);
        return EXIT_TROUBLE;
    }
    if (rc != 0) {
        fprintf(stderr, "tracecheck gen: %s\n", err);
        if (out != stdout)
            remove(g->output);
        return EXIT_TROUBLE;
    }
    return 0;
}

static int gen_dcfg(const gen_opts *g)
{
    if (g->xray_only || g->looms_set || g->big_endian)
        return cli_usage_error("gen", "dcfg takes --procs, --threads, --seed, --size and "
                                      "--dcfg-size only");
    if (g->violate >= 0 && !dcfg_mutator_for((tc_rule_id)g->violate))
        return cli_usage_error("gen", "%s is not a rule a DCFG or DCFG-trace can break (see "
                                      "'tracecheck gen dcfg --list-mutators')",
                               tc_rules[g->violate].id);
    if (!strcmp(g->output, "-"))
        return cli_usage_error("gen", "dcfg writes two files: name their prefix with -o OUT");
    if (g->procs > DCFG_GEN_MAX_PROCS || g->threads > DCFG_GEN_MAX_THREADS)
        return cli_usage_error("gen", "dcfg takes at most %u processes of %u threads",
                               DCFG_GEN_MAX_PROCS, DCFG_GEN_MAX_THREADS);
    dcfg_gen_params p = {.seed = g->seed, .size = g->size, .procs = g->procs,
                         .threads = g->threads, .dcfg_size = g->dcfg_size};
    char err[300];
    dcfg_sink sink = {g->output, NULL};
    if (dcfg_generate(&p, g->violate, NULL, sink, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "tracecheck gen: %s\n", err);
        return EXIT_TROUBLE;
    }
    return 0;
}

static int gen_ovni(const gen_opts *g)
{
    if (g->xray_only)
        return cli_usage_error("gen", "--version, --buffer-size and --noisy-padding are xray "
                                      "options");
    if (g->violate >= 0 && !ovni_mutator_for((tc_rule_id)g->violate))
        return cli_usage_error("gen", "%s is not a rule an ovni trace can break (see "
                                      "'tracecheck gen ovni --list-mutators')",
                               tc_rules[g->violate].id);
    if (!strcmp(g->output, "-"))
        return cli_usage_error("gen", "an ovni trace is a directory: name it with -o DIR");
    ovni_gen_params p = {.seed = g->seed, .size = g->size, .looms = g->looms ? g->looms : 2,
                         .procs = g->procs ? g->procs : 2, .threads = g->threads ? g->threads : 2,
                         .big_endian = g->big_endian};
    char err[300];
    ovni_sink sink = {g->output, NULL};
    if (ovni_generate(&p, g->violate, NULL, sink, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "tracecheck gen: %s\n", err);
        return EXIT_TROUBLE;
    }
    return 0;
}

/* The container a file name asks for (spec/perf.md: .rtd Nexus, .itc
 * text), or -1. */
static int perf_container_of(const char *name)
{
    size_t n = strlen(name);
    if (n >= 4 && !strcmp(name + n - 4, ".itc"))
        return PERF_TEXT;
    if (n >= 4 && !strcmp(name + n - 4, ".rtd"))
        return PERF_RTD;
    return -1;
}

static int gen_perf(const gen_opts *g)
{
    if (g->xray_only || g->ovni_only || g->big_endian || g->threads || g->dcfg_size_set)
        return cli_usage_error("gen", "perf takes --seed, --size, --count-type, --container "
                                      "and --srcbits only");
    if (g->violate >= 0 && !perf_mutator_for((tc_rule_id)g->violate))
        return cli_usage_error("gen", "%s is not a rule perf data can break (see "
                                      "'tracecheck gen perf --list-mutators')",
                               tc_rules[g->violate].id);
    int container = g->perf_container;
    if (container < 0)
        container = perf_container_of(g->output);
    if (container < 0)
        container = perf_default_container(g->violate);
    FILE *out = stdout;
    if (strcmp(g->output, "-") != 0 && !(out = fopen(g->output, "wb"))) {
        perror(g->output);
        return EXIT_TROUBLE;
    }
    if (out == stdout && container == PERF_RTD && isatty(STDOUT_FILENO))
        return cli_usage_error("gen", "not writing a binary trace to a terminal");
    perf_gen_params p = {.seed = g->seed, .size = g->size, .count_type = g->perf_count_type,
                         .container = container, .srcbits = g->srcbits};
    char err[300];
    perf_sink sink = {out, NULL};
    int rc = perf_generate(&p, g->violate, sink, NULL, err, sizeof err);
    if (out != stdout && fclose(out) != 0 && rc == 0) {
        perror(g->output);
        return EXIT_TROUBLE;
    }
    if (rc != 0) {
        fprintf(stderr, "tracecheck gen: %s\n", err);
        if (out != stdout)
            remove(g->output);
        return EXIT_TROUBLE;
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
        {"looms", required_argument, NULL, 'L'},
        {"procs", required_argument, NULL, 'P'},
        {"buffer-size", required_argument, NULL, 'b'},
        {"big-endian", no_argument, NULL, 'B'},
        {"noisy-padding", no_argument, NULL, 'N'},
        {"dcfg-size", required_argument, NULL, 'D'},
        {"count-type", required_argument, NULL, 'C'},
        {"container", required_argument, NULL, 'K'},
        {"srcbits", required_argument, NULL, 'S'},
        {"mode", required_argument, NULL, 'M'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    gen_opts g = {.violate = -1, .seed = 1, .size = 64 << 10, .perf_count_type = -1,
                  .perf_container = -1};
    int list = 0, c;
    unsigned long long n;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': g.output = optarg; break;
        case 's':
            if (cli_parse_size(optarg, &n) != 0)
                return cli_usage_error("gen", "--seed needs a number");
            g.seed = n;
            break;
        case 'z':
            if (cli_parse_size(optarg, &n) != 0)
                return cli_usage_error("gen", "--size needs a number of bytes (K, M, G suffixes)");
            g.size = n;
            break;
        case 'v': {
            const tc_rule_info *r = tc_rule_find(optarg);
            if (!r)
                return cli_usage_error("gen", "no rule '%s' ('tracecheck rules' lists them)", optarg);
            g.violate = (int)tc_rule_index(r);
            break;
        }
        case 'l': list = 1; break;
        case 'V':
            if (cli_parse_size(optarg, &n) != 0 || n < 1 || n > 5)
                return cli_usage_error("gen", "--version takes 1 to 5");
            g.version = (unsigned)n;
            g.xray_only = 1;
            break;
        case 't':
            if (cli_parse_size(optarg, &n) != 0 || n < 1 || n > 65536)
                return cli_usage_error("gen", "--threads takes 1 to 65536");
            g.threads = (unsigned)n;
            break;
        case 'L':
        case 'P':
            if (cli_parse_size(optarg, &n) != 0 || n < 1 || n > 65536)
                return cli_usage_error("gen", "--%s takes a number from 1", c == 'L' ? "looms"
                                                                                     : "procs");
            *(c == 'L' ? &g.looms : &g.procs) = (unsigned)n;
            g.ovni_only = 1;
            g.looms_set |= c == 'L';
            break;
        case 'b':
            if (cli_parse_size(optarg, &n) != 0)
                return cli_usage_error("gen", "--buffer-size needs a number of bytes");
            g.buffer_size = n;
            g.xray_only = 1;
            break;
        case 'B': g.big_endian = 1; break;
        case 'N':
            g.noisy_padding = 1;
            g.xray_only = 1;
            break;
        case 'D':
            if (cli_parse_size(optarg, &n) != 0)
                return cli_usage_error("gen", "--dcfg-size needs a number of bytes (K, M, G "
                                              "suffixes)");
            g.dcfg_size = n;
            g.dcfg_size_set = 1;
            break;
        case 'C':
            if (!strcmp(optarg, "raw"))
                g.perf_count_type = PERF_COUNT_RAW;
            else if (!strcmp(optarg, "delta"))
                g.perf_count_type = PERF_COUNT_DELTA;
            else if (!strcmp(optarg, "xor"))
                g.perf_count_type = PERF_COUNT_XOR;
            else
                return cli_usage_error("gen", "--count-type takes raw, delta or xor");
            g.perf_only = 1;
            break;
        case 'K':
            if (!strcmp(optarg, "rtd"))
                g.perf_container = PERF_RTD;
            else if (!strcmp(optarg, "text"))
                g.perf_container = PERF_TEXT;
            else
                return cli_usage_error("gen", "--container takes rtd or text");
            g.perf_only = 1;
            break;
        case 'S':
            if (cli_parse_size(optarg, &n) != 0 || n > 8)
                return cli_usage_error("gen", "--srcbits takes 0 to 8");
            g.srcbits = (unsigned)n;
            g.perf_only = 1;
            break;
        case 'M':
            if (!strcmp(optarg, "basic"))
                g.basic = 1;
            else if (strcmp(optarg, "fdr") != 0)
                return cli_usage_error("gen", "--mode takes fdr or basic");
            g.xray_only = 1;
            break;
        case 'h': help(); return 0;
        default: return cli_usage_error("gen", "bad option");
        }
    }
    tc_format f = TC_FORMAT__COUNT;
    if (optind == argc - 1 && (f = cli_parse_format(argv[optind], 0)) == TC_FORMAT__COUNT)
        return EXIT_TROUBLE;
    if (f == TC_FORMAT_XRAY_BASIC) {
        f = TC_FORMAT_XRAY;
        g.basic = 1;
    }
    if (list) {
        if (f == TC_FORMAT_XRAY && g.basic)
            list_xray_basic(0);
        else if (f == TC_FORMAT_XRAY)
            list_xray();
        if (f == TC_FORMAT__COUNT) {
            list_xray();
            list_xray_basic(1);
        }
        if (f == TC_FORMAT__COUNT || f == TC_FORMAT_OVNI)
            list_ovni();
        if (f == TC_FORMAT__COUNT || f == TC_FORMAT_DCFG || f == TC_FORMAT_DCFG_TRACE)
            list_dcfg();
        if (f == TC_FORMAT__COUNT || f == TC_FORMAT_PERF)
            list_perf();
        return 0;
    }
    if (optind != argc - 1)
        return cli_usage_error("gen", "name one format (xray, ovni, dcfg or perf)");
    if (f == TC_FORMAT_PERF) {
        if (!g.output)
            return cli_usage_error("gen", "name the output with -o FILE (- for standard output)");
        return gen_perf(&g);
    }
    if (g.perf_only)
        return cli_usage_error("gen", "--count-type, --container and --srcbits are perf options");
    if (f == TC_FORMAT_DCFG || f == TC_FORMAT_DCFG_TRACE) {
        if (!g.output)
            return cli_usage_error("gen", "name the output with -o OUT (OUT.dcfg.json and "
                                          "OUT.trace.json)");
        return gen_dcfg(&g);
    }
    if (g.dcfg_size_set)
        return cli_usage_error("gen", "--dcfg-size is a dcfg option");
    if (f != TC_FORMAT_XRAY && f != TC_FORMAT_OVNI)
        return cli_usage_error("gen", "no generator for %s yet", tc_format_name(f));
    if (!g.output)
        return cli_usage_error("gen", "name the output with -o %s",
                               f == TC_FORMAT_OVNI ? "DIR" : "FILE (- for standard output)");
    return f == TC_FORMAT_OVNI ? gen_ovni(&g) : gen_xray(&g);
}
