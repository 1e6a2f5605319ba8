/*
 * The function symbols of a program (an ELF file, 32- or 64-bit, read
 * through elfutils' libelf): where each function starts, where it ends,
 * and its demangled name, for formats that judge a trace against the
 * program it was recorded from (--binary: spec/xray/xray.md and spec/perf/perf.md,
 * "The program's binary").
 */
#ifndef TC_ELF_SYMBOLS_H
#define TC_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct Elf; /* libelf's */

/* One STT_FUNC symbol. A symbol of size 0 (an assembly label without
 * .size) covers the addresses up to the next function's start; the last
 * one, its start alone. */
typedef struct tc_elf_function {
    uint64_t start, end; /* [start, end) */
    uint64_t size;       /* st_size as the file has it */
    char *name;          /* demangled */
} tc_elf_function;

typedef struct tc_elf_functions {
    tc_elf_function *fn; /* sorted by start; of aliases, the sized, global one first */
    size_t n;
    uint64_t *reach;     /* reach[i]: the largest end among fn[0..i] */
    unsigned elf_class;  /* 32 or 64 */
} tc_elf_functions;

/* Opens the file at path as an ELF file libelf can read: the Elf, its
 * descriptor in *fd. NULL with the reason in why ("not an ELF file", the
 * system's reason). */
struct Elf *tc_elf_open(const char *path, int *fd, char *why, size_t size);
void tc_elf_close(struct Elf *e, int fd);

/* Whether path names an ELF file libelf can open: 0, or -1 with the reason
 * in why (--binary's check when the option is given). */
int tc_elf_check(const char *path, char *why, size_t size);

/* The function symbols of e: its .symtab, else its .dynsym; none when it
 * has neither (a stripped file). NULL when out of memory (why says so). */
tc_elf_functions *tc_elf_functions_read(struct Elf *e, char *why, size_t size);
/* The same, of the file at path; NULL with the reason in why. */
tc_elf_functions *tc_elf_functions_load(const char *path, char *why, size_t size);
void tc_elf_functions_free(tc_elf_functions *fs);

/* The function that starts at addr, or NULL. */
const tc_elf_function *tc_elf_function_at(const tc_elf_functions *fs, uint64_t addr);
/* The function whose [start, end) holds addr (the one starting nearest
 * below it when several do), or NULL. */
const tc_elf_function *tc_elf_function_containing(const tc_elf_functions *fs, uint64_t addr);
/* The function starting nearest at or below addr, else the first one;
 * NULL when there is none. */
const tc_elf_function *tc_elf_function_nearest(const tc_elf_functions *fs, uint64_t addr);

/* addr as name+offset: "main" at a function's start, "foo+0x12" inside
 * it; NULL (buf untouched) when no function holds addr. */
const char *tc_elf_function_label(const tc_elf_functions *fs, uint64_t addr, char *buf,
                                  size_t size);
/* addr relative to the nearest function whether or not it holds it, for
 * messages: "foo+0x12", "foo+0x400 (past its end)", "0x10 before foo";
 * "no function" when there is none. */
void tc_elf_function_nearest_label(const tc_elf_functions *fs, uint64_t addr, char *buf,
                                   size_t size);

#endif
