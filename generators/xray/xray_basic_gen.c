#include <errno.h>
#include <string.h>

#include "xray_basic_gen.h"
#include "xray_basic_mutate.h"

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

unsigned xray_basic_default_version(int violate)
{
    const xray_basic_mutator *m = violate >= 0 ? xray_basic_mutator_for((tc_rule_id)violate) : NULL;
    if (!m)
        return 3;
    for (unsigned v = 3; v >= 1; v--)
        if (m->versions & (1u << v))
            return v;
    return 3;
}

int xray_basic_generate(const xray_basic_params *p, int violate, tc_rng *choices, xray_sink sink,
                        xray_gen_stats *stats, tc_error *err)
{
    if (p->version < 1 || p->version > 3) {
        tc_error_set(err, "gen", "version %u: XRay basic-mode logs have versions 1 to 3",
                     p->version);
        return -1;
    }
    uint64_t bsize = p->buffer_size ? p->buffer_size : XRAY_BASIC_DEFAULT_BUFFER_SIZE;
    if (bsize < 64 || bsize > (1u << 30) || bsize % TC_XRAY_BASIC_RECORD_SIZE) {
        tc_error_set(err, "gen",
                     "buffer size %llu: a basic-mode thread buffer is a multiple of "
                     "32 bytes (records), from 64 to 1 GiB",
                     (unsigned long long)bsize);
        return -1;
    }
    const xray_basic_mutator *m = NULL;
    if (violate >= 0) {
        m = xray_basic_mutator_for((tc_rule_id)violate);
        if (!m) {
            tc_error_set(err, "gen",
                         "%s cannot be broken in a basic-mode log (see 'tracecheck gen "
                         "xray --mode basic --list-mutators')",
                         tc_rules[violate].id);
            return -1;
        }
        if (!(m->versions & (1u << p->version))) {
            tc_error_set(err, "gen", "%s cannot be broken in a version %u basic-mode log",
                         tc_rules[violate].id, p->version);
            return -1;
        }
    }
    tc_rng seeded;
    if (!choices) {
        tc_rng_seed(&seeded, p->seed);
        choices = &seeded;
    }
    /* Mutations draw from their own stream, so the log they start from is
     * the valid log of the same seed. */
    tc_rng mrng;
    tc_rng_seed(&mrng, p->seed ^ 0x6d75746174696f6eull);
    xray_basic_mutation mu = {.m = m, .rng = &mrng, .first = 1};
    mu.skip = (unsigned)tc_rng_below(&mrng, 3);

    xray_basic_params q = *p;
    q.buffer_size = bsize;
    xray_basic_synth *s = xray_basic_synth_new(&q, choices);
    if (!s) {
        tc_error_set(err, "gen", "out of memory");
        return -1;
    }
    const tc_xray_header *h = &xray_basic_synth_header(s)->h;
    xray_basic_header written = *xray_basic_synth_header(s);
    tc_bytebuf bytes = {0};
    xray_basic_block b = {0};
    uint64_t total = 0, blocks = 0;

    if (m && m->header)
        mu.applied = m->header(&mu, &written);
    xray_basic_write_header(&bytes, &written);
    if (m && m->header_bytes && !mu.applied)
        mu.applied = m->header_bytes(&mu, &bytes);
    int rc = put(sink, &bytes, err);
    total += bytes.len;

    int last = 0;
    while (rc == 0 && !mu.stop && xray_basic_synth_next(s, &b, &last)) {
        if (m && m->block && !mu.applied)
            mu.applied = m->block(&mu, h, &b, last);
        bytes.len = 0;
        xray_basic_write_block(&bytes, h, &b);
        if (m && m->block_bytes && !mu.applied)
            mu.applied = m->block_bytes(&mu, h, &bytes, last);
        mu.first = 0;
        rc = put(sink, &bytes, err);
        total += bytes.len;
        blocks++;
    }
    if (rc == 0 && m && !mu.applied) {
        tc_error_set(err, "gen",
                     "could not break %s in this log; try a larger --size or another "
                     "--seed",
                     tc_rules[violate].id);
        rc = -1;
    }
    if (stats) {
        stats->bytes = total;
        stats->buffers = blocks;
    }
    tc_bb_free(&bytes);
    xray_basic_block_free(&b);
    xray_basic_synth_free(s);
    return rc;
}
