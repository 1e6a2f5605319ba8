/* The harness kit's calls of the library that take more than one call of
 * its own (harness.h). */
#include "../../parsers/common/formats.h"
#include "harness.h"

void hx_parse(tc_format format, tc_reader *r, const tc_parse_ctx *ctx)
{
    const tc_format_ops *ops = tc_format_ops_for(format);
    FUZZ_ASSERT_MSG(ops != NULL, "format %d is not in the registry", (int)format);
    ops->parse(r, ctx);
}

void hx_error_text(tc_error *e, char *err, size_t errlen)
{
    tc_error_format(e, err, errlen);
    tc_error_free(e);
}
