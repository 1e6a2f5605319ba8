/*
 * The canonical dump of one ovni stream read alone (tc_ovni_parse),
 * line by line against what spec/canonical-dump.md says of each record:
 * the header, the stream, then every event with its clock, MCV (byte by
 * byte), flags, size code, jumbo size and payload; a sample of the lines
 * read by the strict JSON tokenizer.
 */
#ifndef TC_FUZZ_ORACLE_OVNI_DUMP_H
#define TC_FUZZ_ORACLE_OVNI_DUMP_H

#include "ovni_events.h"

/* run: a library run with the dump and its events kept. */
void ovo_check_dump(const ov_run *run);

#endif
