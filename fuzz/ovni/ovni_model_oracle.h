/*
 * What a generated ovni trace must read back as, for ovni_roundtrip: each
 * stream's events are the events written, field by field, payloads compared
 * with the copies the model made; written again with the generator's
 * writer, they are the stream's bytes; and the whole trace's canonical dump
 * is exactly the lines spec/canonical-dump.md gives for what was written:
 * the header, a line per stream in path order, then every event merged by
 * clock (ties by stream path, then position). The trace is laid out on disk
 * here for tc_ovni_check_trace to read.
 */
#ifndef TC_FUZZ_OVNI_MODEL_ORACLE_H
#define TC_FUZZ_OVNI_MODEL_ORACLE_H

#include "../../generators/ovni/ovni_gen.h"
#include "ovni_events.h"

void ovni_model_oracle_check_events(const ov_run *run, const ovni_mem_stream *s);
void ovni_model_oracle_check_rewrite(const ov_run *run, const ovni_mem_stream *s);

/* The trace's files under root (which exists), and their removal with the
 * directories made for them and root itself. */
void ovni_model_oracle_write_trace(const char *root, const ovni_mem_trace *t);
void ovni_model_oracle_remove_trace(const char *root, const ovni_mem_trace *t);

/* The canonical dump of the whole trace, as spec/canonical-dump.md gives it
 * for what was written (malloc'd, len bytes). */
char *ovni_model_oracle_trace_dump(const ovni_mem_trace *t, size_t *len);

#endif
