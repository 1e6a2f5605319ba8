/* One case run by one implementation in a child process (impl.c). */
#ifndef TC_CONF_IMPL_H
#define TC_CONF_IMPL_H

#include "../../parsers/common/error.h"
#include "conformance.h"
#include "proc.h"

typedef struct tc_impl_job {
    const tc_conf_case *c;
    tc_proc proc;
    char *cmdline; /* commands: the line given to /bin/sh -c */
    char *scratch; /* impl->copy_input: the temporary directory of the copy */
} tc_impl_job;

/* Starts the case. Returns 0, or -1 with the reason in err. */
int tc_impl_start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c, double timeout,
                  tc_error *err);

/* Once tc_proc_done(&job->proc): what the implementation produced. Removes
 * the scratch copy. */
/* Frees the job's command line and removes its scratch directory, if any
 * (an adapter's start calls it when it fails). */
void tc_impl_job_release(tc_impl_job *job);

void tc_impl_finish(tc_impl_job *job, const tc_conf_impl *impl, tc_conf_outcome *o);

/* "CMD {file}" with each {file} replaced by the shell-quoted path; *uses_file
 * tells whether there was one (if not, the input goes on stdin). */
char *tc_impl_command_line(const char *command, const char *path, int *uses_file);

#endif
