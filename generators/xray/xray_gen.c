#include <errno.h>
#include <string.h>

#include "xray_gen.h"
#include "xray_mutate.h"

static int put(xray_sink sink, const tc_bytebuf *b, tc_error *err)
{
    if (sink.mem) {
        tc_bb_append(sink.mem, b->p, b->len);
        return 0;
    }
    if (b->len && fwrite(b->p, 1, b->len, sink.out) != b->len) {
        tc_error_set(err, "gen", "write failed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

unsigned xray_default_version(int violate)
{
    if (violate < 0)
        return 5;
    const xray_mutator *m = xray_mutator_for((tc_rule_id)violate);
    if (!m)
        return 5;
    for (unsigned v = 5; v >= 1; v--)
        if (m->versions & XRAY_VERSION_BIT(v))
            return v;
    return 5;
}

int xray_generate(const xray_gen_params *p, int violate, tc_rng *choices, xray_sink sink,
                  xray_gen_stats *stats, tc_error *err)
{
    if (p->version < 1 || p->version > 5) {
        tc_error_set(err, "gen", "version %u: XRay FDR versions are 1 to 5", p->version);
        return -1;
    }
    uint64_t bsize = p->buffer_size ? p->buffer_size : XRAY_DEFAULT_BUFFER_SIZE;
    if (bsize < (p->version == 1 ? 64u : 80u) || bsize > (1u << 30)) {
        tc_error_set(err, "gen", "buffer size %llu: use 64 (80 from version 2) to 1 GiB",
                     (unsigned long long)bsize);
        return -1;
    }
    const xray_mutator *m = NULL;
    if (violate >= 0) {
        m = xray_mutator_for((tc_rule_id)violate);
        if (!m) {
            tc_error_set(err, "gen", "%s has no mutator (no single change breaks it alone)",
                         tc_rules[violate].id);
            return -1;
        }
        if (!(m->versions & XRAY_VERSION_BIT(p->version))) {
            tc_error_set(err, "gen", "%s cannot be broken in a version %u trace",
                         tc_rules[violate].id, p->version);
            return -1;
        }
    }
    tc_rng seeded;
    if (!choices) {
        tc_rng_seed(&seeded, p->seed);
        choices = &seeded;
    }
    /* Mutations draw from their own stream, so the trace they start from is
     * the valid trace of the same seed. */
    tc_rng mrng;
    tc_rng_seed(&mrng, p->seed ^ 0x6d75746174696f6eull);
    xray_mutation mu = {.m = m, .rng = &mrng};
    mu.skip = (unsigned)tc_rng_below(&mrng, 3);

    xray_synth *s = xray_synth_new(p, choices);
    if (!s) {
        tc_error_set(err, "gen", "out of memory");
        return -1;
    }
    const tc_xray_header *h = &xray_synth_header(s)->h;
    xray_file_header written = *xray_synth_header(s);
    tc_bytebuf bytes = {0};
    xray_buffer b = {0};
    tc_rng padding;
    tc_rng_seed(&padding, p->seed + 1);
    int rc = 0;
    uint64_t total = 0, buffers = 0;

    if (m && m->header)
        mu.applied = m->header(&mu, &written);
    xray_write_header(&bytes, &written);
    if (m && m->header_bytes && !mu.applied)
        mu.applied = m->header_bytes(&mu, &bytes);
    rc = put(sink, &bytes, err);
    total += bytes.len;

    int last = 0;
    while (rc == 0 && !mu.stop && xray_synth_next(s, &b, &last)) {
        if (m && m->buffer && !mu.applied)
            mu.applied = m->buffer(&mu, h, &b, last);
        bytes.len = 0;
        xray_write_buffer(&bytes, h, &b, p->noisy_padding ? &padding : NULL);
        if (m && m->buffer_bytes && !mu.applied)
            mu.applied = m->buffer_bytes(&mu, h, &bytes, last);
        rc = put(sink, &bytes, err);
        total += bytes.len;
        buffers++;
    }
    if (rc == 0 && m && !mu.applied) {
        tc_error_set(err, "gen",
                     "could not break %s in this trace; try a larger --size or another --seed "
                     "or --buffer-size",
                     tc_rules[violate].id);
        rc = -1;
    }
    if (stats) {
        stats->bytes = total;
        stats->buffers = buffers;
    }
    tc_bb_free(&bytes);
    xray_buffer_free(&b);
    xray_synth_free(s);
    return rc;
}
