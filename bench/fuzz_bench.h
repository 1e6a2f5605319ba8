/*
 * Injected bugs for the fuzzer effectiveness benchmark (`make fuzz-bench`,
 * docs/fuzzing.md, "Fuzzer effectiveness benchmark"), in the manner of Magma
 * (Hazimeh et al., "Magma: A Ground-Truth Fuzzing Benchmark", SIGMETRICS
 * 2021): a known defect is planted at a known spot, and a canary there
 * records when an input reaches it and when the input triggers it.
 *
 * The parsers hold no bug. Each bug is a patch, bench/bugs/NN-name.patch,
 * that wraps one expression of a parser (two for bug 21) as
 *
 *   TC_BUG(id, buggy, correct)
 *
 * `correct` being what the parser computes and `buggy` the same expression
 * with a realistic mistake in it (an off-by-one, a missed check, a lost
 * reset). Both must be integer expressions free of side effects (each is
 * evaluated twice).
 *
 * Only the fuzz-bench builds (bench/fuzz_bench.mk) apply the patches, to a
 * copy of parsers/ in $(BUILD)/fuzz/bench-src, and compile the patched files
 * with this header force-included (-include bench/fuzz_bench.h). Each use
 * evaluates both expressions and calls tc_fuzzbench_canary(), defined in
 * bench/fuzz_bench_canary.c: the bug is REACHED (its expression is evaluated
 * on this input), TRIGGERED when the two values differ (the buggy parser
 * would behave differently here), and the buggy value is used only when the
 * bug is enabled at run time (TC_FUZZBENCH_BUGS=07 or =all), so one build
 * serves every bug.
 */
#ifndef TC_FUZZ_BENCH_H
#define TC_FUZZ_BENCH_H

/* Records bug id as reached, and as triggered when the values differ; returns
 * whether bug id is enabled in this process. */
int tc_fuzzbench_canary(int id, unsigned long long buggy, unsigned long long correct);

/* The two values are compared inside the canary, which is built without
 * coverage instrumentation: the comparison gives the fuzzer no feedback
 * towards a trigger that the parser without the bug would not give. */
#define TC_BUG(id, buggy, correct)                                                            \
    (tc_fuzzbench_canary((id), (unsigned long long)(buggy), (unsigned long long)(correct))    \
         ? (buggy)                                                                            \
         : (correct))

#endif
