/* Running the JSON tokenizer in a harness: see json_events.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_events.h"

static char *dup_bytes(const char *p, size_t n)
{
    char *d = malloc(n + 1);
    FUZZ_CHECK_ALLOC(d);
    if (n)
        memcpy(d, p, n);
    d[n] = '\0';
    return d;
}

/* Tokenizes what r holds. With skip != 0, containers picked by skip are
 * passed over with tc_json_skip. */
void js_tokenize(jrun *run, tc_reader *r, uint32_t skip, int paths)
{
    memset(run, 0, sizeof *run);
    tc_diag_sink sink;
    hx_sink_init(&sink, &run->d, 1, 0);
    tc_json *j = tc_json_new(r, &sink);
    FUZZ_CHECK_ALLOC(j);
    for (size_t i = 0;; i++) {
        tc_json_token t;
        int rc = tc_json_next(j, &t);
        FUZZ_ASSERT_MSG(rc >= -1 && rc <= 1, "tc_json_next returned %d", rc);
        if (rc <= 0) {
            run->rc = rc;
            break;
        }
        if (run->n == run->cap) {
            run->cap = run->cap ? 2 * run->cap : 64;
            run->t = realloc(run->t, run->cap * sizeof *run->t);
            FUZZ_CHECK_ALLOC(run->t);
        }
        jtok *x = &run->t[run->n++];
        memset(x, 0, sizeof *x);
        x->kind = t.kind;
        x->offset = t.offset;
        x->line = t.line;
        x->column = t.column;
        x->depth = tc_json_depth(j);
        x->end = tc_pos(r);
        if (t.kind == TC_JSON_KEY || t.kind == TC_JSON_STRING || t.kind == TC_JSON_NUMBER) {
            FUZZ_ASSERT(t.text != NULL && t.text[t.len] == '\0');
            x->text = dup_bytes(t.text, t.len);
            x->len = t.len;
        }
        if (t.kind == TC_JSON_NUMBER) {
            x->integer = t.integer;
            x->negative = t.negative;
            x->fits = t.fits;
            x->i64 = t.integer && t.fits && t.negative ? t.i64 : 0;
            x->u64 = t.integer && t.fits && !t.negative ? t.u64 : 0;
        }
        if (paths) {
            const char *path = tc_json_path(j);
            FUZZ_ASSERT(path != NULL);
            x->path = dup_bytes(path, strlen(path));
        }
        if (skip && (t.kind == TC_JSON_OBJECT_BEGIN || t.kind == TC_JSON_ARRAY_BEGIN) &&
            ((uint32_t)(i * 2654435761u) ^ skip) % 3 == 0) {
            x->skipped = 1;
            int rc2 = tc_json_skip(j, &t);
            FUZZ_ASSERT_MSG(rc2 == 1 || rc2 == -1, "tc_json_skip returned %d", rc2);
            x->end = tc_pos(r);
            x->depth = tc_json_depth(j);
        }
    }
    /* The end is sticky: every later call says the same. */
    tc_json_token t;
    FUZZ_ASSERT_MSG(tc_json_next(j, &t) == run->rc && tc_json_next(j, &t) == run->rc,
                    "tc_json_next changed its answer after the end");
    tc_json_free(j);
    hx_sink_finish(&sink, &run->d);
    run->end_pos = tc_pos(r);
}

void jrun_free(jrun *run)
{
    for (size_t i = 0; i < run->n; i++) {
        free(run->t[i].text);
        free(run->t[i].path);
    }
    free(run->t);
    hx_findings_free(&run->d);
    memset(run, 0, sizeof *run);
}

int js_tok_eq(const jtok *a, const jtok *b)
{
    return a->kind == b->kind && a->offset == b->offset && a->line == b->line &&
           a->column == b->column && a->depth == b->depth && a->len == b->len &&
           (a->text == NULL) == (b->text == NULL) &&
           (!a->text || memcmp(a->text, b->text, a->len) == 0) && a->integer == b->integer &&
           a->negative == b->negative && a->fits == b->fits && a->i64 == b->i64 &&
           a->u64 == b->u64 &&
           (a->path == b->path || (a->path && b->path && strcmp(a->path, b->path) == 0));
}

void js_assert_same(const jrun *a, const char *la, const jrun *b, const char *lb)
{
    hx_assert_same(&a->d, la, &b->d, lb);
    FUZZ_ASSERT_MSG(a->rc == b->rc, "%s ends with %d, %s with %d", la, a->rc, lb, b->rc);
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT_MSG(js_tok_eq(&a->t[i], &b->t[i]),
                        "%s and %s: token %zu differs (kind %d at %" PRIu64 " %s, kind %d at %"
                        PRIu64 " %s)", la, lb, i, a->t[i].kind, a->t[i].offset, a->t[i].path,
                        b->t[i].kind, b->t[i].offset, b->t[i].path);
    FUZZ_ASSERT_MSG(a->n == b->n, "%s: %zu tokens, %s: %zu", la, a->n, lb, b->n);
    FUZZ_ASSERT_MSG(a->end_pos == b->end_pos, "%s stops at %" PRIu64 ", %s at %" PRIu64, la,
                    a->end_pos, lb, b->end_pos);
}

/* The skip run returned a subsequence of the full run's tokens, the same
 * findings, and the same end. */
void js_assert_skip(const jrun *full, const jrun *skip)
{
    hx_assert_same(&full->d, "every token", &skip->d, "tc_json_skip");
    FUZZ_ASSERT_MSG(full->rc == skip->rc, "tc_json_skip changes the end: %d vs %d", full->rc,
                    skip->rc);
    size_t k = 0;
    for (size_t i = 0; i < skip->n; i++) {
        const jtok *s = &skip->t[i];
        while (k < full->n && full->t[k].offset < s->offset)
            k++;
        FUZZ_ASSERT_MSG(k < full->n, "after tc_json_skip, a token at %" PRIu64 " that the full "
                        "run does not have", s->offset);
        jtok f = full->t[k];
        if (s->skipped) { /* the container's end, as the full run met it */
            f.end = s->end;
            f.depth = s->depth;
            f.skipped = 1;
        }
        FUZZ_ASSERT_MSG(js_tok_eq(&f, s), "after tc_json_skip, token at %" PRIu64 " (%s) differs",
                        s->offset, s->path);
    }
}

