/* LLVM XRay Flight Data Recorder traces: the format's descriptor (formats.h). */
#include <string.h>

#include "../common/binary_option.h"
#include "../common/formats.h"
#include "xray.h"
#include "xray_binary.h"
#include "xray_dump.h"

/* The XRAY family is shared with basic-mode logs (xray_basic_format.c): FDR
 * traces have every XRAY rule but the XRAY-BASIC-* ones. */
static int has_rule(const tc_rule_info *r) { return strncmp(r->id, "XRAY-BASIC-", 11) != 0; }

/* Anything that looks like an XRay header and is not a basic-mode one
 * (tried first): an FDR trace, or named as what it is not
 * (XRAY-HEADER-BASIC-MODE, XRAY-HEADER-TYPE). */
static int sniff(const uint8_t *p, size_t n, const char *name)
{
    (void)name;
    return tc_xray_sniff(p, n);
}

const tc_format_ops tc_xray_format = {
    .format = TC_FORMAT_XRAY,
    .name = "xray",
    .title = "XRay FDR trace",
    .description = "LLVM XRay Flight Data Recorder trace (versions 1-5)",
    .rule_family = "XRAY",
    .spec = "xray",
    .has_rule = has_rule,
    .strength = TC_DETECT_PLAUSIBLE,
    .sniff = sniff,
    .parse = tc_xray_parse,
    .split = &tc_xray_split,
    .dump = tc_xray_dump,
    .shared_options = tc_binary_options, /* --binary */
};
