/* The suites of the unit test program, one per file: each file of tests/
 * and of its folders defines void register_<name>_suite(void). The build
 * finds them (tests/tests.mk writes suites.inc); nothing lists them by
 * hand. */
#ifndef TC_TESTS_SUITES_H
#define TC_TESTS_SUITES_H

#define TC_SUITE(fn) void fn(void);
#include "suites.inc"
#undef TC_SUITE

#endif
