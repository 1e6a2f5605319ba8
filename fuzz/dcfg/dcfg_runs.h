/*
 * Running tracecheck on a DCFG or a DCFG-trace in a harness and keeping
 * what it said: the findings (the kit's capture, with line, column and JSON
 * path), the status and the canonical dump; and the deep checks the DCFG
 * and DCFG-trace harnesses share.
 */
#ifndef TC_FUZZ_DCFG_RUNS_H
#define TC_FUZZ_DCFG_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/dcfg/dcfg_model.h"
#include "../common/harness.h"
#include "tracecheck/tracecheck.h"

typedef struct dc_run {
    hx_findings f;
    int status;   /* tc_validate_buffer's: 0, 1 or 2 (-1: not through it) */
    char *dump;   /* the canonical dump, when asked for */
    size_t dump_len;
} dc_run;

/* The public entry, tc_validate_buffer, with the format forced, --pedantic
 * and no repeat cap; with dump, tc_check_input writing the canonical dump
 * as `tracecheck dump` does. The status must match the errors. */
void dc_validate(dc_run *run, const uint8_t *data, size_t size, tc_format format, int dump);

/* The format's parser on a reader (another input path), --pedantic, with
 * the repeat cap given (0: none). */
void dc_parse_reader(dc_run *run, tc_reader *r, tc_format format, unsigned max_repeats);

/* The DCFG-trace parser on r, paired with m (ruling 13). */
void dc_parse_paired(dc_run *run, tc_reader *r, const tc_dcfg_model *m);

/* The DCFG loaded for pairing (tc_dcfg_model_load), its findings in run. */
tc_dcfg_model *dc_load_model(dc_run *run, const uint8_t *data, size_t size);

void dc_run_free(dc_run *run);

/* Aborts unless a and b hold the same findings and counters. */
void dc_assert_same(const dc_run *a, const char *la, const dc_run *b, const char *lb);

/* What dcfg_parse and dtrc_parse check alike on an input of format (rules of
 * families; dump header naming dump_format): findings well formed and at
 * the line:column and JSON path their offsets have; the dump (written for
 * every input) in the canonical form, and writing it changes no finding;
 * a file read by read() or mmap windows gives the same findings; a
 * compressed input gives the findings of its decompressed bytes, on which
 * the rest is checked. Returns 0 when the input is skipped (it does not
 * decompress, or to more than HX_DECOMPRESSED_LIMIT); else *pl holds the
 * bytes the parser sees and *a the public entry's run on them (free both). */
int dc_check_input(const uint8_t *data, size_t size, tc_format format, const char *families,
                   const char *dump_format, hx_plain *pl, dc_run *a);

#endif
