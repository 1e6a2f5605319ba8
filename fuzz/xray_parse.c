/*
 * The XRay parser on raw bytes, FDR traces and basic-mode logs alike (the
 * header decides). Besides crashes, leaks and undefined behaviour (the
 * sanitizers), it checks that:
 *
 *  - every input path gives the same result: the in-memory reader, the
 *    streaming reader with tiny windows (read() of a file, and gzip
 *    decompression), and sliding mmap windows all yield identical
 *    diagnostics (rule, severity, offset, length, message, context), counters,
 *    events and header (hence canonical dump); corrupt compressed inputs are
 *    run on every path but not compared (what a decompressor delivers before
 *    its error depends on its buffer);
 *  - options change only what they should: without an event callback (the
 *    parser's fast path) the diagnostics are the same; without --pedantic
 *    only pedantic findings go; with the default repeat cap each rule is cut
 *    at the cap and a TC-DIAG-SUPPRESSED note tells the rest, while the
 *    counters still count all;
 *  - each diagnostic is well formed: a rule of the XRAY or TC family with the
 *    catalogue's severity, a one-line message, a location inside the input
 *    (end-of-input findings may reach past it), counters that match;
 *  - events are well formed: in file order, not overlapping, inside the
 *    input, payloads equal to the input's bytes;
 *  - an input accepted without error really is a trace (checked here on the
 *    events, independently of the parser): the header, then buffers that tile
 *    the file exactly, each with the preamble of its version and only body
 *    records after it, CallArguments only where ruling 7 allows them, and the
 *    TSC, CPU, thread and process each event carries reconstructed correctly;
 *    for a basic-mode log, a 32-byte record per event after the header that
 *    are the input's fields, tail exits only from version 2, and argument
 *    payloads only where ruling 14 allows them.
 */
#define _GNU_SOURCE /* memfd_create */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "../parsers/common/bytes.h"
#include "../parsers/common/input.h"
#include "fuzz_helpers.h"
#include "fuzz_xray.h"

/* Decompressed inputs larger than this are skipped: a few bytes of bzip2 can
 * expand to gigabytes, which measures the decompressor, not the parser. */
#define DECOMPRESSED_LIMIT (1u << 20)

/* ---- the bytes the parser sees ---- */

typedef struct plain {
    const uint8_t *p;
    size_t n;
    uint8_t *owned;
    int compressed;
    int failed; /* decompression failed: only a prefix is known */
} plain;

/* For a compressed input, the decompressed bytes (through the library's own
 * input layer); otherwise the input itself. Returns 0 to skip the input. */
static int get_plain(plain *pl, const uint8_t *data, size_t size)
{
    memset(pl, 0, sizeof *pl);
    if (tc_detect_compression(data, size) == TC_COMP_NONE) {
        pl->p = data;
        pl->n = size;
        return 1;
    }
    pl->compressed = 1;
    tc_input *in = tc_input_open_memory(data, size, NULL);
    FUZZ_CHECK_ALLOC(in);
    tc_reader *r = tc_input_reader(in);
    size_t cap = 4096;
    pl->owned = malloc(cap);
    FUZZ_CHECK_ALLOC(pl->owned);
    for (;;) {
        const uint8_t *b = tc_need(r, 1);
        if (!b)
            break;
        size_t a = tc_avail(r);
        if (pl->n + a > DECOMPRESSED_LIMIT) {
            tc_input_close(in);
            free(pl->owned);
            return 0;
        }
        while (pl->n + a > cap)
            cap *= 2;
        pl->owned = realloc(pl->owned, cap);
        FUZZ_CHECK_ALLOC(pl->owned);
        memcpy(pl->owned + pl->n, b, a);
        pl->n += a;
        tc_advance(r, a);
    }
    pl->failed = r->failed != TC_READ_OK;
    tc_input_close(in);
    pl->p = pl->owned;
    return 1;
}

/* ---- input paths ---- */

static void parse_input(fx_run *run, tc_input *in, const fx_opts *o)
{
    FUZZ_CHECK_ALLOC(in);
    fx_parse(run, tc_input_reader(in), o);
    tc_input_close(in);
}

/* In memory: the plain reader, or the default stream for compressed bytes. */
static void parse_memory(fx_run *run, const uint8_t *data, size_t size, const fx_opts *o)
{
    parse_input(run, tc_input_open_memory(data, size, NULL), o);
}

/* Through a file, as `tracecheck validate` reads one: an in-memory file
 * (memfd) opened by path, through read() or mmap with the given window.
 * Returns 0 when this system has no memfd. */
static int parse_file(fx_run *run, const uint8_t *data, size_t size, size_t window, int no_mmap,
                      const fx_opts *o)
{
    int fd = memfd_create("xray_parse", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        FUZZ_ASSERT_MSG(w > 0, "writing the memfd failed");
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    tc_input_opts io = {.window = window, .no_mmap = no_mmap};
    tc_error err = TC_ERROR_INIT;
    tc_input *in = tc_input_open(path, &io, &err);
    FUZZ_ASSERT_MSG(in != NULL, "cannot open %s: %s", path, err.n ? err.cause[0]->message : "");
    parse_input(run, in, o);
    close(fd);
    return 1;
}

/* Through the streaming decompressor: the input gzip-compressed (stored
 * blocks, so it costs little) and read back with the given window. */
static void parse_gzip(fx_run *run, const uint8_t *data, size_t size, size_t window,
                       const fx_opts *o)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    FUZZ_ASSERT(deflateInit2(&z, Z_NO_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                             Z_DEFAULT_STRATEGY) == Z_OK);
    uLong bound = deflateBound(&z, (uLong)size) + 64;
    uint8_t *gz = malloc(bound);
    FUZZ_CHECK_ALLOC(gz);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    z.next_out = gz;
    z.avail_out = (uInt)bound;
    FUZZ_ASSERT(deflate(&z, Z_FINISH) == Z_STREAM_END);
    size_t gz_len = bound - z.avail_out;
    deflateEnd(&z);
    tc_input_opts io = {.window = window};
    parse_input(run, tc_input_open_memory(gz, gz_len, &io), o);
    free(gz);
}

enum { PATH_STREAM, PATH_MMAP, PATH_GZIP };
static const char *const path_names[] = {"read() stream", "mmap", "gzip stream"};

static int parse_path(fx_run *run, int kind, const uint8_t *data, size_t size, size_t window,
                      const fx_opts *o)
{
    switch (kind) {
    case PATH_STREAM: return parse_file(run, data, size, window, 1, o);
    case PATH_MMAP: return parse_file(run, data, size, window, 0, o);
    default: parse_gzip(run, data, size, window, o); return 1;
    }
}

/* ---- comparing runs ---- */

/* Same diagnostics, counters, events and header (and so the same canonical
 * dump, which is written from the events and the header alone). Returns
 * NULL, or what differs. */
static const char *difference(const fx_run *a, const fx_run *b)
{
    if (fx_first_diag_difference(a, b) >= 0)
        return "diagnostics";
    if (a->errors != b->errors || a->warnings != b->warnings || a->notes != b->notes)
        return "counters";
    if (a->nevents != b->nevents || a->event_hash != b->event_hash)
        return "events";
    const tc_xray_header *x = &a->header, *y = &b->header;
    if (a->have_header != b->have_header || x->version != y->version || x->type != y->type ||
        x->bitfield != y->bitfield || x->cycle_frequency != y->cycle_frequency ||
        x->buffer_size != y->buffer_size || x->big_endian != y->big_endian)
        return "headers";
    if (a->end_pos != b->end_pos)
        return "stopping positions";
    return NULL;
}

/* Aborts with the first difference between two runs that keep their events. */
static void report_difference(const fx_run *a, const fx_run *b, const char *what)
{
    long d = fx_first_diag_difference(a, b);
    if (d >= 0) {
        fx_print_diag_difference(stderr, a, "memory", b, what, d);
        FUZZ_FAIL("the %s path reports differently from the memory reader", what);
    }
    FUZZ_ASSERT_MSG(a->errors == b->errors && a->warnings == b->warnings && a->notes == b->notes,
                    "%s: counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " vs %" PRIu64 "/%" PRIu64
                    "/%" PRIu64, what, a->errors, a->warnings, a->notes, b->errors,
                    b->warnings, b->notes);
    size_t n = a->nevents < b->nevents ? a->nevents : b->nevents;
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT_MSG(fx_events_equal(&a->events[i], &b->events[i]),
                        "%s: event %zu differs: kind %d at %" PRIu64 " vs kind %d at %" PRIu64,
                        what, i, a->events[i].kind, a->events[i].offset, b->events[i].kind,
                        b->events[i].offset);
    FUZZ_ASSERT_MSG(a->nevents == b->nevents, "%s: %zu events vs %zu", what, a->nevents,
                    b->nevents);
    FUZZ_FAIL("%s: %s differ from the memory reader's", what, difference(a, b));
}

/* Without an event callback: the same findings (the parser takes its fast
 * path when nobody wants events). */
static void check_quiet(const fx_run *base, const fx_run *quiet)
{
    long d = fx_first_diag_difference(base, quiet);
    if (d >= 0) {
        fx_print_diag_difference(stderr, base, "with events", quiet, "without", d);
        FUZZ_FAIL("the diagnostics depend on whether events are wanted");
    }
    FUZZ_ASSERT(base->errors == quiet->errors && base->warnings == quiet->warnings &&
                base->notes == quiet->notes);
    FUZZ_ASSERT(quiet->nevents == 0);
}

/* Without --pedantic: the pedantic run's findings less the pedantic rules. */
static void check_not_pedantic(const fx_run *base, const fx_run *np)
{
    size_t j = 0;
    uint64_t pedantic_notes = 0;
    for (size_t i = 0; i < base->ndiags; i++) {
        const fx_diag *d = &base->diags[i];
        if (tc_rules[d->rule].flags & TC_RF_PEDANTIC) {
            pedantic_notes += d->severity == TC_NOTE;
            continue;
        }
        FUZZ_ASSERT_MSG(j < np->ndiags, "without --pedantic, %s at %" PRIu64 " is missing",
                        tc_rules[d->rule].id, d->offset);
        const fx_diag *e = &np->diags[j++];
        FUZZ_ASSERT_MSG(e->rule == d->rule && e->offset == d->offset &&
                            strcmp(e->message, d->message) == 0,
                        "without --pedantic, finding %zu is %s at %" PRIu64 ", not %s at %" PRIu64,
                        j - 1, tc_rules[e->rule].id, e->offset, tc_rules[d->rule].id, d->offset);
    }
    FUZZ_ASSERT_MSG(j == np->ndiags, "without --pedantic there are %zu extra findings",
                    np->ndiags - j);
    FUZZ_ASSERT(np->errors == base->errors && np->warnings == base->warnings &&
                np->notes + pedantic_notes == base->notes);
    FUZZ_ASSERT_MSG(np->nevents == base->nevents && np->event_hash == base->event_hash,
                    "--pedantic changes the events");
}

/* With the default cap: the first max_repeats findings of each rule, then
 * one suppression note per rule over the cap; the counters count them all. */
static void check_capped(const fx_run *base, const fx_run *capped)
{
    uint64_t seen[TC_RULE__COUNT] = {0};
    size_t j = 0;
    for (size_t i = 0; i < base->ndiags; i++) {
        const fx_diag *d = &base->diags[i];
        if (++seen[d->rule] > TC_DEFAULT_MAX_REPEATS)
            continue;
        FUZZ_ASSERT_MSG(j < capped->ndiags && capped->diags[j].rule == d->rule &&
                            capped->diags[j].offset == d->offset,
                        "with the repeat cap, finding %zu is not %s at %" PRIu64, j,
                        tc_rules[d->rule].id, d->offset);
        j++;
    }
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        if (seen[r] <= TC_DEFAULT_MAX_REPEATS)
            continue;
        FUZZ_ASSERT_MSG(j < capped->ndiags && capped->diags[j].rule == TC_RULE_DIAG_SUPPRESSED &&
                            capped->diags[j].unlocated && strstr(capped->diags[j].message,
                                                                 tc_rules[r].id),
                        "no suppression note for %s (%" PRIu64 " findings)", tc_rules[r].id,
                        seen[r]);
        j++;
    }
    FUZZ_ASSERT_MSG(j == capped->ndiags, "the capped run has %zu findings, expected %zu",
                    capped->ndiags, j);
    FUZZ_ASSERT(capped->errors == base->errors && capped->warnings == base->warnings &&
                capped->notes == base->notes);
}

/* ---- invariants of one run ---- */

/* Findings about a record or payload that the input cuts short: they
 * cover the whole record, so they may reach past the last byte. */
static int about_end_of_input(tc_rule_id r)
{
    return r == TC_RULE_XRAY_RECORD_PAST_EXTENTS || r == TC_RULE_XRAY_V1_RECORD_CROSSES_BUFFER;
}

static void check_diagnostics(const fx_run *run, const plain *pl)
{
    uint64_t sev[3] = {0};
    uint64_t per_rule[TC_RULE__COUNT] = {0};
    for (size_t i = 0; i < run->ndiags; i++) {
        const fx_diag *d = &run->diags[i];
        FUZZ_ASSERT_MSG((unsigned)d->rule < TC_RULE__COUNT, "rule index %d", (int)d->rule);
        const tc_rule_info *info = &tc_rules[d->rule];
        FUZZ_ASSERT_MSG(strcmp(info->family, "XRAY") == 0 || strcmp(info->family, "TC") == 0,
                        "%s is not an XRAY or TC rule", info->id);
        FUZZ_ASSERT_MSG(d->rule != TC_RULE_FORMAT_UNKNOWN && d->rule != TC_RULE_DIAG_SUPPRESSED,
                        "%s from the parser itself", info->id);
        FUZZ_ASSERT_MSG(d->rule != TC_RULE_INPUT_DECOMPRESS || pl->compressed,
                        "%s on an uncompressed input", info->id);
        FUZZ_ASSERT_MSG(d->severity == info->severity, "%s reported with severity %d", info->id,
                        (int)d->severity);
        FUZZ_ASSERT_MSG(d->message && d->message[0] && !strchr(d->message, '\n'),
                        "%s: empty or multi-line message", info->id);
        FUZZ_ASSERT_MSG(!d->unlocated, "%s is unlocated", info->id);
        if (!pl->failed) {
            FUZZ_ASSERT_MSG(d->offset <= pl->n, "%s at offset %" PRIu64 ", input has %zu bytes",
                            info->id, d->offset, pl->n);
            FUZZ_ASSERT_MSG(d->length <= pl->n - d->offset || about_end_of_input(d->rule),
                            "%s covers %" PRIu64 "+%" PRIu64 ", input has %zu bytes: %s",
                            info->id, d->offset, d->length, pl->n, d->message);
        }
        sev[d->severity]++;
        per_rule[d->rule]++;
    }
    FUZZ_ASSERT_MSG(run->errors == sev[TC_ERROR] && run->warnings == sev[TC_WARNING] &&
                        run->notes == sev[TC_NOTE],
                    "counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " but %" PRIu64 "/%" PRIu64
                    "/%" PRIu64 " findings delivered", run->errors, run->warnings, run->notes,
                    sev[TC_ERROR], sev[TC_WARNING], sev[TC_NOTE]);
    for (int r = 0; r < TC_RULE__COUNT; r++)
        FUZZ_ASSERT_MSG(run->rule_count[r] == per_rule[r], "%s counted %" PRIu64 ", delivered %" PRIu64,
                        tc_rules[r].id, run->rule_count[r], per_rule[r]);
}

static void check_events(const fx_run *run, const plain *pl)
{
    uint64_t next = 0;
    for (size_t i = 0; i < run->nevents; i++) {
        const tc_xray_event *e = &run->events[i];
        uint64_t size = fx_event_size(e);
        int basic_kind = e->kind == TC_XRAY_EV_BASIC_FUNCTION || e->kind == TC_XRAY_EV_BASIC_ARG;
        FUZZ_ASSERT_MSG((e->kind >= 0 && e->kind < TC_XRAY_KIND_COUNT) ||
                            e->kind == TC_XRAY_EV_HEADER || e->kind == TC_XRAY_EV_FUNCTION ||
                            basic_kind,
                        "event kind %d", e->kind);
        FUZZ_ASSERT_MSG(i == 0 || basic_kind == (run->header.type == 0),
                        "event kind %d in a log of header type %u", e->kind, run->header.type);
        FUZZ_ASSERT_MSG((e->kind == TC_XRAY_EV_HEADER) == (i == 0 && e->offset == 0),
                        "header event %zu at %" PRIu64, i, e->offset);
        FUZZ_ASSERT_MSG(e->offset >= next, "event %zu at %" PRIu64 " overlaps the one before "
                        "(which ends at %" PRIu64 ")", i, e->offset, next);
        if (!pl->failed)
            FUZZ_ASSERT_MSG(size <= pl->n && e->offset <= pl->n - size,
                            "event %zu (%" PRIu64 "+%" PRIu64 ") is not inside the %zu-byte input",
                            i, e->offset, size, pl->n);
        if (e->kind == TC_XRAY_CUSTOM_EVENT || e->kind == TC_XRAY_TYPED_EVENT) {
            FUZZ_ASSERT(e->size >= 0);
            FUZZ_ASSERT_MSG(e->data && e->data_len == (size_t)e->size,
                            "event payload of %zu bytes held for size %" PRId32, e->data_len,
                            e->size);
            if (e->offset + size <= pl->n)
                FUZZ_ASSERT_MSG(memcmp(e->data, pl->p + e->offset + 16, e->data_len) == 0,
                                "the payload at %" PRIu64 " is not the input's bytes", e->offset);
        } else {
            FUZZ_ASSERT(e->data == NULL && e->data_len == 0);
        }
        next = e->offset + size;
    }
    if (run->have_header) {
        FUZZ_ASSERT(run->nevents > 0 && run->events[0].kind == TC_XRAY_EV_HEADER);
        FUZZ_ASSERT((run->header.version >= 1 && run->header.version <= 5 &&
                     run->header.type == 1) ||
                    (run->header.version >= 1 && run->header.version <= 3 &&
                     run->header.type == 0));
    }
    /* One dump line per event. */
    size_t lines = 0;
    for (size_t i = 0; i < run->dump_len; i++)
        lines += run->dump[i] == '\n';
    FUZZ_ASSERT_MSG(lines == run->nevents, "%zu dump lines for %zu events", lines, run->nevents);
    FUZZ_ASSERT(run->dump_len == 0 || (strncmp(run->dump, "{\"t\":\"header\"", 13) == 0 &&
                                       run->dump[run->dump_len - 1] == '\n'));
}

/* ---- an accepted input is a trace: re-checked on the events ---- */

typedef struct acc {
    const fx_run *run;
    size_t i;          /* next event */
    unsigned version;
    uint64_t pos;      /* where the next record must start */
} acc;

static const tc_xray_event *next_event(acc *a, const char *want)
{
    FUZZ_ASSERT_MSG(a->i < a->run->nevents, "accepted, but the events end where %s was due at %"
                    PRIu64, want, a->pos);
    const tc_xray_event *e = &a->run->events[a->i++];
    FUZZ_ASSERT_MSG(e->offset == a->pos, "accepted, but a record at %" PRIu64 " follows one "
                    "ending at %" PRIu64 " (%s due): bytes were skipped", e->offset, a->pos, want);
    a->pos += fx_event_size(e);
    return e;
}

static void expect_kind(const tc_xray_event *e, int kind, const char *name)
{
    FUZZ_ASSERT_MSG(e->kind == kind, "accepted, but the record at %" PRIu64 " is kind %d where %s "
                    "belongs", e->offset, e->kind, name);
}

/* One buffer ending at `end`, starting with NewBuffer at a->pos. */
static void accepted_buffer(acc *a, uint64_t end)
{
    const unsigned v = a->version;
    const tc_xray_event *e = next_event(a, "NewBuffer");
    expect_kind(e, TC_XRAY_NEW_BUFFER, "NewBuffer");
    int32_t tid = e->id, pid = 0;
    FUZZ_ASSERT(e->tid == tid);
    e = next_event(a, "WallTimeMarker");
    expect_kind(e, TC_XRAY_WALL_TIME, "WallTimeMarker");
    FUZZ_ASSERT_MSG(e->wall_usec >= 0 && e->wall_usec <= 999999, "accepted usec %" PRId32,
                    e->wall_usec);
    if (v >= 3) {
        e = next_event(a, "PIDEntry");
        expect_kind(e, TC_XRAY_PID, "PIDEntry");
        pid = e->id;
    }
    e = next_event(a, "NewCPUId");
    expect_kind(e, TC_XRAY_NEW_CPU, "NewCPUId");
    uint16_t cpu = e->cpu;
    uint64_t tsc = e->value;
    FUZZ_ASSERT(e->tsc == tsc && e->tid == tid && e->pid == pid);
    int last = -1; /* the action of the function record just before, or -1 */
    int after_arg = 0;
    while (a->pos < end) {
        e = next_event(a, "a body record");
        FUZZ_ASSERT_MSG(a->pos <= end, "accepted, but the record at %" PRIu64 " crosses the "
                        "buffer's end at %" PRIu64, e->offset, end);
        int prev = last, prev_arg = after_arg;
        last = -1;
        after_arg = 0;
        switch (e->kind) {
        case TC_XRAY_EV_FUNCTION:
            FUZZ_ASSERT_MSG(e->action <= 3, "accepted action %u", e->action);
            tsc += e->delta;
            last = (int)e->action;
            break;
        case TC_XRAY_CALL_ARG:
            FUZZ_ASSERT_MSG(prev_arg || prev == TC_XRAY_ENTER_ARGS ||
                                (prev == TC_XRAY_ENTER && v < 5),
                            "accepted a CallArgument at %" PRIu64 " after %d", e->offset, prev);
            after_arg = 1;
            break;
        case TC_XRAY_NEW_CPU:
            cpu = e->cpu;
            tsc = e->value;
            break;
        case TC_XRAY_TSC_WRAP:
            tsc = e->value;
            break;
        case TC_XRAY_TYPED_EVENT:
            FUZZ_ASSERT_MSG(v == 5, "accepted a typed event in version %u", v);
            /* fall through */
        case TC_XRAY_CUSTOM_EVENT:
            if (v >= 5) /* versions 1-4 write an absolute TSC that does not move the base */
                tsc += (uint64_t)(int64_t)(int32_t)e->delta;
            break;
        case TC_XRAY_END_OF_BUFFER:
            FUZZ_ASSERT_MSG(v == 1, "accepted EndOfBuffer in version %u", v);
            a->pos = end; /* the padding is never read */
            break;
        default:
            FUZZ_FAIL("accepted a record of kind %d in a buffer's body at %" PRIu64, e->kind,
                      e->offset);
        }
        FUZZ_ASSERT_MSG(e->cpu == cpu && e->tsc == tsc && e->tid == tid && e->pid == pid,
                        "event at %" PRIu64 " carries cpu %u tsc %" PRIu64 " tid %" PRId32
                        " pid %" PRId32 "; reconstructed cpu %u tsc %" PRIu64 " tid %" PRId32
                        " pid %" PRId32, e->offset, e->cpu, e->tsc, e->tid, e->pid, cpu, tsc, tid,
                        pid);
    }
    FUZZ_ASSERT_MSG(a->pos == end, "accepted, but the buffer's records end at %" PRIu64
                    ", not at its end %" PRIu64, a->pos, end);
}

/* A basic-mode log: a record per event, whose fields are the input's. */
static void check_accepted_basic(const fx_run *run, const plain *pl)
{
    const tc_xray_header *h = &run->header;
    const int be = h->big_endian;
    size_t records = (pl->n - TC_XRAY_HEADER_SIZE) / TC_XRAY_BASIC_RECORD_SIZE;
    FUZZ_ASSERT_MSG((pl->n - TC_XRAY_HEADER_SIZE) % TC_XRAY_BASIC_RECORD_SIZE == 0,
                    "accepted a basic-mode log of %zu bytes", pl->n);
    FUZZ_ASSERT_MSG(run->nevents == 1 + records, "accepted %zu records with %zu events",
                    records, run->nevents);
    uint32_t prev_func = 0, prev_tid = 0, prev_pid = 0;
    for (size_t i = 0; i < records; i++) {
        const tc_xray_event *e = &run->events[1 + i];
        uint64_t off = TC_XRAY_HEADER_SIZE + (uint64_t)i * TC_XRAY_BASIC_RECORD_SIZE;
        const uint8_t *b = pl->p + off;
        FUZZ_ASSERT_MSG(e->offset == off, "record %zu's event is at %" PRIu64, i, e->offset);
        unsigned rtype = be ? (unsigned)(b[0] << 8 | b[1]) : (unsigned)(b[0] | b[1] << 8);
        uint32_t func, tid, pid;
        if (rtype == 0) {
            FUZZ_ASSERT_MSG(e->kind == TC_XRAY_EV_BASIC_FUNCTION && b[3] <= 3 &&
                                e->action == b[3] && e->cpu == b[2] &&
                                (b[3] != 2 || h->version >= 2),
                            "accepted a function record of type %u at %" PRIu64, b[3], off);
            func = tc_rd32(b + 4, be);
            tid = tc_rd32(b + 16, be);
            pid = tc_rd32(b + 20, be);
            FUZZ_ASSERT(e->tsc == tc_rd64(b + 8, be));
        } else {
            FUZZ_ASSERT_MSG(rtype == 1 && e->kind == TC_XRAY_EV_BASIC_ARG,
                            "accepted record type %u at %" PRIu64, rtype, off);
            func = tc_rd32(b + 4, be);
            tid = tc_rd32(b + 8, be);
            pid = tc_rd32(b + 12, be);
            FUZZ_ASSERT(e->value == tc_rd64(b + 16, be));
            FUZZ_ASSERT_MSG(i > 0 && func == prev_func && tid == prev_tid &&
                                (h->version < 3 || pid == prev_pid),
                            "accepted an argument payload at %" PRIu64 " after another "
                            "function, thread or process", off);
        }
        FUZZ_ASSERT(e->func_id == func && (uint32_t)e->tid == tid && (uint32_t)e->pid == pid);
        prev_func = func;
        prev_tid = tid;
        prev_pid = pid;
    }
}

static void check_accepted(const fx_run *run, const plain *pl)
{
    FUZZ_ASSERT_MSG(run->have_header && pl->n >= TC_XRAY_HEADER_SIZE,
                    "accepted without a header (%zu bytes)", pl->n);
    const tc_xray_header *h = &run->header;
    if (h->type == 0) {
        check_accepted_basic(run, pl);
        return;
    }
    acc a = {run, 1, h->version, TC_XRAY_HEADER_SIZE};
    if (h->version == 1) {
        FUZZ_ASSERT_MSG(h->buffer_size >= TC_XRAY_MIN_V1_BUFFER &&
                            (pl->n - TC_XRAY_HEADER_SIZE) % h->buffer_size == 0,
                        "accepted a version 1 file of %zu bytes with buffer_size %" PRIu64, pl->n,
                        h->buffer_size);
        while (a.pos < pl->n)
            accepted_buffer(&a, a.pos + h->buffer_size);
    } else {
        while (a.pos < pl->n) {
            const tc_xray_event *e = next_event(&a, "BufferExtents");
            expect_kind(e, TC_XRAY_BUFFER_EXTENTS, "BufferExtents");
            FUZZ_ASSERT_MSG(e->value <= pl->n - a.pos, "accepted BufferExtents %" PRIu64
                            " with %" PRIu64 " bytes left", e->value, pl->n - a.pos);
            accepted_buffer(&a, a.pos + e->value);
        }
    }
    FUZZ_ASSERT_MSG(a.pos == pl->n && a.i == run->nevents,
                    "accepted, but the buffers end at %" PRIu64 " of %zu bytes (%zu of %zu events)",
                    a.pos, pl->n, a.i, run->nevents);
}

/* ---- the harness ---- */

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    plain pl;
    if (!get_plain(&pl, data, size))
        return 0;

    /* Reference runs over memory, one per combination of --pedantic and
     * events. Without events the parser takes its fast path over function
     * records, so comparing the two is a differential test of that path. */
    static const fx_opts opts[4] = {
        {.pedantic = 1, .events = 1, .keep = 1, .dump = 1}, /* base: checked in depth */
        {.pedantic = 1},
        {.events = 1},
        {0},
    };
    static const char *const opt_names[4] = {"pedantic, events", "pedantic", "events", "plain"};
    fx_run ref[4];
    for (int k = 0; k < 4; k++)
        parse_memory(&ref[k], data, size, &opts[k]);
    const fx_run *base = &ref[0];
    check_diagnostics(base, &pl);
    check_events(base, &pl);
    if (base->errors == 0 && !pl.failed)
        check_accepted(base, &pl);
    check_quiet(base, &ref[1]);
    check_not_pedantic(base, &ref[2]);
    check_quiet(&ref[2], &ref[3]);

    fx_run other;
    const fx_opts capped = {.pedantic = 1, .max_repeats = TC_DEFAULT_MAX_REPEATS};
    parse_memory(&other, data, size, &capped);
    check_capped(base, &other);
    fx_run_free(&other);

    /* The other input paths, with window sizes and options picked by the
     * input, so that every combination gets its turn and a failure replays
     * the same way. Odd sizes put window ends everywhere in a record. An
     * mmap window costs two system calls, so mmap gets page-scale windows,
     * on every other input. */
    static const size_t windows[] = {1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 48, 63, 64, 65, 100,
                                     127, 128, 129, 255, 4096};
    static const size_t map_windows[] = {100, 1000, 4095, 4096, 4097, 12288};
    const size_t nw = sizeof windows / sizeof windows[0];
    const size_t nmw = sizeof map_windows / sizeof map_windows[0];
    uint32_t h = fnv1a(data, size);
    for (int kind = 0; kind < 3; kind++) {
        if ((kind == PATH_MMAP && (h & 1)) || (kind == PATH_GZIP && pl.compressed))
            continue; /* gzip around a compressed input would hide its compression */
        size_t w = kind == PATH_MMAP ? map_windows[(h >> 8) % nmw]
                                     : windows[(h >> (8 * kind)) % nw];
        int k = (int)((h >> (24 + 2 * kind)) & 3);
        fx_opts o = opts[k];
        o.keep = o.dump = 0;
        if (!parse_path(&other, kind, data, size, w, &o))
            continue;
        /* A corrupt compressed input: how much a decompressor delivers
         * before it reports the error depends on its output buffer, and a
         * parser that stops early may never reach the error. Such inputs are
         * run on every path (for crashes and leaks) but not compared. */
        int comparable = !pl.failed && !ref[k].read_failed && !other.read_failed;
        const char *diff = comparable ? difference(&ref[k], &other) : NULL;
        fx_run_free(&other);
        if (!diff)
            continue;
        /* Again, keeping everything, to say what differs. */
        char what[96];
        snprintf(what, sizeof what, "%s (window %zu, %s)", path_names[kind], w, opt_names[k]);
        fx_run a, b;
        o.keep = 1;
        parse_memory(&a, data, size, &o);
        parse_path(&b, kind, data, size, w, &o);
        report_difference(&a, &b, what);
    }

    for (int k = 0; k < 4; k++)
        fx_run_free(&ref[k]);
    free(pl.owned);
    return 0;
}
