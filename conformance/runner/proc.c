#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

/* Output kept per child: dumps of the cases are small; anything beyond this
 * is counted as truncated (and cannot match an expected dump). */
#define OUT_LIMIT ((size_t)64 << 20)
#define ERR_LIMIT ((size_t)1 << 20)
/* Descriptors the child closes (those of other running children included). */
#define CLOSE_LIMIT 1024

double tc_proc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void child(int out_w, int err_w, const char *stdin_path, tc_proc_body body, void *arg)
{
    /* Its own process group: the parent kills the whole group on a timeout. */
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0) {
        dprintf(err_w, "tracecheck conformance: cannot set up the child: %s\n", strerror(errno));
        _exit(126);
    }
    /* Pipes of other children running at the same time must not stay open
     * here, or their readers would not see the end of their output. */
    for (int fd = 3; fd < CLOSE_LIMIT; fd++)
        close(fd);
    exit(body(arg)); /* exit, not _exit: LeakSanitizer checks the child at exit */
}

int tc_proc_start(tc_proc *p, tc_proc_body body, void *arg, const char *stdin_path, double timeout,
                  tc_error *err)
{
    int out[2], er[2];
    memset(p, 0, sizeof *p);
    p->fd[0] = p->fd[1] = -1;
    if (pipe2(out, O_CLOEXEC) != 0) {
        tc_error_set(err, "conformance", "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(er, O_CLOEXEC) != 0) {
        tc_error_set(err, "conformance", "pipe: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    p->start = tc_proc_now();
    p->deadline = p->start + timeout;
    pid_t pid = fork();
    if (pid < 0) {
        tc_error_set(err, "conformance", "fork: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        close(er[0]);
        close(er[1]);
        return -1;
    }
    if (pid == 0) {
        close(out[0]);
        close(er[0]);
        child(out[1], er[1], stdin_path, body, arg);
    }
    setpgid(pid, pid); /* also here: no race with the child's own call */
    close(out[1]);
    close(er[1]);
    p->pid = pid;
    p->fd[0] = out[0];
    p->fd[1] = er[0];
    p->buf[0].limit = OUT_LIMIT;
    p->buf[1].limit = ERR_LIMIT;
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(er[0], F_SETFL, O_NONBLOCK);
    return 0;
}

static void buf_add(tc_proc_buf *b, const char *data, size_t n)
{
    if (b->len + n > b->limit) {
        b->truncated = 1;
        n = b->limit - b->len;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q)
            abort();
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/* Reads what is there; closes the descriptor at its end. */
static void drain(tc_proc *p, int which)
{
    char chunk[65536];
    for (;;) {
        ssize_t n = read(p->fd[which], chunk, sizeof chunk);
        if (n > 0) {
            buf_add(&p->buf[which], chunk, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        close(p->fd[which]);
        p->fd[which] = -1;
        return;
    }
}

static void reap(tc_proc *p, int block)
{
    if (p->reaped)
        return;
    /* Look without reaping first: while the child is a zombie its pid (the
     * group id) cannot be reused, so killing what it left running in its
     * group cannot hit anyone else. Those would hold the pipes open. */
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int r;
    do
        r = waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG));
    while (r < 0 && errno == EINTR);
    if (r != 0 || si.si_pid != p->pid)
        return;
    kill(-p->pid, SIGKILL);
    int status;
    pid_t w;
    do
        w = waitpid(p->pid, &status, 0);
    while (w < 0 && errno == EINTR);
    p->reaped = 1;
    p->status = status;
    p->seconds = tc_proc_now() - p->start;
}

void tc_proc_poll(tc_proc *const *procs, size_t n, double max_wait)
{
    struct pollfd fds[64];
    tc_proc *owner[64];
    int which[64];
    size_t nf = 0;
    double now = tc_proc_now(), wait = max_wait;
    for (size_t i = 0; i < n; i++) {
        tc_proc *p = procs[i];
        if (!p->reaped && p->deadline - now < wait)
            wait = p->deadline - now;
        for (int w = 0; w < 2; w++)
            if (p->fd[w] >= 0 && nf < 64) {
                fds[nf] = (struct pollfd){.fd = p->fd[w], .events = POLLIN};
                owner[nf] = p;
                which[nf++] = w;
            }
    }
    if (wait < 0)
        wait = 0;
    /* Reaping is checked by polling waitid, so never sleep long; once the
     * pipes are closed the exit is due any moment. */
    if (wait > (nf ? 0.02 : 0.001))
        wait = nf ? 0.02 : 0.001;
    int k = poll(fds, (nfds_t)nf, (int)(wait * 1000));
    for (size_t i = 0; k > 0 && i < nf; i++)
        if (fds[i].revents)
            drain(owner[i], which[i]);
    now = tc_proc_now();
    for (size_t i = 0; i < n; i++) {
        tc_proc *p = procs[i];
        reap(p, 0);
        if (!p->reaped && now >= p->deadline) {
            p->timed_out = 1;
            kill(-p->pid, SIGKILL);
            reap(p, 1);
            p->seconds = now - p->start;
        }
        for (int w = 0; p->reaped && w < 2; w++) {
            if (p->fd[w] < 0)
                continue;
            drain(p, w);
            /* Something that left the process group still holds the pipe:
             * stop waiting for it at the deadline. */
            if (p->fd[w] >= 0 && now >= p->deadline) {
                close(p->fd[w]);
                p->fd[w] = -1;
                p->buf[w].truncated = 1;
            }
        }
    }
}

int tc_proc_done(const tc_proc *p) { return p->reaped && p->fd[0] < 0 && p->fd[1] < 0; }

void tc_proc_outcome(tc_proc *p, tc_conf_outcome *o)
{
    o->seconds = p->seconds;
    o->timed_out = p->timed_out;
    if (!p->timed_out) {
        if (WIFEXITED(p->status)) {
            o->exited = 1;
            o->exit_status = WEXITSTATUS(p->status);
        } else if (WIFSIGNALED(p->status)) {
            o->signal = WTERMSIG(p->status);
        }
    }
    o->out = p->buf[0].p ? p->buf[0].p : tc_conf_strdup("");
    o->out_len = p->buf[0].len;
    o->out_truncated = p->buf[0].truncated;
    o->err = p->buf[1].p ? p->buf[1].p : tc_conf_strdup("");
    o->err_len = p->buf[1].len;
    memset(p->buf, 0, sizeof p->buf);
}
