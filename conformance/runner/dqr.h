/*
 * The adapter for SiFive's trace decoder, dqr (docs/dqr.md). dqr is not run
 * on a file given on its command line: it reads a properties file naming the
 * trace and an ELF, and writes BASENAME.perf next to the trace. So each .rtd
 * case runs in a scratch directory of its own holding a copy of the trace,
 * the properties file and a placeholder ELF; the verdict comes from dqr's exit
 * status and whether it wrote its .perf text.
 */
#ifndef TC_CONF_DQR_H
#define TC_CONF_DQR_H

#include <stddef.h>

#include "impl.h"

/* The properties file and the placeholder ELF the adapter writes. */
#define TC_DQR_PROPS "props.pf"
#define TC_DQR_ELF "perf.elf"

/* Starts dqr (impl->program) on the case in a scratch directory (job->scratch,
 * removed by tc_impl_finish). Returns 0, or -1 with the reason in err. */
int tc_dqr_start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c,
                 double timeout, char *err, size_t errlen);

/* Once dqr has exited, before the scratch directory goes: no .perf file after
 * an exit status of 0 is a rejection (exit status 1); the counter values it
 * wrote are compared with the case's expected dump (docs/dqr.md), a
 * difference noted on standard error and, for a case dqr accepts, made a
 * failure by setting o->mismatch. */
void tc_dqr_outcome(const tc_impl_job *job, tc_conf_outcome *o);

/* The counter values of dqr's .perf text ("[Perf Cntr] ... [Value=N]") and
 * the decoded values of a canonical perf dump's record lines, in order. Each
 * returns the count, storing at most max values in v. */
size_t tc_dqr_perf_values(const char *text, unsigned long long *v, size_t max);
size_t tc_dqr_dump_values(const char *dump, unsigned long long *v, size_t max);

#endif
