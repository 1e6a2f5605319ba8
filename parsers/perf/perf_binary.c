/* Perf data against its program's function symbols: see perf_binary.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/elf_symbols.h"
#include "../common/idmap.h"
#include "../common/idset.h"
#include "perf_binary.h"

/* Addresses reported already: a set of low words per high word, so that
 * memory follows the distinct addresses (a 32-bit program: one set). */
typedef struct addr_set {
    tc_idmap by_high;
} addr_set;

struct tc_perf_bins {
    tc_elf_functions *fns[TC_MAX_BINARIES];
    const char *paths[TC_MAX_BINARIES];
    unsigned n;
    size_t nfunctions;        /* of all of them */
    addr_set bad_fn, bad_site;
    char names[2][256];       /* the record's names (tc_perf_event.names) */
};

static void free_set(void *value, void *user)
{
    (void)user;
    tc_idset_free(value);
    free(value);
}

/* Adds addr; 1 when it was new (and so is to be reported). When memory
 * runs out, an address may be reported again: never more than once per
 * record. */
static int add_new(addr_set *s, uint64_t addr)
{
    uint32_t hi = (uint32_t)(addr >> 32), lo = (uint32_t)addr;
    tc_idset *set = tc_idmap_get(&s->by_high, hi);
    if (!set) {
        set = calloc(1, sizeof *set);
        if (!set || tc_idmap_put(&s->by_high, hi, set) != 0) {
            free(set);
            return 1;
        }
    }
    if (tc_idset_has(set, lo))
        return 0;
    tc_idset_add(set, lo);
    return 1;
}

void tc_perf_bins_close(tc_perf_bins *b)
{
    if (!b)
        return;
    for (unsigned i = 0; i < b->n; i++)
        tc_elf_functions_free(b->fns[i]);
    tc_idmap_each(&b->bad_fn.by_high, free_set, NULL);
    tc_idmap_each(&b->bad_site.by_high, free_set, NULL);
    tc_idmap_free(&b->bad_fn.by_high);
    tc_idmap_free(&b->bad_site.by_high);
    free(b);
}

tc_perf_bins *tc_perf_bins_open(const tc_parse_ctx *ctx, int *failed)
{
    const tc_options *opt = ctx->options;
    *failed = 0;
    if (!opt || !opt->n_binaries)
        return NULL;
    tc_perf_bins *b = calloc(1, sizeof *b);
    if (!b) {
        tc_diag_fail(ctx->diags, "out of memory");
        *failed = 1;
        return NULL;
    }
    for (unsigned i = 0; i < opt->n_binaries && i < TC_MAX_BINARIES; i++) {
        char why[256];
        b->paths[i] = opt->binaries[i];
        b->fns[i] = tc_elf_functions_load(opt->binaries[i], why, sizeof why);
        b->n = i + 1;
        if (b->fns[i] && !b->fns[i]->n)
            snprintf(why, sizeof why, "no function symbols (a stripped file: perf data is "
                                      "judged against the program's STT_FUNC symbols)");
        if (!b->fns[i] || !b->fns[i]->n) {
            tc_diag_fail(ctx->diags, "--binary %s: %s", opt->binaries[i], why);
            tc_perf_bins_close(b);
            *failed = 1;
            return NULL;
        }
        b->nfunctions += b->fns[i]->n;
    }
    return b;
}

static int is_start(const tc_perf_bins *b, uint64_t addr)
{
    for (unsigned i = 0; i < b->n; i++)
        if (tc_elf_function_at(b->fns[i], addr))
            return 1;
    return 0;
}

/* The function of the binaries that holds addr, or NULL. */
static const tc_elf_function *holder(const tc_perf_bins *b, uint64_t addr)
{
    for (unsigned i = 0; i < b->n; i++) {
        const tc_elf_function *f = tc_elf_function_containing(b->fns[i], addr);
        if (f)
            return f;
    }
    return NULL;
}

/* A call site's function: the one holding the address as written or the
 * byte before it (spec/perf/perf.md, ruling 21). */
static const tc_elf_function *caller(const tc_perf_bins *b, uint64_t addr)
{
    const tc_elf_function *f = holder(b, addr);
    return f || !addr ? f : holder(b, addr - 1);
}

/* The nearest function of all the binaries, as name+offset. */
static void nearest(const tc_perf_bins *b, uint64_t addr, char *buf, size_t size)
{
    const tc_elf_function *best = NULL;
    unsigned from = 0;
    for (unsigned i = 0; i < b->n; i++) {
        const tc_elf_function *f = tc_elf_function_nearest(b->fns[i], addr);
        uint64_t d = f ? (f->start > addr ? f->start - addr : addr - f->start) : UINT64_MAX;
        uint64_t bd = best ? (best->start > addr ? best->start - addr : addr - best->start)
                           : UINT64_MAX;
        if (f && (!best || d < bd)) {
            best = f;
            from = i;
        }
    }
    tc_elf_function_nearest_label(b->fns[from], addr, buf, size);
}

/* "prog" or "prog, boot": the binaries, for messages. */
static void files(const tc_perf_bins *b, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < b->n && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", b->paths[i]);
}

static void name(const tc_elf_function *f, uint64_t addr, char *buf, size_t size)
{
    if (addr == f->start)
        snprintf(buf, size, "%s", f->name);
    else
        snprintf(buf, size, "%s+0x%" PRIx64, f->name, addr - f->start);
}

static void report(tc_diag_sink *d, tc_rule_id rule, const tc_perf_event *ev, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
static void report(tc_diag_sink *d, tc_rule_id rule, const tc_perf_event *ev, const char *fmt,
                   ...)
{
    if (!tc_rule_enabled(d, rule))
        return;
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    uint64_t len = ev->end > ev->offset ? ev->end - ev->offset : 1;
    if (ev->line)
        tc_report_text(d, rule, ev->offset, len, ev->line, 1, NULL, "%s", buf);
    else
        tc_report(d, rule, ev->offset, len, "%s", buf);
}

static void check(tc_perf_bins *b, tc_diag_sink *d, const tc_perf_event *ev)
{
    const char *kind = ev->type == TC_PERF_FUNC_ENTRY ? "entry" : "exit";
    uint64_t fn = ev->address[0], site = ev->address[1];
    char in[160], near[320];
    if (!is_start(b, fn) && add_new(&b->bad_fn, fn)) {
        files(b, in, sizeof in);
        nearest(b, fn, near, sizeof near);
        report(d, TC_RULE_PERF_BINARY_NO_FUNCTION, ev,
               "this_fn 0x%" PRIx64 " of a function %s record is not the start of a function "
               "in %s (%zu function symbol%s); the nearest is %s: the trace and the ELF file "
               "differ",
               fn, kind, in, b->nfunctions, b->nfunctions == 1 ? "" : "s", near);
    }
    if (!caller(b, site) && add_new(&b->bad_site, site)) {
        files(b, in, sizeof in);
        nearest(b, site, near, sizeof near);
        report(d, TC_RULE_PERF_BINARY_CALL_SITE, ev,
               "call_site 0x%" PRIx64 " of a function %s record (this_fn 0x%" PRIx64 ") is in "
               "no function of %s (%zu function symbol%s); the nearest is %s",
               site, kind, fn, in, b->nfunctions, b->nfunctions == 1 ? "" : "s", near);
    }
}

void tc_perf_bins_record(tc_perf_bins *b, tc_diag_sink *d, tc_perf_event *ev)
{
    int calls = ev->type == TC_PERF_FUNC_ENTRY || ev->type == TC_PERF_FUNC_EXIT;
    if (calls && ev->n_addresses == 2)
        check(b, d, ev);
    ev->named = 1;
    for (unsigned i = 0; i < 2; i++) {
        uint64_t a = ev->address[i];
        /* A call site may be one past its function's end (ruling 21). */
        const tc_elf_function *f = i < ev->n_addresses ? (i ? caller(b, a) : holder(b, a)) : NULL;
        ev->names[i] = f ? b->names[i] : NULL;
        if (f)
            name(f, a, b->names[i], sizeof b->names[i]);
    }
}
