/*
 * A reading of XRay basic-mode logs written from spec/xray/xray.md ("Basic
 * mode", rulings 13 to 16), independently of parsers/xray/xray_basic_reader.c: from
 * the bytes after the header it works out every XRAY-BASIC finding the log
 * deserves (rule, offset, length, in the order the records give them) and
 * aborts unless the run reported exactly those.
 */
#ifndef TC_FUZZ_XRAY_BASIC_ORACLE_H
#define TC_FUZZ_XRAY_BASIC_ORACLE_H

#include "../common/harness.h"
#include "xray_events.h"

/* run: a run of the basic-mode parser (findings uncapped; pedantic as
 * given) on the n bytes at p. Does nothing unless the run read a basic-mode
 * header. */
void xbo_check(const xr_run *run, const uint8_t *p, size_t n, int pedantic);

#endif
