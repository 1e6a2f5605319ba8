/*
 * The worker processes of `conformance --generate` and what they tell the
 * parent, one line per event, fields separated by tabs:
 *
 *   T ITERATION valid|invalid|unusable   a trace was run (unusable: the
 *                                        generator refused the draw, or
 *                                        the tool does not read its name)
 *   D ITERATION CLASS                    it diverged, in CLASS: four fields,
 *                                        FORMAT VERDICT RULES ANSWER (the
 *                                        format, tracecheck's verdict and
 *                                        error rules, the tool's answer)
 *   C ITERATION CLASS DIR BYTES SHRUNK GEN REASON
 *                                        the first of its class in this
 *                                        worker, shrunk and written to DIR
 *   E                                    the worker is done
 */
#ifndef TC_CONF_GEN_WORKER_H
#define TC_CONF_GEN_WORKER_H

#include "generate.h"

/* Runs iterations w, w + n, ... until the count, gx_deadline or a signal;
 * writes the protocol to fd and cases under work. */
void gx_worker(const tc_gen_conf_options *opt, unsigned w, unsigned n, int fd, const char *work);

#endif
