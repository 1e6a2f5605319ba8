/* The fields of XRay records for `tracecheck show`: see xray_fields.h. */
#include <inttypes.h>

#include "../common/bytes.h"
#include "xray_fields.h"

void tc_xray_fields_header(tc_diag_sink *d, const tc_xray_header *h)
{
    int basic = h->type == 0;
    tc_fields_record(d, 0, TC_XRAY_HEADER_SIZE, TC_LOOK_HEX, "file header (%s, %s-endian)",
                     basic ? "basic mode" : "Flight Data Recorder", h->big_endian ? "big" : "little");
    if (!TC_FIELDS_WANT(d))
        return;
    int be = h->big_endian;
    tc_fields_field(d, 0, 2, 0, 0, "version", "%u", h->version);
    tc_fields_field(d, 2, 2, 0, 0, "type", "%u (%s)", h->type,
                    basic ? "basic mode" : h->type == 1 ? "Flight Data Recorder" : "unknown");
    unsigned c = be ? h->bitfield >> 31 & 1 : h->bitfield & 1;
    unsigned n = be ? h->bitfield >> 30 & 1 : h->bitfield >> 1 & 1;
    tc_fields_field(d, 4, 4, be ? 31 : 0, 1, "constant_tsc", "%s", c ? "true" : "false");
    tc_fields_field(d, 4, 4, be ? 30 : 1, 1, "nonstop_tsc", "%s", n ? "true" : "false");
    tc_fields_field(d, 4, 4, be ? 0 : 2, 30, "reserved", "0x%08" PRIx32,
                    be ? h->bitfield & 0x3fffffffu : h->bitfield >> 2);
    tc_fields_field(d, 8, 8, 0, 0, "cycle_frequency", "%" PRIu64, h->cycle_frequency);
    if (basic) {
        tc_fields_field(d, 16, 16, 0, 0, "(union)", "not read in basic mode");
    } else {
        tc_fields_field(d, 16, 8, 0, 0, "buffer_size", "%" PRIu64, h->buffer_size);
        tc_fields_field(d, 24, 8, 0, 0, "reserved", "%s", "(checked with --pedantic)");
    }
}

void tc_xray_fields_function(tc_diag_sink *d, uint64_t pos, int be, unsigned action,
                             uint32_t fid, uint32_t delta, const char *name)
{
    tc_fields_record(d, pos, TC_XRAY_FUNCTION_SIZE, TC_LOOK_HEX, "function record (%s)",
                     tc_xray_action_name(action));
    if (!TC_FIELDS_WANT(d))
        return;
    /* Bits of the first 32-bit word, in the file's byte order: LSB first
     * in little-endian files, MSB first in big-endian ones. */
    tc_fields_field(d, pos, 4, be ? 31 : 0, 1, "record type", "0 (function record)");
    tc_fields_field(d, pos, 4, be ? 28 : 1, 3, "action", "%u (%s)", action,
                    tc_xray_action_name(action));
    tc_fields_field(d, pos, 4, be ? 0 : 4, 28, "func", "%" PRIu32 "%s%s%s", fid,
                    name ? " (" : "", name ? name : "", name ? ")" : "");
    tc_fields_field(d, pos + 4, 4, 0, 0, "delta", "%" PRIu32, delta);
}

/* Reserved and padding bytes: what --pedantic checks of them. */
static const char *zero(const uint8_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (b[i])
            return "not zero";
    return "zero";
}

/* A field of a metadata record: n bytes at off of the 16. */
static uint64_t u(const uint8_t *b, unsigned off, unsigned n, int be)
{
    return n == 2 ? tc_rd16(b + off, be) : n == 4 ? tc_rd32(b + off, be) : tc_rd64(b + off, be);
}

void tc_xray_fields_metadata(tc_diag_sink *d, uint64_t pos, const uint8_t *b, int be,
                             unsigned kind, unsigned version)
{
    tc_fields_record(d, pos, TC_XRAY_METADATA_SIZE, TC_LOOK_HEX, "metadata record (%s)",
                     tc_xray_kind_name(kind));
    if (!TC_FIELDS_WANT(d))
        return;
    tc_fields_field(d, pos, 1, be ? 7 : 0, 1, "record type", "1 (metadata record)");
    tc_fields_field(d, pos, 1, be ? 0 : 1, 7, "kind", "%u (%s)", kind, tc_xray_kind_name(kind));
    unsigned used = 0;
    switch (kind) {
    case TC_XRAY_NEW_BUFFER:
        tc_fields_field(d, pos + 1, 4, 0, 0, "tid", "%" PRId32, (int32_t)u(b, 1, 4, be));
        used = 4;
        break;
    case TC_XRAY_WALL_TIME:
        tc_fields_field(d, pos + 1, 8, 0, 0, "sec", "%" PRId64, (int64_t)u(b, 1, 8, be));
        tc_fields_field(d, pos + 9, 4, 0, 0, "usec", "%" PRId32, (int32_t)u(b, 9, 4, be));
        used = 12;
        break;
    case TC_XRAY_PID:
        tc_fields_field(d, pos + 1, 4, 0, 0, "pid", "%" PRId32, (int32_t)u(b, 1, 4, be));
        used = 4;
        break;
    case TC_XRAY_NEW_CPU:
        tc_fields_field(d, pos + 1, 2, 0, 0, "cpu", "%" PRIu64, u(b, 1, 2, be));
        tc_fields_field(d, pos + 3, 8, 0, 0, "tsc", "%" PRIu64, u(b, 3, 8, be));
        used = 10;
        break;
    case TC_XRAY_TSC_WRAP:
        tc_fields_field(d, pos + 1, 8, 0, 0, "tsc", "%" PRIu64, u(b, 1, 8, be));
        used = 8;
        break;
    case TC_XRAY_CALL_ARG:
        tc_fields_field(d, pos + 1, 8, 0, 0, "value", "%" PRIu64, u(b, 1, 8, be));
        used = 8;
        break;
    case TC_XRAY_BUFFER_EXTENTS:
        tc_fields_field(d, pos + 1, 8, 0, 0, "size", "%" PRIu64 " (bytes after this record)",
                        u(b, 1, 8, be));
        used = 8;
        break;
    case TC_XRAY_CUSTOM_EVENT:
    case TC_XRAY_TYPED_EVENT:
        tc_fields_field(d, pos + 1, 4, 0, 0, "size", "%" PRId32 " (payload bytes after this record)",
                        (int32_t)u(b, 1, 4, be));
        if (kind == TC_XRAY_TYPED_EVENT || version >= 5) {
            tc_fields_field(d, pos + 5, 4, 0, 0, "delta", "%" PRId32, (int32_t)u(b, 5, 4, be));
            used = 8;
            if (kind == TC_XRAY_TYPED_EVENT) {
                tc_fields_field(d, pos + 9, 2, 0, 0, "type", "%" PRIu64, u(b, 9, 2, be));
                used = 10;
            }
        } else {
            tc_fields_field(d, pos + 5, 8, 0, 0, "tsc", "%" PRIu64, u(b, 5, 8, be));
            used = 12;
            if (version == 4) {
                tc_fields_field(d, pos + 13, 2, 0, 0, "cpu", "%" PRIu64, u(b, 13, 2, be));
                used = 14;
            }
        }
        break;
    default:
        break;
    }
    if (used < 15)
        tc_fields_field(d, pos + 1 + used, 15 - used, 0, 0, "reserved", "%s",
                        zero(b + 1 + used, 15 - used));
}

void tc_xray_fields_basic(tc_diag_sink *d, uint64_t pos, const uint8_t *b, int be,
                          unsigned version, const char *name)
{
    static const char *const types[4] = {"Enter", "Exit", "TailExit", "EnterArg"};
    unsigned rtype = tc_rd16(b, be);
    if (rtype == TC_XRAY_BASIC_FUNCTION)
        tc_fields_record(d, pos, 32, TC_LOOK_HEX, "function record (%s)",
                         b[3] < 4 ? types[b[3]] : "type unknown");
    else if (rtype == TC_XRAY_BASIC_ARG_PAYLOAD)
        tc_fields_record(d, pos, 32, TC_LOOK_HEX, "argument payload");
    else
        tc_fields_record(d, pos, 32, TC_LOOK_HEX, "record of unknown type %u", rtype);
    if (!TC_FIELDS_WANT(d))
        return;
    tc_fields_field(d, pos, 2, 0, 0, "record type", "%u", rtype);
    int32_t func = (int32_t)tc_rd32(b + 4, be);
    const char *pid_note = version >= 3 ? "" : " (zero before version 3)";
    if (rtype == TC_XRAY_BASIC_FUNCTION) {
        tc_fields_field(d, pos + 2, 1, 0, 0, "cpu", "%u", b[2]);
        tc_fields_field(d, pos + 3, 1, 0, 0, "action", "%u (%s)", b[3],
                        b[3] < 4 ? types[b[3]] : "unknown");
        tc_fields_field(d, pos + 4, 4, 0, 0, "func", "%" PRId32 "%s%s%s", func, name ? " (" : "",
                        name ? name : "", name ? ")" : "");
        tc_fields_field(d, pos + 8, 8, 0, 0, "tsc", "%" PRIu64, tc_rd64(b + 8, be));
        tc_fields_field(d, pos + 16, 4, 0, 0, "tid", "%" PRIu32, tc_rd32(b + 16, be));
        tc_fields_field(d, pos + 20, 4, 0, 0, "pid", "%" PRIu32 "%s", tc_rd32(b + 20, be), pid_note);
        tc_fields_field(d, pos + 24, 8, 0, 0, "padding", "%s", zero(b + 24, 8));
    } else if (rtype == TC_XRAY_BASIC_ARG_PAYLOAD) {
        tc_fields_field(d, pos + 2, 2, 0, 0, "padding", "%s", zero(b + 2, 2));
        tc_fields_field(d, pos + 4, 4, 0, 0, "func", "%" PRId32 "%s%s%s", func, name ? " (" : "",
                        name ? name : "", name ? ")" : "");
        tc_fields_field(d, pos + 8, 4, 0, 0, "tid", "%" PRIu32, tc_rd32(b + 8, be));
        tc_fields_field(d, pos + 12, 4, 0, 0, "pid", "%" PRIu32 "%s", tc_rd32(b + 12, be), pid_note);
        tc_fields_field(d, pos + 16, 8, 0, 0, "value", "%" PRIu64 " (the argument)",
                        tc_rd64(b + 16, be));
        tc_fields_field(d, pos + 24, 8, 0, 0, "padding", "%s", zero(b + 24, 8));
    }
}
