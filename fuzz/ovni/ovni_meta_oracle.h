/*
 * ovni metadata (a stream.json) judged again, independently of
 * parsers/ovni/ovni_meta.c: on a tree built from the strict tokenizer's
 * tokens, ruling 6 from spec/ovni/ovni.md's text, with ruling 9's versions (their
 * form, and ovni's own model required at an incompatible one), gives the
 * OVNI-META and OVNI-REQUIRE-VERSION findings (rule and offset) and the
 * summary (ids, loom, CPUs, required models, where each value was) the
 * reader must give. Besides: every finding's line:column is the one its
 * offset has (counted from the bytes), it has a JSON path and an OVNI
 * finding's path is the path of the value at its offset; a JSON error is
 * the last finding, and the metadata is "readable" exactly when there is
 * none; the reader reports exactly the tokenizer's JSON findings.
 */
#ifndef TC_FUZZ_OVNI_META_ORACLE_H
#define TC_FUZZ_OVNI_META_ORACLE_H

#include "ovni_events.h"

/* run: the reader on the n bytes at p, findings uncapped. */
void omo_check(const ov_meta_run *run, const uint8_t *p, size_t n);

#endif
