/* A progress line on stderr for long inputs, only when stderr is a terminal:
 * the bytes read and the rate, and when the input's size is known (a plain
 * file) the share done and the time left. It is redrawn at most four times
 * a second, from the reader's window refills; `make bench-progress`
 * measures what it costs. */
#ifndef TC_CLI_PROGRESS_H
#define TC_CLI_PROGRESS_H

#include <stdint.h>

typedef struct cli_progress {
    int enabled;
    int shown;
    const char *path;
    double started, last;
} cli_progress;

void cli_progress_init(cli_progress *p);
void cli_progress_begin(cli_progress *p, const char *path);
/* A tc_check_opts.progress: total is the input's size, 0 when unknown. */
void cli_progress_update(void *p, uint64_t bytes, uint64_t total);
void cli_progress_end(cli_progress *p);

#endif
