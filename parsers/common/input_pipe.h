/*
 * A producer on a thread of its own, a consumer on the caller's: the
 * decompression of an input runs ahead of its parsing, a few chunks at a
 * time, so that a compressed input costs about the larger of the two rather
 * than their sum. Memory is bounded: TC_PIPE_CHUNKS chunks of TC_PIPE_CHUNK
 * bytes.
 */
#ifndef TC_INPUT_PIPE_H
#define TC_INPUT_PIPE_H

#include <stddef.h>
#include <stdint.h>

#define TC_PIPE_CHUNKS 4
#define TC_PIPE_CHUNK (1u << 20)

typedef struct tc_pipe tc_pipe;

/* produce(user, dst, room): up to room bytes at dst, 0 at the end (or after a
 * failure, which user records). Runs on the pipe's thread until it returns
 * 0 or the pipe is stopped. NULL when no thread could be started. */
tc_pipe *tc_pipe_start(size_t (*produce)(void *user, uint8_t *dst, size_t room), void *user);

/* Up to room bytes into dst, waiting for the producer when nothing is ready;
 * 0 only at the end. *last is set when these are the last bytes the
 * producer made (the end is reached), so that the caller can tell the end
 * and its cause at once. */
size_t tc_pipe_read(tc_pipe *p, uint8_t *dst, size_t room, int *last);

/* Stops the producer (wherever it is) and frees the pipe. */
void tc_pipe_stop(tc_pipe *p);

#endif
