/*
 * The perf state machine (parsers/perf/perf_sm.c) on raw ITC message
 * sequences, checked against a reading of spec/perf/perf.md ("ITC writes",
 * "Perf data", rulings 2-11 and 14) written here.
 *
 * Input layout. Byte 0 sets the run:
 *   bits 0-1  the perf channel: 6, 6, 0 or 31
 *   bit 2     the marker: 0x70657266, or 2 (a marker that small values hit)
 *   bit 3     locations as the text list gives them (line numbers) or as
 *             Nexus does (offsets only)
 *   bit 4     the container read a wrapped buffer (PERF-NEXUS-MID-START)
 * Then messages, each a class byte C and the bytes its kind reads (missing
 * bytes read as 0). K = C & 7, T = C & 8 (a timestamp byte follows the
 * value), P = C >> 4:
 *   K 0  32-bit write, value: 4 bytes, little-endian
 *   K 1  32-bit write of the marker
 *   K 2  8-bit write of P (count types 0-2, record types 0-3, bad ones)
 *   K 3  16-bit write of P, or of the next 2 bytes when P is 15
 *   K 4  32-bit write of a likely value, by P, from one byte B:
 *        0-3 P; 4 1 << (B & 31); 5 B (a mask of low bits); 6 B << 24;
 *        7 counter_info ((B & 63) << 12 | CSR); 8 counter_info with a width
 *        from {1, 8, 16, 31, 32, 33, 40, 47, 48, 49, 56, 63, 64, 2, 3, 4};
 *        9 an odd address (a high word follows); 10 an even address;
 *        11 one of 8 function addresses (so calls and returns match);
 *        12 0; 13 0xffffffff; 14 2^(B & 31); 15 2^(B & 31) - 1
 *   K 5  a write with width code 1 on the perf channel, value P
 *   K 6  IDTAG B (another channel, or no stimulus register), value P
 *   K 7  a value too wide for its write: width code {0, 2, 3, 0}[P & 3],
 *        value (B + 1) << width
 * A message's offset is the offset of its class byte, its length the bytes
 * it read; its line is its number when bit 3 of byte 0 is set.
 *
 * The harness's reading is perf_sm_oracle.h's second state machine,
 * written from the spec and the rule catalogue.
 *
 * Both must give the same events (headers field by field; records: type,
 * addresses, values as written, decoded values, offset, timestamp) and the
 * same findings (rule, offset and line, in order, warnings and notes
 * included). Checked on the state machine alone: START comes first and
 * once, no record before a header, decoded values follow the count type,
 * every finding is located at a perf-channel message of the input (only
 * PERF-NO-DATA is unlocated) and has the catalogue's severity.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/harness.h"
#include "perf_sm_oracle.h"
#include "perf_events.h"

#define MAX_MSGS 8192

/* ---- the input as messages ---- */

static tc_perf_msg msgs[MAX_MSGS]; /* a harness is a program: globals are fine */
static size_t nmsgs;

static const uint8_t *in_p;
static size_t in_n, in_pos;

static unsigned next_byte(void) { return in_pos < in_n ? in_p[in_pos++] : 0; }

static uint32_t likely32(unsigned p)
{
    static const unsigned widths[16] = {1, 8, 16, 31, 32, 33, 40, 47, 48, 49, 56, 63, 64, 2, 3, 4};
    static const uint16_t csrs[4] = {0, 0xc00, 0xc02, 0xb03};
    if (p < 4)
        return p;
    unsigned b = next_byte();
    switch (p) {
    case 4: return UINT32_C(1) << (b & 31);
    case 5: return b;
    case 6: return (uint32_t)b << 24;
    case 7: return (uint32_t)(b & 63) << 12 | csrs[b >> 6];
    case 8: return (uint32_t)(widths[b & 15] - 1) << 12 | csrs[b >> 6];
    case 9: return UINT32_C(0x80000000) | (uint32_t)b << 12 | 1;
    case 10: return UINT32_C(0x80000000) | (uint32_t)b << 4;
    case 11: return UINT32_C(0x80001000) + (b & 7) * 0x100;
    case 12: return 0;
    case 13: return UINT32_MAX;
    case 14: return UINT32_C(1) << (b & 31);
    default: return (UINT32_C(1) << (b & 31)) - 1;
    }
}

static void decode_input(const uint8_t *data, size_t size, unsigned channel, int text)
{
    in_p = data;
    in_n = size;
    in_pos = 1;
    nmsgs = 0;
    while (in_pos < in_n && nmsgs < MAX_MSGS) {
        size_t start = in_pos;
        unsigned c = next_byte();
        unsigned k = c & 7, p = c >> 4;
        uint64_t base = (uint64_t)channel * 4;
        tc_perf_msg m = {.offset = start};
        switch (k) {
        case 0: {
            uint32_t v = 0;
            for (int i = 0; i < 4; i++)
                v |= (uint32_t)next_byte() << (8 * i);
            m.idtag = base;
            m.value = v;
            break;
        }
        case 1: m.idtag = base; m.value = 0; break; /* the marker: filled in below */
        case 2: m.idtag = base + 3; m.value = p; break;
        case 3:
            m.idtag = base + 2;
            m.value = p == 15 ? next_byte() | (uint64_t)next_byte() << 8 : p;
            break;
        case 4: m.idtag = base; m.value = likely32(p); break;
        case 5: m.idtag = base + 1; m.value = p; break;
        case 6: m.idtag = next_byte(); m.value = p; break;
        default: {
            static const unsigned codes[4] = {0, 2, 3, 0};
            unsigned code = codes[p & 3];
            unsigned bits = code == 0 ? 32 : code == 2 ? 16 : 8;
            m.idtag = base + code;
            m.value = (uint64_t)(next_byte() + 1) << bits;
            break;
        }
        }
        if (k == 1)
            m.value = UINT64_MAX; /* marks "the marker": set by the caller */
        if (c & 8) {
            m.has_timestamp = 1;
            m.timestamp = next_byte();
        }
        m.length = (uint32_t)(in_pos - start);
        m.line = text ? (uint32_t)nmsgs + 1 : 0;
        msgs[nmsgs++] = m;
    }
}

static pf_layer got, ref;

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("PERF_MESSAGES_VERBOSE") != NULL;
    if (size == 0)
        return 0;
    static const unsigned channels[4] = {TC_PERF_DEFAULT_CHANNEL, TC_PERF_DEFAULT_CHANNEL, 0,
                                         TC_PERF_MAX_CHANNEL};
    unsigned channel = channels[data[0] & 3];
    uint32_t marker = data[0] & 4 ? 2 : TC_PERF_DEFAULT_MARKER;
    int wrapped = (data[0] & 16) != 0;
    decode_input(data, size, channel, (data[0] & 8) != 0);
    for (size_t k = 0; k < nmsgs; k++)
        if (msgs[k].value == UINT64_MAX)
            msgs[k].value = marker;

    pf_run_sm(&got, msgs, nmsgs, channel, marker, wrapped);
    int deep = perf_sm_oracle_read(&ref, msgs, nmsgs, channel, marker, wrapped);
    if (verbose)
        perf_sm_oracle_print(&got, &ref, msgs, nmsgs);
    perf_sm_oracle_check_locations(&got, msgs, nmsgs, channel);
    perf_sm_oracle_compare(&got, &ref, deep);
    return 0;
}
