/*
 * The XRay mutator (see xray_mutator.h). Layout facts are spec/xray/xray.md's:
 * the header is u16 version, u16 type, u32 bitfield, u64 cycle frequency,
 * then (FDR) u64 buffer_size, in the writer's byte order. An FDR record's
 * first byte tells metadata (bit 0, or bit 7 big-endian) and its kind (the
 * other bits); a function record is a u32 word (action and function id) and
 * a u32 TSC delta; custom (kind 5) and typed (kind 8) events carry an i32
 * size at byte 1 and that many payload bytes after their 16. Basic-mode
 * records are 32 bytes: u16 record type, then (type 0) u8 cpu, u8 type,
 * i32 function, u64 TSC, u32 tid, u32 pid, or (type 1) 2 bytes, i32
 * function, u32 tid, u32 pid, u64 argument; 8 bytes of padding.
 */
#include <stdlib.h>
#include <string.h>

#include "xray_mutator.h"

#define HEADER 32
#define META 16
#define FUNC 8
#define BASIC 32
#define MAX_RECORDS 2048

enum { NEW_BUFFER, END_OF_BUFFER, NEW_CPU, TSC_WRAP, WALL_TIME, CUSTOM, CALL_ARG, EXTENTS,
       TYPED, PID };

typedef struct rec {
    uint8_t *p;
    size_t n;
    int owned; /* p is an allocation of its own, not a place in the file's copy */
} rec;

typedef struct xfile {
    uint8_t header[HEADER];
    int be, basic;
    unsigned version;
    rec *r;
    size_t n;
    uint8_t *copy; /* the input's bytes, which the records read point into */
    uint8_t *tail;
    size_t tail_len;
} xfile;

/* ---- reading and writing ---- */

static int plausible(unsigned version, unsigned type)
{
    return (type == 1 && version >= 1 && version <= 5) || (type == 0 && version >= 1 && version <= 3);
}

static uint8_t *copy_of(const uint8_t *p, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (d && n)
        memcpy(d, p, n);
    return d;
}

static int is_meta(const xfile *f, uint8_t b0) { return f->be ? b0 >> 7 : b0 & 1; }
static unsigned kind_of(const xfile *f, uint8_t b0) { return f->be ? b0 & 0x7fu : b0 >> 1u; }
static uint8_t tag(const xfile *f, unsigned kind)
{
    return f->be ? (uint8_t)(0x80u | kind) : (uint8_t)(kind << 1 | 1u);
}

static void file_free(xfile *f)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->r[i].owned)
            free(f->r[i].p);
    free(f->r);
    free(f->copy);
    free(f->tail);
}

/* A record read from the input: a place in the file's copy (one allocation
 * for the file, not one per record: under ASan each costs a stack trace). */
static void add(xfile *f, uint8_t *p, size_t n) { f->r[f->n++] = (rec){p, n, 0}; }

/* Returns 0 when data is no XRay file (or memory ran out). */
static int file_read(xfile *f, const uint8_t *data, size_t size)
{
    memset(f, 0, sizeof *f);
    if (size < HEADER)
        return 0;
    if (plausible((unsigned)mut_rd(data, 2, 0), (unsigned)mut_rd(data + 2, 2, 0)))
        f->be = 0;
    else if (plausible((unsigned)mut_rd(data, 2, 1), (unsigned)mut_rd(data + 2, 2, 1)))
        f->be = 1;
    else
        return 0;
    memcpy(f->header, data, HEADER);
    f->version = (unsigned)mut_rd(data, 2, f->be);
    f->basic = mut_rd(data + 2, 2, f->be) == 0;
    f->r = malloc(MAX_RECORDS * sizeof *f->r);
    f->copy = copy_of(data, size);
    if (!f->r || !f->copy) {
        file_free(f);
        return 0;
    }
    size_t pos = HEADER;
    while (pos < size && f->n < MAX_RECORDS) {
        size_t left = size - pos, len;
        if (f->basic) {
            len = BASIC;
        } else if (!is_meta(f, data[pos])) {
            len = FUNC;
        } else {
            len = META;
            unsigned k = kind_of(f, data[pos]);
            if ((k == CUSTOM || k == TYPED) && left >= META) {
                int32_t s = (int32_t)mut_rd(data + pos + 1, 4, f->be);
                if (s > 0)
                    len += (size_t)s < left - META ? (size_t)s : left - META;
            }
        }
        if (len > left)
            break;
        add(f, f->copy + pos, len);
        pos += len;
    }
    f->tail_len = size - pos;
    f->tail = copy_of(data + pos, f->tail_len);
    if (!f->tail) {
        file_free(f);
        return 0;
    }
    return 1;
}

static size_t file_write(const xfile *f, uint8_t *out, size_t max)
{
    size_t at = mut_put(out, 0, max, f->header, HEADER);
    for (size_t i = 0; i < f->n; i++)
        at = mut_put(out, at, max, f->r[i].p, f->r[i].n);
    return mut_put(out, at, max, f->tail, f->tail_len);
}

/* ---- structural changes ---- */

static int insert_at(xfile *f, size_t at, const uint8_t *p, size_t n)
{
    if (f->n >= MAX_RECORDS)
        return 0;
    uint8_t *c = copy_of(p, n);
    if (!c)
        return 0;
    memmove(f->r + at + 1, f->r + at, (f->n - at) * sizeof *f->r);
    f->r[at] = (rec){c, n, 1};
    f->n++;
    return 1;
}

static void remove_at(xfile *f, size_t at)
{
    if (f->r[at].owned)
        free(f->r[at].p);
    memmove(f->r + at, f->r + at + 1, (f->n - at - 1) * sizeof *f->r);
    f->n--;
}

/* From version 2 a buffer is what its BufferExtents frames: each one's n
 * set to the bytes up to the next BufferExtents (or the end). */
static void fix_extents(xfile *f)
{
    if (f->basic || f->version < 2)
        return;
    for (size_t i = 0; i < f->n; i++) {
        if (f->r[i].n < META || !is_meta(f, f->r[i].p[0]) || kind_of(f, f->r[i].p[0]) != EXTENTS)
            continue;
        uint64_t bytes = 0;
        size_t j = i + 1;
        for (; j < f->n; j++) {
            if (f->r[j].n >= META && is_meta(f, f->r[j].p[0]) &&
                kind_of(f, f->r[j].p[0]) == EXTENTS)
                break;
            bytes += f->r[j].n;
        }
        if (j == f->n)
            bytes += f->tail_len;
        mut_wr(f->r[i].p + 1, bytes, 8, f->be);
    }
}

/* A record of a function that appears in the file, or a small id. */
static uint32_t some_function(const xfile *f, mut_rng *g)
{
    for (int tries = 0; tries < 8 && f->n; tries++) {
        const rec *r = &f->r[mut_below(g, f->n)];
        if (f->basic && r->n == BASIC)
            return (uint32_t)mut_rd(r->p + 4, 4, f->be);
        if (!f->basic && r->n == FUNC) {
            uint32_t w = (uint32_t)mut_rd(r->p, 4, f->be);
            return f->be ? w & 0x0fffffffu : w >> 4;
        }
    }
    return (uint32_t)mut_below(g, 8);
}

static void put_function(const xfile *f, uint8_t *b, unsigned action, uint32_t fid,
                         uint32_t delta)
{
    uint32_t w = f->be ? (action & 7u) << 28 | (fid & 0x0fffffffu) : fid << 4 | (action & 7u) << 1;
    mut_wr(b, w, 4, f->be);
    mut_wr(b + 4, delta, 4, f->be);
}

/* ---- FDR ---- */

/* A metadata record of the kind with plausible fields (and a payload). */
static size_t make_meta(const xfile *f, mut_rng *g, unsigned kind, uint8_t *b)
{
    memset(b, 0, META + 64);
    b[0] = tag(f, kind);
    switch (kind) {
    case NEW_BUFFER:
    case PID: mut_wr(b + 1, mut_below(g, 4) ? 1 + mut_below(g, 8) : mut_next(g), 4, f->be); break;
    case NEW_CPU:
        mut_wr(b + 1, mut_below(g, 4), 2, f->be);
        mut_wr(b + 3, mut_below(g, 2) ? 1000 + mut_below(g, 1000) : mut_next(g), 8, f->be);
        break;
    case TSC_WRAP:
    case CALL_ARG: mut_wr(b + 1, mut_edge_value(g, 1000), 8, f->be); break;
    case WALL_TIME: {
        static const uint32_t usec[] = {0, 1, 999999, 1000000, 0xffffffffu};
        mut_wr(b + 1, mut_below(g, 1u << 30), 8, f->be);
        mut_wr(b + 9, mut_below(g, 2) ? usec[mut_below(g, 5)] : mut_below(g, 1000000), 4, f->be);
        break;
    }
    case CUSTOM:
    case TYPED: {
        size_t len = mut_below(g, 3) ? mut_below(g, 17) : mut_below(g, 65);
        mut_wr(b + 1, len, 4, f->be);
        mut_wr(b + 5, mut_below(g, 100), 4, f->be);
        if (kind == TYPED)
            mut_wr(b + 9, mut_below(g, 4), 2, f->be);
        for (size_t i = 0; i < len; i++)
            b[META + i] = (uint8_t)mut_next(g);
        return META + len;
    }
    case EXTENTS: mut_wr(b + 1, mut_below(g, 256), 8, f->be); break;
    default: break;
    }
    return META;
}

/* NewBuffer, WallTimeMarker, PIDEntry (version 3+), NewCPUId, after a
 * BufferExtents from version 2: a buffer's start. */
static void insert_preamble(xfile *f, mut_rng *g, size_t at)
{
    static const unsigned kinds[] = {EXTENTS, NEW_BUFFER, WALL_TIME, PID, NEW_CPU};
    uint8_t b[META + 64];
    for (size_t k = f->version >= 2 ? 0 : 1; k < 5; k++) {
        if (kinds[k] == PID && f->version < 3)
            continue;
        size_t n = make_meta(f, g, kinds[k], b);
        if (kinds[k] == WALL_TIME)
            mut_wr(b + 9, mut_below(g, 1000000), 4, f->be);
        if (insert_at(f, at, b, n))
            at++;
    }
}

static void mutate_fdr_field(xfile *f, mut_rng *g, rec *r)
{
    uint8_t *b = r->p;
    if (r->n < FUNC || (r->n > FUNC && r->n < META))
        return; /* cut short: bytes, not a record */
    if (r->n == FUNC) {
        uint32_t w = (uint32_t)mut_rd(b, 4, f->be);
        unsigned action = f->be ? (w >> 28) & 7u : (w >> 1) & 7u;
        uint32_t fid = f->be ? w & 0x0fffffffu : w >> 4;
        uint32_t delta = (uint32_t)mut_rd(b + 4, 4, f->be);
        switch (mut_below(g, 4)) {
        case 0: action = mut_below(g, 5) ? (unsigned)mut_below(g, 4) : (unsigned)mut_below(g, 8); break;
        case 1: fid = some_function(f, g); break;
        case 2: delta = (uint32_t)mut_edge_value(g, delta); break;
        default: action ^= 1; break; /* entry <-> exit, tail exit <-> entry with arguments */
        }
        put_function(f, b, action, fid, delta);
        return;
    }
    unsigned kind = kind_of(f, b[0]);
    if (mut_one_in(g, 6)) { /* another kind, now and then one that does not exist */
        b[0] = tag(f, mut_below(g, 8) ? (unsigned)mut_below(g, 10) : (unsigned)mut_below(g, 128));
        return;
    }
    switch (kind) {
    case CUSTOM:
    case TYPED: {
        int64_t room = (int64_t)(r->n - META);
        static const int32_t edges[] = {-1, 0, 1, 16, 17, INT32_MIN, INT32_MAX};
        int32_t s = (int32_t)mut_rd(b + 1, 4, f->be);
        switch (mut_below(g, 4)) {
        case 0: s = (int32_t)(room + 1 + (int64_t)mut_below(g, 17)); break; /* past its room */
        case 1: s = edges[mut_below(g, 7)]; break;
        case 2: /* wraps at the ends of the range, as the runtime's int32 would */
            s = (int32_t)((uint32_t)s + (mut_below(g, 2) ? 16u : (uint32_t)-16));
            break;
        default: mut_wr(b + 5, mut_edge_value(g, mut_rd(b + 5, 4, f->be)), 4, f->be); return;
        }
        mut_wr(b + 1, (uint32_t)s, 4, f->be);
        return;
    }
    case EXTENTS: {
        uint64_t n = mut_rd(b + 1, 8, f->be);
        uint64_t size = mut_rd(f->header + 16, 8, f->be);
        static const int64_t nudge[] = {-16, -8, 8, 16};
        switch (mut_below(g, 4)) {
        case 0: n += (uint64_t)nudge[mut_below(g, 4)]; break;
        case 1: n = size - 16 + mut_below(g, 3) * 8; break; /* at buffer_size's edge */
        case 2: n = mut_edge_value(g, n); break;
        default: fix_extents(f); return;
        }
        mut_wr(b + 1, n, 8, f->be);
        return;
    }
    case WALL_TIME: {
        static const uint32_t usec[] = {999999, 1000000, 0xffffffffu, 0};
        mut_wr(b + 9, usec[mut_below(g, 4)], 4, f->be);
        return;
    }
    case NEW_CPU:
        if (mut_below(g, 2))
            mut_wr(b + 1, mut_below(g, 8), 2, f->be);
        else
            mut_wr(b + 3, mut_edge_value(g, mut_rd(b + 3, 8, f->be)), 8, f->be);
        return;
    default: {
        /* Reserved bytes, or the first field. */
        size_t at = 1 + mut_below(g, 15);
        b[at] = mut_below(g, 2) ? 0 : (uint8_t)mut_next(g);
        return;
    }
    }
}

static void mutate_fdr(xfile *f, mut_rng *g)
{
    uint8_t b[META + 64];
    size_t at = mut_below(g, f->n + 1);
    int framing = 0;
    switch (mut_below(g, 12)) {
    case 0:
    case 1:
        if (f->n)
            mutate_fdr_field(f, g, &f->r[mut_below(g, f->n)]);
        break;
    case 2:
        if (f->n) {
            remove_at(f, mut_below(g, f->n));
            framing = 1;
        }
        break;
    case 3:
        if (f->n) {
            const rec *r = &f->r[mut_below(g, f->n)];
            uint8_t *c = copy_of(r->p, r->n);
            if (c) {
                insert_at(f, at, c, r->n);
                free(c);
            }
            framing = 1;
        }
        break;
    case 4: { /* a metadata record of any kind */
        size_t n = make_meta(f, g, (unsigned)mut_below(g, 10), b);
        insert_at(f, at, b, n);
        framing = 1;
        break;
    }
    case 5:
    case 6: { /* an entry, and later its exit (or another function's) */
        uint32_t fid = some_function(f, g);
        uint8_t fb[FUNC];
        put_function(f, fb, mut_below(g, 4) ? 0 : 3, fid, (uint32_t)mut_below(g, 64));
        insert_at(f, at, fb, FUNC);
        size_t later = at + 1 + mut_below(g, f->n - at);
        put_function(f, fb, mut_below(g, 4) ? 1 : 2, mut_below(g, 3) ? fid : some_function(f, g),
                     (uint32_t)mut_below(g, 64));
        insert_at(f, later, fb, FUNC);
        framing = 1;
        break;
    }
    case 7:
        insert_preamble(f, g, at);
        framing = 1;
        break;
    case 8:
        if (f->n > 1) { /* move a record */
            size_t from = mut_below(g, f->n);
            rec r = f->r[from];
            memmove(f->r + from, f->r + from + 1, (f->n - from - 1) * sizeof *f->r);
            size_t to = mut_below(g, f->n);
            memmove(f->r + to + 1, f->r + to, (f->n - 1 - to) * sizeof *f->r);
            f->r[to] = r;
            framing = 1;
        }
        break;
    case 9: { /* the header */
        if (mut_below(g, 2)) {
            f->version = 1 + (unsigned)mut_below(g, 5);
            mut_wr(f->header, f->version, 2, f->be);
        } else {
            static const uint64_t sizes[] = {48, 64, 72, 80, 112, 4096};
            uint64_t s = mut_below(g, 2) ? sizes[mut_below(g, 6)]
                                         : mut_edge_value(g, mut_rd(f->header + 16, 8, f->be));
            mut_wr(f->header + 16, s, 8, f->be);
        }
        break;
    }
    case 10: /* cut */
        while (f->n > at)
            remove_at(f, f->n - 1);
        f->tail_len = mut_below(g, f->tail_len + 1);
        if (mut_below(g, 2) && f->n) {
            rec *r = &f->r[f->n - 1];
            r->n = mut_below(g, r->n);
        }
        break;
    default:
        fix_extents(f);
        break;
    }
    if (framing && mut_below(g, 3))
        fix_extents(f);
}

/* ---- basic mode ---- */

static void mutate_basic(xfile *f, mut_rng *g)
{
    uint8_t b[BASIC];
    size_t at = mut_below(g, f->n + 1);
    rec *r = f->n ? &f->r[mut_below(g, f->n)] : NULL;
    const rec *o = f->n ? &f->r[mut_below(g, f->n)] : NULL; /* fields to copy from */
    switch (mut_below(g, 12)) {
    case 0: /* record type */
        if (r)
            mut_wr(r->p, mut_below(g, 4) ? mut_below(g, 2) : mut_edge_value(g, 1), 2, f->be);
        break;
    case 1: /* function type, EnterArg and TailExit included */
        if (r)
            r->p[3] = mut_below(g, 5) ? (uint8_t)mut_below(g, 4) : (uint8_t)mut_next(g);
        break;
    case 2: /* another record's function, thread or process */
        if (r && o && r->n == BASIC && o->n == BASIC) {
            size_t field = 4 + 4 * mut_below(g, 5); /* 4, 8, 12, 16, 20 */
            memcpy(r->p + field, o->p + field, 4);
        }
        break;
    case 3: /* a TSC that goes back, or stays */
        if (r && r->n == BASIC) {
            uint64_t tsc = mut_rd(r->p + 8, 8, f->be);
            mut_wr(r->p + 8, mut_below(g, 2) ? tsc - 1 - mut_below(g, 100) : mut_edge_value(g, tsc),
                   8, f->be);
        }
        break;
    case 4: /* padding, or a process id before version 3 */
        if (r && r->n == BASIC)
            r->p[mut_below(g, 2) ? 24 + mut_below(g, 8) : 2 + mut_below(g, 2)] =
                (uint8_t)(1 + mut_below(g, 255));
        break;
    case 5: /* an argument payload after a record (of its function or not) */
        if (r && r->n == BASIC) {
            memset(b, 0, sizeof b);
            mut_wr(b, 1, 2, f->be);
            memcpy(b + 4, r->p + 4, 4);
            memcpy(b + 8, r->p + 16, 8); /* tid, pid */
            mut_wr(b + 16, mut_edge_value(g, 0), 8, f->be);
            if (mut_one_in(g, 4))
                b[4 + 4 * mut_below(g, 3)] ^= 1;
            insert_at(f, (size_t)(r - f->r) + 1, b, BASIC);
        }
        break;
    case 6: /* the exit of an entry, later (matching or not) */
        if (r && r->n == BASIC && mut_rd(r->p, 2, f->be) == 0) {
            memcpy(b, r->p, BASIC);
            b[3] = mut_below(g, 4) ? 1 : 2;
            if (mut_one_in(g, 3))
                mut_wr(b + 4, some_function(f, g), 4, f->be);
            mut_wr(b + 8, mut_rd(r->p + 8, 8, f->be) + mut_below(g, 50), 8, f->be);
            size_t i = (size_t)(r - f->r) + 1;
            insert_at(f, i + mut_below(g, f->n - i + 1), b, BASIC);
        }
        break;
    case 7:
        if (r)
            remove_at(f, (size_t)(r - f->r));
        break;
    case 8:
        if (r && r->n == BASIC) {
            memcpy(b, r->p, BASIC);
            insert_at(f, at, b, BASIC);
        }
        break;
    case 9: /* the header: version, or the type */
        if (mut_below(g, 4)) {
            f->version = 1 + (unsigned)mut_below(g, 3);
            mut_wr(f->header, f->version, 2, f->be);
        } else {
            mut_wr(f->header + 2, mut_below(g, 2), 2, f->be);
        }
        break;
    case 10: /* cut, maybe inside a record */
        while (f->n > at)
            remove_at(f, f->n - 1);
        f->tail_len = mut_below(g, f->tail_len + 1);
        if (mut_below(g, 2) && f->n)
            f->r[f->n - 1].n = mut_below(g, BASIC);
        break;
    default: /* any field's byte, at an edge */
        if (r && r->n)
            r->p[mut_below(g, r->n)] = (uint8_t)mut_edge_value(g, 0);
        break;
    }
}

/* ---- entry points ---- */

size_t xray_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   mut_bytes_fn bytes)
{
    mut_rng g;
    mut_seed(&g, seed);
    xfile f;
    if (mut_one_in(&g, 5) || !file_read(&f, data, size))
        return mut_bytes(data, size, max_size, &g, bytes);
    for (size_t k = 1 + mut_below(&g, 3); k > 0; k--) {
        if (f.basic)
            mutate_basic(&f, &g);
        else
            mutate_fdr(&f, &g);
    }
    size_t n = file_write(&f, data, max_size);
    file_free(&f);
    return n;
}

size_t xray_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed)
{
    mut_rng g;
    mut_seed(&g, seed);
    xfile x, y;
    if (!file_read(&x, a, na)) {
        size_t n = na < max_size ? na : max_size;
        memcpy(out, a, n);
        return n;
    }
    if (!file_read(&y, b, nb)) {
        size_t n = file_write(&x, out, max_size);
        file_free(&x);
        return n;
    }
    size_t keep = mut_below(&g, x.n + 1), from = mut_below(&g, y.n + 1);
    size_t at = mut_put(out, 0, max_size, x.header, HEADER);
    for (size_t i = 0; i < keep; i++)
        at = mut_put(out, at, max_size, x.r[i].p, x.r[i].n);
    for (size_t i = from; i < y.n; i++)
        at = mut_put(out, at, max_size, y.r[i].p, y.r[i].n);
    at = mut_put(out, at, max_size, y.tail, y.tail_len);
    file_free(&x);
    file_free(&y);
    return at;
}
