#include <pthread.h>
#include <stdlib.h>

#include "parallel.h"

typedef struct pool {
    pthread_mutex_t lock;
    size_t next, n;
    tc_parallel_job job;
    void *user;
} pool;

typedef struct worker {
    pool *p;
    unsigned index;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    pool *p = w->p;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next < p->n ? p->next++ : p->n;
        pthread_mutex_unlock(&p->lock);
        if (i == p->n)
            return NULL;
        p->job(p->user, i, w->index);
    }
}

unsigned tc_parallel_for(size_t n, unsigned threads, tc_parallel_job job, void *user)
{
    if (threads > n)
        threads = (unsigned)n;
    pool p = {.n = n, .job = job, .user = user};
    if (threads < 2 || pthread_mutex_init(&p.lock, NULL) != 0) {
        for (size_t i = 0; i < n; i++)
            job(user, i, 0);
        return 1;
    }
    worker *w = calloc(threads, sizeof *w);
    pthread_t *t = calloc(threads, sizeof *t);
    unsigned started = 1; /* this thread is worker 0 */
    if (w && t)
        for (unsigned k = 1; k < threads; k++) {
            w[k] = (worker){&p, k};
            if (pthread_create(&t[k], NULL, work, &w[k]) != 0)
                break;
            started++;
        }
    worker self = {&p, 0};
    work(&self);
    for (unsigned k = 1; k < started; k++)
        pthread_join(t[k], NULL);
    pthread_mutex_destroy(&p.lock);
    free(w);
    free(t);
    return started;
}
