/* `tracecheck conformance --generate` (conformance_generate.c), called by
 * cmd_conformance.c once the implementation is set up. */
#ifndef TC_CLI_CONFORMANCE_GENERATE_H
#define TC_CLI_CONFORMANCE_GENERATE_H

#include <stdint.h>

#include "../conformance/runner/conformance.h"
#include "../reports/conformance_report.h"

typedef struct cli_generate_args {
    double seconds, timeout;
    uint64_t seed, count;
    const char *out, *report_dir;
    tc_format format; /* --format; TC_FORMAT_AUTO: what the implementation reads */
    unsigned jobs;
    int quiet;
    int want[TC_CONF_REPORT__COUNT];
    const char *cases;           /* the suite: its case the tool must accept (preflight) */
    const tc_conf_xfail *xfail;  /* the implementation's list; NULL: none */
    int no_preflight;            /* --no-preflight */
    /* The tool's own list for the preflight's choice, even with --no-xfail
     * (NULL: xfail). */
    const tc_conf_xfail *preflight_xfail;
    int fail_on_new;             /* --fail-on-new: exit 1 only for a NEW class */
} cli_generate_args;

/* Runs it; the exit status: 0 no divergence, 1 some, 2 trouble. */
int cli_conformance_generate(const tc_conf_impl *impl, const char *name,
                             const cli_generate_args *a);

#endif
