/*
 * SiFive perf generator round trip: the fuzzer's bytes steer the
 * generator's simulated run (generators/perf: perf_model, perf_writer,
 * perf_out) as a stream of choices (tc_rng_from_bytes, zeros once the
 * bytes run out): the configuration (count type, counters, collection
 * method, 32- or 64-bit system), up to 160 records, whether and where a
 * second header comes, the Nexus SRC width and the container's own
 * choices (other traffic, timestamps, CR LF). The same ITC writes are put
 * in both containers, a Nexus .rtd and a text message list, and each is
 * read back through the public entry (tc_check_input with the perf format
 * and that container, as `tracecheck dump` reads it). Checked:
 *
 *  - no finding of any severity: the generator means these traces to be
 *    valid and to break no warning either (a second header is a pedantic
 *    note, not asked for here);
 *  - the canonical dump is the header line, then per header its
 *    perf_header line (count type, mask, counters) and one counter line
 *    per mask bit (OpenSBI type, code or event_data, counter_info, CSR,
 *    width), then the records, each with the model's type and addresses,
 *    the values the writer wrote and, decoded, the model's absolute
 *    counter values (ruling 7);
 *  - the two containers give the same dump but for offsets and
 *    timestamps.
 *
 * The reading back and the dump's checks are perf_model_oracle.h's.
 */
#include <stdlib.h>
#include <string.h>

#include "../../generators/common/bytebuf.h"
#include "../../generators/common/rng.h"
#include "../../generators/perf/nexus_write.h"
#include "../../generators/perf/perf_model.h"
#include "../../generators/perf/perf_writer.h"
#include "../common/harness.h"
#include "perf_model_oracle.h"

#define MAX_RECORDS 160
#define MAX_WRITES (2 * 131 + MAX_RECORDS * 69)

/* What was generated (a harness is a program: globals are fine). */
static pmo_item items[MAX_RECORDS + 2];
static size_t nitems;
static perf_wr writes[MAX_WRITES];
static size_t nwrites;

static void keep_unit(const perf_unit *u)
{
    for (unsigned i = 0; i < u->n; i++) {
        FUZZ_ASSERT(nwrites < MAX_WRITES);
        writes[nwrites++] = u->w[i];
    }
}

/* ---- generation ---- */

static void put_writes(perf_out *o)
{
    for (size_t i = 0; i < nwrites; i++)
        perf_out_write(o, writes[i].code, writes[i].value);
}

static perf_model model;
static perf_unit unit;

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    tc_rng choices;
    tc_rng_from_bytes(&choices, data, size);
    perf_plan plan = {.count_type = -1, .method = -1};
    perf_model_init(&model, &choices, &plan);
    const perf_config *cfg = &model.cfg;
    unsigned records = 1 + (unsigned)tc_rng_below(&choices, MAX_RECORDS);
    /* A second header (perfTraceOn() again, from main) somewhere. */
    unsigned second_at = tc_rng_chance(&choices, 1, 4) ? (unsigned)tc_rng_below(&choices, records)
                                                       : UINT32_MAX;
    unsigned srcbits = (unsigned)tc_rng_below(&choices, 9);
    uint64_t out_seed = tc_rng_u64(&choices);

    perf_writer w;
    perf_writer_init(&w, cfg);
    nitems = nwrites = 0;
    unit.n = 0;
    perf_write_header(&w, &unit);
    keep_unit(&unit);
    items[nitems++] = (pmo_item){.is_header = 1};
    for (unsigned idx = 0; idx < records; idx++) {
        if (idx >= second_at) {
            if (model.depth > 0) {
                model.unwinding = 1;
            } else {
                model.unwinding = 0;
                unit.n = 0;
                perf_write_header(&w, &unit);
                keep_unit(&unit);
                items[nitems++] = (pmo_item){.is_header = 1};
                second_at = UINT32_MAX;
            }
        }
        pmo_item *e = &items[nitems++];
        memset(e, 0, sizeof *e);
        perf_model_next(&model, &e->rec, -1);
        for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++)
            if (cfg->mask >> b & 1)
                e->written[b] = perf_written_value(&w, &e->rec, b);
        unit.n = 0;
        perf_write_record(&w, &e->rec, &unit);
        keep_unit(&unit);
    }

    char *stripped[2];
    for (int container = PERF_RTD; container <= PERF_TEXT; container++) {
        tc_bytebuf mem = {0};
        perf_out o;
        unsigned sb = container == PERF_RTD ? srcbits : 0;
        perf_out_init(&o, container, sb, out_seed, NULL, &mem);
        o.now = model.time;
        perf_out_sync(&o);
        put_writes(&o);
        FUZZ_ASSERT(perf_out_flush(&o) == 0);
        perf_out_free(&o);
        stripped[container] = pmo_check(mem.p, mem.len, container, sb, cfg, items, nitems);
        tc_bb_free(&mem);
    }
    FUZZ_ASSERT_MSG(strcmp(stripped[0], stripped[1]) == 0,
                    "the Nexus and text containers give different dumps:\n%s\n---\n%s", stripped[0],
                    stripped[1]);
    free(stripped[0]);
    free(stripped[1]);
    return 0;
}
