/*
 * What a generated XRay trace must read back as: the generator's model (its
 * buffers and records, or a basic-mode log's records) against the events
 * the parser delivered, field by field, and the model rebuilt from those
 * events written again, which must be the same bytes. For xray_roundtrip.
 */
#ifndef TC_FUZZ_XRAY_MODEL_ORACLE_H
#define TC_FUZZ_XRAY_MODEL_ORACLE_H

#include "../../generators/common/bytebuf.h"
#include "../../generators/common/rng.h"
#include "../../generators/xray/xray_basic_model.h"
#include "../../generators/xray/xray_model.h"
#include "xray_events.h"

/* One buffer of the model, kept after the synthesiser reuses its own. */
typedef struct xray_model_oracle_kept {
    xray_rec *recs;
    size_t n;
    uint8_t *pool;
    uint64_t used;
} xray_model_oracle_kept;

typedef struct xray_model_oracle_model {
    xray_file_header fh;
    xray_model_oracle_kept *bufs;
    size_t n, cap;
} xray_model_oracle_model;

void xray_model_oracle_keep(xray_model_oracle_model *m, const xray_buffer *b);
void xray_model_oracle_model_free(xray_model_oracle_model *m);

/* FDR: walks run's events (kept) against the model, checking each record's
 * fields and the TSC, CPU, thread and process each event carries, and
 * writes the model rebuilt from the events to out (padding: the noise of
 * version 1 padding, reseeded as the generator had it, or NULL). */
void xray_model_oracle_compare_fdr(const xray_model_oracle_model *m, const xr_run *run, tc_bytebuf *out, tc_rng *padding);

/* Basic mode: every record written (all, in file order) is the event
 * delivered for it, and the decoded records written again are bytes. */
void xray_model_oracle_compare_basic(const xray_basic_header *bh, const xray_basic_block *all,
                       const xr_run *run, const tc_bytebuf *bytes);

/* A generated trace is valid: no finding of any severity. */
void xray_model_oracle_expect_no_findings(const xr_run *run, const char *how);

#endif
