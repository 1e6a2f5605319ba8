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
    uint64_t size; /* the bytes to read, when known; else 0 */
} cli_progress;

void cli_progress_init(cli_progress *p);
void cli_progress_begin(cli_progress *p, const char *path);
void cli_progress_update(void *p, uint64_t bytes);
void cli_progress_end(cli_progress *p);

#endif
