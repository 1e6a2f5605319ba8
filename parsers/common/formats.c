#include <string.h>

#include "../dcfg/dcfg.h"
#include "../dcfg/dtrc.h"
#include "../ovni/ovni.h"
#include "../ovni/ovni_dump.h"
#include "../ovni/ovni_trace.h"
#include "../perf/perf.h"
#include "../perf/perf_dump.h"
#include "../xray/xray.h"
#include "../xray/xray_dump.h"
#include "formats.h"

static void dump_xray(tc_jsonl *w, const void *event) { tc_xray_dump(w, event); }
static void dump_ovni(tc_jsonl *w, const void *record) { tc_ovni_dump(w, record); }
static void dump_dcfg(tc_jsonl *w, const void *rec) { tc_dcfg_dump(w, rec); }
static void dump_perf(tc_jsonl *w, const void *event) { tc_perf_dump(w, event); }

static int sniff_ovni(const uint8_t *p, size_t n)
{
    return tc_ovni_sniff_stream(p, n) || tc_ovni_sniff_metadata(p, n);
}

/* In the order detection tries them: precise magic numbers first (XRay's
 * header has none, only plausible version and type fields). */
static const tc_format_ops formats[] = {
    {TC_FORMAT_OVNI, "ovni", "OVNI", "ovni runtime trace (specification v3)", sniff_ovni,
     tc_ovni_parse, dump_ovni},
    /* DCFG and DCFG-trace: tc_format_detect_named() decides between the two
     * (spec/dcfg.md, "Detection"); the DCFG-trace entry goes right below. */
    {TC_FORMAT_DCFG, "dcfg", "DCFG", "Intel DCFG (format version 1)", tc_dcfg_sniff,
     tc_dcfg_parse, dump_dcfg},
    {TC_FORMAT_DCFG_TRACE, "dcfg-trace", "DTRC", "Intel DCFG-trace (format version 1)",
     tc_dcfg_sniff_trace, tc_dtrc_parse, tc_dtrc_dump},
    /* XRay: a basic-mode header (type 0, versions 1-3) first; everything
     * else that looks like XRay is an FDR trace, or named as what it is not
     * (XRAY-HEADER-BASIC-MODE, XRAY-HEADER-TYPE). One rule family. */
    {TC_FORMAT_XRAY_BASIC, "xray-basic", "XRAY", "LLVM XRay basic-mode log (versions 1-3)",
     tc_xray_basic_sniff, tc_xray_basic_parse, dump_xray},
    {TC_FORMAT_XRAY, "xray", "XRAY", "LLVM XRay Flight Data Recorder trace (versions 1-5)",
     tc_xray_sniff, tc_xray_parse, dump_xray},
    /* No magic number: only its name (.rtd, .itc) or --format perf picks it
     * (spec/perf.md, "Containers"). */
    {TC_FORMAT_PERF, "perf", "PERF",
     "SiFive trace performance data (ITC messages in a Nexus .rtd file or a text list)",
     tc_perf_sniff, tc_perf_parse, dump_perf},
};

static const char *const names[TC_FORMAT__COUNT] = {
    [TC_FORMAT_AUTO] = "auto", [TC_FORMAT_XRAY] = "xray", [TC_FORMAT_PERF] = "perf",
    [TC_FORMAT_DCFG] = "dcfg", [TC_FORMAT_DCFG_TRACE] = "dcfg-trace", [TC_FORMAT_OVNI] = "ovni",
    [TC_FORMAT_XRAY_BASIC] = "xray-basic",
};

const char *tc_format_name(tc_format f)
{
    return (unsigned)f < TC_FORMAT__COUNT ? names[f] : "unknown";
}

tc_format tc_format_from_name(const char *s)
{
    for (int f = 0; f < TC_FORMAT__COUNT; f++)
        if (strcmp(names[f], s) == 0)
            return (tc_format)f;
    return TC_FORMAT__COUNT;
}

const tc_format_ops *tc_format_ops_for(tc_format f)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == f)
            return &formats[i];
    return NULL;
}

tc_format tc_format_detect(const uint8_t *p, size_t n) { return tc_format_detect_named(p, n, NULL); }

tc_format tc_format_detect_named(const uint8_t *p, size_t n, const char *name)
{
    /* Perf data has no content to tell it by: its name says it, whatever
     * the bytes (an empty .itc file is perf data without messages). */
    if (tc_perf_container_of_name(name) != TC_PERF_CONTAINER_BY_NAME)
        return TC_FORMAT_PERF;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (formats[i].format == TC_FORMAT_DCFG) {
            /* DCFG and DCFG-trace look alike: content, then the name. */
            int kind = tc_dcfg_sniff_kind(p, n, name);
            if (kind)
                return kind == 2 ? TC_FORMAT_DCFG_TRACE : TC_FORMAT_DCFG;
            continue;
        }
        if (formats[i].sniff(p, n))
            return formats[i].format;
    }
    return TC_FORMAT_AUTO;
}
