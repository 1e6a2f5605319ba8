/* Intel DCFG: the format's descriptor (formats.h). A DCFG is the companion
 * its DCFG-traces are checked against (dtrc_format.c): its model is what
 * they need of it. */
#include "../common/formats.h"
#include "dcfg.h"
#include "dcfg_model.h"

static int by_name(const char *name) { return tc_dcfg_kind_of_name(name) == 1; }

static void *load(tc_reader *r, tc_diag_sink *d) { return tc_dcfg_model_load(r, d); }
static void model_free(void *m) { tc_dcfg_model_free(m); }

static const tc_format_model model = {load, model_free};

const tc_format_ops tc_dcfg_format = {
    .format = TC_FORMAT_DCFG,
    .name = "dcfg",
    .title = "DCFG",
    .description = "Intel DCFG (format version 1)",
    .rule_family = "DCFG",
    .spec = "dcfg",
    /* DCFG and DCFG-trace look alike: the keys, then the name, decide
     * (spec/dcfg/dcfg.md, "Detection"). */
    .strength = TC_DETECT_KEYS,
    .sniff = tc_dcfg_sniff,
    .by_name = by_name,
    .parse = tc_dcfg_parse,
    .dump = tc_dcfg_dump,
    .model = &model,
};
