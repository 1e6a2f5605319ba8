/* The toy format's descriptor (parsers/common/formats.h). */
#include "../common/formats.h"
#include "toy.h"

static int sniff(const uint8_t *p, size_t n, const char *name)
{
    (void)name;
    return tc_toy_sniff(p, n);
}

const tc_format_ops tc_toy_format = {
    .format = TC_FORMAT_TOY,
    .name = "toy",
    .title = "toy file",
    .description = "the toy format (tests/toy: what adding a format takes)",
    .rule_family = "TOY",
    .spec = "toy",
    .strength = TC_DETECT_MAGIC,
    .sniff = sniff,
    .parse = tc_toy_parse,
    .dump = tc_toy_dump,
};
