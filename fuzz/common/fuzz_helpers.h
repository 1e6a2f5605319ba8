/*
 * Assertions for fuzz harnesses. A failed check prints where and why, then
 * aborts: libFuzzer, AFL++ and the sanitizers all treat abort() as a crash and
 * keep the input, and the regression driver dies with a non-zero status. They
 * stay on in every build (NDEBUG does not remove them): a harness that stops
 * checking under optimisation finds nothing.
 */
#ifndef TC_FUZZ_HELPERS_H
#define TC_FUZZ_HELPERS_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
#define FUZZ_EXTERN_C extern "C"
#else
#define FUZZ_EXTERN_C
#endif

/* The entry point every engine calls. */
FUZZ_EXTERN_C int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define FUZZ_FAIL(...)                                                                       \
    do {                                                                                     \
        fprintf(stderr, "%s:%d: fuzz check failed: ", __FILE__, __LINE__);                   \
        fprintf(stderr, __VA_ARGS__);                                                        \
        fputc('\n', stderr);                                                                 \
        fflush(stderr);                                                                      \
        abort();                                                                             \
    } while (0)

/* FUZZ_ASSERT_MSG(cond, fmt, args...): the message gives the values involved. */
#define FUZZ_ASSERT_MSG(cond, fmt, ...)                                                      \
    do {                                                                                     \
        if (!(cond))                                                                         \
            FUZZ_FAIL("%s: " fmt, #cond, ##__VA_ARGS__);                                     \
    } while (0)

#define FUZZ_ASSERT(cond)                                                                    \
    do {                                                                                     \
        if (!(cond))                                                                         \
            FUZZ_FAIL("%s", #cond);                                                          \
    } while (0)

/* Running out of memory is the harness's problem, not a finding in the code
 * under test: still abort, but say so. */
#define FUZZ_CHECK_ALLOC(p)                                                                  \
    do {                                                                                     \
        if (!(p))                                                                            \
            FUZZ_FAIL("out of memory (%s)", #p);                                             \
    } while (0)

#endif
