/* What the generators' option setters share (generator.h). */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

FILE *tc_gen_open_output(const tc_gen_common *c, int binary, int *status, tc_error *err)
{
    if (strcmp(c->output, "-") != 0) {
        FILE *out = fopen(c->output, "wb");
        if (!out) {
            tc_error_set(err, "gen", "%s: %s", c->output, strerror(errno));
            *status = TC_GEN_FAILED;
        }
        return out;
    }
    if (binary && isatty(STDOUT_FILENO)) {
        tc_error_set(err, "gen", "not writing a binary trace to a terminal");
        *status = TC_GEN_USAGE;
        return NULL;
    }
    return stdout;
}

int tc_gen_close_output(FILE *out, const tc_gen_common *c, int rc, tc_error *err)
{
    if (out == stdout)
        return rc == 0 ? TC_GEN_OK : TC_GEN_FAILED;
    if (fclose(out) != 0 && rc == 0) {
        tc_error_set(err, "gen", "%s: %s", c->output, strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        remove(c->output);
        return TC_GEN_FAILED;
    }
    return TC_GEN_OK;
}

char *tc_gen_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + (name ? strlen(name) : 0) + 2;
    char *p = malloc(n);
    if (!p)
        abort(); /* as the runner's own strings: a few bytes, never recovered from */
    snprintf(p, n, name ? "%s/%s" : "%s", dir, name ? name : "");
    return p;
}
