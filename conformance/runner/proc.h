/*
 * Child processes of the runner. Each case runs in its own process group, so
 * that a crash is a crash (never a rejection) and a timeout kills everything
 * the implementation started. Standard output and error are captured through
 * pipes; several children may run at once (-j).
 */
#ifndef TC_CONF_PROC_H
#define TC_CONF_PROC_H

#include "../../parsers/common/error.h"
#include <stddef.h>
#include <sys/types.h>

#include "conformance.h"

typedef struct tc_proc_buf {
    char *p;
    size_t len, cap, limit;
    int truncated;
} tc_proc_buf;

typedef struct tc_proc {
    pid_t pid;
    int fd[2];          /* read ends of the child's stdout and stderr; -1 once closed */
    tc_proc_buf buf[2];
    double start, deadline;
    int reaped, status; /* waitpid status once reaped */
    int timed_out;
    double seconds;
} tc_proc;

/* What the child does with its stdout and stderr already set up (stdin is
 * the case's input or /dev/null): returns the exit status, or does not return
 * (exec). Runs in the child only. */
typedef int (*tc_proc_body)(void *arg);

/* Starts a child. stdin_path: NULL for /dev/null. Returns 0, or -1 with the
 * reason in err. */
int tc_proc_start(tc_proc *p, tc_proc_body body, void *arg, const char *stdin_path, double timeout,
                  tc_error *err);

/* Moves the running children forward: reads their output, reaps them, kills
 * those past their deadline. Waits at most max_wait seconds for something to
 * happen. */
void tc_proc_poll(tc_proc *const *procs, size_t n, double max_wait);

/* Whether the child has exited and its output has been read to the end. */
int tc_proc_done(const tc_proc *p);

/* Moves what the child left into an outcome (its buffers change owner). */
void tc_proc_outcome(tc_proc *p, tc_conf_outcome *o);

/* Monotonic seconds. */
double tc_proc_now(void);

#endif
