/* The toy format (spec/toy/toy.md): its reader and its dump. */
#ifndef TC_TOY_H
#define TC_TOY_H

#include <stdint.h>

#include "../common/jsonl.h"
#include "../common/parse.h"

#define TC_TOY_MAGIC "TOY1"
#define TC_TOY_RECORD_SIZE 4u

/* What the dump and a caller's on_event see: the header (the magic read),
 * then each record of a known kind. */
typedef struct tc_toy_record {
    int header;
    uint64_t offset;
    unsigned kind, value;
} tc_toy_record;

int tc_toy_sniff(const uint8_t *p, size_t n);
void tc_toy_parse(tc_reader *r, const tc_parse_ctx *ctx);
void tc_toy_dump(tc_jsonl *w, const void *event);

#endif
