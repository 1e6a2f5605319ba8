// tracecheck's XRay parser against LLVM's own reader, llvm::xray::loadTrace
// (Debian's llvm-14-dev), in the same process, on the same bytes: the
// verdicts (tracecheck accepts, no error, or rejects; LLVM returns a trace
// or an error) and, when both accept, the header and the records LLVM
// decodes against the records tracecheck's events imply for LLVM's view
// (XRayRecord: one per function record or event, CallArguments attached),
// as multisets keyed by process, thread, type, function id, TSC, CPU,
// arguments and payload (basic-mode records as sequences: LLVM keeps them in
// file order). Any difference not in the allow-list, xray_llvm_allowlist.h
// (each known difference a named class with its reason and a condition on
// the input checked here), aborts. For xray_differential.
//
// LLVM is run the way `llvm-xray` reads a file (loadTraceFile): as
// little-endian, then, if that fails, as big-endian; its FDR reader (type 1)
// and its basic-mode reader (type 0), never its YAML reader, nor the
// basic-mode reader on a log whose first record is an argument payload, on
// which LLVM 14 crashes (see the NOT_COMPARED entries).
//
// Environment: XRAY_DIFFERENTIAL_STATS=1 prints at exit how many inputs fell
// in each class; XRAY_DIFFERENTIAL_VERBOSE=1 each input's verdicts and
// classes; XRAY_DIFFERENTIAL_TRAP=CLASS aborts on inputs of that class (to
// minimise an example with -minimize_crash).
#ifndef TC_FUZZ_XRAY_LLVM_ORACLE_H
#define TC_FUZZ_XRAY_LLVM_ORACLE_H

#include <cstddef>
#include <cstdint>

#include "xray_events.h"

// run: tracecheck's run on the size bytes at data, events kept.
void xl_judge(const uint8_t *data, size_t size, const xr_run *run);

#endif
