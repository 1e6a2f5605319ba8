/* Intel DCFG-trace: the format's descriptor (formats.h). A DCFG-trace is
 * checked against its DCFG when there is one, given with --pair or found by
 * its name (spec/dcfg/dcfg.md, rulings 13 and 20). */
#include "../common/formats.h"
#include "dcfg.h"
#include "dtrc.h"
#include "dtrc_pair.h"

static int by_name(const char *name) { return tc_dcfg_kind_of_name(name) == 2; }

static void parse_with(tc_reader *r, const tc_parse_ctx *ctx, const void *model,
                       const char *companion)
{
    tc_dtrc_opts o = {.model = model, .dcfg_name = companion};
    tc_dtrc_parse_opts(r, ctx, &o);
}

#define COLUMN "                       "

static const tc_format_companion companion = {
    .format = TC_FORMAT_DCFG,
    .find = tc_dtrc_find_dcfg,
    .parse_with = parse_with,
    .usage = "DCFG TRACE",
    .help_option =
        "check the DCFG-traces named after it (up to the next\n" COLUMN
        "--pair) against DCFG: the DCFG is validated and reported\n" COLUMN
        "under its own name, then each trace gets the DTRC-PAIR-*\n" COLUMN
        "checks (process, thread, edges, joins, instruction counts)\n",
    .help = "Automatic pairing: a DCFG-trace NAME.trace.json (or .trace.json.bz2, .gz, .zst)\n"
            "without --pair is checked against NAME.dcfg.json (or .bz2, .gz, .zst) when that\n"
            "file exists, else against the DCFG found by dropping the last dot-separated\n"
            "parts of NAME one at a time (log_0.T1.trace.json.bz2 -> log_0.dcfg.json.bz2).\n"
            "A DCFG that is also an input is validated once.\n",
};

const tc_format_ops tc_dtrc_format = {
    .format = TC_FORMAT_DCFG_TRACE,
    .name = "dcfg-trace",
    .title = "DCFG-trace",
    .description = "Intel DCFG-trace (format version 1)",
    .rule_family = "DTRC",
    .spec = "dcfg",
    .strength = TC_DETECT_KEYS,
    .sniff = tc_dtrc_sniff,
    .by_name = by_name,
    .parse = tc_dtrc_parse,
    .dump = tc_dtrc_dump,
    .companion = &companion,
};
