#include <string.h>

#include "../ovni/ovni.h"
#include "../ovni/ovni_dump.h"
#include "../ovni/ovni_trace.h"
#include "../xray/xray.h"
#include "../xray/xray_dump.h"
#include "formats.h"

static void dump_xray(tc_jsonl *w, const void *event) { tc_xray_dump_event(w, event); }
static void dump_ovni(tc_jsonl *w, const void *record) { tc_ovni_dump_line(w, record); }

static int sniff_ovni(const uint8_t *p, size_t n)
{
    return tc_ovni_sniff_stream(p, n) || tc_ovni_sniff_metadata(p, n);
}

/* In the order detection tries them: precise magic numbers first (XRay's
 * header has none, only plausible version and type fields). */
static const tc_format_ops formats[] = {
    {TC_FORMAT_OVNI, "ovni", "OVNI", "ovni runtime trace (specification v3)", sniff_ovni,
     tc_ovni_parse_file, dump_ovni},
    {TC_FORMAT_XRAY, "xray", "XRAY", "LLVM XRay Flight Data Recorder trace (versions 1-5)",
     tc_xray_sniff, tc_xray_parse, dump_xray},
};

static const char *const names[TC_FORMAT__COUNT] = {
    [TC_FORMAT_AUTO] = "auto", [TC_FORMAT_XRAY] = "xray", [TC_FORMAT_PERF] = "perf",
    [TC_FORMAT_DCFG] = "dcfg", [TC_FORMAT_DCFG_TRACE] = "dcfg-trace", [TC_FORMAT_OVNI] = "ovni",
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

tc_format tc_format_detect(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].sniff(p, n))
            return formats[i].format;
    return TC_FORMAT_AUTO;
}
