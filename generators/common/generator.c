/* What the generators' option setters share (generator.h). */
#include <stdio.h>
#include <string.h>

#include "../../parsers/common/options.h"
#include "generator.h"

int tc_gen_count(const char *option, const char *value, unsigned *out, char *err,
                 size_t errlen)
{
    unsigned long long n;
    if (tc_parse_size(value, &n) != 0 || n < 1 || n > 65536) {
        if (!strcmp(option, "threads"))
            snprintf(err, errlen, "--threads takes 1 to 65536");
        else
            snprintf(err, errlen, "--%s takes a number from 1", option);
        return TC_GEN_USAGE;
    }
    *out = (unsigned)n;
    return TC_GEN_OK;
}
