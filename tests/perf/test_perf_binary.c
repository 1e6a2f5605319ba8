/*
 * Perf data against the program it was recorded from (--binary;
 * parsers/common/elf_symbols.c, parsers/perf/perf_binary.c). The program
 * is tests/perf/binary/prog.c as tests/tests.mk builds it next to this
 * test (32-bit where the compiler can): its function symbols are read,
 * and text-list traces whose entry and exit records use its real function
 * addresses, addresses inside a function, and call sites outside every
 * function are checked, through the library and through the program.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../parsers/common/elf_symbols.h"
#include "../suites.h"
#include "../tu.h"

/* ---- the program ---- */

static char prog[4096], stripped[4200];

/* BUILD/tests/perf-binary/prog, BUILD being where this unit binary is
 * (BUILD/san/tests/unit); 0 (a failed assertion) when it is not there. */
static int find_prog(void)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 0;
    self[n] = '\0';
    char *build = dirname(dirname(dirname(self)));
    snprintf(prog, sizeof prog, "%s/tests/perf-binary/prog", build);
    snprintf(stripped, sizeof stripped, "%s.stripped", prog);
    int ok = access(prog, R_OK) == 0 && access(stripped, R_OK) == 0;
    CHECK(ok, "no %s: make builds it with the unit tests (tests/tests.mk)", prog);
    return ok;
}

typedef struct fns {
    tc_elf_functions *all;
    const tc_elf_function *bare, *walk, *leaf, *start;
} fns;

static const tc_elf_function *by_name(const tc_elf_functions *fs, const char *name)
{
    for (size_t i = 0; i < fs->n; i++)
        if (!strcmp(fs->fn[i].name, name))
            return &fs->fn[i];
    return NULL;
}

static int load(fns *f)
{
    memset(f, 0, sizeof *f);
    if (!find_prog())
        return 0;
    char why[256] = "";
    f->all = tc_elf_functions_load(prog, why, sizeof why);
    CHECK(f->all != NULL, "%s: %s", prog, why);
    if (!f->all)
        return 0;
    f->bare = by_name(f->all, "bare_label");
    f->walk = by_name(f->all, "walk(long)");
    f->leaf = by_name(f->all, "leaf");
    f->start = by_name(f->all, "_start");
    CHECK(f->bare && f->walk && f->leaf && f->start, "%s: its functions are not all there", prog);
    return f->bare && f->walk && f->leaf && f->start;
}

static void test_symbols(void)
{
    fns f;
    if (!load(&f)) {
        tc_elf_functions_free(f.all);
        return;
    }
    if (f.all->elf_class != 32)
        fprintf(stderr, "\n  perf_binary: NOTE: %s is %u-bit (the compiler cannot build "
                        "32-bit programs here)\n", prog, f.all->elf_class);
    CU_ASSERT_EQUAL(f.all->n, 4);
    /* Sorted by start; the size-0 label reaches the next function. */
    for (size_t i = 1; i < f.all->n; i++)
        CU_ASSERT(f.all->fn[i - 1].start <= f.all->fn[i].start);
    CU_ASSERT_EQUAL(f.bare->size, 0);
    const tc_elf_function *after = tc_elf_function_nearest(f.all, f.bare->start + 1);
    CU_ASSERT_PTR_EQUAL(after, f.bare);
    CU_ASSERT(f.bare->end > f.bare->start);
    CU_ASSERT_PTR_NOT_NULL(tc_elf_function_at(f.all, f.bare->end));
    CU_ASSERT(f.walk->size > 4);
    CU_ASSERT_EQUAL(f.walk->end, f.walk->start + f.walk->size);

    CU_ASSERT_PTR_EQUAL(tc_elf_function_at(f.all, f.walk->start), f.walk);
    CU_ASSERT_PTR_NULL(tc_elf_function_at(f.all, f.walk->start + 2));
    CU_ASSERT_PTR_EQUAL(tc_elf_function_containing(f.all, f.walk->start + 2), f.walk);
    CU_ASSERT_PTR_EQUAL(tc_elf_function_containing(f.all, f.walk->end - 1), f.walk);
    CU_ASSERT_PTR_NULL(tc_elf_function_containing(f.all, 0x10));
    CU_ASSERT_PTR_NULL(tc_elf_function_containing(f.all, UINT64_MAX));

    char buf[128];
    CHECK(!strcmp(tc_elf_function_label(f.all, f.walk->start, buf, sizeof buf), "walk(long)"),
          "%s", buf);
    CHECK(!strcmp(tc_elf_function_label(f.all, f.walk->start + 4, buf, sizeof buf),
                  "walk(long)+0x4"), "%s", buf);
    CU_ASSERT_PTR_NULL(tc_elf_function_label(f.all, 0x10, buf, sizeof buf));
    tc_elf_function_nearest_label(f.all, f.bare->start - 0x10, buf, sizeof buf);
    CHECK(!strcmp(buf, "0x10 before bare_label"), "%s", buf);
    const tc_elf_function *last = &f.all->fn[f.all->n - 1];
    tc_elf_function_nearest_label(f.all, last->end + 0x20, buf, sizeof buf);
    char want[128];
    snprintf(want, sizeof want, "%s+0x%" PRIx64 " (past its end)", last->name,
             last->end + 0x20 - last->start);
    CHECK(!strcmp(buf, want), "%s, not %s", buf, want);
    tc_elf_functions_free(f.all);
}

/* The file cut short and with bytes overwritten: fewer symbols or none,
 * or not an ELF file; never a read outside it (ASan). */
static void test_hostile_elf(void)
{
    if (!find_prog())
        return;
    size_t n;
    uint8_t *p = tu_read_file(prog, &n);
    CU_ASSERT_PTR_NOT_NULL(p);
    if (!p)
        return;
    for (size_t cut = 0; cut < n; cut += cut < 256 ? 7 : 509) {
        char *path = tu_write_file("cut-prog", p, cut);
        char why[256];
        tc_elf_functions *fs = tc_elf_functions_load(path, why, sizeof why);
        tc_elf_functions_free(fs);
        free(path);
    }
    uint8_t *q = malloc(n);
    for (size_t at = 0; q && at < n; at += 61) {
        memcpy(q, p, n);
        for (size_t k = at; k < n && k < at + 8; k++)
            q[k] ^= 0xa5;
        char *path = tu_write_file("bad-prog", q, n);
        char why[256];
        tc_elf_functions *fs = tc_elf_functions_load(path, why, sizeof why);
        if (fs)
            for (size_t i = 0; i < fs->n; i++)
                CU_ASSERT(fs->fn[i].end > fs->fn[i].start || fs->fn[i].start == UINT64_MAX);
        tc_elf_functions_free(fs);
        free(path);
    }
    free(q);
    free(p);
}

/* ---- traces ---- */

/* A text message list: a raw header with one 64-bit counter, then
 * records appended with add(). */
typedef struct trace {
    char text[8192];
    size_t len;
    unsigned lines;
} trace;

static void put(trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(trace *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->text + t->len, sizeof t->text - t->len, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k < sizeof t->text - t->len)
        t->len += (size_t)k;
    t->lines++;
}

static void begin(trace *t)
{
    t->len = 0;
    t->lines = 0;
    put(t, "0x18 0x70657266\n");
    put(t, "0x1b 0x0\n");
    put(t, "0x18 0x1\n");
    put(t, "0x18 0x0\n");
    put(t, "0x18 0x0\n");
    put(t, "0x18 0x3fc00\n");
}

static void address(trace *t, uint64_t a)
{
    if (a >> 32) {
        put(t, "0x18 0x%" PRIx32 "\n", (uint32_t)a | 1);
        put(t, "0x18 0x%" PRIx32 "\n", (uint32_t)(a >> 32));
    } else {
        put(t, "0x18 0x%" PRIx32 "\n", (uint32_t)a);
    }
}

/* A record of type (0 entry, 1 exit) at this_fn from call_site; returns
 * its offset. */
static size_t add(trace *t, unsigned type, uint64_t fn, uint64_t site)
{
    size_t at = t->len;
    put(t, "0x1b 0x%x\n", type);
    address(t, fn);
    address(t, site);
    put(t, "0x18 0x%x\n", t->lines);
    return at;
}

static int check(const trace *t, const char *binary, tu_result *r)
{
    char *path = tu_write_file("binary.itc", t->text, t->len);
    tu_opts o = {.binaries = {binary}, .dump = 1};
    int st = tu_check_path(path, &o, r);
    free(path);
    return st;
}

/* (a) The program's real function starts, from real call sites: no
 * finding, and every address named in the dump. */
static void test_real_starts(void)
{
    fns f;
    if (!load(&f)) {
        tc_elf_functions_free(f.all);
        return;
    }
    trace t;
    begin(&t);
    size_t first = add(&t, 0, f.walk->start, f.start->start + 6);
    add(&t, 0, f.leaf->start, f.walk->start + 8);
    add(&t, 1, f.leaf->start, f.walk->start + 8);
    add(&t, 1, f.walk->start, f.start->start + 6);
    /* A call site one past its function's end (a call that does not
     * return, at the end): the byte before it is in the function. */
    add(&t, 0, f.bare->start, f.start->end);
    add(&t, 1, f.bare->start, f.start->end);
    tu_result r = {0};
    CU_ASSERT_EQUAL(check(&t, prog, &r), 0);
    EXPECT_RULES(&r, "");
    char line[512];
    snprintf(line, sizeof line,
             "{\"t\":\"record\",\"offset\":\"%zu\",\"type\":0,\"type_name\":\"entry\","
             "\"addresses\":[\"%" PRIu64 "\",\"%" PRIu64 "\"],\"names\":[\"walk(long)\","
             "\"_start+0x6\"],\"values\":[\"9\"],\"decoded\":[\"9\"]}",
             first, f.walk->start, f.start->start + 6);
    EXPECT_DUMP_LINE(&r, 3, line);
    snprintf(line, sizeof line, "\"names\":[\"leaf\",\"walk(long)+0x8\"]");
    CHECK(r.dump && strstr(r.dump, line), "no %s in the dump", line);
    snprintf(line, sizeof line, "\"names\":[\"bare_label\",\"_start+0x%" PRIx64 "\"]",
             f.start->end - f.start->start);
    CHECK(r.dump && strstr(r.dump, line), "no %s in the dump", line);

    /* Without --binary: the dump as it always was, no names. */
    char *path = tu_write_file("plain.itc", t.text, t.len);
    tu_opts plain = {.dump = 1};
    tu_result p = {0};
    CU_ASSERT_EQUAL(tu_check_path(path, &plain, &p), 0);
    CHECK(p.dump && !strstr(p.dump, "names"), "names in the dump without --binary");
    free(path);
    tu_result_free(&p);
    tu_result_free(&r);
    tc_elf_functions_free(f.all);
}

/* (b) this_fn inside a function but not at its start: an error naming the
 * nearest function and the offset, once per address. */
static void test_not_a_start(void)
{
    fns f;
    if (!load(&f)) {
        tc_elf_functions_free(f.all);
        return;
    }
    trace t;
    begin(&t);
    uint64_t inside = f.walk->start + 4, below = f.bare->start - 0x100;
    size_t first = add(&t, 0, inside, f.start->start + 6);
    add(&t, 1, inside, f.start->start + 6);
    add(&t, 0, inside, f.start->start + 6);
    add(&t, 1, inside, f.start->start + 6);
    size_t second = add(&t, 0, below, f.start->start + 6);
    add(&t, 1, below, f.start->start + 6);
    tu_result r = {0};
    CU_ASSERT_EQUAL(check(&t, prog, &r), 1);
    EXPECT_RULES(&r, "PERF-BINARY-NO-FUNCTION PERF-BINARY-NO-FUNCTION");
    CU_ASSERT_EQUAL(r.sum.errors, 2);
    CU_ASSERT_EQUAL(r.sum.warnings, 0);
    EXPECT_OFFSET(&r, "PERF-BINARY-NO-FUNCTION", first);
    EXPECT_OFFSET(&r, "PERF-BINARY-NO-FUNCTION", second);
    char text[600];
    snprintf(text, sizeof text,
             "this_fn 0x%" PRIx64 " of a function entry record is not the start of a function "
             "in %s (4 function symbols); the nearest is walk(long)+0x4: the trace and the ELF "
             "file differ", inside, prog);
    EXPECT_MESSAGE(&r, "PERF-BINARY-NO-FUNCTION", text);
    snprintf(text, sizeof text, "the nearest is 0x100 before bare_label");
    EXPECT_MESSAGE(&r, "PERF-BINARY-NO-FUNCTION", text);
    CHECK(r.dump && strstr(r.dump, "\"names\":[\"walk(long)+0x4\",\"_start+0x6\"]"),
          "the dump does not name walk(long)+0x4");
    CHECK(r.dump && strstr(r.dump, "\"names\":[null,\"_start+0x6\"]"),
          "the dump does not give null for an address in no function");
    tu_result_free(&r);
    tc_elf_functions_free(f.all);
}

/* (c) A call site in no function: a warning, once per address. */
static void test_call_site_outside(void)
{
    fns f;
    if (!load(&f)) {
        tc_elf_functions_free(f.all);
        return;
    }
    trace t;
    begin(&t);
    uint64_t outside = f.all->fn[f.all->n - 1].end + 0x40;
    size_t first = add(&t, 0, f.walk->start, outside);
    add(&t, 1, f.walk->start, outside);
    add(&t, 0, f.walk->start, outside);
    add(&t, 1, f.walk->start, outside);
    size_t high = add(&t, 0, f.leaf->start, UINT64_C(0x123400000010));
    add(&t, 1, f.leaf->start, UINT64_C(0x123400000010));
    tu_result r = {0};
    CU_ASSERT_EQUAL(check(&t, prog, &r), 0);
    EXPECT_RULES(&r, "PERF-BINARY-CALL-SITE PERF-BINARY-CALL-SITE");
    CU_ASSERT_EQUAL(r.sum.warnings, 2);
    EXPECT_OFFSET(&r, "PERF-BINARY-CALL-SITE", first);
    EXPECT_OFFSET(&r, "PERF-BINARY-CALL-SITE", high);
    char text[600];
    snprintf(text, sizeof text,
             "call_site 0x%" PRIx64 " of a function entry record (this_fn 0x%" PRIx64 ") is in "
             "no function of %s (4 function symbols)", outside, f.walk->start, prog);
    EXPECT_MESSAGE(&r, "PERF-BINARY-CALL-SITE", text);
    EXPECT_MESSAGE(&r, "PERF-BINARY-CALL-SITE", "call_site 0x123400000010 ");
    tu_result_free(&r);
    tc_elf_functions_free(f.all);
}

/* (d) A file that is not ELF: refused by the option (the program's usage
 * error, exit status 2, naming the file and why). */
static void test_not_elf(void)
{
    char *path = tu_write_file("not-elf", "hello\n", 6);
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "binary", path), -1);
    CU_ASSERT_EQUAL(o.n_binaries, 0);
    char tc[4096], cmd[9000];
    if (!tu_program(tc, sizeof tc)) {
        CHECK(0, "no %s: build it (make check-unit does)", tc);
        free(path);
        return;
    }
    trace t;
    begin(&t);
    char *itc = tu_write_file("usage.itc", t.text, t.len);
    snprintf(cmd, sizeof cmd, "'%s' validate --binary '%s' '%s' 2>&1", tc, path, itc);
    FILE *p = popen(cmd, "r");
    char out[2048] = "";
    size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[got] = '\0';
    int st = p ? pclose(p) : -1;
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "exit status %d: %s", st, out);
    char want[4200];
    snprintf(want, sizeof want, "--binary %s: not an ELF file", path);
    CHECK(strstr(out, want) != NULL, "%s not in: %s", want, out);
    free(itc);
    free(path);
}

/* (e) An ELF file without symbols: each perf input's check fails (status
 * 2) with the reason; the option takes it (it is ELF). */
static void test_stripped(void)
{
    if (!find_prog())
        return;
    tc_options o = TC_OPTIONS_INIT;
    CU_ASSERT_EQUAL(tc_options_set(&o, "binary", stripped), 0);
    trace t;
    begin(&t);
    add(&t, 0, 0x1000, 0x2000);
    tu_result r = {0};
    CU_ASSERT_EQUAL(check(&t, stripped, &r), 2);
    char want[4400];
    snprintf(want, sizeof want, "--binary %s: no function symbols", stripped);
    CHECK(strstr(r.err, want) != NULL, "error: %s", r.err);
    EXPECT_RULES(&r, "");
    tu_result_free(&r);
}

/* Through the program: dump names the records; --help lists --binary
 * once, for the three formats. */
static void test_program(void)
{
    fns f;
    char tc[4096], cmd[12000];
    if (!load(&f) || !tu_program(tc, sizeof tc)) {
        CHECK(f.all != NULL, "no program or binary");
        tc_elf_functions_free(f.all);
        return;
    }
    trace t;
    begin(&t);
    add(&t, 0, f.walk->start, f.start->start + 6);
    add(&t, 1, f.walk->start, f.start->start + 6);
    char *itc = tu_write_file("program.itc", t.text, t.len);
    snprintf(cmd, sizeof cmd, "'%s' dump --binary '%s' '%s' 2>&1 && '%s' validate --help", tc,
             prog, itc, tc);
    FILE *p = popen(cmd, "r");
    tu_bytes out = {0};
    char chunk[4096];
    size_t got;
    while (p && (got = fread(chunk, 1, sizeof chunk, p)) > 0)
        tu_bytes_append(&out, chunk, got);
    tu_bytes_append(&out, "", 1);
    int st = p ? pclose(p) : -1;
    CHECK(st == 0, "exit status %d: %s", st, (const char *)out.p);
    const char *s = (const char *)out.p;
    CHECK(strstr(s, "\"names\":[\"walk(long)\",\"_start+0x6\"]") != NULL, "no names: %s", s);
    const char *opt = strstr(s, "--binary FILE");
    CHECK(opt && !strstr(opt + 1, "--binary FILE"), "--binary listed %s", opt ? "twice" : "not");
    CHECK(opt && strstr(opt, "perf:") && strstr(opt, "xray-basic"), "--binary's help: %s", s);
    free(itc);
    tu_bytes_free(&out);
    tc_elf_functions_free(f.all);
}

void register_perf_binary_suite(void)
{
    static const tu_test tests[] = {
        {"the program's function symbols", test_symbols},
        {"a hostile ELF file", test_hostile_elf},
        {"real function starts: no finding, names", test_real_starts},
        {"this_fn inside a function", test_not_a_start},
        {"a call site outside every function", test_call_site_outside},
        {"a file that is not ELF", test_not_elf},
        {"an ELF file without symbols", test_stripped},
        {"through the program", test_program},
        {NULL, NULL},
    };
    tu_add_suite("perf_binary", tests);
}
