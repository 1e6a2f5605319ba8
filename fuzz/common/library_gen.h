/*
 * The generators as the fuzz code calls them (the round-trip harnesses and
 * their oracles): the same one-file indirection as library.h, for the
 * generators' entry points. C only.
 */
#ifndef TC_FUZZ_LIBRARY_GEN_H
#define TC_FUZZ_LIBRARY_GEN_H

#include "../../generators/common/bytebuf.h"
#include "../../generators/common/rng.h"
#include "../../generators/dcfg/dcfg_gen.h"
#include "../../generators/dcfg/dcfg_roundtrip.h"
#include "../../generators/ovni/ovni_events.h"
#include "../../generators/ovni/ovni_gen.h"
#include "../../generators/ovni/ovni_roundtrip.h"
#include "../../generators/perf/nexus_write.h"
#include "../../generators/perf/perf_model.h"
#include "../../generators/perf/perf_writer.h"
#include "../../generators/xray/xray_basic_model.h"
#include "../../generators/xray/xray_basic_synth.h"
#include "../../generators/xray/xray_model.h"
#include "../../generators/xray/xray_synth.h"
#include "library.h"

/* The generators' random source: a stream of choices read from bytes
 * (zeros once they run out), or a seeded one. */
static inline void lib_rng_from_bytes(tc_rng *r, const uint8_t *p, size_t n)
{
    tc_rng_from_bytes(r, p, n);
}
static inline void lib_rng_seed(tc_rng *r, uint64_t seed) { tc_rng_seed(r, seed); }
static inline uint64_t lib_rng_u64(tc_rng *r) { return tc_rng_u64(r); }
static inline uint64_t lib_rng_below(tc_rng *r, uint64_t n) { return tc_rng_below(r, n); }
static inline int lib_rng_chance(tc_rng *r, unsigned num, unsigned den)
{
    return tc_rng_chance(r, num, den);
}

/* XRay FDR: the synthesiser, its model's records and the writer. */
static inline xray_synth *lib_xray_synth_new(const xray_gen_params *p, tc_rng *choices)
{
    return xray_synth_new(p, choices);
}
static inline const xray_file_header *lib_xray_synth_header(const xray_synth *s)
{
    return xray_synth_header(s);
}
static inline int lib_xray_synth_next(xray_synth *s, xray_buffer *b, int *last)
{
    return xray_synth_next(s, b, last);
}
static inline void lib_xray_synth_free(xray_synth *s) { xray_synth_free(s); }
static inline void lib_xray_write_header(tc_bytebuf *out, const xray_file_header *fh)
{
    xray_write_header(out, fh);
}
static inline void lib_xray_write_buffer(tc_bytebuf *out, const tc_xray_header *h,
                                         const xray_buffer *b, tc_rng *padding)
{
    xray_write_buffer(out, h, b, padding);
}
static inline void lib_xray_buffer_clear(xray_buffer *b) { xray_buffer_clear(b); }
static inline void lib_xray_buffer_free(xray_buffer *b) { xray_buffer_free(b); }
static inline uint64_t lib_xray_buffer_used(const xray_buffer *b) { return xray_buffer_used(b); }
static inline xray_rec *lib_xray_add_function(xray_buffer *b, unsigned action, uint32_t func,
                                              uint32_t delta)
{
    return xray_add_function(b, action, func, delta);
}
static inline xray_rec *lib_xray_add_meta(xray_buffer *b, unsigned kind)
{
    return xray_add_meta(b, kind);
}
static inline xray_rec *lib_xray_add_event(xray_buffer *b, unsigned kind, const uint8_t *payload,
                                           uint32_t len)
{
    return xray_add_event(b, kind, payload, len);
}

/* XRay basic mode. */
static inline xray_basic_synth *lib_xray_basic_synth_new(const xray_basic_params *p,
                                                         tc_rng *choices)
{
    return xray_basic_synth_new(p, choices);
}
static inline const xray_basic_header *lib_xray_basic_synth_header(const xray_basic_synth *s)
{
    return xray_basic_synth_header(s);
}
static inline int lib_xray_basic_synth_next(xray_basic_synth *s, xray_basic_block *b, int *last)
{
    return xray_basic_synth_next(s, b, last);
}
static inline void lib_xray_basic_synth_free(xray_basic_synth *s) { xray_basic_synth_free(s); }
static inline void lib_xray_basic_write_header(tc_bytebuf *out, const xray_basic_header *bh)
{
    xray_basic_write_header(out, bh);
}
static inline void lib_xray_basic_write_block(tc_bytebuf *out, const tc_xray_header *h,
                                              const xray_basic_block *b)
{
    xray_basic_write_block(out, h, b);
}
static inline xray_basic_rec *lib_xray_basic_insert(xray_basic_block *b, size_t index)
{
    return xray_basic_insert(b, index);
}
static inline void lib_xray_basic_block_free(xray_basic_block *b) { xray_basic_block_free(b); }

/* ovni: the in-memory synthesiser of whole traces and the stream writer. */
static inline int lib_ovni_roundtrip_synth(tc_rng *choices, ovni_gen_params *used,
                                           ovni_mem_trace *out)
{
    return ovni_roundtrip_synth(choices, used, out);
}
static inline void lib_ovni_mem_trace_free(ovni_mem_trace *t) { ovni_mem_trace_free(t); }
static inline const uint8_t *lib_ovni_mem_payload(const ovni_mem_stream *s,
                                                  const ovni_mem_event *e)
{
    return ovni_mem_payload(s, e);
}
static inline void lib_ovni_ev_normal(ovni_ev *ev, const char *mcv, uint64_t clock,
                                      const uint8_t *payload, uint32_t len)
{
    ovni_ev_normal(ev, mcv, clock, payload, len);
}
static inline void lib_ovni_ev_jumbo(ovni_ev *ev, const char *mcv, uint64_t clock,
                                     const uint8_t *data, uint32_t len)
{
    ovni_ev_jumbo(ev, mcv, clock, data, len);
}
static inline void lib_ovni_write_header(tc_bytebuf *out, int big_endian)
{
    ovni_write_header(out, big_endian);
}
static inline void lib_ovni_write_event(tc_bytebuf *out, const ovni_ev *ev, int big_endian)
{
    ovni_write_event(out, ev, big_endian);
}

/* DCFG: a pair from a seed, and the in-memory synthesiser of pairs. */
static inline int lib_dcfg_generate(const dcfg_gen_params *p, int violate, tc_rng *choices,
                                    dcfg_sink sink, dcfg_gen_stats *st, char *err, size_t errlen)
{
    tc_error e = TC_ERROR_INIT;
    int rc = dcfg_generate(p, violate, choices, sink, st, &e);
    lib_error_text(&e, err, errlen);
    return rc;
}
static inline int lib_dcfg_roundtrip_synth(tc_rng *choices, dcfg_gen_params *used, dcfg_mem *out,
                                           dcfg_gen_stats *st)
{
    return dcfg_roundtrip_synth(choices, used, out, st);
}
static inline void lib_dcfg_mem_free(dcfg_mem *m) { dcfg_mem_free(m); }

/* SiFive perf: the simulated run, the library's writes, the containers. */
static inline void lib_perf_model_init(perf_model *m, tc_rng *rng, const perf_plan *plan)
{
    perf_model_init(m, rng, plan);
}
static inline void lib_perf_model_next(perf_model *m, perf_record *r, int kind)
{
    perf_model_next(m, r, kind);
}
static inline void lib_perf_writer_init(perf_writer *w, const perf_config *cfg)
{
    perf_writer_init(w, cfg);
}
static inline void lib_perf_write_header(perf_writer *w, perf_unit *u) { perf_write_header(w, u); }
static inline void lib_perf_write_record(perf_writer *w, const perf_record *r, perf_unit *u)
{
    perf_write_record(w, r, u);
}
static inline uint64_t lib_perf_written_value(const perf_writer *w, const perf_record *r,
                                              unsigned b)
{
    return perf_written_value(w, r, b);
}
static inline void lib_perf_out_init(perf_out *o, int container, unsigned srcbits, uint64_t seed,
                                     FILE *file, tc_bytebuf *mem)
{
    perf_out_init(o, container, srcbits, seed, file, mem);
}
static inline void lib_perf_out_sync(perf_out *o) { perf_out_sync(o); }
static inline void lib_perf_out_write(perf_out *o, unsigned code, uint64_t value)
{
    perf_out_write(o, code, value);
}
static inline int lib_perf_out_flush(perf_out *o) { return perf_out_flush(o); }
static inline void lib_perf_out_free(perf_out *o) { perf_out_free(o); }

#endif
