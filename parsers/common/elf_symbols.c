/*
 * A program's function symbols, read through elfutils' libelf (see
 * elf_symbols.h). gelf reads 32- and 64-bit files alike (bare-metal RV32
 * programs are ELFCLASS32); libelf checks every section and symbol index
 * against the file's size, so a hostile file gives fewer symbols, never a
 * read outside it.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "elf_symbols.h"

Elf *tc_elf_open(const char *path, int *fd, char *why, size_t size)
{
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0) {
        snprintf(why, size, "%s", strerror(errno));
        return NULL;
    }
    /* elf_version only records the version this program was built for:
     * the same value from every thread. */
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        snprintf(why, size, "not an ELF file");
        tc_elf_close(e, *fd);
        return NULL;
    }
    GElf_Ehdr eh;
    if (!gelf_getehdr(e, &eh)) {
        snprintf(why, size, "an ELF file whose header cannot be read (%s)", elf_errmsg(-1));
        tc_elf_close(e, *fd);
        return NULL;
    }
    return e;
}

void tc_elf_close(Elf *e, int fd)
{
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
}

int tc_elf_check(const char *path, char *why, size_t size)
{
    int fd;
    Elf *e = tc_elf_open(path, &fd, why, size);
    if (!e)
        return -1;
    tc_elf_close(e, fd);
    return 0;
}

/* A symbol as read, before its end is known. */
typedef struct raw {
    uint64_t start, size;
    int global;
    const char *name; /* in the file's string table */
} raw;

/* By start; of aliases, the sized one, then the global one, then by name,
 * so that a function is named the same way on every run. */
static int by_start(const void *a, const void *b)
{
    const raw *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if ((x->size != 0) != (y->size != 0))
        return x->size ? -1 : 1;
    if (x->global != y->global)
        return x->global ? -1 : 1;
    return strcmp(x->name, y->name);
}

static Elf_Scn *symbol_table(Elf *e, GElf_Shdr *out)
{
    Elf_Scn *symtab = NULL, *dynsym = NULL;
    GElf_Shdr symtab_h, dynsym_h;
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB && !symtab) {
            symtab = scn;
            symtab_h = sh;
        } else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
            dynsym = scn;
            dynsym_h = sh;
        }
    }
    *out = symtab ? symtab_h : dynsym_h;
    return symtab ? symtab : dynsym;
}

/* The defined, named STT_FUNC symbols of the table, sorted. */
static raw *read_raw(Elf *e, size_t *n)
{
    *n = 0;
    GElf_Shdr sh;
    Elf_Scn *scn = symbol_table(e, &sh);
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    size_t entsize = scn ? gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT) : 0;
    size_t count = d && entsize ? d->d_size / entsize : 0;
    raw *r = calloc(count ? count : 1, sizeof *r);
    if (!r)
        return NULL;
    for (size_t i = 0; i < count && i <= (size_t)INT32_MAX; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
            s.st_shndx == SHN_UNDEF)
            continue;
        const char *name = elf_strptr(e, sh.sh_link, s.st_name);
        if (name && name[0])
            r[(*n)++] = (raw){s.st_value, s.st_size, GELF_ST_BIND(s.st_info) != STB_LOCAL, name};
    }
    qsort(r, *n, sizeof *r, by_start);
    return r;
}

void tc_elf_functions_free(tc_elf_functions *fs)
{
    if (!fs)
        return;
    for (size_t i = 0; i < fs->n; i++)
        free(fs->fn[i].name);
    free(fs->fn);
    free(fs->reach);
    free(fs);
}

tc_elf_functions *tc_elf_functions_read(Elf *e, char *why, size_t size)
{
    size_t n;
    raw *r = read_raw(e, &n);
    tc_elf_functions *fs = calloc(1, sizeof *fs);
    if (fs) {
        fs->fn = calloc(n ? n : 1, sizeof *fs->fn);
        fs->reach = calloc(n ? n : 1, sizeof *fs->reach);
    }
    if (!r || !fs || !fs->fn || !fs->reach) {
        snprintf(why, size, "out of memory");
        free(r);
        tc_elf_functions_free(fs);
        return NULL;
    }
    fs->elf_class = gelf_getclass(e) == ELFCLASS32 ? 32 : 64;
    for (size_t i = 0, next = 0; i < n; i++) {
        tc_elf_function *f = &fs->fn[fs->n];
        f->start = r[i].start;
        f->size = r[i].size;
        if (f->size)
            f->end = f->start + f->size < f->start ? UINT64_MAX : f->start + f->size;
        else { /* up to the next function's start (one past its own when none) */
            while (next < n && r[next].start <= f->start)
                next++;
            f->end = next < n ? r[next].start : f->start + (f->start != UINT64_MAX);
        }
        if (!(f->name = tc_demangle(r[i].name))) {
            snprintf(why, size, "out of memory");
            free(r);
            tc_elf_functions_free(fs);
            return NULL;
        }
        fs->reach[fs->n] = fs->n && fs->reach[fs->n - 1] > f->end ? fs->reach[fs->n - 1] : f->end;
        fs->n++;
    }
    free(r);
    return fs;
}

tc_elf_functions *tc_elf_functions_load(const char *path, char *why, size_t size)
{
    int fd;
    Elf *e = tc_elf_open(path, &fd, why, size);
    if (!e)
        return NULL;
    tc_elf_functions *fs = tc_elf_functions_read(e, why, size);
    tc_elf_close(e, fd);
    return fs;
}

/* The number of functions that start below addr. */
static size_t starting_below(const tc_elf_functions *fs, uint64_t addr)
{
    size_t lo = 0, hi = fs->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fs->fn[mid].start < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The number of functions that start at or below addr. */
static size_t starting_by(const tc_elf_functions *fs, uint64_t addr)
{
    return addr == UINT64_MAX ? fs->n : starting_below(fs, addr + 1);
}

const tc_elf_function *tc_elf_function_at(const tc_elf_functions *fs, uint64_t addr)
{
    /* The first of the aliases at addr: sorted so, it is the one to name. */
    size_t k = starting_below(fs, addr);
    return k < fs->n && fs->fn[k].start == addr ? &fs->fn[k] : NULL;
}

const tc_elf_function *tc_elf_function_containing(const tc_elf_functions *fs, uint64_t addr)
{
    /* Back from the last function starting by addr while one before may
     * still reach past it (reach), to the nearest that does. */
    for (size_t k = starting_by(fs, addr); k > 0 && fs->reach[k - 1] > addr; k--) {
        const tc_elf_function *f = &fs->fn[k - 1];
        if (f->end > addr)
            return f->start == addr ? tc_elf_function_at(fs, addr) : f;
    }
    return NULL;
}

const tc_elf_function *tc_elf_function_nearest(const tc_elf_functions *fs, uint64_t addr)
{
    const tc_elf_function *f = tc_elf_function_containing(fs, addr);
    if (f)
        return f;
    size_t k = starting_by(fs, addr);
    return k ? &fs->fn[k - 1] : fs->n ? &fs->fn[0] : NULL;
}

const char *tc_elf_function_label(const tc_elf_functions *fs, uint64_t addr, char *buf,
                                  size_t size)
{
    const tc_elf_function *f = tc_elf_function_containing(fs, addr);
    if (!f)
        return NULL;
    if (addr == f->start)
        snprintf(buf, size, "%s", f->name);
    else
        snprintf(buf, size, "%s+0x%llx", f->name, (unsigned long long)(addr - f->start));
    return buf;
}

void tc_elf_function_nearest_label(const tc_elf_functions *fs, uint64_t addr, char *buf,
                                   size_t size)
{
    const tc_elf_function *f = tc_elf_function_nearest(fs, addr);
    if (!f)
        snprintf(buf, size, "no function");
    else if (addr < f->start)
        snprintf(buf, size, "0x%llx before %s", (unsigned long long)(f->start - addr), f->name);
    else if (addr == f->start)
        snprintf(buf, size, "%s", f->name);
    else
        snprintf(buf, size, "%s+0x%llx%s", f->name, (unsigned long long)(addr - f->start),
                 addr < f->end ? "" : " (past its end)");
}
