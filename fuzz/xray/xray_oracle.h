/*
 * Independent judges of one XRay run (spec/xray/xray.md, the FDR document and
 * the rulings), written from the format rather than from the parser: they
 * take what the parser delivered (findings, events, header) and the input's
 * bytes, and abort where the two cannot both be right.
 */
#ifndef TC_FUZZ_XRAY_ORACLE_H
#define TC_FUZZ_XRAY_ORACLE_H

#include "../common/harness.h"
#include "xray_events.h"

/* Findings: XRAY or TC rules (never TC-FORMAT-UNKNOWN or TC-DIAG-SUPPRESSED
 * from the parser itself, TC-INPUT-DECOMPRESS only for a compressed input),
 * well formed, located by offset inside the bytes the parser saw (findings
 * about a record the input cuts short may cover it whole). */
void xray_oracle_check_findings(const xr_run *run, const hx_plain *pl);

/* Events (kept): known kinds, the header first, in file order without
 * overlap, inside the input, a payload exactly where its record says and
 * equal to the input's bytes; one dump line per event when dumped. */
void xray_oracle_check_events(const xr_run *run, const hx_plain *pl);

/* An FDR trace's buffers (events kept): every event lies inside its buffer
 * (BufferExtents' n + 16 bytes from version 2, buffer_size tiles in version
 * 1) unless the buffer's records were reported to run past its extents;
 * typed events only in version 5; XRAY-EXTENTS-OVER-BUFFER-SIZE exactly at
 * the BufferExtents whose 16 + n bytes exceed buffer_size; and
 * XRAY-CALLSTACK-MISMATCH exactly at the exits ruling 10 rejects, each
 * buffer's call stack starting empty. */
void xray_oracle_check_buffers(const xr_run *run);

/* Accepted means valid: with no error, the events are a trace (the header,
 * then buffers that tile the input, each with its version's preamble and
 * body records, CallArguments only where ruling 7 allows them, and the TSC,
 * CPU, thread and process of each event reconstructed correctly), or a
 * basic-mode log (the header, then a 32-byte record per event carrying the
 * record's fields, argument payloads only where ruling 14 allows them). */
void xray_oracle_check_accepted(const xr_run *run, const hx_plain *pl);

#endif
