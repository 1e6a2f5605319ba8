/* Decompression ahead of parsing: see input_pipe.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "input_pipe.h"

typedef struct chunk {
    uint8_t *data;
    size_t len;
    int last; /* the producer made nothing after these */
} chunk;

struct tc_pipe {
    size_t (*produce)(void *user, uint8_t *dst, size_t room);
    void *user;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t filled, emptied;
    chunk c[TC_PIPE_CHUNKS];
    size_t head, count; /* ready chunks: c[head], ... (count of them) */
    size_t pos;         /* read so far of c[head] */
    int stop;           /* the consumer is gone */
    int done;           /* the producer is */
};

static void *run(void *arg)
{
    tc_pipe *p = arg;
    for (size_t tail = 0;; tail = (tail + 1) % TC_PIPE_CHUNKS) {
        pthread_mutex_lock(&p->lock);
        while (p->count == TC_PIPE_CHUNKS && !p->stop)
            pthread_cond_wait(&p->emptied, &p->lock);
        int stop = p->stop;
        pthread_mutex_unlock(&p->lock);
        if (stop)
            break;
        chunk *c = &p->c[tail];
        c->len = 0;
        c->last = 0;
        while (c->len < TC_PIPE_CHUNK) {
            size_t got = p->produce(p->user, c->data + c->len, TC_PIPE_CHUNK - c->len);
            if (got == 0) {
                c->last = 1;
                break;
            }
            c->len += got;
        }
        pthread_mutex_lock(&p->lock);
        p->count++;
        pthread_cond_signal(&p->filled);
        pthread_mutex_unlock(&p->lock);
        if (c->last)
            break;
    }
    pthread_mutex_lock(&p->lock);
    p->done = 1;
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

tc_pipe *tc_pipe_start(size_t (*produce)(void *user, uint8_t *dst, size_t room), void *user)
{
    tc_pipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->produce = produce;
    p->user = user;
    for (size_t i = 0; i < TC_PIPE_CHUNKS; i++)
        if (!(p->c[i].data = malloc(TC_PIPE_CHUNK)))
            goto fail;
    if (pthread_mutex_init(&p->lock, NULL) != 0)
        goto fail;
    pthread_cond_init(&p->filled, NULL);
    pthread_cond_init(&p->emptied, NULL);
    if (pthread_create(&p->thread, NULL, run, p) != 0) {
        pthread_cond_destroy(&p->filled);
        pthread_cond_destroy(&p->emptied);
        pthread_mutex_destroy(&p->lock);
        goto fail;
    }
    return p;
fail:
    for (size_t i = 0; i < TC_PIPE_CHUNKS; i++)
        free(p->c[i].data);
    free(p);
    return NULL;
}

size_t tc_pipe_read(tc_pipe *p, uint8_t *dst, size_t room, int *last)
{
    *last = 0;
    pthread_mutex_lock(&p->lock);
    while (p->count == 0 && !p->done)
        pthread_cond_wait(&p->filled, &p->lock);
    if (p->count == 0) { /* the end, already told */
        pthread_mutex_unlock(&p->lock);
        *last = 1;
        return 0;
    }
    chunk *c = &p->c[p->head];
    pthread_mutex_unlock(&p->lock);
    /* The chunk is the consumer's until it is handed back. */
    size_t n = c->len - p->pos < room ? c->len - p->pos : room;
    memcpy(dst, c->data + p->pos, n);
    p->pos += n;
    if (p->pos == c->len) {
        *last = c->last;
        pthread_mutex_lock(&p->lock);
        p->head = (p->head + 1) % TC_PIPE_CHUNKS;
        p->count--;
        p->pos = 0;
        pthread_cond_signal(&p->emptied);
        pthread_mutex_unlock(&p->lock);
    }
    return n;
}

void tc_pipe_stop(tc_pipe *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->emptied);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->filled);
    pthread_cond_destroy(&p->emptied);
    pthread_mutex_destroy(&p->lock);
    for (size_t i = 0; i < TC_PIPE_CHUNKS; i++)
        free(p->c[i].data);
    free(p);
}
