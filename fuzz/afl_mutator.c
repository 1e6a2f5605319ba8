/*
 * A structure-aware mutator (ovni_mutator.c, xray_mutator.c,
 * json_mutator.c, perf_mutator.c) as an AFL++ custom mutator library:
 * `make fuzz TARGET=... ENGINE=afl` loads it with AFL_CUSTOM_MUTATOR_LIBRARY,
 * and afl-fuzz runs it before its own havoc stage (which does the byte-level
 * work). Built as a shared object without sanitizers, once per mutator
 * (fuzz/fuzz.mk defines MUTATOR_HEADER, MUTATE, CROSS_OVER and DESCRIPTION):
 * it runs inside afl-fuzz, not in the target.
 *
 * AFL++'s C API (docs/custom_mutators.md): afl_custom_init returns the
 * mutator's state, afl_custom_fuzz hands back a buffer the mutator owns,
 * afl_custom_deinit frees the state.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include MUTATOR_HEADER

typedef struct state {
    unsigned seed;
    uint8_t *buf;
    size_t cap;
} state;

/* Prototypes for -Wmissing-prototypes: afl-fuzz finds these by name. */
void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
const char *afl_custom_describe(void *data, size_t max_description_len);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    state *s = calloc(1, sizeof *s);
    if (s)
        s->seed = seed;
    return s;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    state *s = data;
    if (s->cap < max_size) {
        uint8_t *b = realloc(s->buf, max_size);
        if (!b) {
            *out_buf = buf;
            return buf_size;
        }
        s->buf = b;
        s->cap = max_size;
    }
    unsigned seed = s->seed = s->seed * 1103515245u + 12345u;
    size_t n;
    /* One call in eight splices in a part of another queue entry. */
    if (add_buf && add_buf_size && (seed >> 16) % 8 == 0) {
        n = CROSS_OVER(buf, buf_size, add_buf, add_buf_size, s->buf, max_size, seed);
    } else {
        n = buf_size < max_size ? buf_size : max_size;
        memcpy(s->buf, buf, n);
        n = MUTATE(s->buf, n, max_size, seed, NULL);
    }
    *out_buf = s->buf;
    return n;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
    (void)data;
    (void)max_description_len;
    return DESCRIPTION; /* queue entries it found are named after it */
}

void afl_custom_deinit(void *data)
{
    state *s = data;
    if (s)
        free(s->buf);
    free(s);
}
