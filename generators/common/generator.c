/* What the generators' option setters share (generator.h). */
#include <stdio.h>
#include <string.h>

#include "../../parsers/common/options.h"
#include "generator.h"

int tc_gen_count(const char *option, const char *value, unsigned *out, tc_error *err)
{
    unsigned long long n;
    if (tc_parse_size(value, &n) != 0 || n < 1 || n > 65536) {
        if (!strcmp(option, "threads"))
            tc_error_set(err, "gen", "--threads takes 1 to 65536");
        else
            tc_error_set(err, "gen", "--%s takes a number from 1", option);
        return TC_GEN_USAGE;
    }
    *out = (unsigned)n;
    return TC_GEN_OK;
}
