/*
 * The canaries of the fuzzer effectiveness benchmark (bench/fuzz_bench.h,
 * docs/fuzzing.md). Linked only into the fuzz-bench builds of the harnesses.
 *
 * Environment, read once per process:
 *
 *   TC_FUZZBENCH_BUGS    which bugs behave buggily: "07", "4,15", "all";
 *                        unset or empty: none (every canary still records)
 *   TC_FUZZBENCH_RECORD  a file that holds the record (created when missing)
 *
 * The record is a file mapped MAP_SHARED, so that what a canary writes is in
 * the file as soon as it is written: it survives the abort() with which a
 * harness reports a failure, a sanitizer's exit, libFuzzer's -fork children
 * and the regression driver alike, with no flush at exit. Counters are
 * updated atomically, so processes that share a record do not lose counts.
 *
 * Layout (host byte order; bench/fuzz_bench.py reads it):
 *
 *   char magic[8] "TCFZBNC1"; uint32 version 1; uint32 bugs (64);
 *   then per bug 0..63: uint64 reached, triggered, first_reached_ns,
 *   first_triggered_ns (CLOCK_REALTIME, 0 = never)
 *
 * This is the only mutable global state in a fuzz-bench build, and it is
 * test instrumentation: libtracecheck itself stays free of globals.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_bench.h"

#define FB_BUGS 64
#define FB_MAGIC "TCFZBNC1"

typedef struct fb_bug {
    uint64_t reached, triggered, first_reached_ns, first_triggered_ns;
} fb_bug;

typedef struct fb_record {
    char magic[8];
    uint32_t version, bugs;
    fb_bug bug[FB_BUGS];
} fb_record;

static int fb_ready;
static unsigned char fb_enabled[FB_BUGS];
static fb_record *fb_rec;

static void fb_die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzzbench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static void fb_parse_bugs(const char *s)
{
    if (!s)
        return;
    if (strcmp(s, "all") == 0) {
        memset(fb_enabled, 1, sizeof fb_enabled);
        return;
    }
    const char *p = s;
    while (*p) {
        if (*p == ',' || *p == ' ') {
            p++;
            continue;
        }
        char *e;
        long id = strtol(p, &e, 10);
        if (e == p || id < 1 || id >= FB_BUGS || (*e && *e != ',' && *e != ' '))
            fb_die("TC_FUZZBENCH_BUGS is a list of bug numbers 1 to 63, or all, not", s);
        fb_enabled[id] = 1;
        p = e;
    }
}

static void fb_map_record(const char *path)
{
    if (!path || !*path)
        return;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        fb_die("cannot open TC_FUZZBENCH_RECORD", strerror(errno));
    /* Growing a shorter file zero-fills it; a record of the right size is
     * kept as it is (several runs may add to one record). */
    off_t size = lseek(fd, 0, SEEK_END);
    if (size < (off_t)sizeof(fb_record) && ftruncate(fd, sizeof(fb_record)) != 0)
        fb_die("cannot size TC_FUZZBENCH_RECORD", strerror(errno));
    void *m = mmap(NULL, sizeof(fb_record), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        fb_die("cannot map TC_FUZZBENCH_RECORD", strerror(errno));
    fb_rec = m;
    if (memcmp(fb_rec->magic, FB_MAGIC, 8) != 0) {
        fb_rec->version = 1;
        fb_rec->bugs = FB_BUGS;
        memcpy(fb_rec->magic, FB_MAGIC, 8);
    }
}

static void fb_init(void)
{
    fb_parse_bugs(getenv("TC_FUZZBENCH_BUGS"));
    fb_map_record(getenv("TC_FUZZBENCH_RECORD"));
    fb_ready = 1;
}

static uint64_t fb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The first time wins: set when still 0. */
static void fb_first(uint64_t *slot)
{
    if (__atomic_load_n(slot, __ATOMIC_RELAXED))
        return;
    uint64_t zero = 0;
    __atomic_compare_exchange_n(slot, &zero, fb_now_ns(), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

int tc_fuzzbench_canary(int id, unsigned long long buggy, unsigned long long correct)
{
    int differs = buggy != correct;
    if (!fb_ready)
        fb_init();
    if (id < 1 || id >= FB_BUGS)
        fb_die("TC_BUG with a bug number outside 1 to 63", NULL);
    if (fb_rec) {
        fb_bug *b = &fb_rec->bug[id];
        __atomic_fetch_add(&b->reached, 1, __ATOMIC_RELAXED);
        fb_first(&b->first_reached_ns);
        if (differs) {
            __atomic_fetch_add(&b->triggered, 1, __ATOMIC_RELAXED);
            fb_first(&b->first_triggered_ns);
        }
    }
    return fb_enabled[id];
}
