/* The basic-mode reader (xray_basic_reader.c), called by xray_reader.c once the
 * header has said type 0, version 1 to 3, and has been checked and emitted. */
#ifndef TC_XRAY_BASIC_H
#define TC_XRAY_BASIC_H

#include "xray.h"

struct tc_split_seg;

/* Reads the records after the header; h lives as long as the call. seg:
 * NULL for the whole log, else the segment (split.h) to read. */
void tc_xray_basic_records(tc_reader *r, const tc_parse_ctx *ctx, const tc_xray_header *h,
                           struct tc_split_seg *seg);

/* tc_xray_basic_parse of one segment (xray_reader.c: the header first). */
void tc_xray_basic_parse_segment(tc_reader *r, const tc_parse_ctx *ctx, struct tc_split_seg *seg);

#endif
