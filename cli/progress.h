/* A progress line on stderr for long inputs, only when stderr is a terminal. */
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
void cli_progress_update(void *p, uint64_t bytes);
void cli_progress_end(cli_progress *p);

#endif
