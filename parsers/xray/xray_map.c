/*
 * The instrumentation map of an ELF file, read through elfutils' libelf
 * (xray_map.h). The layout follows what LLVM writes and reads
 * (spec/xray/xray.md, "The program's binary"): 32-byte sled entries {u64
 * address, u64 function, u8 kind, u8 always_instrument, u8 version, 13
 * bytes of padding}, PC-relative from version 2 on, absolute before it
 * (and then, in a position-independent file, zero with a relative
 * relocation that holds the address).
 */
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/elf_symbols.h"
#include "xray_map.h"

#define SLED_SIZE 32
#define FN_IDX_SIZE 16

static const char *const kind_names[TC_XRAY_SLED_KINDS] = {
    "function-enter", "function-exit", "tail-exit", "log-args-enter", "custom-event", "typed-event",
};

const char *tc_xray_sled_kind_name(unsigned kind)
{
    return kind < TC_XRAY_SLED_KINDS ? kind_names[kind] : "unknown";
}

/* ---- what is read from the file, before the map is built ---- */

typedef struct section {
    uint64_t addr;
    const uint8_t *p;
    size_t size;
} section;

typedef struct reloc { /* a relative relocation: the word at offset holds addend */
    uint64_t offset, addend;
} reloc;

typedef struct reading {
    Elf *e;
    int be;
    section map, idx;
    int have_map, have_idx;
    reloc *relocs;
    size_t nrelocs;
    tc_elf_functions *fns; /* the file's function symbols, which name the functions */
    char *why;
    size_t whysize;
} reading;

static int fail(reading *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(reading *rd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->why, rd->whysize, fmt, ap);
    va_end(ap);
    return -1;
}

static uint64_t rd64(const reading *rd, const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[rd->be ? 7 - i : i] << (8 * i);
    return v;
}

static int by_offset(const void *a, const void *b)
{
    const reloc *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The relative relocation type of the machine, or 0 when not known. */
static unsigned relative_type(unsigned machine)
{
    switch (machine) {
    case EM_X86_64: return 8;     /* R_X86_64_RELATIVE */
    case EM_AARCH64: return 1027; /* R_AARCH64_RELATIVE */
    case EM_PPC64: return 22;     /* R_PPC64_RELATIVE */
    case EM_RISCV: return 3;      /* R_RISCV_RELATIVE */
    default: return 0;
    }
}

static const uint8_t *section_bytes(Elf_Scn *scn, size_t *size)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    *size = d ? d->d_size : 0;
    return d ? d->d_buf : NULL;
}

static int add_relocs(reading *rd, Elf_Scn *scn, const GElf_Shdr *sh, unsigned type)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || !sh->sh_entsize || !type)
        return 0;
    size_t n = sh->sh_size / sh->sh_entsize;
    reloc *grown = realloc(rd->relocs, (rd->nrelocs + n) * sizeof *grown);
    if (!grown && n)
        return fail(rd, "out of memory");
    rd->relocs = grown;
    for (size_t i = 0; i < n; i++) {
        GElf_Rela r;
        if (gelf_getrela(d, (int)i, &r) && GELF_R_TYPE(r.r_info) == type)
            rd->relocs[rd->nrelocs++] = (reloc){r.r_offset, (uint64_t)r.r_addend};
    }
    return 0;
}

/* The sections this needs: the map, the index and relative relocations
 * (the function symbols: elf_symbols.c). */
static int read_sections(reading *rd)
{
    GElf_Ehdr eh;
    size_t shstrndx;
    if (!gelf_getehdr(rd->e, &eh) || elf_getshdrstrndx(rd->e, &shstrndx) != 0)
        return fail(rd, "an ELF file whose headers cannot be read (%s)", elf_errmsg(-1));
    rd->be = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    unsigned type = relative_type(eh.e_machine);
    for (Elf_Scn *scn = elf_nextscn(rd->e, NULL); scn; scn = elf_nextscn(rd->e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *name = elf_strptr(rd->e, shstrndx, sh.sh_name);
        if (!name)
            continue;
        if (!strcmp(name, "xray_instr_map") || !strcmp(name, "xray_fn_idx")) {
            section *s = name[5] == 'i' ? &rd->map : &rd->idx;
            if (sh.sh_type == SHT_NOBITS)
                return fail(rd, "its %s section has no contents in the file", name);
            s->addr = sh.sh_addr;
            s->p = section_bytes(scn, &s->size);
            if (!s->p && sh.sh_size)
                return fail(rd, "its %s section cannot be read (%s)", name, elf_errmsg(-1));
            *(s == &rd->map ? &rd->have_map : &rd->have_idx) = 1;
        } else if (sh.sh_type == SHT_RELA) {
            if (add_relocs(rd, scn, &sh, type) != 0)
                return -1;
        }
    }
    qsort(rd->relocs, rd->nrelocs, sizeof *rd->relocs, by_offset);
    rd->fns = tc_elf_functions_read(rd->e, rd->why, rd->whysize);
    return rd->fns ? 0 : -1;
}

/* A word that is 0 in the file and filled in by the loader: the addend of
 * the relative relocation at addr (0 when there is none). */
static uint64_t relocated(const reading *rd, uint64_t addr, uint64_t value)
{
    if (value)
        return value;
    reloc key = {addr, 0};
    const reloc *r = bsearch(&key, rd->relocs, rd->nrelocs, sizeof key, by_offset);
    return r ? r->addend : 0;
}

/* ---- the map ---- */

static int read_sleds(reading *rd, tc_xray_map *m)
{
    const section *s = &rd->map;
    if (s->size % SLED_SIZE)
        return fail(rd, "its xray_instr_map section has %zu bytes, not a whole number of "
                        "%d-byte sled entries", s->size, SLED_SIZE);
    m->nsleds = s->size / SLED_SIZE;
    m->sleds = calloc(m->nsleds ? m->nsleds : 1, sizeof *m->sleds);
    if (!m->sleds)
        return fail(rd, "out of memory");
    m->min_version = 255;
    for (size_t i = 0; i < m->nsleds; i++) {
        const uint8_t *p = s->p + i * SLED_SIZE;
        uint64_t at = s->addr + i * SLED_SIZE;
        tc_xray_sled *sl = &m->sleds[i];
        sl->kind = p[16];
        sl->always = p[17];
        sl->version = p[18];
        if (sl->kind >= TC_XRAY_SLED_KINDS)
            return fail(rd, "sled entry %zu of its xray_instr_map has kind %u; kinds 0 to 5 "
                            "are defined", i, sl->kind);
        if (sl->version >= 2) { /* relative to the field's own address */
            sl->address = rd64(rd, p) + at;
            sl->function = rd64(rd, p + 8) + at + 8;
        } else {
            sl->address = relocated(rd, at, rd64(rd, p));
            sl->function = relocated(rd, at + 8, rd64(rd, p + 8));
        }
        if (sl->version < m->min_version)
            m->min_version = sl->version;
        if (sl->version > m->max_version)
            m->max_version = sl->version;
    }
    if (!m->nsleds)
        m->min_version = 0;
    return 0;
}

/* The sled index an address in xray_instr_map is the entry of; -1 when it
 * is outside it or not at an entry's start. */
static long long sled_at(const reading *rd, uint64_t addr)
{
    uint64_t off = addr - rd->map.addr;
    if (addr < rd->map.addr || off > rd->map.size || off % SLED_SIZE)
        return -1;
    return (long long)(off / SLED_SIZE);
}

/* The sled range [*b, *e) of index entry i in the given layout; 0 when the
 * entry does not fit it. */
static int idx_entry(const reading *rd, size_t i, tc_xray_fn_idx layout, long long *b,
                     long long *e)
{
    const uint8_t *p = rd->idx.p + i * FN_IDX_SIZE;
    uint64_t at = rd->idx.addr + i * FN_IDX_SIZE;
    uint64_t x = rd64(rd, p), y = rd64(rd, p + 8);
    if (layout == TC_XRAY_FN_IDX_RELATIVE) {
        *b = sled_at(rd, at + x);
        *e = *b >= 0 && y <= rd->map.size / SLED_SIZE ? *b + (long long)y : -1;
    } else {
        *b = sled_at(rd, relocated(rd, at, x));
        *e = sled_at(rd, relocated(rd, at + 8, y));
    }
    return *b >= 0 && *e > *b && (uint64_t)*e <= rd->map.size / SLED_SIZE;
}

static int add_function(tc_xray_map *m, size_t first, size_t count)
{
    tc_xray_function *f = &m->functions[m->nfunctions++];
    f->address = m->sleds[first].function;
    f->first = first;
    f->count = count;
    for (size_t k = first; k < first + count; k++) {
        f->kinds |= 1u << m->sleds[k].kind;
        m->sleds[k].id = (uint32_t)m->nfunctions;
    }
    return 0;
}

/* Function ids: xray_fn_idx's entries when there is one (what the runtime
 * numbers), else runs of sleds of one function (what the runtime and
 * llvm-xray count without it). */
static int number_functions(reading *rd, tc_xray_map *m)
{
    for (size_t i = 0; i < m->nsleds; i++)
        if (i == 0 || m->sleds[i].function != m->sleds[i - 1].function)
            m->groups++;
    size_t entries = rd->have_idx ? rd->idx.size / FN_IDX_SIZE : 0;
    if (rd->have_idx && rd->idx.size % FN_IDX_SIZE)
        return fail(rd, "its xray_fn_idx section has %zu bytes, not a whole number of %d-byte "
                        "entries", rd->idx.size, FN_IDX_SIZE);
    size_t n = entries ? entries : m->groups;
    m->functions = calloc(n ? n : 1, sizeof *m->functions);
    if (!m->functions)
        return fail(rd, "out of memory");
    if (!entries) {
        for (size_t i = 0, start = 0; i < m->nsleds; i++)
            if (i + 1 == m->nsleds || m->sleds[i + 1].function != m->sleds[i].function) {
                add_function(m, start, i + 1 - start);
                start = i + 1;
            }
        return 0;
    }
    /* The layout by the first entry: the newer one's begin, taken as
     * relative, lands on an entry of the map; the older one's is an
     * absolute address, which relative to the index lands nowhere. */
    long long b, e;
    m->fn_idx = idx_entry(rd, 0, TC_XRAY_FN_IDX_RELATIVE, &b, &e) ? TC_XRAY_FN_IDX_RELATIVE
                                                                 : TC_XRAY_FN_IDX_POINTERS;
    for (size_t i = 0; i < entries; i++) {
        if (!idx_entry(rd, i, m->fn_idx, &b, &e))
            return fail(rd, "entry %zu of its xray_fn_idx does not name sleds of its "
                            "xray_instr_map", i);
        add_function(m, (size_t)b, (size_t)(e - b));
    }
    return 0;
}

static int name_functions(reading *rd, tc_xray_map *m)
{
    for (size_t i = 0; i < m->nfunctions; i++) {
        const tc_elf_function *f = tc_elf_function_at(rd->fns, m->functions[i].address);
        if (!f)
            continue;
        size_t n = strlen(f->name) + 1;
        if (!(m->functions[i].name = malloc(n)))
            return fail(rd, "out of memory");
        memcpy(m->functions[i].name, f->name, n);
    }
    return 0;
}

void tc_xray_map_free(tc_xray_map *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nfunctions; i++)
        free(m->functions[i].name);
    free(m->functions);
    free(m->sleds);
    free(m);
}

tc_xray_map *tc_xray_map_load(const char *path, char *why, size_t size)
{
    reading rd = {.why = why, .whysize = size};
    tc_xray_map *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    int fd;
    rd.e = tc_elf_open(path, &fd, why, size);
    if (!rd.e) {
        free(m);
        return NULL;
    }
    int ok = -1;
    if (gelf_getclass(rd.e) != ELFCLASS64)
        fail(&rd, "a 32-bit ELF file; tracecheck reads the 64-bit instrumentation map");
    else if (read_sections(&rd) != 0)
        ;
    else if (!rd.have_map)
        fail(&rd, "no xray_instr_map section (not built with -fxray-instrument, or nothing "
                  "was instrumented)");
    else if (read_sleds(&rd, m) == 0 && number_functions(&rd, m) == 0 &&
             name_functions(&rd, m) == 0)
        ok = 0;
    free(rd.relocs);
    tc_elf_functions_free(rd.fns);
    tc_elf_close(rd.e, fd);
    if (ok != 0) {
        tc_xray_map_free(m);
        return NULL;
    }
    return m;
}
