/*
 * The stand-in ELF dqr is given for a case (dqr.h, docs/dqr.md).
 *
 * dqr writes a perf record's line only when the record's address resolves
 * in the ELF: PerfConverter::emitPerfAddr, emitPerfCntr, emitPerfFnEntry and
 * emitPerfFnExit (src/trace.cpp) return without writing when
 * Disassembler::getSrcLines or getFunctionName (src/dqr.cpp) fails, which it
 * does for an address outside every code section (Disassembler::
 * cacheSrcInfo) and always for address 0 (Symtab::lookupSymbolByAddress).
 * It refuses an ELF without a symbol ("No symtab for process",
 * Trace::buildElfProcess), and two sections of one name crash it (a
 * symbol's section is found by name). The cases come from no program, so
 * the adapter makes an ELF per case: a small code section of nops at each
 * address the case's records carry, one function symbol each.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../parsers/common/diag.h"
#include "../../../parsers/common/parse.h"
#include "../../../parsers/common/reader.h"
#include "../../../parsers/perf/perf.h"
#include "../../../parsers/perf/perf_sm.h"
#include "dqr.h"

/* ---- the addresses of a trace ---- */

typedef struct addr_set {
    uint64_t *v;
    size_t n, cap;
    uint64_t xor_run; /* DeltaXOR: the XOR of the addresses since the header */
    int oom;
} addr_set;

static void add(addr_set *s, uint64_t a)
{
    if (a == 0)
        return; /* never resolved by dqr whatever the ELF holds */
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        uint64_t *v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            s->oom = 1;
            return;
        }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = a;
}

/* dqr keeps one address per core and, in DeltaXOR mode, XORs each address
 * the trace gives into it (PerfConverter::processITCPerf, states
 * perfStateGetAddr and perfStateGetCallSite): the address it prints and
 * looks up is that running XOR, the one it sets to 0 at the header. */
static void on_event(void *user, const void *event)
{
    addr_set *s = user;
    const tc_perf_event *ev = event;
    if (ev->kind == TC_PERF_EV_HEADER)
        s->xor_run = 0;
    if (ev->kind != TC_PERF_EV_RECORD)
        return;
    for (unsigned i = 0; i < ev->n_addresses; i++) {
        add(s, ev->address[i]);
        if (ev->header->count_type == TC_PERF_DELTA_XOR) {
            s->xor_run ^= ev->address[i];
            add(s, s->xor_run);
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

long tc_dqr_trace_addresses(const char *path, uint64_t **out, tc_error *err)
{
    size_t len;
    char *data = tc_conf_read_file(path, &len);
    if (!data) {
        tc_error_set(err, "dqr", "%s: %s", path, strerror(errno));
        return -1;
    }
    tc_reader r;
    tc_reader_init_memory(&r, data, len);
    tc_diag_sink d; /* findings are not wanted here, only the records */
    tc_diag_init(&d, path, TC_DEFAULT_MAX_REPEATS, 0, NULL, NULL);
    addr_set s = {0};
    tc_parse_ctx ctx = {.diags = &d, .on_event = on_event, .user = &s};
    tc_perf_parse(&r, &ctx);
    free(data);
    if (s.oom || d.failed[0]) {
        tc_error_set(err, "dqr", "%s: reading its records for the stand-in ELF: %s", path,
                     d.failed[0] ? d.failed : "out of memory");
        free(s.v);
        return -1;
    }
    if (s.n)
        qsort(s.v, s.n, sizeof *s.v, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < s.n; i++)
        if (!k || s.v[i] != s.v[k - 1])
            s.v[k++] = s.v[i];
    *out = s.v;
    return (long)k;
}

/* ---- the ELF ---- */

/* Each address gets [address, address + SPAN); ranges closer than GAP
 * bytes become one section. Past MAX_SECTIONS (section indexes stay below
 * SHN_LORESERVE) the gap doubles until they fit. */
#define SPAN 8u
#define GAP 64u
#define MAX_SECTIONS 60000u
/* The fixed section: there is always a symbol. */
#define ANCHOR 0x1000u

typedef struct range {
    uint64_t lo, hi;
} range;

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
    int oom;
} buf;

static void put(buf *b, const void *data, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_le(buf *b, uint64_t v, unsigned bytes)
{
    unsigned char c[8];
    for (unsigned i = 0; i < bytes; i++)
        c[i] = (unsigned char)(v >> (8 * i));
    put(b, c, bytes);
}

static void align8(buf *b)
{
    while (b->len % 8)
        put_le(b, 0, 1);
}

/* Merges the addresses (sorted) into ranges whose gaps are at least gap. */
static size_t make_ranges(const uint64_t *addr, size_t n, uint64_t gap, range *out)
{
    size_t k = 0;
    uint64_t anchor = ANCHOR;
    size_t i = 0;
    int anchor_done = 0;
    while (i < n || !anchor_done) {
        uint64_t a;
        if (!anchor_done && (i == n || anchor <= addr[i])) {
            a = anchor;
            anchor_done = 1;
        } else {
            a = addr[i++];
        }
        if (a > UINT64_MAX - SPAN - gap - 8)
            continue; /* no room for a section there */
        a &= ~(uint64_t)1;
        uint64_t hi = a + SPAN;
        if (k && a <= out[k - 1].hi + gap) {
            if (hi > out[k - 1].hi)
                out[k - 1].hi = hi;
        } else {
            out[k].lo = a;
            out[k].hi = hi;
            k++;
        }
    }
    for (size_t j = 0; j < k; j++) /* whole 4-byte nops */
        out[j].hi = out[j].lo + ((out[j].hi - out[j].lo + 3) & ~(uint64_t)3);
    return k;
}

/* One section header. */
static void shdr(buf *b, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
                 uint64_t off, uint64_t size, uint32_t link, uint32_t info, uint64_t align,
                 uint64_t entsize)
{
    put_le(b, name, 4);
    put_le(b, type, 4);
    put_le(b, flags, 8);
    put_le(b, addr, 8);
    put_le(b, off, 8);
    put_le(b, size, 8);
    put_le(b, link, 4);
    put_le(b, info, 4);
    put_le(b, align, 8);
    put_le(b, entsize, 8);
}

int tc_dqr_write_elf(const char *path, const uint64_t *addr, size_t n, tc_error *err)
{
    range *rg = malloc((n + 1) * sizeof *rg);
    if (!rg) {
        tc_error_set(err, "dqr", "out of memory for %zu sections", n + 1);
        return -1;
    }
    size_t k;
    for (uint64_t gap = GAP;; gap *= 2)
        if ((k = make_ranges(addr, n, gap, rg)) <= MAX_SECTIONS)
            break;

    /* Section names: .text.0 .. .text.K-1, then the symbol tables'. */
    buf shstr = {0}, strtab = {0}, symtab = {0}, code = {0}, out = {0};
    uint32_t *name = malloc((k + 1) * sizeof *name);
    if (!name) {
        free(rg);
        tc_error_set(err, "dqr", "out of memory for %zu sections", k);
        return -1;
    }
    put_le(&shstr, 0, 1);
    put_le(&strtab, 0, 1);
    put(&symtab, (const unsigned char[24]){0}, 24);
    uint64_t code_off = 64;
    for (size_t i = 0; i < k; i++) {
        char s[48];
        name[i] = (uint32_t)shstr.len;
        int len = snprintf(s, sizeof s, ".text.%zu", i);
        put(&shstr, s, (size_t)len + 1);
        /* A function symbol over the whole section. */
        uint32_t sym_name = (uint32_t)strtab.len;
        len = snprintf(s, sizeof s, "f_%llx", (unsigned long long)rg[i].lo);
        put(&strtab, s, (size_t)len + 1);
        put_le(&symtab, sym_name, 4);
        put_le(&symtab, 0x12, 1); /* STB_GLOBAL, STT_FUNC */
        put_le(&symtab, 0, 1);
        put_le(&symtab, i + 1, 2);
        put_le(&symtab, rg[i].lo, 8);
        put_le(&symtab, rg[i].hi - rg[i].lo, 8);
        for (uint64_t a = rg[i].lo; a < rg[i].hi; a += 4)
            put_le(&code, 0x00000013, 4); /* nop */
    }
    uint32_t n_symtab = (uint32_t)shstr.len;
    put(&shstr, ".symtab", 8);
    uint32_t n_strtab = (uint32_t)shstr.len;
    put(&shstr, ".strtab", 8);
    uint32_t n_shstrtab = (uint32_t)shstr.len;
    put(&shstr, ".shstrtab", 10);

    uint64_t sym_off = code_off + code.len;
    sym_off = (sym_off + 7) & ~(uint64_t)7;
    uint64_t str_off = sym_off + symtab.len;
    uint64_t shs_off = str_off + strtab.len;
    uint64_t sh_off = (shs_off + shstr.len + 7) & ~(uint64_t)7;
    uint64_t sections = k + 4; /* null, code, .symtab, .strtab, .shstrtab */

    /* ELF header: ELFCLASS64, little-endian, ET_EXEC, EM_RISCV. */
    put(&out, "\177ELF\2\1\1", 7);
    put(&out, (const unsigned char[9]){0}, 9);
    put_le(&out, 2, 2);
    put_le(&out, 243, 2);
    put_le(&out, 1, 4);
    put_le(&out, rg[0].lo, 8);
    put_le(&out, 0, 8);
    put_le(&out, sh_off, 8);
    put_le(&out, 0, 4);
    put_le(&out, 64, 2);
    put_le(&out, 56, 2);
    put_le(&out, 0, 2);
    put_le(&out, 64, 2);
    put_le(&out, sections, 2);
    put_le(&out, sections - 1, 2);
    put(&out, code.p, code.len);
    align8(&out);
    put(&out, symtab.p, symtab.len);
    put(&out, strtab.p, strtab.len);
    put(&out, shstr.p, shstr.len);
    align8(&out);
    shdr(&out, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    uint64_t off = code_off;
    for (size_t i = 0; i < k; i++) {
        /* SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR: objdump calls it CODE. */
        shdr(&out, name[i], 1, 6, rg[i].lo, off, rg[i].hi - rg[i].lo, 0, 0, 4, 0);
        off += rg[i].hi - rg[i].lo;
    }
    shdr(&out, n_symtab, 2, 0, 0, sym_off, symtab.len, (uint32_t)k + 2, 1, 8, 24);
    shdr(&out, n_strtab, 3, 0, 0, str_off, strtab.len, 0, 0, 1, 0);
    shdr(&out, n_shstrtab, 3, 0, 0, shs_off, shstr.len, 0, 0, 1, 0);

    int rc = -1;
    if (out.oom || shstr.oom || strtab.oom || symtab.oom || code.oom) {
        tc_error_set(err, "dqr", "out of memory for the stand-in ELF (%zu sections)", k);
    } else {
        FILE *f = fopen(path, "wb");
        int ok = f && fwrite(out.p, 1, out.len, f) == out.len;
        if (f && fclose(f) != 0)
            ok = 0;
        if (ok)
            rc = 0;
        else
            tc_error_set(err, "dqr", "%s: %s", path, strerror(errno));
    }
    free(rg);
    free(name);
    free(shstr.p);
    free(strtab.p);
    free(symtab.p);
    free(code.p);
    free(out.p);
    return rc;
}
