/* The basic-mode reader (xray_basic_reader.c), called by xray_reader.c once the
 * header has said type 0, version 1 to 3, and has been checked and emitted. */
#ifndef TC_XRAY_BASIC_H
#define TC_XRAY_BASIC_H

#include "xray.h"

/* Reads the records after the header; h lives as long as the call. */
void tc_xray_basic_records(tc_reader *r, const tc_parse_ctx *ctx, const tc_xray_header *h);

#endif
