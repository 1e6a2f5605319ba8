/* The walk of stream.json (ovni_meta.c), for the readers of its parts
 * (ovni_meta_decl.c: ovni.mark and nosv.hwc). */
#ifndef TC_OVNI_META_WALK_H
#define TC_OVNI_META_WALK_H

#include "../common/json.h"
#include "ovni_meta.h"

/* A value of the view (fields.h), drawn once it was read: its end is then
 * known. */
typedef struct tc_ovni_shown {
    int on;
    uint64_t at;
    char name[48];
    char value[120];
    char key[48]; /* of the top-level member being read */
} tc_ovni_shown;

typedef struct walker {
    tc_json *j;
    tc_diag_sink *d;
    tc_ovni_meta *m;
    int failed; /* the tokenizer stopped */
    tc_reader *r;
    int member;          /* the view: a top-level member is its current record */
    tc_ovni_shown shown; /* the view: the value being read */
} walker;

void tc_ovni_mw_remember(walker *w, const tc_json_token *t, tc_ovni_loc *at);
/* The next token: 1, or 0 when the tokenizer stopped. */
int tc_ovni_mw_next(walker *w, tc_json_token *t);
/* Skips the value that begins with t: 1, or 0 when the tokenizer stopped. */
int tc_ovni_mw_skip(walker *w, const tc_json_token *t);
/* "an object", "a string" ... */
const char *tc_ovni_mw_what(const tc_json_token *t);
/* An integer within int64: 1; 2 an integer out of range; 0 not an integer. */
int tc_ovni_mw_integer(const tc_json_token *t, int64_t *v);
/* OVNI-META-TYPE: key is of the wrong type; skips it. */
void tc_ovni_mw_wrong_type(walker *w, const tc_json_token *t, const char *key, const char *want);

/* ovni.mark and nosv.hwc, from the token that opens their value. */
void tc_ovni_meta_read_marks(walker *w, const tc_json_token *open);
void tc_ovni_meta_read_nosv(walker *w, const tc_json_token *open);

#endif
