#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress_init(cli_progress *p)
{
    p->enabled = isatty(STDERR_FILENO);
    p->shown = 0;
}

void cli_progress_begin(cli_progress *p, const char *path)
{
    p->path = path;
    p->started = p->last = now();
}

void cli_progress_update(void *user, uint64_t bytes, uint64_t total)
{
    cli_progress *p = user;
    if (!p->enabled)
        return;
    double t = now();
    /* Only inputs that take a while, and at most a few times a second. */
    if (t - p->started < 1.0 || t - p->last < 0.25)
        return;
    p->last = t;
    p->shown = 1;
    double rate = (double)bytes / (t - p->started);
    if (total && bytes <= total && rate > 0) {
        double left = (double)(total - bytes) / rate;
        fprintf(stderr, "\r\033[K%s: %.0f%% of %.0f MB (%.0f MB/s, %.*f s left)", p->path,
                100.0 * (double)bytes / (double)total, (double)total / 1e6, rate / 1e6,
                left < 10 ? 1 : 0, left);
    } else
        fprintf(stderr, "\r\033[K%s: %.0f MB read (%.0f MB/s)", p->path, (double)bytes / 1e6,
                rate / 1e6);
}

void cli_progress_end(cli_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = 0;
}
