/*
 * What a tool said, as `conformance --generate` classes it: the line that
 * tells what is wrong, and that line with its values taken out, so that one
 * message with other values is one class (gen_answer.c).
 */
#ifndef TC_CONF_GEN_ANSWER_H
#define TC_CONF_GEN_ANSWER_H

#include <stddef.h>

#include "conformance.h"

/* The line of o's output that says what went wrong: the first that says
 * error, fatal, fail, invalid or abort (tools log progress first), else
 * the first; from stderr, else stdout. *len: its length. */
const char *gx_telling_line(const tc_conf_outcome *o, size_t *len);

/* The line's class, at most 100 bytes (malloc'd): leading blanks dropped,
 * paths as PATH (quoted: 'PATH'), other quoted values as 'V' ("V"),
 * numbers (decimal, hex, with a sign or a fraction) as N, a lone character
 * as C and a short code with capitals inside it (an event's XJc, OHx) as
 * ID; bytes that are not printable, and '|', as '?'. */
char *gx_answer_class(const char *line, size_t n);

/* The line as the tool printed it, at most 100 bytes (malloc'd): leading
 * blanks dropped, tabs and bytes that are not printable as '?'. */
char *gx_answer_example(const char *line, size_t n);

/* Whether an expected-failure entry records a class (gen_known.c).
 * verdict, rules, answer: the class's (tracecheck's verdict, its error
 * rules "A, B" or "none", the tool's answer "accept" or "reject: CLASS").
 * A reject is matched by the entry's quoted message, as a class, within
 * the answer (a tool may put its name first: "ovniemu: ERROR: ..."); an
 * accept by the error rules of the entry's case (c; NULL: unknown). */
int gx_entry_matches(const tc_conf_xfail_entry *e, const tc_conf_case *c,
                     tc_conf_verdict verdict, const char *rules, const char *answer);

#endif
