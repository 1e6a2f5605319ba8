/*
 * The JSON layer's measured choice (docs/design.md, "JSON layer: own
 * tokenizer or yajl"): the project's strict pull tokenizer
 * (parsers/common/json.c) against yajl 2 (Debian's libyajl-dev), on speed
 * and on strictness. Built and run by `make bench-json` (bench/bench.mk).
 *
 *   json_compare gen dcfg|trace BYTES FILE   a DCFG-like or DCFG-trace-like document
 *   json_compare speed RUNS FILE...          tokenizing speed and peak memory
 *   json_compare strict                      verdicts and locations on test documents
 *
 * Both tokenizers do the same work per token: count it, add string lengths,
 * and turn every integer into its exact 64-bit value (yajl hands the digits
 * to its number callback; this program converts them, as a DCFG reader
 * would have to). The token counts and the sum of the integers must agree
 * between the two, which shows that both read every token.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "../parsers/common/input.h"
#include "../parsers/common/json.h"
#include "../tests/ot.h" /* jt_cases: the unit tests' y_/n_ documents */

#define MAX_RUNS 64
#define YAJL_CHUNK (1u << 20) /* what tc_input's stream path reads at a time too */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("json_compare: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* ------------------------------------------------------------------------ */
/* Documents to measure on.                                                  */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* The shape of section 2.1 of Intel's document: tables (arrays of rows) of
 * small ids, hex strings for addresses and counts; one count in 16 is above
 * 2^53 so that a double would lose it. About half basic blocks, half edges. */
static void gen_dcfg(FILE *f, uint64_t size)
{
    uint64_t w = 0;
    w += (uint64_t)fprintf(f,
        "{ \"MAJOR_VERSION\" : 1,\n  \"MINOR_VERSION\" : 0,\n"
        "  \"FILE_NAMES\" : [\n    [ \"FILE_NAME_ID\", \"FILE_NAME\" ],\n"
        "    [ 1, \"hello-world\" ],\n    [ 2, \"\\/lib64\\/ld-linux-x86-64.so.2\" ] ],\n"
        "  \"PROCESSES\" : [\n    [ \"PROCESS_ID\", \"PROCESS_DATA\" ],\n"
        "    [ 13723,\n      { \"INSTR_COUNT_PER_THREAD\" : [ 1867502 ],\n"
        "        \"INSTR_COUNT\" : 1867502,\n"
        "        \"IMAGES\" : [\n          [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],\n"
        "          [ 1, \"0x400000\", 2112944,\n            { \"FILE_NAME_ID\" : 1,\n"
        "              \"BASIC_BLOCKS\" : [\n"
        "                [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", "
        "\"LAST_INSTR_OFFSET\", \"COUNT\" ]");
    uint64_t id = 3, addr = 0xb28;
    while (w < size / 2) {
        unsigned sz = 1 + (unsigned)(rnd() % 60);
        uint64_t count = rnd() % 16 == 0 ? rnd() : rnd() % 100000;
        w += (uint64_t)fprintf(f, ",\n                [ %" PRIu64 ", \"0x%" PRIx64 "\", %u, %u, %u, %" PRIu64 " ]",
                               id++, addr, sz, 1 + sz / 4, sz > 4 ? sz - 4 : 0, count);
        addr += sz;
    }
    w += (uint64_t)fprintf(f,
        " ] } ] ],\n        \"EDGES\" : [\n          [ \"EDGE_ID\", \"SOURCE_NODE_ID\", "
        "\"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ]");
    uint64_t edge = 1;
    const size_t tail = 16;
    while (w + tail < size) {
        uint64_t c1 = rnd() % 16 == 0 ? rnd() : rnd() % 1000, c2 = rnd() % 1000;
        w += (uint64_t)fprintf(f, ",\n          [ %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %u, [ %" PRIu64
                               ", %" PRIu64 " ] ]",
                               edge++, 3 + rnd() % id, 3 + rnd() % id, 1 + (unsigned)(rnd() % 20),
                               c1, c2);
    }
    fputs(" ] } ] ] }\n", f);
}

/* The shape of a DCFG-trace (section 3.7): chunks whose EDGE_ID_SEQUENCE is
 * a long string of modified Base64 (1 MiB each here). Only the JSON matters:
 * the sequences are random and do not decode against the table. */
static void gen_trace(FILE *f, uint64_t size)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";
    const size_t chunk = 1u << 20;
    char *s = malloc(chunk);
    if (!s)
        die("out of memory");
    uint64_t w = (uint64_t)fprintf(f,
        "{ \"MAJOR_VERSION\" : 1,\n  \"MINOR_VERSION\" : 0,\n  \"PROCESSES\" : [\n"
        "    [ \"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\" ],\n"
        "    [ 22814, { \"a\" : \"bks2hD7kB+KDk87(6*AB)Aw3ABD9\" },\n"
        "      [ [ \"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\" ],\n"
        "        [ 1, \"\", [ 1 ] ] ],\n"
        "      [ [ \"THREAD_ID\", \"TRACE_DATA\" ],\n        [ 0,\n"
        "          [ [ \"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", "
        "\"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ]");
    uint64_t preceding = 0;
    do {
        for (size_t i = 0; i < chunk; i++)
            s[i] = b64[rnd() & 63];
        uint64_t instrs = 1000000 + rnd() % 1000000;
        w += (uint64_t)fprintf(f, ",\n            [ %" PRIu64 ", %" PRIu64 ", %zu, 1,\n              \"",
                               preceding, instrs, chunk * 6 / 4);
        w += fwrite(s, 1, chunk, f);
        w += (uint64_t)fprintf(f, "\" ]");
        preceding += instrs;
    } while (w + chunk < size);
    fputs(" ] ] ] ] ] }\n", f);
    free(s);
}

static int cmd_gen(int argc, char **argv)
{
    if (argc != 5)
        die("usage: json_compare gen dcfg|trace BYTES FILE");
    char *end;
    errno = 0;
    unsigned long long size = strtoull(argv[3], &end, 10);
    if (errno || *end || !size)
        die("BYTES must be a positive number, not '%s'", argv[3]);
    FILE *f = fopen(argv[4], "w");
    if (!f)
        die("%s: %s", argv[4], strerror(errno));
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    if (!strcmp(argv[2], "dcfg"))
        gen_dcfg(f, size);
    else if (!strcmp(argv[2], "trace"))
        gen_trace(f, size);
    else
        die("gen: dcfg or trace, not '%s'", argv[2]);
    if (fclose(f))
        die("%s: %s", argv[4], strerror(errno));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The work done per token, the same for both tokenizers.                    */

typedef struct tally {
    uint64_t tokens, string_bytes, int_sum, big; /* big: integers beyond 64 bits */
    int ok;
} tally;

/* Exact value of the integer digits s[0..n) (optional '-'), as tc_json does:
 * returns 0 and *v (two's complement for negatives), or -1 beyond 64 bits,
 * or 1 for a number with a fraction or an exponent. */
static int digits_value(const char *s, size_t n, uint64_t *v)
{
    int neg = n && s[0] == '-';
    uint64_t x = 0;
    for (size_t i = (size_t)neg; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9)
            return 1;
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    if (neg && x > (uint64_t)INT64_MAX + 1)
        return -1;
    *v = neg ? 0 - x : x;
    return 0;
}

static void count_number(tally *t, const char *s, size_t n)
{
    uint64_t v;
    int rc = digits_value(s, n, &v);
    if (rc == 0)
        t->int_sum += v;
    else if (rc < 0)
        t->big++;
}

/* ---- tc_json ---- */

typedef struct tc_first {
    int have;
    char rule[40], path[200], message[200];
    uint64_t offset;
    uint32_t line, column;
} tc_first;

static void on_tc_diag(void *user, const tc_diag *d)
{
    tc_first *f = user;
    if (f->have || d->severity != TC_ERROR)
        return;
    f->have = 1;
    snprintf(f->rule, sizeof f->rule, "%s", d->rule->id);
    snprintf(f->path, sizeof f->path, "%s", d->json_path ? d->json_path : "");
    snprintf(f->message, sizeof f->message, "%s", d->message);
    f->offset = d->offset;
    f->line = d->line;
    f->column = d->column;
}

/* The last number of a document, kept past the tokenizer's lifetime. */
typedef struct last_number {
    tc_json_token tok;
    char text[64];
} last_number;

/* Tokenizes everything r holds; the last number goes to *last. */
static void tc_run(tc_reader *r, tally *t, tc_first *first, last_number *last)
{
    tc_diag_sink sink;
    tc_diag_init(&sink, "json", 0, 0, on_tc_diag, first);
    tc_json *j = tc_json_new(r, &sink);
    if (!j)
        die("out of memory");
    tc_json_token tok;
    int rc;
    while ((rc = tc_json_next(j, &tok)) > 0) {
        t->tokens++;
        if (tok.kind == TC_JSON_NUMBER) {
            if (tok.integer && !tok.fits)
                t->big++;
            else if (tok.integer)
                t->int_sum += tok.negative ? (uint64_t)tok.i64 : tok.u64;
            if (last) {
                last->tok = tok;
                snprintf(last->text, sizeof last->text, "%.*s", (int)tok.len, tok.text);
                last->tok.text = last->text;
            }
        } else if (tok.kind == TC_JSON_STRING || tok.kind == TC_JSON_KEY) {
            t->string_bytes += tok.len;
        }
    }
    t->ok = rc == 0 && sink.errors == 0;
    tc_json_free(j);
}

static void tc_file(const char *path, int no_mmap, tally *t)
{
    tc_error err = TC_ERROR_INIT;
    tc_input_opts opts = {0, no_mmap};
    tc_input *in = tc_input_open(path, &opts, &err);
    if (!in)
        die("%s", err.n ? err.cause[0]->message : "cannot open");
    tc_first first = {0};
    tc_run(tc_input_reader(in), t, &first, NULL);
    if (!t->ok)
        fprintf(stderr, "json_compare: tc_json: %s:%" PRIu64 ": %s: %s\n", path, first.offset,
                first.rule, first.message);
    tc_input_close(in);
}

/* ---- yajl ---- */

static int y_null(void *c) { ((tally *)c)->tokens++; return 1; }
static int y_bool(void *c, int b) { (void)b; ((tally *)c)->tokens++; return 1; }
static int y_number(void *c, const char *s, size_t n)
{
    tally *t = c;
    t->tokens++;
    count_number(t, s, n);
    return 1;
}
static int y_string(void *c, const unsigned char *s, size_t n)
{
    (void)s;
    tally *t = c;
    t->tokens++;
    t->string_bytes += n;
    return 1;
}
static int y_open(void *c) { ((tally *)c)->tokens++; return 1; }
static int y_close(void *c) { ((tally *)c)->tokens++; return 1; }

static const yajl_callbacks y_callbacks = {
    y_null, y_bool, NULL, NULL, y_number, y_string, y_open, y_string, y_close, y_open, y_close,
};

/* yajl's own integer path (no number callback): long long only. */
static int y_integer(void *c, long long v)
{
    tally *t = c;
    t->tokens++;
    t->int_sum += (uint64_t)v;
    return 1;
}
static int y_double(void *c, double v) { (void)v; ((tally *)c)->tokens++; return 1; }

static const yajl_callbacks y_callbacks_integer = {
    y_null, y_bool, y_integer, y_double, NULL, y_string, y_open, y_string, y_close, y_open, y_close,
};

/* Strict as RFC 8259 as yajl can be: every relaxation off. */
static yajl_handle y_new(const yajl_callbacks *cb, tally *t)
{
    yajl_handle h = yajl_alloc(cb, NULL, t);
    if (!h)
        die("out of memory");
    yajl_config(h, yajl_allow_comments, 0);
    yajl_config(h, yajl_dont_validate_strings, 0);
    yajl_config(h, yajl_allow_trailing_garbage, 0);
    yajl_config(h, yajl_allow_multiple_values, 0);
    yajl_config(h, yajl_allow_partial_values, 0);
    return h;
}

static void yajl_file(const char *path, tally *t)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die("%s: %s", path, strerror(errno));
    unsigned char *buf = malloc(YAJL_CHUNK);
    if (!buf)
        die("out of memory");
    yajl_handle h = y_new(&y_callbacks, t);
    yajl_status st = yajl_status_ok;
    ssize_t n;
    while (st == yajl_status_ok && (n = read(fd, buf, YAJL_CHUNK)) > 0)
        st = yajl_parse(h, buf, (size_t)n);
    if (st == yajl_status_ok)
        st = yajl_complete_parse(h);
    t->ok = st == yajl_status_ok;
    if (!t->ok) {
        unsigned char *e = yajl_get_error(h, 0, NULL, 0);
        fprintf(stderr, "json_compare: yajl: %s: %s", path, e);
        yajl_free_error(h, e);
    }
    yajl_free(h);
    free(buf);
    close(fd);
}

/* ------------------------------------------------------------------------ */
/* Speed: each tokenizer in a child of its own, so that the peak RSS the     */
/* kernel reports for it is its own.                                         */

enum impl { TC_MMAP, TC_READ, YAJL, N_IMPL };
static const char *const impl_name[N_IMPL] = {
    "tc_json (mmap windows)", "tc_json (read 1 MiB)", "yajl 2 (read 1 MiB)",
};

typedef struct run {
    double secs;
    tally t;
} run;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One run in a child process; *rss_kib is the child's peak RSS. */
static void measure(enum impl which, const char *path, run *res, long *rss_kib)
{
    int fds[2];
    if (pipe(fds))
        die("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        close(fds[0]);
        run r;
        memset(&r, 0, sizeof r);
        double t0 = now();
        if (which == YAJL)
            yajl_file(path, &r.t);
        else
            tc_file(path, which == TC_READ, &r.t);
        r.secs = now() - t0;
        ssize_t w = write(fds[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof *res) {
        ssize_t n = read(fds[0], (char *)res + got, sizeof *res - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || got != sizeof *res || !WIFEXITED(status) ||
        WEXITSTATUS(status))
        die("the %s run on %s failed", impl_name[which], path);
    *rss_kib = ru.ru_maxrss;
}

static int cmd_speed(int argc, char **argv)
{
    if (argc < 4)
        die("usage: json_compare speed RUNS FILE...");
    int runs = atoi(argv[2]);
    if (runs < 1 || runs > MAX_RUNS)
        die("RUNS must be 1..%d", MAX_RUNS);
    printf("page cache warm; best and median of the runs; MB/s = 10^6 bytes per second;\n"
           "peak RSS of the process (a child per run), MiB = 2^20 bytes\n\n");
    printf("%-24s %-28s %4s %8s %8s %7s %7s %10s\n", "tokenizer", "input", "runs", "best s",
           "median s", "MB/s", "(med)", "peak RSS");
    printf("%-24s %-28s %4s %8s %8s %7s %7s %10s\n", "------------------------",
           "----------------------------", "----", "--------", "--------", "-------", "-------",
           "----------");
    int bad = 0;
    for (int a = 3; a < argc; a++) {
        const char *path = argv[a];
        struct stat st;
        if (stat(path, &st))
            die("%s: %s", path, strerror(errno));
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        /* The tokenizers take turns, run by run, so that load from elsewhere
         * on the machine falls on all of them alike. */
        double secs[N_IMPL][MAX_RUNS];
        long rss[N_IMPL] = {0};
        tally t[N_IMPL];
        int failed[N_IMPL] = {0};
        for (int i = 0; i < runs; i++)
            for (int w = 0; w < N_IMPL; w++) {
                run r;
                long kib;
                if (failed[w])
                    continue;
                measure((enum impl)w, path, &r, &kib);
                secs[w][i] = r.secs;
                t[w] = r.t;
                failed[w] = !r.t.ok;
                if (kib > rss[w])
                    rss[w] = kib;
            }
        tally ref = t[0];
        for (int w = 0; w < N_IMPL; w++) {
            if (failed[w]) {
                printf("%-24s %-28.28s rejected the input (see above)\n", impl_name[w], base);
                bad = 1;
                continue;
            }
            qsort(secs[w], (size_t)runs, sizeof secs[w][0], cmp_double);
            double best = secs[w][0];
            double med = runs % 2 ? secs[w][runs / 2]
                                  : (secs[w][runs / 2 - 1] + secs[w][runs / 2]) / 2;
            printf("%-24s %-28.28s %4d %8.3f %8.3f %7.1f %7.1f %6.1f MiB\n", impl_name[w], base,
                   runs, best, med, (double)st.st_size / best / 1e6, (double)st.st_size / med / 1e6,
                   (double)rss[w] / 1024);
            if (t[w].tokens != ref.tokens || t[w].int_sum != ref.int_sum ||
                t[w].string_bytes != ref.string_bytes || t[w].big != ref.big) {
                fprintf(stderr,
                        "json_compare: %s and %s disagree on %s: %" PRIu64 " / %" PRIu64
                        " tokens, integer sums %" PRIu64 " / %" PRIu64 "\n",
                        impl_name[0], impl_name[w], base, ref.tokens, t[w].tokens, ref.int_sum,
                        t[w].int_sum);
                bad = 1;
            }
        }
        printf("%-24s %-28s %.1f MiB: %" PRIu64 " tokens, %" PRIu64
               " string bytes, the same for each\n",
               "", "", (double)st.st_size / (1 << 20), ref.tokens, ref.string_bytes);
    }
    return bad;
}

/* ------------------------------------------------------------------------ */
/* Strictness.                                                               */

typedef struct verdict {
    int accept;
    char rule[40], message[200]; /* tc_json: its first error */
    char report[240]; /* what the tokenizer can say about the error */
    uint64_t offset;
    int located; /* offset meaningful */
} verdict;

static void tc_doc(const char *doc, size_t len, verdict *v, char *number, size_t number_size)
{
    tc_reader r;
    tc_reader_init_memory(&r, doc, len);
    tally t = {0};
    tc_first first = {0};
    last_number ln;
    memset(&ln, 0, sizeof ln);
    tc_run(&r, &t, &first, &ln);
    const tc_json_token last = ln.tok;
    v->accept = t.ok;
    snprintf(v->rule, sizeof v->rule, "%s", first.have ? first.rule : "");
    snprintf(v->message, sizeof v->message, "%s", first.have ? first.message : "");
    v->located = first.have;
    v->offset = first.offset;
    if (first.have)
        snprintf(v->report, sizeof v->report, "%s at byte %" PRIu64 ", %" PRIu32 ":%" PRIu32
                 ", %.48s%s", first.rule, first.offset, first.line, first.column, first.path,
                 strlen(first.path) > 48 ? "..." : "");
    else
        v->report[0] = '\0';
    if (number && last.kind == TC_JSON_NUMBER) {
        if (last.integer && last.fits && last.negative)
            snprintf(number, number_size, "int64 %" PRId64 " exact", last.i64);
        else if (last.integer && last.fits)
            snprintf(number, number_size, "uint64 %" PRIu64 " exact", last.u64);
        else if (last.integer)
            snprintf(number, number_size, "\"%s\", flagged beyond 64 bits", last.text);
    }
}

static void yajl_doc(const char *doc, size_t len, const yajl_callbacks *cb, verdict *v)
{
    tally t = {0};
    yajl_handle h = y_new(cb, &t);
    yajl_status st = yajl_parse(h, (const unsigned char *)doc, len);
    if (st == yajl_status_ok)
        st = yajl_complete_parse(h);
    v->accept = st == yajl_status_ok;
    v->rule[0] = v->message[0] = '\0';
    v->located = !v->accept;
    v->offset = yajl_get_bytes_consumed(h);
    v->report[0] = '\0';
    if (!v->accept) {
        unsigned char *e = yajl_get_error(h, 0, NULL, 0);
        char *nl = strchr((char *)e, '\n');
        if (nl)
            *nl = '\0';
        snprintf(v->report, sizeof v->report, "'%s', %zu bytes consumed", (char *)e,
                 yajl_get_bytes_consumed(h));
        yajl_free_error(h, e);
    }
    yajl_free(h);
}

/* What a document must get, and on what ground. The unit tests' names say
 * what tracecheck requires (y_ accept, n_ reject, i_ either); not all of it
 * is RFC 8259's to decide:
 *   - duplicate keys: RFC 8259 section 4 says names SHOULD be unique, so
 *     the RFC leaves them to the reader; DCFG section 1.2.4 promises none
 *     and the DCFG rulings make one an error;
 *   - escaped lone surrogates ("\ud800"): the RFC's grammar allows them,
 *     section 8.2 calls what a reader does with them unpredictable;
 *     tracecheck rejects them;
 *   - a byte order mark: section 8.1 lets a parser ignore one "rather than
 *     treating it as an error", so either verdict is right (tracecheck
 *     accepts it with a warning);
 *   - nesting depth: section 9 lets a parser limit it. */
enum ground { G_RFC, G_DUPLICATE, G_SURROGATE, G_EITHER, N_GROUND };
static const char *const ground_name[N_GROUND] = {"RFC", "dup", "surr", "either"};

static enum ground ground_of(const char *name, const verdict *tc)
{
    if (name[0] == 'i' || !strncmp(name, "y_bom", 5))
        return G_EITHER;
    if (name[0] == 'n' && !strcmp(tc->rule, "TC-JSON-DUPLICATE-KEY"))
        return G_DUPLICATE;
    if (name[0] == 'n' && !strcmp(tc->rule, "TC-JSON-ENCODING") && tc->message[0] == '\\')
        return G_SURROGATE; /* "\udc00 is a low surrogate ..." */
    return G_RFC;
}

/* 1 when v is the wrong verdict for the document called name. */
static int wrong(const char *name, enum ground g, const verdict *v)
{
    if (g == G_EITHER)
        return 0;
    return name[0] == 'y' ? !v->accept : v->accept;
}

static const char *verdict_word(const verdict *v, int bad)
{
    return v->accept ? (bad ? "accepts (WRONG)" : "accepts") : (bad ? "rejects (WRONG)" : "rejects");
}

/* Cases for what matters to DCFG reading, beyond the unit tests' set. */
typedef struct extra {
    const char *name;
    const char *doc;
    size_t len;
    int number; /* show the value each gives */
} extra;

#define X(name, s) {name, s, sizeof s - 1, 0}
#define XN(name, s) {name, s, sizeof s - 1, 1}

static const extra extras[] = {
    X("n_duplicate_key", "{\"MAJOR_VERSION\":1,\"MAJOR_VERSION\":2}"),
    X("n_duplicate_key_deep",
      "{\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],[1,{\"INSTR_COUNT\":5,\"IMAGES\":[],"
      "\"INSTR_COUNT\":6}]]}"),
    X("n_duplicate_key_escaped", "{\"a\":1,\"\\u0061\":2}"),
    XN("y_uint64_max", "[18446744073709551615]"),
    XN("y_uint64_max_plus_1", "[18446744073709551616]"),
    XN("y_int64_min", "[-9223372036854775808]"),
    XN("y_int64_min_minus_1", "[-9223372036854775809]"),
    XN("y_2_pow_53_plus_1", "[9007199254740993]"),
    {"i_depth_100000", NULL, 0, 0}, /* built at run time */
    X("n_lone_high_surrogate", "[\"\\ud800\"]"),
    X("n_lone_low_surrogate", "[\"\\udc00\"]"),
    X("n_high_surrogate_then_letter", "[\"\\ud800A\"]"),
    X("n_high_surrogate_then_high", "[\"\\ud800\\ud800\"]"),
    X("n_trailing_value", "{} {}"),
    X("n_trailing_letter", "[1] x"),
    X("n_trailing_nul", "[1]\0"),
    X("n_comment_line", "[1 // one\n]"),
    X("n_comment_block", "[/* one */ 1]"),
    X("n_comment_after", "{} /* end */"),
    X("n_nul_in_string", "[\"a\0b\"]"),
    X("y_escaped_nul_in_string", "[\"a\\u0000b\"]"),
    X("n_control_char_in_string", "[\"a\tb\"]"),
    X("n_utf8_bad_start_byte", "[\"\xff\"]"),
    X("n_utf8_continuation_alone", "[\"\x80\"]"),
    X("n_utf8_overlong_slash", "[\"\xc0\xaf\"]"),
    X("n_utf8_overlong_3_bytes", "[\"\xe0\x80\xaf\"]"),
    X("n_utf8_surrogate_encoded", "[\"\xed\xa0\x80\"]"),
    X("n_utf8_above_10ffff", "[\"\xf4\x90\x80\x80\"]"),
    X("n_utf8_truncated", "[\"\xe2\x82\"]"),
    X("n_utf8_invalid_deep",
      "{\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],[1,{\"IMAGES\":[[1,\"0x400000\",9,"
      "\"\xff\"]]}]]}"),
    X("n_hex_number", "[0x400000]"),
    X("n_leading_zero", "[0123]"),
    X("n_plus_sign", "[+1]"),
    X("n_nan", "[NaN]"),
    X("n_trailing_comma", "[1,2,]"),
    X("n_single_quotes", "['a']"),
};

#define DEPTH 100000

static int cmd_strict(void)
{
    /* 1. The unit tests' documents: wrong verdicts and location accuracy. */
    int wrong_[2][N_GROUND] = {{0}}, count[N_GROUND] = {0}, at_n = 0, at_tc = 0, at_y = 0;
    printf("Unit-test documents (tests/json_cases.c): wrong verdicts\n"
           "(ground: RFC = RFC 8259 decides; dup = duplicate key, surr = escaped lone\n"
           "surrogate: the RFC leaves them to the reader, tracecheck rejects them)\n\n");
    printf("%-36s %-6s  %-16s  %s\n", "document", "ground", "tc_json", "yajl 2");
    printf("%-36s %-6s  %-16s  %s\n", "------------------------------------", "------",
           "----------------", "----------------");
    for (size_t i = 0; i < jt_ncases; i++) {
        const jt_case *c = &jt_cases[i];
        verdict vt, vy;
        tc_doc(c->doc, c->len, &vt, NULL, 0);
        yajl_doc(c->doc, c->len, &y_callbacks, &vy);
        enum ground g = ground_of(c->name, &vt);
        int bad_t = wrong(c->name, g, &vt), bad_y = wrong(c->name, g, &vy);
        count[g]++;
        wrong_[0][g] += bad_t;
        wrong_[1][g] += bad_y;
        if (bad_t || bad_y)
            printf("%-36s %-6s  %-16s  %s\n", c->name, ground_name[g], verdict_word(&vt, bad_t),
                   verdict_word(&vy, bad_y));
        /* Where the error is: the unit tests give its offset for n_ documents
         * (the offset of the first finding: documents with one finding only). */
        if (c->name[0] == 'n' && c->at >= 0 && !strchr(c->rules, ' ')) {
            at_n++;
            at_tc += !vt.accept && vt.offset == (uint64_t)c->at;
            at_y += !vy.accept && vy.offset == (uint64_t)c->at;
        }
    }
    printf("\n%zu documents: %d decided by RFC 8259, %d duplicate keys, %d lone surrogates,"
           " %d either\n", jt_ncases, count[G_RFC], count[G_DUPLICATE], count[G_SURROGATE],
           count[G_EITHER]);
    printf("\n%-48s %10s %10s\n", "", "tc_json", "yajl 2");
    printf("%-48s %10d %10d\n", "wrong verdicts where RFC 8259 decides", wrong_[0][G_RFC],
           wrong_[1][G_RFC]);
    printf("%-48s %10d %10d\n", "duplicate keys not reported", wrong_[0][G_DUPLICATE],
           wrong_[1][G_DUPLICATE]);
    printf("%-48s %10d %10d\n", "escaped lone surrogates not reported", wrong_[0][G_SURROGATE],
           wrong_[1][G_SURROGATE]);
    printf("%-48s %7d/%-3d %6d/%-3d\n", "errors located at the expected byte", at_tc, at_n, at_y,
           at_n);
    printf("%-48s %10s %10s\n", "line:column of an error", "yes", "no");
    printf("%-48s %10s %10s\n", "JSON path of an error", "yes", "no");
    printf("%-48s %10s %10s\n", "kind of error", "rule id", "text");

    /* 2. The cases that matter for DCFG, each in detail. */
    printf("\nCases for DCFG reading: verdict and what each reports\n"
           "(tc_json: rule, byte offset, line:column, JSON path; yajl: its error text and\n"
           "yajl_get_bytes_consumed, the only position it gives)\n\n");
    int xw_tc = 0, xw_y = 0;
    for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++) {
        const extra *x = &extras[i];
        const char *doc = x->doc;
        size_t len = x->len;
        char *deep = NULL;
        if (!doc) {
            deep = malloc(2 * DEPTH);
            if (!deep)
                die("out of memory");
            memset(deep, '[', DEPTH);
            memset(deep + DEPTH, ']', DEPTH);
            doc = deep;
            len = 2 * DEPTH;
        }
        verdict vt, vy, vyi;
        char number[120] = "";
        tc_doc(doc, len, &vt, x->number ? number : NULL, sizeof number);
        yajl_doc(doc, len, &y_callbacks, &vy);
        enum ground g = ground_of(x->name, &vt);
        int bad_t = wrong(x->name, g, &vt), bad_y = wrong(x->name, g, &vy);
        xw_tc += bad_t;
        xw_y += bad_y;
        printf("%s (%s)\n", x->name,
               g == G_EITHER      ? "either verdict is right"
               : g == G_DUPLICATE ? "must be reported: DCFG section 1.2.4, RFC 8259 section 4"
               : g == G_SURROGATE ? "must be reported: tracecheck, RFC 8259 section 8.2"
               : x->name[0] == 'y' ? "RFC 8259: accept" : "RFC 8259: reject");
        printf("  tc_json  %s%s%s\n", verdict_word(&vt, bad_t),
               vt.report[0] || number[0] ? ": " : "", number[0] ? number : vt.report);
        if (x->number) {
            /* yajl's number callback gives the digits: exactness is the caller's
             * job. Its own integer callback stops at long long. */
            yajl_doc(doc, len, &y_callbacks_integer, &vyi);
            printf("  yajl 2   %s: the digits to the number callback; integer callback: %s\n",
                   verdict_word(&vy, bad_y), vyi.accept ? "accepts" : vyi.report);
        } else {
            printf("  yajl 2   %s%s%s\n", verdict_word(&vy, bad_y), vy.report[0] ? ": " : "",
                   vy.report);
        }
        free(deep);
    }
    printf("\nwrong verdicts on these %zu cases: tc_json %d, yajl 2 %d\n",
           sizeof extras / sizeof extras[0], xw_tc, xw_y);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "gen"))
        return cmd_gen(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "speed"))
        return cmd_speed(argc, argv);
    if (argc == 2 && !strcmp(argv[1], "strict"))
        return cmd_strict();
    fprintf(stderr, "usage: json_compare gen dcfg|trace BYTES FILE\n"
                    "       json_compare speed RUNS FILE...\n"
                    "       json_compare strict\n");
    return 2;
}
