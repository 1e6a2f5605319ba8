/*
 * Edge-id sequence strings of DCFG-trace (Doc §3.7.1, rulings 1 and 11),
 * compiled, never expanded: a string becomes a list of operations (a run of
 * modified Base64 values, a repeat of a body, a dictionary reference) with
 * the number of bits each one stands for, counted with saturating 128-bit
 * arithmetic so that "(4000000000*(4000000000*A))" is just a number.
 *
 * No JSON and no diagnostics here: errors come back as a tc_dtrc_err that
 * the reader turns into findings, so the unit tests can drive this alone.
 */
#ifndef TC_DTRC_SEQ_H
#define TC_DTRC_SEQ_H

#include <stddef.h>
#include <stdint.h>

/* Bit counts: exact up to TC_DTRC_BITS_SAT, which stands for "that many or
 * more" (far beyond what 64-bit edge counts can consume: 2^64 edges of at
 * most 32 bits are 2^69 bits). */
typedef unsigned __int128 tc_dtrc_bits;
#define TC_DTRC_BITS_SAT (((tc_dtrc_bits)1) << 100)

/* Repeats and dictionary references nest at most this deep (the decoder's
 * stack); deeper is DTRC-SEQ-NESTING, like the JSON depth limit. */
#define TC_DTRC_MAX_NEST 256

enum tc_dtrc_errcode {
    TC_DTRC_OK = 0,
    TC_DTRC_E_CHAR,         /* a character that starts nothing */
    TC_DTRC_E_REPEAT,       /* '(' not followed by digits and '*' */
    TC_DTRC_E_PAREN,        /* ')' without '(' or '(' without ')' */
    TC_DTRC_E_COUNT,        /* repeat count above 2^64-1 */
    TC_DTRC_E_REF,          /* '<' without '>' or a key outside the charset */
    TC_DTRC_E_MISSING,      /* a key not in the dictionary */
    TC_DTRC_E_CYCLE,        /* a dictionary entry refers back to itself */
    TC_DTRC_E_NESTING,      /* deeper than TC_DTRC_MAX_NEST */
    TC_DTRC_E_NOMEM,
    /* decoding (dtrc_decode.h) */
    TC_DTRC_E_SHORT,        /* the bits ran out before the edges */
    TC_DTRC_E_LEFTOVER,     /* 6 or more bits left after the last edge */
    TC_DTRC_E_NO_CODE,      /* the next bits match no code of the current edge */
    TC_DTRC_E_NO_ENTRY,     /* the current edge has no transition-table entry */
    TC_DTRC_E_BUDGET,       /* decoding gave up (too much work) */
};

typedef struct tc_dtrc_err {
    int code;
    size_t pos;        /* character index in the string (compile errors) */
    char detail[160];  /* the offending text or values */
} tc_dtrc_err;

enum { TC_DTRC_OP_CHARS = 0, TC_DTRC_OP_REPEAT, TC_DTRC_OP_REF };

typedef struct tc_dtrc_op {
    uint8_t kind;
    uint16_t nest;      /* repeats enclosing the op within its string */
    uint32_t a;         /* CHARS: first value in vals; REF: dictionary entry */
    uint32_t n;         /* CHARS: values; REPEAT: ops of the body (they follow) */
    uint64_t count;     /* REPEAT: M */
    tc_dtrc_bits bits;  /* what the op expands to, in bits (saturating) */
} tc_dtrc_op;

/* One compiled string. Buffers are reused from one string to the next. */
typedef struct tc_dtrc_prog {
    tc_dtrc_op *ops;
    size_t nops, capops;
    uint8_t *vals;      /* 6-bit values of the Base64 characters */
    size_t nvals, capvals;
    tc_dtrc_bits bits;  /* the whole string */
    unsigned depth;     /* frames the decoder needs: repeats and references */
    size_t dots;        /* '.' characters read as 63 (ruling 1) */
    size_t first_dot;
} tc_dtrc_prog;

void tc_dtrc_prog_free(tc_dtrc_prog *p);

/* Looks a key up: the entry index, or -1. */
typedef long (*tc_dtrc_resolve_fn)(void *user, const char *key, size_t n);

/* Compiles s[0..n) into p (cleared first). References are looked up with
 * resolve; entry_bits/entry_depth give what entries stand for (NULL while
 * the dictionary itself is being compiled: bits and depth are then summed
 * later by tc_dtrc_prog_sum). Returns 1, or 0 with *err set. */
int tc_dtrc_compile(tc_dtrc_prog *p, const char *s, size_t n, tc_dtrc_resolve_fn resolve,
                    void *user, const tc_dtrc_bits *entry_bits, const unsigned *entry_depth,
                    tc_dtrc_err *err);

/* Recomputes the bits of every op and p->bits and p->depth from the entries'
 * totals. */
void tc_dtrc_prog_sum(tc_dtrc_prog *p, const tc_dtrc_bits *entry_bits,
                      const unsigned *entry_depth);

/* A key of the STRING_DICTIONARY (Doc §3.4): non-empty, of A-Z a-z 0-9 + -. */
int tc_dtrc_key_ok(const char *s, size_t n);

/* The Base64 value of c (ruling 1: '-' and '.' are 63), or -1. */
int tc_dtrc_b64(unsigned char c);

/* ---- the STRING_DICTIONARY of a process ---- */

typedef struct tc_dtrc_dict {
    size_t n, cap;
    char **keys;
    size_t *keylen;
    char **texts;       /* the values as written, until tc_dtrc_dict_finish */
    size_t *textlen;
    tc_dtrc_prog *progs;
    tc_dtrc_bits *bits;
    unsigned *depth;
    unsigned char *taint; /* invalid, or refers to an invalid entry */
    struct tc_dtrc_key {
        const char *k;
        size_t n, e;
    } *order;           /* the keys sorted, for lookups */
    int finished;
} tc_dtrc_dict;

void tc_dtrc_dict_init(tc_dtrc_dict *d);
void tc_dtrc_dict_free(tc_dtrc_dict *d);
/* Adds a key and its value text (copied). Returns 0 when out of memory. */
int tc_dtrc_dict_add(tc_dtrc_dict *d, const char *key, size_t klen, const char *val, size_t vlen);
long tc_dtrc_dict_find(const tc_dtrc_dict *d, const char *key, size_t n);

/* Compiles every value and checks references and cycles. Each bad entry is
 * passed to bad(user, entry, err) and then stands for nothing (an empty
 * string), so that the chunks can still be read. */
void tc_dtrc_dict_finish(tc_dtrc_dict *d, void (*bad)(void *user, size_t entry,
                                                      const tc_dtrc_err *err),
                         void *user);

/* Compiles a chunk's sequence against a finished dictionary. */
int tc_dtrc_compile_chunk(tc_dtrc_prog *p, const tc_dtrc_dict *d, const char *s, size_t n,
                          tc_dtrc_err *err);

/* Whether p refers to an entry that was invalid (already reported): its
 * bits mean nothing, so the chunk is not decoded. */
int tc_dtrc_prog_tainted(const tc_dtrc_prog *p, const tc_dtrc_dict *d);

/* Decimal text of a bit count ("1267650600228229401496703205376 or more"
 * when saturated). */
void tc_dtrc_bits_str(tc_dtrc_bits v, char *buf, size_t size);

/* Saturating arithmetic on bit counts. */
static inline tc_dtrc_bits tc_dtrc_bits_add(tc_dtrc_bits a, tc_dtrc_bits b)
{
    tc_dtrc_bits s = a + b;
    return s >= TC_DTRC_BITS_SAT ? TC_DTRC_BITS_SAT : s;
}
static inline tc_dtrc_bits tc_dtrc_bits_mul(tc_dtrc_bits a, tc_dtrc_bits b)
{
    if (a == 0 || b == 0)
        return 0;
    /* Both below 2^64 (the usual case): the product is exact in 128 bits,
     * without the division below. */
    if ((a | b) >> 64 == 0) {
        tc_dtrc_bits p = a * b;
        return p >= TC_DTRC_BITS_SAT ? TC_DTRC_BITS_SAT : p;
    }
    if (a >= TC_DTRC_BITS_SAT || b >= TC_DTRC_BITS_SAT || a > TC_DTRC_BITS_SAT / b)
        return TC_DTRC_BITS_SAT;
    tc_dtrc_bits p = a * b;
    return p >= TC_DTRC_BITS_SAT ? TC_DTRC_BITS_SAT : p;
}

#endif
