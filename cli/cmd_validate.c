/* tracecheck validate: every input through its parser, findings to a report.
 * DCFG-traces are checked against their DCFG (spec/dcfg.md, rulings 13 and
 * 20): the one given with --pair, or the one found next to them by name. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/common/check.h"
#include "../parsers/dcfg/dtrc_pair.h"
#include "../reports/report.h"
#include "cli.h"
#include "perf_opts.h"
#include "progress.h"

static void help(void)
{
    puts("usage: tracecheck validate [OPTIONS] PATH... [--pair DCFG TRACE...]...\n"
         "\n"
         "Checks each input against its format's rules and reports every finding as\n"
         "  PATH:OFFSET: error: RULE-ID: message with the offending values\n"
         "with the context (buffer, thread) on the line below and a summary at the end.\n"
         "\n"
         "  -f, --format FORMAT  auto (default: detect by content), xray, perf, dcfg,\n"
         "                       dcfg-trace, ovni\n"
         "      --pair DCFG      check the DCFG-traces named after it (up to the next\n"
         "                       --pair) against DCFG: the DCFG is validated and reported\n"
         "                       under its own name, then each trace gets the DTRC-PAIR-*\n"
         "                       checks (process, thread, edges, joins, instruction counts)\n"
         "      --no-pair        no automatic pairing (below)\n"
         "      --report KIND    text (default) or json\n"
         "  -o, --output FILE    write the report to FILE instead of standard output\n"
         "      --pedantic       also report pedantic notes (non-zero reserved bytes ...)\n"
         "      --max-repeats N  findings of one rule shown per input (default 20); the\n"
         "                       rest are counted and summarised\n"
         "      --no-models      ovni: skip the model layer (ovni's own events)\n"
         CLI_PERF_HELP
         "      --color WHEN     auto (default: on a terminal), always, never\n"
         "  -q, --quiet          text: only the summary line\n"
         "  -h, --help           this help\n"
         "\n"
         "PATH is a file, - for standard input, or a directory: an ovni trace when a\n"
         "stream.json lies below it, when it holds loom.* directories or is named ovni,\n"
         "or with --format ovni; else it is searched recursively for inputs (files and\n"
         "such traces), and finding none is an error.\n"
         "gzip, bzip2 and zstd inputs are decompressed on the fly.\n"
         "Automatic pairing: a DCFG-trace NAME.trace.json (or .trace.json.bz2, .gz, .zst)\n"
         "without --pair is checked against NAME.dcfg.json (or .bz2, .gz, .zst) when that\n"
         "file exists, else against the DCFG found by dropping the last dot-separated\n"
         "parts of NAME one at a time (log_0.T1.trace.json.bz2 -> log_0.dcfg.json.bz2).\n"
         "A DCFG that is also an input is validated once.\n"
         "Exit status: 0 every input valid (warnings allowed), 1 at least one\n"
         "error-severity finding, 2 usage or I/O error (a --pair DCFG that cannot be\n"
         "read included).\n"
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

/* ---- pairing plan ---- */

/* A DCFG that traces are paired with. */
typedef struct dcfg_slot {
    char *path;
    int has_id;
    dev_t dev;
    ino_t ino;
    int done;     /* validated and reported */
    size_t users; /* traces still to check against it */
    int given;    /* named with --pair (its failure to open is a usage matter) */
    tc_dcfg_model *model;
} dcfg_slot;

/* One input after directory expansion. */
typedef struct item {
    int pair;     /* slot of its DCFG, or -1 */
    int explicit; /* paired by --pair */
    int slot;     /* the slot this input is, or -1 */
} item;

typedef struct plan {
    dcfg_slot *slots;
    size_t nslots, capslots;
    item *items;
    size_t nitems, capitems;
} plan;

static int same_file(const dcfg_slot *s, const char *path)
{
    struct stat st;
    if (s->has_id && stat(path, &st) == 0)
        return st.st_dev == s->dev && st.st_ino == s->ino;
    return strcmp(s->path, path) == 0;
}

static int find_slot(const plan *p, const char *path)
{
    for (size_t i = 0; i < p->nslots; i++)
        if (same_file(&p->slots[i], path))
            return (int)i;
    return -1;
}

/* The slot of the DCFG at path, added when new; -1 when out of memory. */
static int slot_for(plan *p, const char *path, int given)
{
    int i = find_slot(p, path);
    if (i >= 0) {
        p->slots[i].given |= given;
        return i;
    }
    if (p->nslots == p->capslots) {
        size_t cap = p->capslots ? p->capslots * 2 : 8;
        dcfg_slot *s = realloc(p->slots, cap * sizeof *s);
        if (!s)
            return -1;
        p->slots = s;
        p->capslots = cap;
    }
    dcfg_slot *s = &p->slots[p->nslots];
    memset(s, 0, sizeof *s);
    if (!(s->path = strdup(path)))
        return -1;
    struct stat st;
    if (stat(path, &st) == 0) {
        s->has_id = 1;
        s->dev = st.st_dev;
        s->ino = st.st_ino;
    }
    s->given = given;
    return (int)p->nslots++;
}

static int add_items(plan *p, size_t n, int pair)
{
    if (p->nitems + n > p->capitems) {
        size_t cap = p->capitems ? p->capitems : 16;
        while (cap < p->nitems + n)
            cap *= 2;
        item *it = realloc(p->items, cap * sizeof *it);
        if (!it)
            return -1;
        p->items = it;
        p->capitems = cap;
    }
    for (size_t i = 0; i < n; i++)
        p->items[p->nitems++] = (item){pair, pair >= 0, -1};
    return 0;
}

static void plan_free(plan *p)
{
    for (size_t i = 0; i < p->nslots; i++) {
        free(p->slots[i].path);
        tc_dcfg_model_free(p->slots[i].model);
    }
    free(p->slots);
    free(p->items);
}

/* ---- running the inputs ---- */

typedef struct runner {
    tc_report_writer *w;
    tc_options *opt;
    tc_report_totals totals;
    cli_progress progress;
    int status;
} runner;

enum { RUN_CHECK, RUN_LOAD_DCFG, RUN_PAIRED };

/* Checks one input the way mode says and reports it as one input. */
static void run_input(runner *u, const char *path, int mode, dcfg_slot *slot, int explicit)
{
    char err[400] = "";
    tc_summary sum = {0};
    tc_check_opts copts = {.options = u->opt};
    cli_progress_begin(&u->progress, path);
    copts.progress = cli_progress_update;
    copts.progress_user = &u->progress;
    u->w->input_begin(u->w, path);
    int rc, paired = 0;
    if (mode == RUN_LOAD_DCFG) {
        rc = tc_dtrc_load_dcfg(path, &copts, &slot->model, &sum, err, sizeof err);
        if (rc == 2) {
            size_t n = strlen(err);
            snprintf(err + n, sizeof err - n, " (the DCFG %s)",
                     slot->given ? "given with --pair" : "paired by name");
        }
    } else if (mode == RUN_PAIRED) {
        rc = tc_dtrc_check_paired(path, slot->model, slot->path, &copts, &sum, &paired, err,
                                  sizeof err);
    } else {
        rc = tc_check_path(path, &copts, &sum, err, sizeof err);
    }
    cli_progress_end(&u->progress);
    u->w->input_end(u->w, path, rc, &sum, err);
    if (mode == RUN_PAIRED && explicit && slot->model && !paired && rc != 2)
        fprintf(stderr, "tracecheck: %s is not a DCFG-trace (%s): not paired with %s\n", path,
                sum.format == TC_FORMAT_AUTO ? "no known format" : tc_format_name(sum.format),
                slot->path);
    u->totals.inputs++;
    u->totals.errors += sum.errors;
    u->totals.warnings += sum.warnings;
    u->totals.notes += sum.notes;
    u->totals.bytes += sum.bytes;
    if (rc == 0)
        u->totals.valid++;
    else if (rc == 1)
        u->totals.invalid++;
    else
        u->totals.unreadable++;
    if (rc > u->status)
        u->status = rc;
}

static void load_slot(runner *u, dcfg_slot *s)
{
    if (s->done)
        return;
    s->done = 1;
    run_input(u, s->path, RUN_LOAD_DCFG, s, 0);
}

/* Every input in order; a DCFG is validated where it is first needed, as
 * an input of its own or before its first trace, and freed after its last. */
static void run_plan(runner *u, plan *p, const cli_paths *paths)
{
    for (size_t i = 0; i < paths->count; i++) {
        const item *it = &p->items[i];
        if (it->slot >= 0) {
            load_slot(u, &p->slots[it->slot]);
        } else if (it->pair >= 0) {
            dcfg_slot *s = &p->slots[it->pair];
            load_slot(u, s);
            run_input(u, paths->items[i], RUN_PAIRED, s, it->explicit);
            if (--s->users == 0) {
                tc_dcfg_model_free(s->model);
                s->model = NULL;
            }
        } else {
            run_input(u, paths->items[i], RUN_CHECK, NULL, 0);
        }
    }
}

/* Automatic pairing, then which inputs are DCFGs of the plan. */
static int complete_plan(plan *p, const cli_paths *paths, int autopair, const tc_options *opt)
{
    tc_check_opts copts = {.options = opt};
    char dcfg[4096];
    for (size_t i = 0; autopair && i < paths->count; i++) {
        item *it = &p->items[i];
        if (it->pair < 0 && tc_dtrc_find_dcfg(paths->items[i], dcfg, sizeof dcfg) &&
            tc_dtrc_is_trace(paths->items[i], &copts) && (it->pair = slot_for(p, dcfg, 0)) < 0)
            return -1;
    }
    for (size_t i = 0; i < paths->count; i++) {
        item *it = &p->items[i];
        if ((it->slot = find_slot(p, paths->items[i])) >= 0)
            it->pair = -1; /* a DCFG is not a trace to pair */
        else if (it->pair >= 0)
            p->slots[it->pair].users++;
    }
    return 0;
}

static int run(char **args, const int *group, int nargs, const char **pairs, int npairs,
               int autopair, tc_options *opt, tc_report_kind kind, const char *output,
               const char *color, int quiet)
{
    FILE *out = stdout;
    if (output && !(out = fopen(output, "w"))) {
        perror(output);
        return EXIT_TROUBLE;
    }
    tc_report_opts ropts = {0};
    ropts.color = !strcmp(color, "always") ||
                  (!strcmp(color, "auto") && !output && isatty(fileno(out)) && !getenv("NO_COLOR"));
    runner u = {.opt = opt, .status = EXIT_VALID};
    if (!(u.w = tc_report_open(kind, out, &ropts))) {
        if (out != stdout)
            fclose(out);
        return EXIT_TROUBLE;
    }
    opt->on_diag = quiet && kind == TC_REPORT_TEXT ? quiet_diag : tc_report_on_diag;
    opt->user = u.w;

    plan p = {0};
    cli_paths paths = {0};
    int *pslot = calloc((size_t)npairs + 1, sizeof *pslot);
    int trouble = !pslot;
    for (int k = 0; !trouble && k < npairs; k++)
        trouble = (pslot[k] = slot_for(&p, pairs[k], 1)) < 0;
    /* One argument at a time, so that each input keeps its --pair. */
    for (int i = 0; !trouble && i < nargs; i++) {
        size_t before = paths.count;
        if (cli_expand_paths(&paths, &args[i], 1, opt->format == TC_FORMAT_OVNI))
            u.status = EXIT_TROUBLE;
        trouble = add_items(&p, paths.count - before, group[i] >= 0 ? pslot[group[i]] : -1) != 0;
    }
    if (trouble || complete_plan(&p, &paths, autopair, opt) != 0) {
        fprintf(stderr, "tracecheck: out of memory\n");
        u.status = EXIT_TROUBLE;
    } else {
        cli_progress_init(&u.progress);
        double start = now();
        run_plan(&u, &p, &paths);
        u.totals.seconds = now() - start;
    }
    u.w->close(u.w, &u.totals);
    free(pslot);
    plan_free(&p);
    cli_paths_free(&paths);
    if (out != stdout && fclose(out) != 0) {
        perror(output);
        return EXIT_TROUBLE;
    }
    return u.status;
}

int cmd_validate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"pair", required_argument, NULL, 'P'},
        {"no-pair", no_argument, NULL, 'N'},
        {"report", required_argument, NULL, 'r'},
        {"output", required_argument, NULL, 'o'},
        {"pedantic", no_argument, NULL, 'p'},
        {"max-repeats", required_argument, NULL, 'm'},
        {"no-models", no_argument, NULL, 'M'},
        {"color", required_argument, NULL, 'c'},
        {"colour", required_argument, NULL, 'c'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        CLI_PERF_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tc_options opt = TC_OPTIONS_INIT;
    tc_report_kind kind = TC_REPORT_TEXT;
    const char *output = NULL, *color = "auto";
    int quiet = 0, c, autopair = 1;
    unsigned long long n;
    /* The inputs in order, each with the --pair before it (the leading '-'
     * of the option string keeps them in order: they come as option 1). */
    char **args = calloc((size_t)argc + 1, sizeof *args);
    const char **pairs = calloc((size_t)argc + 1, sizeof *pairs);
    int nargs = 0, npairs = 0, *group = calloc((size_t)argc + 1, sizeof *group);
    int status = EXIT_TROUBLE;
    const char *current = NULL, *empty_pair = NULL;
    if (!args || !pairs || !group)
        goto done;
    optind = 1;
    while ((c = getopt_long(argc, argv, "-f:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 1:
            group[nargs] = current ? npairs - 1 : -1;
            args[nargs++] = optarg;
            empty_pair = NULL;
            break;
        case 'f':
            if ((opt.format = cli_parse_format(optarg, 1)) == TC_FORMAT__COUNT)
                goto done;
            break;
        case 'P':
            if (empty_pair) {
                status = cli_usage_error("validate", "--pair %s is followed by no input",
                                         empty_pair);
                goto done;
            }
            pairs[npairs++] = current = empty_pair = optarg;
            break;
        case 'N': autopair = 0; break;
        case 'r':
            if ((kind = tc_report_kind_from_name(optarg)) == TC_REPORT__COUNT) {
                status = cli_usage_error("validate", "unknown report '%s' (text, json)", optarg);
                goto done;
            }
            break;
        case 'o': output = optarg; break;
        case 'p': opt.pedantic = 1; break;
        case 'M': opt.no_models = 1; break;
        case 'm':
            if (cli_parse_size(optarg, &n) != 0 || n == 0 || n > 1000000) {
                status = cli_usage_error("validate",
                                         "--max-repeats needs a number from 1 to 1000000");
                goto done;
            }
            opt.max_repeats = (unsigned)n;
            break;
        case 'c':
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
                status = cli_usage_error("validate", "--color takes auto, always or never");
                goto done;
            }
            color = optarg;
            break;
        case 'q': quiet = 1; break;
        case 'h':
            help();
            status = EXIT_VALID;
            goto done;
        case CLI_OPT_SRCBITS:
        case CLI_OPT_PERF_CHANNEL:
        case CLI_OPT_PERF_MARKER:
        case CLI_OPT_CONTAINER:
            if (cli_perf_option("validate", c, optarg, &opt) != 0)
                goto done; /* status is EXIT_TROUBLE */
            break;
        default: status = cli_usage_error("validate", "bad option"); goto done;
        }
    }
    for (; optind < argc; optind++) { /* after "--" */
        group[nargs] = current ? npairs - 1 : -1;
        args[nargs++] = argv[optind];
        empty_pair = NULL;
    }
    if (empty_pair) {
        status = cli_usage_error("validate", "--pair %s is followed by no input", empty_pair);
        goto done;
    }
    if (nargs == 0) {
        status = cli_usage_error("validate", "no input given");
        goto done;
    }
    if (npairs && opt.format != TC_FORMAT_AUTO && opt.format != TC_FORMAT_DCFG_TRACE) {
        status = cli_usage_error("validate", "--pair pairs DCFG-traces: it needs --format auto "
                                 "or dcfg-trace, not %s", tc_format_name(opt.format));
        goto done;
    }
    autopair &= opt.format == TC_FORMAT_AUTO || opt.format == TC_FORMAT_DCFG_TRACE;
    status = run(args, group, nargs, pairs, npairs, autopair, &opt, kind, output, color, quiet);
done:
    free(args);
    free(pairs);
    free(group);
    return status;
}
