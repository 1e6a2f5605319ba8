/*
 * The library as the fuzz code calls it: every parser, generator and input
 * entry point a harness, an oracle or the kit uses goes through a name
 * here, so that when an entry point of the library is renamed or moves
 * (say, a format becomes a plug-in) the fuzz code follows by a change in
 * this one file. Types are the library's own (tc_xray_event, tc_perf_msg,
 * ...). The names are the library's with lib_ for tc_: lib_xray_parse_any is
 * tc_xray_parse.
 */
#ifndef TC_FUZZ_LIBRARY_H
#define TC_FUZZ_LIBRARY_H

#ifdef __cplusplus
extern "C" {
#endif

#include "../../parsers/common/check.h"
#include "../../parsers/common/error.h"
#include "../../parsers/common/formats.h"
#include "../../parsers/common/input.h"
#include "../../parsers/common/json.h"
#include "../../parsers/common/jsonl.h"
#include "../../parsers/common/parse.h"
#include "../../parsers/common/split.h"
#include "../../parsers/dcfg/dcfg_dom.h"
#include "../../parsers/dcfg/dcfg_model.h"
#include "../../parsers/dcfg/dtrc.h"
#include "../../parsers/dcfg/dtrc_decode.h"
#include "../../parsers/dcfg/dtrc_fast.h"
#include "../../parsers/dcfg/dtrc_seq.h"
#include "../../parsers/dcfg/dtrc_table.h"
#include "../../parsers/ovni/ovni.h"
#include "../../parsers/ovni/ovni_dump.h"
#include "../../parsers/ovni/ovni_meta.h"
#include "../../parsers/ovni/ovni_model.h"
#include "../../parsers/ovni/ovni_trace.h"
#include "../../parsers/perf/perf_msg.h"
#include "../../parsers/perf/perf_sm.h"
#include "../../parsers/xray/xray.h"
#include "../../parsers/xray/xray_dump.h"

/* ---- any format ---- */

/* The format's parser, as tc_check_input runs it (the format registry). */
static inline void lib_parse(tc_format f, tc_reader *r, const tc_parse_ctx *ctx)
{
    const tc_format_ops *ops = tc_format_ops_for(f);
    if (ops)
        ops->parse(r, ctx);
}

/* The format's parser on up to threads threads, in segments of at least
 * min bytes (split.h); -1 when the input was left to one thread (or the
 * format is not shared out). */
static inline int lib_split_check(tc_format f, tc_input *in, const tc_parse_ctx *ctx,
                                  unsigned threads, uint64_t min, tc_split_stats *stats)
{
    const tc_format_ops *ops = tc_format_ops_for(f);
    if (!ops || !ops->split)
        return -1;
    return tc_split_check(in, ops->split, ctx, threads, min, stats);
}

/* Whether the registry has the format. */
static inline int lib_has_format(tc_format f) { return tc_format_ops_for(f) != NULL; }

/* The public entries: tracecheck validate on bytes in memory, and the
 * check of an opened input with a canonical dump (tracecheck dump). */
static inline int lib_validate_buffer(const void *data, size_t size, const char *name,
                                      const tc_options *opt, tc_summary *out)
{
    return tc_validate_buffer(data, size, name, opt, out);
}

/* The library reports machine errors as a chain of causes (error.h); the
 * harnesses print them, so the wrappers hand over the chain's text. */
static inline void lib_error_text(tc_error *e, char *err, size_t errlen)
{
    tc_error_format(e, err, errlen);
    tc_error_free(e);
}

static inline int lib_check_input(tc_input *in, const char *name, const tc_check_opts *c,
                                  tc_summary *out, char *err, size_t errlen)
{
    tc_error e = TC_ERROR_INIT;
    int rc = tc_check_input(in, name, c, out, &e);
    lib_error_text(&e, err, errlen);
    return rc;
}

/* ---- JSON ---- */

static inline tc_json *lib_json_new(tc_reader *r, tc_diag_sink *d) { return tc_json_new(r, d); }
static inline void lib_json_free(tc_json *j) { tc_json_free(j); }
static inline int lib_json_next(tc_json *j, tc_json_token *t) { return tc_json_next(j, t); }
static inline int lib_json_skip(tc_json *j, const tc_json_token *first)
{
    return tc_json_skip(j, first);
}
static inline unsigned lib_json_depth(const tc_json *j) { return tc_json_depth(j); }
static inline const char *lib_json_path(tc_json *j) { return tc_json_path(j); }

/* ---- XRay ---- */

/* An FDR trace or a basic-mode log, as the header says (tc_xray_parse_any);
 * the registry's parsers take one mode each. */
static inline void lib_xray_parse_any(tc_reader *r, const tc_parse_ctx *ctx)
{
    tc_xray_parse_any(r, ctx);
}
static inline void lib_xray_dump(tc_jsonl *w, const tc_xray_event *e)
{
    tc_xray_dump(w, e);
}
static inline const char *lib_xray_kind_name(unsigned kind) { return tc_xray_kind_name(kind); }
/* Whether the first bytes are a basic-mode header (ruling 13). */
static inline int lib_xray_basic_sniff(const uint8_t *p, size_t n)
{
    return tc_xray_basic_sniff(p, n);
}

/* ---- ovni ---- */

/* A stream.obs (or stream.json) as the library's entry reads one file. */
static inline void lib_ovni_parse(tc_reader *r, const tc_parse_ctx *ctx)
{
    tc_ovni_parse(r, ctx);
}
/* The stream and model calls a whole trace's check makes. */
static inline tc_ovni_stream *lib_ovni_stream_new(tc_reader *r, tc_diag_sink *d, int payloads)
{
    return tc_ovni_stream_new(r, d, payloads);
}
static inline int lib_ovni_stream_header(tc_ovni_stream *s) { return tc_ovni_stream_header(s); }
static inline int lib_ovni_stream_next(tc_ovni_stream *s, tc_ovni_event *ev)
{
    return tc_ovni_stream_next(s, ev);
}
static inline uint64_t lib_ovni_stream_count(const tc_ovni_stream *s)
{
    return tc_ovni_stream_count(s);
}
static inline int lib_ovni_stream_big_endian(const tc_ovni_stream *s)
{
    return tc_ovni_stream_big_endian(s);
}
static inline void lib_ovni_stream_free(tc_ovni_stream *s) { tc_ovni_stream_free(s); }
static inline void lib_ovni_model_init(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta)
{
    tc_ovni_model_init(m, d, meta);
}
static inline void lib_ovni_model_event(tc_ovni_model *m, const tc_ovni_event *ev)
{
    tc_ovni_model_event(m, ev);
}
static inline void lib_ovni_model_finish(tc_ovni_model *m) { tc_ovni_model_finish(m); }
static inline void lib_ovni_model_free(tc_ovni_model *m) { tc_ovni_model_free(m); }
static inline void lib_ovni_dump(tc_jsonl *w, const tc_ovni_dump_record *rec)
{
    tc_ovni_dump(w, rec);
}
/* Metadata (ruling 6). */
static inline void lib_ovni_meta_read(tc_reader *r, tc_diag_sink *d, tc_ovni_meta *m)
{
    tc_ovni_meta_read(r, d, m);
}
static inline void lib_ovni_meta_free(tc_ovni_meta *m) { tc_ovni_meta_free(m); }
/* A whole trace directory (ruling 7), with its canonical dump. */
static inline uint64_t lib_ovni_check_trace(const char *dir, tc_diag_sink *d,
                                            const tc_ovni_opts *o, char *err, size_t errlen)
{
    tc_error e = TC_ERROR_INIT;
    uint64_t bytes = tc_ovni_check_trace(dir, d, o, &e);
    lib_error_text(&e, err, errlen);
    return bytes;
}

/* ---- DCFG and DCFG-trace ---- */

/* A DCFG loaded for pairing, and what pairing asks of it. */
static inline tc_dcfg_model *lib_dcfg_model_load(tc_reader *r, tc_diag_sink *d)
{
    return tc_dcfg_model_load(r, d);
}
static inline void lib_dcfg_model_free(tc_dcfg_model *m) { tc_dcfg_model_free(m); }
static inline int lib_dcfg_model_process(const tc_dcfg_model *m, uint64_t pid, uint64_t *threads)
{
    return tc_dcfg_model_process(m, pid, threads);
}
static inline int lib_dcfg_model_edge(const tc_dcfg_model *m, uint64_t pid, uint64_t edge,
                                      uint64_t *source, uint64_t *target)
{
    return tc_dcfg_model_edge(m, pid, edge, source, target);
}
static inline uint64_t lib_dcfg_model_node_instrs(const tc_dcfg_model *m, uint64_t pid,
                                                  uint64_t node)
{
    return tc_dcfg_model_node_instrs(m, pid, node);
}
/* A DCFG-trace paired with a DCFG (ruling 13). */
static inline void lib_dtrc_parse_paired(tc_reader *r, const tc_parse_ctx *ctx,
                                         const tc_dcfg_model *m)
{
    tc_dtrc_parse_paired(r, ctx, m);
}
/* The DCFG-trace sequence decoder's parts: the transition table, the
 * dictionary, compiled sequences, decoding and its fast paths. */
static inline void lib_dtrc_table_init(tc_dtrc_table *t) { tc_dtrc_table_init(t); }
static inline void lib_dtrc_table_free(tc_dtrc_table *t) { tc_dtrc_table_free(t); }
static inline int lib_dtrc_parse_code(const char *s, size_t n, uint32_t *pad, uint8_t *len)
{
    return tc_dtrc_parse_code(s, n, pad, len);
}
static inline void lib_dtrc_code_str(uint32_t pad, unsigned len, char *buf)
{
    tc_dtrc_code_str(pad, len, buf);
}
static inline int lib_dtrc_table_add(tc_dtrc_table *t, uint32_t edge, uint32_t pad, uint8_t len,
                                     const uint32_t *next, size_t nnext, uint32_t row)
{
    return tc_dtrc_table_add(t, edge, pad, len, next, nnext, row);
}
static inline int lib_dtrc_table_finish(tc_dtrc_table *t,
                                        void (*problem)(void *, int, const tc_dtrc_row *,
                                                        const tc_dtrc_row *),
                                        void *user)
{
    return tc_dtrc_table_finish(t, problem, user);
}
static inline const tc_dtrc_entry *lib_dtrc_table_find(const tc_dtrc_table *t, uint32_t edge)
{
    return tc_dtrc_table_find(t, edge);
}
static inline void lib_dtrc_dict_init(tc_dtrc_dict *d) { tc_dtrc_dict_init(d); }
static inline void lib_dtrc_dict_free(tc_dtrc_dict *d) { tc_dtrc_dict_free(d); }
static inline int lib_dtrc_dict_add(tc_dtrc_dict *d, const char *key, size_t klen,
                                    const char *val, size_t vlen)
{
    return tc_dtrc_dict_add(d, key, klen, val, vlen);
}
static inline void lib_dtrc_dict_finish(tc_dtrc_dict *d,
                                        void (*bad)(void *, size_t, const tc_dtrc_err *),
                                        void *user)
{
    tc_dtrc_dict_finish(d, bad, user);
}
static inline int lib_dtrc_compile_chunk(tc_dtrc_prog *p, const tc_dtrc_dict *d, const char *s,
                                         size_t n, tc_dtrc_err *err)
{
    return tc_dtrc_compile_chunk(p, d, s, n, err);
}
static inline int lib_dtrc_prog_tainted(const tc_dtrc_prog *p, const tc_dtrc_dict *d)
{
    return tc_dtrc_prog_tainted(p, d);
}
static inline void lib_dtrc_prog_free(tc_dtrc_prog *p) { tc_dtrc_prog_free(p); }
static inline int lib_dtrc_decode(const tc_dtrc_decode_in *in, tc_dtrc_decode_out *out)
{
    return tc_dtrc_decode(in, out);
}
static inline int lib_dtrc_decode_capped(const tc_dtrc_decode_in *in, uint64_t skip_after,
                                         tc_dtrc_decode_out *out)
{
    return tc_dtrc_decode_capped(in, skip_after, out);
}
static inline int lib_dtrc_decode_rows(const tc_dtrc_decode_in *in, const tc_dtrc_rows *rows,
                                       uint64_t skip_after, tc_dtrc_decode_out *out)
{
    return tc_dtrc_decode_rows(in, rows, skip_after, out);
}
static inline void lib_dtrc_fast_init(tc_dtrc_fast *f) { tc_dtrc_fast_init(f); }
static inline void lib_dtrc_fast_build(tc_dtrc_fast *f, const tc_dtrc_table *t)
{
    tc_dtrc_fast_build(f, t);
}
static inline void lib_dtrc_fast_free(tc_dtrc_fast *f) { tc_dtrc_fast_free(f); }
/* The immediate dominators a routine's nodes are checked against. */
static inline int lib_dcfg_dominators(uint32_t n, const uint32_t *off, const uint32_t *succ,
                                      uint32_t root, uint32_t *idom)
{
    return tc_dcfg_dominators(n, off, succ, root, idom);
}

/* ---- SiFive perf ---- */

/* The containers: a Nexus .rtd and a text message list, message by message. */
static inline uint64_t lib_nexus_read(tc_reader *r, tc_diag_sink *d, unsigned srcbits,
                                      tc_perf_msg_fn fn, void *user, int *wrapped)
{
    return tc_nexus_read(r, d, srcbits, fn, user, wrapped);
}
static inline uint64_t lib_itc_text_read(tc_reader *r, tc_diag_sink *d, tc_perf_msg_fn fn,
                                         void *user)
{
    return tc_itc_text_read(r, d, fn, user);
}
/* The perf layer: the state machine over ITC messages. */
static inline void lib_perf_sm_init(tc_perf_sm *s, tc_diag_sink *d, unsigned channel,
                                    uint32_t marker, tc_perf_event_fn on_event,
                                    void *user)
{
    tc_perf_sm_init(s, d, channel, marker, on_event, user);
}
static inline void lib_perf_sm_feed(tc_perf_sm *s, const tc_perf_msg *m) { tc_perf_sm_feed(s, m); }
static inline void lib_perf_sm_finish(tc_perf_sm *s) { tc_perf_sm_finish(s); }
static inline const char *lib_perf_count_type_name(uint32_t t)
{
    return tc_perf_count_type_name(t);
}

#ifdef __cplusplus
}
#endif
#endif
