/* tracecheck validate: every input through its parser, findings to one or
 * more reports (docs/reports.md). An input of a format that takes a
 * companion (a DCFG-trace: its DCFG, spec/dcfg/dcfg.md, rulings 13 and 20) is
 * checked against the one given with --pair, or the one found next to it by
 * name. With -j N the inputs are checked in N threads; their findings are
 * kept and reported in input order, so the reports do not depend on N.
 * With --shard K/N only the inputs of shard K are checked and reported
 * (cli/shard.c); `tracecheck report merge` joins the shards' JSON reports. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/common/check.h"
#include "../parsers/common/split.h"
#include "../reports/report.h"
#include "cli.h"
#include "progress.h"

/* The format whose inputs --pair pairs: the first that takes a companion. */
static const tc_format_ops *pairing_format(void)
{
    for (size_t i = 0; tc_format_at(i); i++)
        if (tc_format_at(i)->companion)
            return tc_format_at(i);
    return NULL;
}

static void help(void)
{
    const tc_format_ops *pf = pairing_format();
    printf("usage: tracecheck validate [OPTIONS] PATH...");
    if (pf)
        printf(" [--pair %s...]...", pf->companion->usage);
    puts("\n"
         "\n"
         "Checks each input against its format's rules and reports every finding as\n"
         "  PATH:OFFSET: error: RULE-ID: message with the offending values\n"
         "with the context (buffer, thread) on the line below and a summary at the end.\n");
    cli_help_formats("  -f, --format FORMAT  ", "auto (default: detect by content), ", "");
    if (pf) {
        char column[64];
        snprintf(column, sizeof column, "--pair %.*s", (int)strcspn(pf->companion->usage, " "),
                 pf->companion->usage);
        printf("      %-16s %s", column, pf->companion->help_option);
        puts("      --no-pair        no automatic pairing (below)");
    }
    puts("      --report KIND    text (default), json, junit (JUnit XML), sarif (SARIF\n"
         "                       2.1.0), tap (TAP 14), markdown (a CI job summary) or\n"
         "                       html (one self-contained page); repeatable or\n"
         "                       comma-separated with --report-dir, else one kind\n"
         "                       (docs/reports.md)\n"
         "  -o, --output FILE    write the report to FILE instead of standard output\n"
         "      --report-dir DIR write DIR/validate.{txt,json,xml,sarif,tap,md,html} (the\n"
         "                       kinds of --report, all seven without it; DIR is created\n"
         "                       if need be); the text report still goes to standard\n"
         "                       output\n"
         "      --docs-uri URI   sarif, markdown, html: base URI of the documentation that\n"
         "                       rule links point into (URI/docs/rules/FORMAT.md#RULE-ID;\n"
         "                       default: the source tree tracecheck was built from)\n"
         "      --fail-on SEV    error (default): exit 1 when an input has an error;\n"
         "                       warning: also when one has a warning\n"
         "  -j, --jobs N         threads (default: one per CPU): over the inputs, and\n"
         "                       within a large XRay trace or ovni trace (its buffers,\n"
         "                       records or streams shared out); the reports are the\n"
         "                       same for every N (no progress line when inputs are\n"
         "                       checked at once)\n"
         "      --shard K/N      check only shard K of N (1 <= K <= N): the inputs whose\n"
         "                       path hashes to K (FNV-1a 64 modulo N), a DCFG-trace\n"
         "                       with its DCFG; the same on every machine; join the\n"
         "                       shards' JSON reports with 'tracecheck report merge'\n"
         "      --split-min SIZE the smallest part of one input a thread takes (default\n"
         "                       32M; K, M, G suffixes); 0: one thread per input\n"
         "      --pedantic       also report pedantic notes (non-zero reserved bytes ...)\n"
         "      --max-repeats N  findings of one rule shown per input (default 20); the\n"
         "                       rest are counted and summarised");
    cli_format_options_help();
    puts("      --color WHEN     auto (default: on a terminal), always, never\n"
         "      --rule-summary WHEN  text: the per-rule summary before the summary line:\n"
         "                       auto (default: with -q, or past 20 findings), always,\n"
         "                       never (the other reports always carry it)\n"
         "  -q, --quiet          text: no finding lines, only the per-rule summary and\n"
         "                       the summary line\n"
         "      --show[=N]       text, html: under each of the first N findings of an\n"
         "                       input (default 3), the records around it field by\n"
         "                       field, as 'tracecheck show --at OFFSET' prints them\n"
         "  -h, --help           this help\n");
    printf("PATH is a file, - for standard input, or a directory: ");
    for (size_t i = 0, n = 0; tc_format_at(i); i++)
        if (tc_format_at(i)->dir)
            printf("%s%s", n++ ? "; or " : "", tc_format_at(i)->dir->help);
    puts("; else it is searched recursively for inputs (files and\n"
         "such traces), and finding none is an error.\n"
         "gzip, bzip2 and zstd inputs are decompressed on the fly.");
    if (pf)
        fputs(pf->companion->help, stdout);
    printf("Every report ends with a summary per rule: how many inputs broke it, how many\n"
           "findings, where the first few are (most severe, then most frequent first).\n"
           "Exit status: 0 every input valid (warnings allowed, unless --fail-on\n"
           "warning), 1 at least one error-severity finding (or warning, with --fail-on\n"
           "warning), 2 usage or I/O error (a --pair %.*s that cannot be read included).\n"
           "Rules: 'tracecheck rules', docs/rules/.\n",
           pf ? (int)strcspn(pf->companion->usage, " ") : 4, pf ? pf->companion->usage : "file");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- pairing plan ---- */

/* A companion that inputs are paired with (a DCFG for its DCFG-traces). */
typedef struct comp_slot {
    char *path;
    int has_id;
    dev_t dev;
    ino_t ino;
    int planned;  /* a job validates it (it is validated once) */
    int loaded;   /* that job has finished: its model may be used */
    size_t users; /* inputs still to check against it */
    int given;    /* named with --pair (its failure to open is a usage matter) */
    tc_companion comp; /* comp.pairing: the format of the inputs paired with it */
} comp_slot;

/* One input after directory expansion. */
typedef struct item {
    int pair;     /* slot of its companion, or -1 */
    int explicit; /* paired by --pair */
    int slot;     /* the slot this input is, or -1 */
} item;

typedef struct plan {
    comp_slot *slots;
    size_t nslots, capslots;
    item *items;
    size_t nitems, capitems;
} plan;

static int same_file(const comp_slot *s, const char *path)
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

/* The slot of the companion at path of inputs of format pairing, added
 * when new; -1 when out of memory. */
static int slot_for(plan *p, const char *path, int given, const tc_format_ops *pairing)
{
    int i = find_slot(p, path);
    if (i >= 0) {
        p->slots[i].given |= given;
        return i;
    }
    if (p->nslots == p->capslots) {
        size_t cap = p->capslots ? p->capslots * 2 : 8;
        comp_slot *s = realloc(p->slots, cap * sizeof *s);
        if (!s)
            return -1;
        p->slots = s;
        p->capslots = cap;
    }
    comp_slot *s = &p->slots[p->nslots];
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
    s->comp = (tc_companion){pairing, s->path, NULL};
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
        tc_companion_free(&p->slots[i].comp);
        free(p->slots[i].path);
    }
    free(p->slots);
    free(p->items);
}

/* Automatic pairing, then which inputs are companions of the plan. */
static int complete_plan(plan *p, const cli_paths *paths, int autopair, const tc_options *opt)
{
    tc_check_opts copts = {.options = opt};
    char companion[4096];
    const tc_format_ops *f;
    for (size_t i = 0; autopair && i < paths->count; i++) {
        item *it = &p->items[i];
        if (it->pair < 0 &&
            (f = tc_companion_find(paths->items[i], &copts, companion, sizeof companion)) &&
            (it->pair = slot_for(p, companion, 0, f)) < 0)
            return -1;
    }
    for (size_t i = 0; i < paths->count; i++) {
        item *it = &p->items[i];
        if ((it->slot = find_slot(p, paths->items[i])) >= 0)
            it->pair = -1; /* a companion is not an input to pair */
        else if (it->pair >= 0)
            p->slots[it->pair].users++;
    }
    return 0;
}
/* ---- the jobs ---- */

enum { RUN_CHECK, RUN_LOAD_COMPANION, RUN_PAIRED };

/* One input to check and report, in report order, and its outcome. */
typedef struct job {
    const char *path;
    int mode;
    comp_slot *slot;
    int explicit;          /* paired by --pair */
    int rc, paired, had_model;
    tc_summary sum;
    tc_error error;        /* why rc is 2 */
    tc_report_input kept;  /* its findings, when checked in a worker */
    int done;
    uint64_t ordinal;      /* its place in the whole run, from 1 (--shard) */
    int silent;            /* a companion loaded for this shard's traces, reported
                              by another shard: neither reported nor counted */
} job;

typedef struct jobs {
    job *v;
    size_t n, cap;
} jobs;

static int add_job(jobs *j, const char *path, int mode, comp_slot *slot, int explicit)
{
    if (j->n == j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 64;
        job *v = realloc(j->v, cap * sizeof *v);
        if (!v)
            return -1;
        j->v = v;
        j->cap = cap;
    }
    j->v[j->n++] = (job){.path = path, .mode = mode, .slot = slot, .explicit = explicit};
    return 0;
}

static int keep_job(jobs *j, const job *jb)
{
    if (add_job(j, jb->path, jb->mode, jb->slot, jb->explicit) != 0)
        return -1;
    j->v[j->n - 1].ordinal = jb->ordinal;
    j->v[j->n - 1].silent = jb->silent;
    return 0;
}

/* Every input in order; a companion is validated where it is first needed, as
 * an input of its own or before its first trace. */
static int make_jobs(jobs *j, plan *p, const cli_paths *paths)
{
    for (size_t i = 0; i < paths->count; i++) {
        const item *it = &p->items[i];
        comp_slot *s = it->slot >= 0 ? &p->slots[it->slot] : it->pair >= 0 ? &p->slots[it->pair]
                                                                          : NULL;
        if (s && !s->planned) {
            s->planned = 1;
            if (add_job(j, s->path, RUN_LOAD_COMPANION, s, 0) != 0)
                return -1;
        }
        if (it->slot < 0 &&
            add_job(j, paths->items[i], it->pair >= 0 ? RUN_PAIRED : RUN_CHECK,
                    it->pair >= 0 ? s : NULL, it->explicit) != 0)
            return -1;
    }
    return 0;
}

/* ---- --shard K/N ---- */

/* The jobs of shard sh->index out of all (every job of the whole run, in
 * order), into mine. An input's shard is its path's (cli_shard_of); a
 * companion's is that of its first trace, so that a DCFG and a DCFG-trace
 * are judged in one shard, or its own path's when it pairs no trace. A
 * shard with a trace whose companion another shard reports loads the
 * companion silently first. The slots' users are counted again for mine. */
static int shard_jobs(jobs *mine, const jobs *all, plan *p, const tc_report_shard *sh)
{
    unsigned *of = calloc(all->n + 1, sizeof *of);
    unsigned *first = calloc(p->nslots + 1, sizeof *first);
    char *here = calloc(p->nslots + 1, 1);
    int rc = of && first && here ? 0 : -1;
    /* Backwards: a companion's load comes before its first trace. */
    for (size_t i = all->n; rc == 0 && i-- > 0;) {
        const job *jb = &all->v[i];
        size_t slot = jb->slot ? (size_t)(jb->slot - p->slots) : 0;
        if (jb->mode != RUN_LOAD_COMPANION)
            of[i] = cli_shard_of(jb->path, sh->count);
        else
            of[i] = first[slot] ? first[slot] : cli_shard_of(jb->path, sh->count);
        if (jb->mode == RUN_PAIRED)
            first[slot] = of[i];
    }
    for (size_t s = 0; s < p->nslots; s++)
        p->slots[s].users = 0;
    for (size_t i = 0; rc == 0 && i < all->n; i++) {
        job jb = all->v[i];
        jb.ordinal = i + 1;
        size_t slot = jb.slot ? (size_t)(jb.slot - p->slots) : 0;
        if (of[i] != sh->index)
            continue;
        if (jb.mode == RUN_PAIRED && !here[slot]) {
            job load = {.path = jb.slot->path, .mode = RUN_LOAD_COMPANION, .slot = jb.slot,
                        .silent = 1};
            rc = keep_job(mine, &load);
        }
        if (jb.mode != RUN_CHECK)
            here[slot] = 1;
        if (jb.mode == RUN_PAIRED)
            jb.slot->users++;
        if (rc == 0)
            rc = keep_job(mine, &jb);
    }
    free(of);
    free(first);
    free(here);
    return rc;
}

/* FNV-1a 64 of every input of the whole run, in order: shards that found
 * different files (another tree, another machine) do not merge. */
static uint64_t paths_fingerprint(const jobs *all)
{
    uint64_t h = CLI_FNV1A_BASIS;
    for (size_t i = 0; i < all->n; i++)
        h = cli_fnv1a_str(h, all->v[i].path);
    return h;
}

/* A companion's findings when its load is silent: dropped. */
static void drop_diag(void *user, const tc_diag *d)
{
    (void)user;
    (void)d;
}

/* How many threads check one input, and the smallest part each takes. */
typedef struct split_plan {
    unsigned threads;
    uint64_t min;
} split_plan;

/* Checks one input the way its mode says, findings to on_diag. */

static void run_job(job *jb, const tc_options *base, void (*on_diag)(void *, const tc_diag *),
                    void *user, cli_progress *progress, const split_plan *sp)
{
    tc_options opt = *base;
    opt.on_diag = jb->silent ? drop_diag : on_diag;
    opt.user = user;
    tc_check_opts copts = {.options = &opt, .threads = sp->threads, .split_min = sp->min};
    if (progress) {
        cli_progress_begin(progress, jb->path);
        copts.progress = cli_progress_update;
        copts.progress_user = progress;
    }
    comp_slot *slot = jb->slot;
    if (jb->mode == RUN_LOAD_COMPANION) {
        jb->rc = tc_companion_load(&slot->comp, &copts, &jb->sum, &jb->error);
        if (jb->rc == 2)
            tc_error_note(&jb->error, "validate", "the %s %s",
                          tc_format_ops_for(slot->comp.pairing->companion->format)->title,
                          slot->given ? "given with --pair" : "paired by name");
    } else if (jb->mode == RUN_PAIRED) {
        jb->had_model = slot->comp.model != NULL;
        jb->rc = tc_check_paired(jb->path, &slot->comp, &copts, &jb->sum, &jb->paired, &jb->error);
    } else {
        jb->rc = tc_check_path(jb->path, &copts, &jb->sum, &jb->error);
    }
    if (progress)
        cli_progress_end(progress);
}

/* After a job: its companion's model may be used (a load) or freed (the last
 * trace of it). Under the pool's lock when there is one. */
static void job_finished(job *jb)
{
    if (jb->mode == RUN_LOAD_COMPANION) {
        jb->slot->loaded = 1;
    } else if (jb->mode == RUN_PAIRED && --jb->slot->users == 0) {
        tc_companion_free(&jb->slot->comp);
    }
    jb->done = 1;
}

typedef struct runner {
    unsigned show; /* --show: findings drawn per input; 0: none */
    tc_report_set *set;
    tc_report_totals totals;
    int status;
} runner;

/* What is said about a finished job besides its findings, in input order. */
static void account(runner *u, const job *jb)
{
    if (jb->mode == RUN_PAIRED && jb->explicit && jb->had_model && !jb->paired && jb->rc != 2)
        fprintf(stderr, "tracecheck: %s is not a %s (%s): not paired with %s\n", jb->path,
                jb->slot->comp.pairing->title,
                jb->sum.format == TC_FORMAT_AUTO ? "no known format"
                                                 : tc_format_name(jb->sum.format),
                jb->slot->path);
    u->totals.inputs++;
    u->totals.errors += jb->sum.errors;
    u->totals.warnings += jb->sum.warnings;
    u->totals.notes += jb->sum.notes;
    u->totals.bytes += jb->sum.bytes;
    if (jb->rc == 0)
        u->totals.valid++;
    else if (jb->rc == 1)
        u->totals.invalid++;
    else
        u->totals.unreadable++;
    if (jb->rc > u->status)
        u->status = jb->rc;
}

static void run_serial(runner *u, jobs *j, const tc_options *opt, const split_plan *sp)
{
    cli_progress progress;
    cli_progress_init(&progress);
    for (size_t i = 0; i < j->n; i++) {
        job *jb = &j->v[i];
        char why[400];
        if (jb->silent) {
            run_job(jb, opt, drop_diag, NULL, &progress, sp);
            tc_error_free(&jb->error);
            job_finished(jb);
            continue;
        }
        u->set->ordinal = jb->ordinal;
        if (u->show) {
            /* The findings are kept, drawn, then reported. */
            run_job(jb, opt, tc_report_input_collect, &jb->kept, &progress, sp);
            cli_show_findings(&jb->kept, opt, u->show);
            tc_error_format(&jb->error, why, sizeof why);
            tc_error_free(&jb->error);
            tc_report_set_replay(u->set, jb->path, &jb->kept, jb->rc, &jb->sum, why);
            cli_show_findings_free(&jb->kept);
            tc_report_input_free(&jb->kept);
            job_finished(jb);
            account(u, jb);
            continue;
        }
        tc_report_set_begin(u->set, jb->path);
        run_job(jb, opt, tc_report_set_diag, u->set, &progress, sp);
        tc_error_format(&jb->error, why, sizeof why);
        tc_error_free(&jb->error);
        tc_report_set_end(u->set, jb->path, jb->rc, &jb->sum, why);
        job_finished(jb);
        account(u, jb);
    }
}

/* ---- -j N: worker threads ---- */

typedef struct pool {
    jobs *j;
    const tc_options *opt;
    split_plan sp;
    size_t next; /* the next job to take */
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a job finished */
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->lock);
    while (p->next < p->j->n) {
        job *jb = &p->j->v[p->next++];
        /* Jobs are taken in order and a companion's load comes before its
         * traces, so the load is already under way in another worker. */
        while (jb->mode == RUN_PAIRED && !jb->slot->loaded)
            pthread_cond_wait(&p->changed, &p->lock);
        pthread_mutex_unlock(&p->lock);
        run_job(jb, p->opt, tc_report_input_collect, &jb->kept, NULL, &p->sp);
        pthread_mutex_lock(&p->lock);
        job_finished(jb);
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Returns -1 when no thread could be started (the caller runs serially). */
static int run_parallel(runner *u, jobs *j, const tc_options *opt, unsigned nthreads,
                        const split_plan *sp)
{
    pool p = {.j = j, .opt = opt, .sp = *sp};
    pthread_t *t = calloc(nthreads, sizeof *t);
    if (!t || pthread_mutex_init(&p.lock, NULL) != 0) {
        free(t);
        return -1;
    }
    pthread_cond_init(&p.changed, NULL);
    unsigned started = 0;
    for (; started < nthreads; started++)
        if (pthread_create(&t[started], NULL, worker, &p) != 0)
            break;
    if (!started) {
        pthread_cond_destroy(&p.changed);
        pthread_mutex_destroy(&p.lock);
        free(t);
        return -1;
    }
    /* Reports in input order, each input as soon as it and every one
     * before it are done. */
    for (size_t i = 0; i < j->n; i++) {
        job *jb = &j->v[i];
        pthread_mutex_lock(&p.lock);
        while (!jb->done)
            pthread_cond_wait(&p.changed, &p.lock);
        pthread_mutex_unlock(&p.lock);
        if (jb->silent) {
            tc_error_free(&jb->error);
            tc_report_input_free(&jb->kept);
            continue;
        }
        u->set->ordinal = jb->ordinal;
        if (jb->kept.oom)
            fprintf(stderr, "tracecheck: out of memory: some findings of %s are not reported\n",
                    jb->path);
        char why[400];
        tc_error_format(&jb->error, why, sizeof why);
        tc_error_free(&jb->error);
        if (u->show)
            cli_show_findings(&jb->kept, opt, u->show);
        tc_report_set_replay(u->set, jb->path, &jb->kept, jb->rc, &jb->sum, why);
        cli_show_findings_free(&jb->kept);
        tc_report_input_free(&jb->kept);
        account(u, jb);
    }
    for (unsigned i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    free(t);
    return 0;
}

/* The options of a run besides those of the check itself. */
typedef struct outputs {
    cli_report_dest dest; /* where the reports go */
    int fail_on_warning;  /* --fail-on warning */
    unsigned jobs;        /* 0: one per CPU */
    unsigned show;        /* --show: findings drawn per input; 0: none */
    unsigned long long split_min;
    tc_report_shard shard; /* --shard K/N; count 0: the whole run */
} outputs;

static int run(char **args, const int *group, int nargs, const char **pairs, int npairs,
               int autopair, tc_options *opt, outputs *o)
{
    tc_report_set set;
    runner u = {.show = o->show, .set = &set, .status = EXIT_VALID};
    o->dest.shard = o->shard.count ? &o->shard : NULL;
    if (tc_report_set_init(&set) != 0 || cli_reports_open(&set, &o->dest) != 0) {
        tc_report_totals none = {.exit_status = EXIT_TROUBLE};
        tc_report_set_close(&set, &none);
        cli_reports_close(&o->dest);
        return EXIT_TROUBLE;
    }

    plan p = {0};
    jobs j = {0};
    cli_paths paths = {0};
    int *pslot = calloc((size_t)npairs + 1, sizeof *pslot);
    int trouble = !pslot;
    for (int k = 0; !trouble && k < npairs; k++)
        trouble = (pslot[k] = slot_for(&p, pairs[k], 1, pairing_format())) < 0;
    /* One argument at a time, so that each input keeps its --pair. */
    for (int i = 0; !trouble && i < nargs; i++) {
        size_t before = paths.count;
        if (cli_expand_paths(&paths, &args[i], 1, opt->format))
            u.status = EXIT_TROUBLE;
        trouble = add_items(&p, paths.count - before, group[i] >= 0 ? pslot[group[i]] : -1) != 0;
    }
    jobs all = {0};
    if (!trouble && o->shard.count) {
        /* The whole run's jobs, then this shard's; the reports are
         * written from the first input on, after the shard is known. */
        trouble = complete_plan(&p, &paths, autopair, opt) != 0 || make_jobs(&all, &p, &paths) ||
                  shard_jobs(&j, &all, &p, &o->shard) != 0;
        o->shard.inputs = all.n;
        o->shard.paths = paths_fingerprint(&all);
    }
    if (trouble ||
        (!o->shard.count && (complete_plan(&p, &paths, autopair, opt) != 0 ||
                             make_jobs(&j, &p, &paths)))) {
        fprintf(stderr, "tracecheck: out of memory\n");
        u.status = EXIT_TROUBLE;
    } else {
        double start = now();
        /* Threads over the inputs first; those left over share each input. */
        unsigned threads = o->jobs ? o->jobs : cli_cpus();
        unsigned n = threads < j.n ? threads : (unsigned)j.n;
        split_plan sp = {.threads = o->split_min ? threads / (n ? n : 1) : 1, .min = o->split_min};
        if (n <= 1 || run_parallel(&u, &j, opt, n, &sp) != 0)
            run_serial(&u, &j, opt, &sp);
        u.totals.seconds = now() - start;
    }
    /* Warnings fail the run when asked; trouble (2) stays trouble. */
    if (o->fail_on_warning && u.status == EXIT_VALID && u.totals.warnings)
        u.status = EXIT_INVALID;
    u.totals.exit_status = u.status;
    tc_report_set_close(&set, &u.totals);
    free(pslot);
    free(j.v);
    free(all.v);
    plan_free(&p);
    cli_paths_free(&paths);
    if (cli_reports_close(&o->dest) != 0)
        u.status = EXIT_TROUBLE;
    return u.status;
}

/* An option (its getopt_long value, as two bytes, so that the hash is the
 * same on every machine) and its argument, into a fingerprint. */
static uint64_t hash_option(uint64_t h, int c, const char *arg)
{
    unsigned char tag[2] = {(unsigned char)(c & 0xff), (unsigned char)(c >> 8)};
    return cli_fnv1a_str(cli_fnv1a(h, tag, sizeof tag), arg ? arg : "");
}

int cmd_validate(int argc, char **argv)
{
    static const struct option options[] = {
        {"format", required_argument, NULL, 'f'},
        {"pair", required_argument, NULL, 'P'},
        {"no-pair", no_argument, NULL, 'N'},
        {"report", required_argument, NULL, 'r'},
        {"report-dir", required_argument, NULL, 'D'},
        {"docs-uri", required_argument, NULL, 'U'},
        {"fail-on", required_argument, NULL, 'F'},
        {"jobs", required_argument, NULL, 'j'},
        {"split-min", required_argument, NULL, 'M'},
        {"shard", required_argument, NULL, 'K'},
        {"rule-summary", required_argument, NULL, 'S'},
        {"output", required_argument, NULL, 'o'},
        {"pedantic", no_argument, NULL, 'p'},
        {"max-repeats", required_argument, NULL, 'm'},
        {"color", required_argument, NULL, 'c'},
        {"colour", required_argument, NULL, 'c'},
        {"quiet", no_argument, NULL, 'q'},
        {"show", optional_argument, NULL, 'W'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[sizeof options / sizeof options[0] + 64];
    memcpy(longopts, options, sizeof options);
    cli_format_longopts(longopts, sizeof options / sizeof options[0] - 1,
                        sizeof longopts / sizeof longopts[0]);
    tc_options opt = TC_OPTIONS_INIT;
    outputs o = {.dest.color = "auto", .split_min = TC_SPLIT_DEFAULT_MIN};
    int c, autopair = 1;
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
    /* The options that change what is found or the exit status, and the
     * inputs, in order: the shards of one run must agree on them. */
    uint64_t fingerprint = CLI_FNV1A_BASIS;
    static const char report_only[] = "oDrUjMKScqWh";
    while ((c = getopt_long(argc, argv, "-f:o:j:qh", longopts, NULL)) != -1) {
        if (c == 1 || c >= CLI_FORMAT_OPTION || !memchr(report_only, c, sizeof report_only - 1))
            fingerprint = hash_option(fingerprint, c, optarg);
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
            if (cli_report_kinds("validate", optarg, &o.dest) != 0)
                goto done;
            break;
        case 'D': o.dest.report_dir = optarg; break;
        case 'U': o.dest.docs_uri = optarg; break;
        case 'F':
            if (strcmp(optarg, "error") && strcmp(optarg, "warning")) {
                status = cli_usage_error("validate", "--fail-on takes error or warning, not '%s'",
                                         optarg);
                goto done;
            }
            o.fail_on_warning = !strcmp(optarg, "warning");
            break;
        case 'j':
            if (tc_parse_size(optarg, &n) != 0 || n == 0 || n > 256) {
                status = cli_usage_error("validate", "-j needs a number of threads from 1 to 256");
                goto done;
            }
            o.jobs = (unsigned)n;
            break;
        case 'M':
            if (tc_parse_size(optarg, &n) != 0) {
                status = cli_usage_error("validate", "--split-min needs a size in bytes (K, M "
                                         "and G suffixes), or 0");
                goto done;
            }
            o.split_min = n;
            break;
        case 'K':
            if (cli_parse_shard("validate", optarg, &o.shard.index, &o.shard.count) != 0)
                goto done;
            break;
        case 'S':
            if (!strcmp(optarg, "auto"))
                o.dest.rule_summary = 0;
            else if (!strcmp(optarg, "always"))
                o.dest.rule_summary = 1;
            else if (!strcmp(optarg, "never"))
                o.dest.rule_summary = -1;
            else {
                status = cli_usage_error("validate", "--rule-summary takes auto, always or never");
                goto done;
            }
            break;
        case 'o': o.dest.output = optarg; break;
        case 'p': opt.pedantic = 1; break;
        case 'm':
            if (tc_parse_size(optarg, &n) != 0 || n == 0 || n > 1000000) {
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
            o.dest.color = optarg;
            break;
        case 'q': o.dest.quiet = 1; break;
        case 'W':
            o.show = CLI_SHOW_PER_INPUT;
            if (optarg && (tc_parse_size(optarg, &n) != 0 || n < 1 || n > 64)) {
                status = cli_usage_error("validate", "--show expects 1 to 64 findings per "
                                         "input, not '%s'", optarg);
                goto done;
            }
            if (optarg)
                o.show = (unsigned)n;
            break;
        case 'h':
            help();
            status = EXIT_VALID;
            goto done;
        default:
            if (c < CLI_FORMAT_OPTION) {
                status = cli_usage_error("validate", "bad option");
                goto done;
            }
            if (cli_format_option("validate", c, optarg, &opt) != 0)
                goto done; /* status is EXIT_TROUBLE */
            break;
        }
    }
    for (; optind < argc; optind++) { /* after "--" */
        fingerprint = hash_option(fingerprint, 1, argv[optind]);
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
    const tc_format_ops *forced = tc_format_ops_for(opt.format);
    if (npairs && (!pairing_format() || (forced && forced != pairing_format()))) {
        const tc_format_ops *pf = pairing_format();
        status = pf ? cli_usage_error("validate", "--pair pairs %ss: it needs --format auto or "
                                      "%s, not %s", pf->title, pf->name, forced->name)
                    : cli_usage_error("validate", "--pair: no format takes a companion");
        goto done;
    }
    if ((status = cli_report_dest_check("validate", &o.dest)) != 0)
        goto done;
    /* A format given leaves automatic pairing to its own inputs. */
    autopair &= !forced || forced->companion != NULL;
    o.shard.options = fingerprint;
    status = run(args, group, nargs, pairs, npairs, autopair, &opt, &o);
done:
    free(args);
    free(pairs);
    free(group);
    return status;
}
