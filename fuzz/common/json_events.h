/*
 * Running tracecheck's strict JSON tokenizer (parsers/common/json.c) in a
 * harness and keeping what it delivered: every token (kind, place, depth,
 * line:column, text, number fields, JSON path, where the reader stood after
 * it), the findings (the kit's capture) and how the document ended.
 */
#ifndef TC_FUZZ_JSON_EVENTS_H
#define TC_FUZZ_JSON_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"
#include "../../parsers/common/json.h"

typedef struct jtok {
    tc_json_kind kind;
    uint64_t offset, end; /* end: the reader's position after the token */
    uint32_t line, column;
    unsigned depth;
    char *text; /* KEY, STRING, NUMBER */
    size_t len;
    int integer, negative, fits;
    int64_t i64;
    uint64_t u64;
    char *path; /* or NULL, when not asked for */
    int skipped; /* (skip runs) the container's contents were skipped */
} jtok;

typedef struct jrun {
    jtok *t;
    size_t n, cap;
    hx_findings d;
    int rc; /* 0: a complete document; -1: an error ended it */
    uint64_t end_pos;
} jrun;

/* Tokenizes what r holds (findings pedantic, uncapped). With skip != 0,
 * containers picked by skip are passed over with tc_json_skip. With paths,
 * each token keeps the JSON path the tokenizer gives after it (else NULL:
 * building it costs more than the token). */
void js_tokenize(jrun *run, tc_reader *r, uint32_t skip, int paths);
void jrun_free(jrun *run);
int js_tok_eq(const jtok *a, const jtok *b);
/* Aborts unless two runs gave the same findings, end, tokens and stopping
 * place. */
void js_assert_same(const jrun *a, const char *la, const jrun *b, const char *lb);
/* Aborts unless the skip run returned a subsequence of the full run's
 * tokens, the same findings and the same end. */
void js_assert_skip(const jrun *full, const jrun *skip);

#endif
