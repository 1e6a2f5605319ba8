/*
 * --binary FILE: the programs a trace was recorded from
 * (tc_options.binaries), an option several formats take. What a format
 * needs of the file (XRay: its instrumentation map; perf: its function
 * symbols) is checked when the format reads the trace; the option itself
 * checks only that the file is an ELF file libelf can open.
 */
#ifndef TC_BINARY_OPTION_H
#define TC_BINARY_OPTION_H

#include "formats.h"

/* The option, ended by a NULL name: the formats that take it list this
 * table as their shared_options, so that the program declares it once. */
extern const tc_format_option tc_binary_options[];

#endif
