/* SiFive trace performance data: the format's descriptor (formats.h) and
 * its options (spec/perf/perf.md, ruling 1; --binary: "The program's binary"). */
#include <string.h>

#include "../common/binary_option.h"
#include "../common/formats.h"
#include "../common/options.h"
#include "perf.h"
#include "perf_dump.h"
#include "perf_msg.h"

/* Neither container has a magic number: the name picks perf data (.rtd,
 * .itc, also compressed), whatever the bytes (an empty .itc file is perf
 * data without messages); else only --format perf does (spec/perf/perf.md,
 * "Containers"). */
static int by_name(const char *name)
{
    return tc_perf_container_of_name(name) != TC_PERF_CONTAINER_BY_NAME;
}

static int sniff(const uint8_t *p, size_t n, const char *name)
{
    (void)p;
    (void)n;
    return by_name(name);
}

static int set_srcbits(tc_options *opt, const char *value)
{
    unsigned long long v;
    if (tc_parse_number(value, 0, TC_NEXUS_MAX_SRCBITS, &v))
        return -1;
    opt->perf_srcbits = (unsigned)v;
    return 0;
}

static int set_channel(tc_options *opt, const char *value)
{
    unsigned long long v;
    if (tc_parse_number(value, 0, TC_PERF_MAX_CHANNEL, &v))
        return -1;
    opt->perf_channel = (unsigned)v;
    return 0;
}

static int set_marker(tc_options *opt, const char *value)
{
    unsigned long long v;
    if (tc_parse_number(value, 0, 0xffffffffull, &v))
        return -1;
    opt->perf_marker = (uint32_t)v;
    return 0;
}

static int set_container(tc_options *opt, const char *value)
{
    if (!strcmp(value, "rtd"))
        opt->perf_container = TC_PERF_CONTAINER_RTD;
    else if (!strcmp(value, "text"))
        opt->perf_container = TC_PERF_CONTAINER_TEXT;
    else
        return -1;
    return 0;
}

#define COLUMN "                       "

static const tc_format_option options[] = {
    {"srcbits", "N",
     "perf .rtd: bits of the Nexus SRC field, 0 to 8 (default 0,\n" COLUMN
     "a single-core trace)\n",
     "needs a number from 0 to 8", set_srcbits, NULL},
    {"perf-channel", "N", "perf: the ITC channel of the perf data, 0 to 31 (default 6)\n",
     "needs a number from 0 to 31", set_channel, NULL},
    {"perf-marker", "N", "perf: a header's first 32-bit word (default 0x70657266)\n",
     "needs a 32-bit number", set_marker, NULL},
    {"container", "C",
     "perf: rtd (Nexus) or text (IDTAG VALUE [TIMESTAMP] lines);\n" COLUMN
     "default by the name: .itc is text, anything else Nexus.\n" COLUMN
     "Perf data is read as such when named *.rtd or *.itc (also\n" COLUMN
     ".gz, .bz2, .zst) or with --format perf\n",
     "takes rtd or text", set_container, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

const tc_format_ops tc_perf_format = {
    .format = TC_FORMAT_PERF,
    .name = "perf",
    .title = "SiFive perf trace",
    .description =
        "SiFive trace performance data (ITC messages in a Nexus .rtd file or a text list)",
    .rule_family = "PERF",
    .spec = "perf",
    .strength = TC_DETECT_NAME,
    .sniff = sniff,
    .by_name = by_name,
    .parse = tc_perf_parse,
    .dump = tc_perf_dump,
    .shared_options = tc_binary_options, /* --binary */
    .options = options,
};
