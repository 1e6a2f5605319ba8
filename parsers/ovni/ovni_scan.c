/*
 * The decoding of a run of common events (ovni_scan.h): the scalar version,
 * the only one (ovni_scan.h says why).
 */
#include "ovni_scan.h"

#include "../common/bytes.h"
#include "../common/simd.h"
#include "ovni.h"
#include "ovni_models.h"

size_t tc_ovni_scan_scalar(const uint8_t *b, const uint8_t *end, const uint8_t *gate, int be,
                           uint64_t last, tc_ovni_scanned *out, size_t max)
{
    const uint8_t *p = b;
    size_t n = 0;
    /* One test per event: the checks are combined without a branch. */
    while (n < max && (size_t)(end - p) >= TC_OVNI_SCAN_SPAN) {
        unsigned g = gate[p[1]];
        unsigned cc = (unsigned)p[2] - TC_OVNI_MCV_BASE, vv = (unsigned)p[3] - TC_OVNI_MCV_BASE;
        int ok = (g != 0) & (cc < TC_OVNI_MCV_SPAN) & (vv < TC_OVNI_MCV_SPAN);
        unsigned model = ok ? g - 1 : 0;
        unsigned index = tc_ovni_event_index[model][ok ? cc : 0][ok ? vv : 0];
        const tc_ovni_event_hot *e = &tc_ovni_events_hot[index ? index - 1 : 0];
        uint64_t clock = tc_rd64(p + 4, be);
        ok &= (index != 0) & (p[0] == e->code) & (clock >= last) & (clock < TC_OVNI_CLOCK_LIMIT);
        if (!ok)
            break;
        out[n].at = (uint32_t)(p - b);
        out[n].index = (uint16_t)(index - 1);
        out[n].model = (uint8_t)model;
        out[n].pad = 0;
        n++;
        last = clock;
        p += TC_OVNI_EVENT_HEADER_SIZE + (p[0] ? p[0] + 1u : 0u);
    }
    out[n].at = (uint32_t)(p - b);
    return n;
}

tc_ovni_scan_fn tc_ovni_scan_pick(void)
{
    return tc_ovni_scan_scalar;
}
