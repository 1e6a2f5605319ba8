/* LLVM XRay basic-mode logs: the format's descriptor (formats.h). */
#include <string.h>

#include "../common/binary_option.h"
#include "../common/formats.h"
#include "xray.h"
#include "xray_binary.h"
#include "xray_dump.h"

/* Its rules: the XRAY-BASIC-* ones and the header's and the binary's
 * (--binary), which FDR traces share (spec/xray/xray.md, rulings 13 to 16). */
static int has_rule(const tc_rule_info *r)
{
    return !strncmp(r->id, "XRAY-BASIC-", 11) || !strncmp(r->id, "XRAY-HEADER-", 12) ||
           !strncmp(r->id, "XRAY-BINARY-", 12);
}

/* A basic-mode header: type 0, version 1 to 3, in either byte order. */
static int sniff(const uint8_t *p, size_t n, const char *name)
{
    (void)name;
    return tc_xray_basic_sniff(p, n);
}

const tc_format_ops tc_xray_basic_format = {
    .format = TC_FORMAT_XRAY_BASIC,
    .name = "xray-basic",
    .title = "XRay basic-mode log",
    .description = "LLVM XRay basic-mode log (versions 1-3)",
    .rule_family = "XRAY",
    .spec = "xray",
    .has_rule = has_rule,
    .strength = TC_DETECT_FIELDS,
    .sniff = sniff,
    .parse = tc_xray_basic_parse,
    .split = &tc_xray_basic_split,
    .dump = tc_xray_dump,
    .shared_options = tc_binary_options, /* --binary */
};
