// The differential XRay harness: tracecheck's parser against LLVM's own
// reader (xray_llvm_oracle.h), in the same process, on the same bytes. The
// input is a file as a user hands it over; tracecheck reads it as `tracecheck
// validate` reads an XRay file whatever its mode (FDR or basic, as the header
// says), with events; LLVM as `llvm-xray` reads one. Any difference between
// the two that is not a class of xray_llvm_allowlist.h aborts.

#include "xray_llvm_oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xr_opts o{};
    o.events = 1;
    o.keep = 1;
    xr_run run;
    xr_parse_path(&run, HX_RAW, data, size, 0, &o);
    xl_judge(data, size, &run);
    xr_run_free(&run);
    return 0;
}
