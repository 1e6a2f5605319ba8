/*
 * Independent jobs on a few threads: job i of n runs once, on one of up to
 * `threads` workers (this thread is one of them). Each worker is numbered,
 * so that a job can use what belongs to its worker (its own findings) with
 * no lock. The order in which jobs run is not the order of i: what must come
 * out in order is put in order afterwards (diag_order.h).
 */
#ifndef TC_PARALLEL_H
#define TC_PARALLEL_H

#include <stddef.h>

typedef void (*tc_parallel_job)(void *user, size_t i, unsigned worker);

/* Runs job(user, i, w) for every i in [0, n), w < threads. Falls back to
 * this thread alone when no thread can be started. Returns the number of
 * workers used (>= 1). */
unsigned tc_parallel_for(size_t n, unsigned threads, tc_parallel_job job, void *user);

#endif
