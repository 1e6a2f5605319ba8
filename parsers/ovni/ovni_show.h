/* The view of a binary stream for `tracecheck show` (fields.h): what the
 * stream reader (ovni_stream.c) reports of its header and its events, only
 * while a view is drawn (TC_FIELDS_ON). */
#ifndef TC_OVNI_SHOW_H
#define TC_OVNI_SHOW_H

#include "ovni.h"

/* The stream header: its first n bytes at b (8, or fewer when the stream
 * is shorter). */
void tc_ovni_show_header(tc_diag_sink *d, const uint8_t *b, size_t n);
/* An event whose 12-byte header is cut: n bytes at pos are there. */
void tc_ovni_show_cut_header(tc_diag_sink *d, uint64_t pos, size_t n);
/* An event as read (its header whole), its bytes up to end (before its
 * announced end when the stream ends inside it). */
void tc_ovni_show_event(tc_diag_sink *d, const tc_ovni_event *ev, uint64_t end);

#endif
