/*
 * The canonical dump of one ovni stream read alone (tc_ovni_parse),
 * line by line against what spec/canonical-dump.md says of each record:
 * the header, the stream, then every event with its clock, MCV (byte by
 * byte), flags, size code, jumbo size, payload, model and fields; a sample of the lines
 * read by the strict JSON tokenizer.
 */
#ifndef TC_FUZZ_OVNI_DUMP_ORACLE_H
#define TC_FUZZ_OVNI_DUMP_ORACLE_H

#include "ovni_events.h"

#include <stdio.h>

/* What the dump adds to an event's line after its payload: its model's
 * name (a model tracecheck knows) and its fields by name (an event of that
 * model whose payload its layout reads), from spec/ovni/models.def. */
void ovni_oracle_dump_model(FILE *f, const char mcv[3], int jumbo, const uint8_t *payload, uint32_t len,
                    int be);

/* run: a library run with the dump and its events kept. */
void ovni_oracle_check_dump(const ov_run *run);

#endif
