/*
 * Running tracecheck on a DCFG or a DCFG-trace inside a harness and keeping
 * what it said: every finding (with its line, column and JSON path), the
 * summary, the status and the canonical dump. The DCFG harnesses compare
 * runs over different entries and input paths, and check invariants on
 * one run.
 */
#ifndef TC_FUZZ_DCFG_RUN_H
#define TC_FUZZ_DCFG_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "../parsers/common/diag.h"
#include "../parsers/common/reader.h"
#include "../parsers/dcfg/dcfg_model.h"
#include "ovni_run.h"

typedef struct dfz_run {
    ofz_diags d;
    int status;   /* tc_validate_buffer's: 0, 1 or 2 (-1: not through it) */
    char *dump;   /* the canonical dump, when asked for */
    size_t dump_len;
} dfz_run;

/* Decompressed inputs larger than this are skipped: a few bytes of bzip2 can
 * expand to gigabytes, which measures the decompressor, not the parser. */
#define DFZ_DECOMPRESSED_LIMIT (1u << 20)

/* The bytes the parser sees: the input, or for a compressed one its
 * decompressed bytes (through the library's input layer, as `tracecheck
 * validate` reads a .json.bz2). Returns 0 when the input is to be skipped
 * (decompression failed, or gives more than the limit). */
typedef struct dfz_plain {
    const uint8_t *p;
    size_t n;
    uint8_t *owned;
    int compressed;
} dfz_plain;
int dfz_get_plain(dfz_plain *pl, const uint8_t *data, size_t size);
void dfz_plain_free(dfz_plain *pl);

/* The public entry, tc_validate_buffer, with the format forced, --pedantic
 * and no repeat cap; with dump, tc_check_input writing the canonical dump
 * as `tracecheck dump` does. */
void dfz_validate(dfz_run *run, const uint8_t *data, size_t size, tc_format format, int dump);

/* The format's parser on a reader (another input path), same options. */
void dfz_parse_reader(dfz_run *run, tc_reader *r, tc_format format);

/* The DCFG-trace parser on r, paired with m (ruling 13). */
void dfz_parse_paired(dfz_run *run, tc_reader *r, const tc_dcfg_model *m);

void dfz_run_free(dfz_run *run);

/* Aborts unless a and b hold the same findings and counters. */
void dfz_assert_same(const dfz_run *a, const char *la, const dfz_run *b, const char *lb);

/* Findings are well formed (families given, catalogue severity, one line of
 * UTF-8, counters), located in the input (offset and offset + length within
 * it), at the line:column their offset has, with a JSON path. */
void dfz_check_findings(const ofz_diags *d, const uint8_t *data, size_t size,
                        const char *families);

/* What dcfg_parse and dtrc_parse check alike on an input of format (rules of
 * families; dump header naming dump_format): through the public entry, with
 * the dump, and through a file read by read() or mmap windows; a compressed
 * input is also checked whole (well-formed findings), then everything on its
 * decompressed bytes. Returns 0 when the input is skipped; else *pl holds
 * the bytes the parser sees and *a the public entry's run on them (free
 * both). */
int dfz_check_input(const uint8_t *data, size_t size, tc_format format, const char *families,
                    const char *dump_format, dfz_plain *pl, dfz_run *a);

/* Every dump line is one strict JSON object ending in LF whose first member
 * is "t"; the first line is the header naming format. A document with an
 * error may have no dump at all (nothing readable); a valid one has one. */
void dfz_check_dump(const char *dump, size_t len, const char *format, int may_be_empty);

#endif
