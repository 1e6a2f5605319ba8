/*
 * A trace judged against the programs it was recorded from (--binary,
 * tc_options.binaries): every function id must be one of the program's,
 * and every function record must come from a sled the function has
 * (spec/xray/xray.md, "The program's binary"; rules XRAY-BINARY-*). Shared by
 * the FDR and the basic-mode readers.
 */
#ifndef TC_XRAY_BINARY_H
#define TC_XRAY_BINARY_H

#include <stdint.h>

#include "../common/diag.h"
#include "../common/formats.h"
#include "xray_map.h"

typedef struct tc_xray_bins tc_xray_bins;

/* The maps of ctx's binaries, read for one parse; NULL when no binary was
 * given, or when one cannot be read: the check is then failed (status 2)
 * with the reason, and the trace is read without them. */
tc_xray_bins *tc_xray_bins_open(const tc_parse_ctx *ctx);
void tc_xray_bins_close(tc_xray_bins *b);

/* The bits of a function id that hold the function, the rest the object
 * (compiler-rt's packed ids): FDR records keep 28 bits of it, basic-mode
 * records all 32. */
#define TC_XRAY_FN_BITS 24

/* Checks a function record (action 0 to 3) of function id at pos. */
void tc_xray_bins_record(tc_xray_bins *b, tc_diag_sink *d, uint64_t pos, uint64_t len,
                         unsigned action, uint32_t id);

/* The function's demangled name, or NULL when no map has it. */
const char *tc_xray_bins_name(const tc_xray_bins *b, uint32_t id);

/* " (walk(long))" after an id in a message, or "" when it has no name. */
void tc_xray_bins_label(const tc_xray_bins *b, uint32_t id, char *buf, size_t size);

/* tc_format_split.one_thread: findings once per function need the whole
 * trace on one thread. */
int tc_xray_bins_one_thread(const tc_options *opt);

#endif
