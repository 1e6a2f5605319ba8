/*
 * A harness that fails on purpose, in two distinct places, so that make
 * check can test fuzz/triage.sh on real crashes of a real build (see
 * check-fuzz-triage in fuzz/fuzz.mk): an input that starts with
 * "TCSELFTEST-A" fails a harness check (FUZZ_FAIL, an abort), one that
 * starts with "TCSELFTEST-B" reads one byte past a heap block (an ASan
 * heap-buffer-overflow). Anything else passes. It links none of the library
 * and is not in FUZZ_TARGETS: no campaign, smoke run or regression replay
 * ever runs it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/fuzz_helpers.h"

#define MAGIC_A "TCSELFTEST-A"
#define MAGIC_B "TCSELFTEST-B"

/* Out of line, so that the overflow has a frame of its own at the top of the
 * stack, as a real parser bug would. */
__attribute__((noinline)) static unsigned read_past_end(const unsigned char *data, size_t size)
{
    unsigned char *copy = malloc(size);
    FUZZ_CHECK_ALLOC(copy);
    memcpy(copy, data, size);
    volatile unsigned char past = copy[size];
    free(copy);
    return past;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size >= sizeof MAGIC_A - 1 && memcmp(data, MAGIC_A, sizeof MAGIC_A - 1) == 0)
        FUZZ_FAIL("selftest: input starts with %s", MAGIC_A);
    if (size >= sizeof MAGIC_B - 1 && memcmp(data, MAGIC_B, sizeof MAGIC_B - 1) == 0)
        return (int)(read_past_end(data, size) & 0);
    return 0;
}
