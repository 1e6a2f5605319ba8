/*
 * The program the perf --binary suite (tests/perf/test_perf_binary.c) judges
 * traces against: a few functions of known shapes, built without a C
 * library (tests/tests.mk), 32-bit where the compiler can, as SiFive's
 * bare-metal RV32 programs are. Its functions are never run.
 */

/* A local function. */
static int leaf(int x) { return x * 3; }

/* A C++ name, to be demangled: walk(long). */
int walk(long x) __asm__("_Z4walkl");
int walk(long x) { return leaf((int)x) + 1; }

/* A function symbol of size 0, as assembly start-up code often has: it
 * reaches up to the next function's start. */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl bare_label\n"
        ".type bare_label, %function\n"
        "bare_label:\n"
        "nop\nnop\nnop\nnop\n");

void _start(void);
void _start(void)
{
    for (;;)
        walk(1);
}
