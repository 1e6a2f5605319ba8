# The toy format's harness (tests/toy): its seeds, written by the toy's
# generator before the smoke run.
FUZZ_C_TARGETS += toy_parse
FUZZ_SEEDS_toy_parse := corpus/toy/seeds
