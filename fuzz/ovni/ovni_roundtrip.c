/*
 * ovni generator round trip: the fuzzer's bytes steer the synthesiser (every
 * choice: shape, byte order, size, names, ids, CPU lists, events), the
 * writer lays the trace out in memory (generators/ovni/ovni_roundtrip.h),
 * and the parsers read it back. Checked (ovni_model_oracle.h):
 *
 *  - each stream's metadata reads with no finding of any severity, and says
 *    what the plan says (thread, loom, pid, tid);
 *  - each stream.obs reads, with its metadata and the model layer, with no
 *    finding of any severity, and also as a lone file (no metadata), and
 *    through read() with a tiny window;
 *  - the events read are the events written, field by field, and written
 *    again with the generator's writer they give the stream's bytes;
 *  - the whole trace, written to a scratch directory, passes
 *    tc_ovni_check_trace (ruling 7 across streams) with no finding, and its
 *    canonical dump is exactly the lines spec/canonical-dump.md gives.
 */
#define _GNU_SOURCE /* open_memstream, mkdtemp */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/harness.h"
#include "../../generators/common/rng.h"
#include "../../generators/ovni/ovni_gen.h"
#include "../../generators/ovni/ovni_roundtrip.h"
#include "../../parsers/ovni/ovni_trace.h"
#include "ovni_model_oracle.h"
#include "ovni_events.h"

static void check_no_findings(const hx_findings *d, const char *what, const char *rel)
{
    if (d->n == 0 && d->errors + d->warnings + d->notes == 0)
        return;
    for (size_t i = 0; i < d->n && i < 5; i++)
        hx_print_finding(stderr, what, &d->v[i]);
    FUZZ_FAIL("%s of the generated stream %s: %zu findings", what, rel, d->n);
}

static void check_stream(const ovni_mem_stream *s, hx_rng *rng)
{
    FUZZ_ASSERT_MSG(s->has_json && s->has_obs, "%s: a generated stream without its files",
                    s->rel);
    ov_meta_run meta;
    hx_source src;
    hx_open(&src, HX_RAW, s->json.p, s->json.len, 0);
    ov_parse_meta(&meta, hx_reader(&src), 0);
    hx_close(&src);
    check_no_findings(&meta.f, "the metadata", s->rel);
    const tc_ovni_meta *m = &meta.meta;
    FUZZ_ASSERT_MSG(m->readable && m->thread && m->has_tid && m->has_pid && m->has_loom &&
                        m->tid == s->tid && m->pid == s->pid && strcmp(m->loom, s->loom) == 0,
                    "%s: the metadata reads as tid %" PRId64 " pid %" PRId64 " loom \"%s\", the "
                    "plan has %" PRId64 ", %" PRId64 ", \"%s\"", s->rel, m->tid, m->pid, m->loom,
                    s->tid, s->pid, s->loom);

    ov_run run, other;
    const ov_opts with_meta = {.payloads = 1, .models = 1, .meta = m, .keep = 1};
    ov_parse_stream_path(&run, HX_RAW, s->obs.p, s->obs.len, 0, &with_meta);
    check_no_findings(&run.f, "the stream", s->rel);
    FUZZ_ASSERT_MSG(run.header_ok && run.big_endian == s->big_endian,
                    "%s: the header reads as %s-endian", s->rel, run.big_endian ? "big" : "little");
    ovni_model_oracle_check_events(&run, s);
    ovni_model_oracle_check_rewrite(&run, s);

    /* As a lone stream.obs (no metadata: every model's events let through). */
    const ov_opts lone = {.library = 1, .models = 1};
    ov_parse_stream_path(&other, HX_RAW, s->obs.p, s->obs.len, 0, &lone);
    check_no_findings(&other.f, "the lone stream", s->rel);
    FUZZ_ASSERT(other.nevents == run.nevents);
    ov_run_free(&other);

    /* Through a file, with a tiny read() window. */
    size_t w = hx_pick_window(rng, HX_READ);
    const ov_opts o = {.models = 1, .meta = m};
    if (ov_parse_stream_path(&other, HX_READ, s->obs.p, s->obs.len, w, &o)) {
        check_no_findings(&other.f, "the stream (read() window)", s->rel);
        FUZZ_ASSERT_MSG(other.nevents == run.nevents, "%s: %zu events through a window of %zu",
                        s->rel, other.nevents, w);
        ov_run_free(&other);
    }
    ov_run_free(&run);
    ov_meta_run_free(&meta);
}

static void check_trace(const ovni_mem_trace *t)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    char root[64];
    snprintf(root, sizeof root, "%s/ovni_roundtrip.XXXXXX", base);
    FUZZ_ASSERT_MSG(mkdtemp(root), "mkdtemp: %s", strerror(errno));
    ovni_model_oracle_write_trace(root, t);

    char *dump = NULL, err[256];
    size_t dump_len = 0, want_len;
    FILE *df = open_memstream(&dump, &dump_len);
    FUZZ_CHECK_ALLOC(df);
    hx_findings d;
    tc_diag_sink sink;
    hx_sink_init(&sink, &d, 1, 0);
    tc_ovni_opts o = {.no_models = 0, .dump = df};
    tc_error e = TC_ERROR_INIT;
    uint64_t bytes = tc_ovni_check_trace(root, &sink, &o, &e);
    hx_error_text(&e, err, sizeof err);
    hx_sink_finish(&sink, &d);
    fclose(df);
    FUZZ_ASSERT_MSG(bytes != UINT64_MAX, "tc_ovni_check_trace: %s", err);
    check_no_findings(&d, "the trace", root);
    hx_findings_free(&d);

    char *want = ovni_model_oracle_trace_dump(t, &want_len);
    if (dump_len != want_len || memcmp(dump, want, want_len) != 0) {
        size_t at = 0;
        while (at < dump_len && at < want_len && dump[at] == want[at])
            at++;
        size_t line_start = at;
        while (line_start > 0 && want[line_start - 1] != '\n')
            line_start--;
        FUZZ_FAIL("the trace's canonical dump differs from what was written, at byte %zu:\n"
                  "  dump: %.200s\n  want: %.200s", at, dump + line_start, want + line_start);
    }
    free(want);
    free(dump);
    ovni_model_oracle_remove_trace(root, t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tc_rng choices;
    tc_rng_from_bytes(&choices, data, size);
    ovni_mem_trace t = {0};
    ovni_gen_params used;
    if (ovni_roundtrip_synth(&choices, &used, &t) != 0)
        return 0; /* out of memory */
    FUZZ_ASSERT_MSG(t.n > 0, "the synthesiser made no stream");
    hx_rng rng;
    hx_rng_init(&rng, data, size);
    for (size_t i = 0; i < t.n; i++)
        check_stream(&t.streams[i], &rng);
    check_trace(&t);
    ovni_mem_trace_free(&t);
    return 0;
}
