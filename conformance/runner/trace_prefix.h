/*
 * The expected-dump prefix of a rejected case that is a directory (an ovni
 * trace). tracecheck writes a trace's dump only after every stream was
 * checked, and merges the streams by clock, so "the lines written before the
 * first error" means nothing there. The prefix is defined by where each error
 * is instead (docs/conformance.md, "The expected dump"):
 *
 * - an error found before any event is read (in a stream.json, in a stream's
 *   8-byte header, about a file or the directory as a whole, or across
 *   streams) cuts the dump to nothing;
 * - an error at byte X >= 8 of a stream.obs cuts the dump right after the line
 *   of that stream's last event lying wholly before X (its last byte is
 *   before X); when no event of the stream does, right after the stream lines.
 *
 * The prefix is the shortest of these cuts over all the error findings.
 */
#ifndef TC_CONF_TRACE_PREFIX_H
#define TC_CONF_TRACE_PREFIX_H

#include <stddef.h>
#include <stdint.h>

/* An error finding: the file it is about (relative to the trace directory;
 * "." for the directory itself), the byte offset, and whether the offset is
 * a location (findings about a whole file have none). */
typedef struct tc_conf_finding {
    const char *file;
    uint64_t offset;
    int located;
} tc_conf_finding;

/* Bytes of the dump (JSON Lines, spec/canonical-dump.md) in the prefix; -1
 * when there are no findings. A dump line that cannot be read stops the walk
 * there (the dump comparison then shows what is wrong). */
long long tc_conf_trace_prefix(const char *dump, size_t len, const tc_conf_finding *errors,
                               size_t n);

#endif
