/*
 * What `tracecheck show` says of XRay bytes (../common/fields.h): the
 * reader calls these where it reads a record, with the values it decoded,
 * and they say which bytes held each one, named as the canonical dump
 * names them (spec/canonical-dump.md; spec/xray/xray.md, "The view of
 * tracecheck show").
 */
#ifndef TC_XRAY_FIELDS_H
#define TC_XRAY_FIELDS_H

#include <stdint.h>

#include "../common/diag.h"
#include "../common/fields.h"
#include "xray.h"

/* The 32-byte file header (FDR or basic mode). */
void tc_xray_fields_header(tc_diag_sink *d, const tc_xray_header *h);

/* An FDR function record at pos: its action, function id and TSC delta
 * as read; name: the function's, with --binary (NULL: none). */
void tc_xray_fields_function(tc_diag_sink *d, uint64_t pos, int be, unsigned action,
                             uint32_t fid, uint32_t delta, const char *name);

/* An FDR metadata record of kind at pos (b: its 16 bytes) in a file of
 * version. */
void tc_xray_fields_metadata(tc_diag_sink *d, uint64_t pos, const uint8_t *b, int be,
                             unsigned kind, unsigned version);

/* A basic-mode record at pos (b: its 32 bytes). */
void tc_xray_fields_basic(tc_diag_sink *d, uint64_t pos, const uint8_t *b, int be,
                          unsigned version, const char *name);

#endif
