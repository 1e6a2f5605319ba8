#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/common/input.h"
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

/* The bytes the parser will read, when that is the file's size: a regular
 * file that is not compressed (the parser counts decompressed bytes). 0
 * when not known (a directory trace, standard input, compressed input). */
static uint64_t plain_size(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat st;
    unsigned char head[8];
    uint64_t size = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        ssize_t n = read(fd, head, sizeof head);
        if (n > 0 && tc_detect_compression(head, (size_t)n) == TC_COMP_NONE)
            size = (uint64_t)st.st_size;
    }
    close(fd);
    return size;
}

void cli_progress_begin(cli_progress *p, const char *path)
{
    p->path = path;
    p->started = p->last = now();
    /* Only on a terminal: a stat and 8 bytes read per input otherwise. */
    p->size = p->enabled ? plain_size(path) : 0;
}

void cli_progress_update(void *user, uint64_t bytes)
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
    if (p->size && bytes <= p->size && rate > 0) {
        double left = (double)(p->size - bytes) / rate;
        fprintf(stderr, "\r\033[K%s: %.0f%% of %.0f MB (%.0f MB/s, %.*f s left)", p->path,
                100.0 * (double)bytes / (double)p->size, (double)p->size / 1e6, rate / 1e6,
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
