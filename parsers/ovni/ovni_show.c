/*
 * The view of a binary stream (fields.h, `tracecheck show`): the stream
 * header and each event as the stream reader read them, the payload by the
 * field names of its event's layout (spec/ovni/models.def), as the
 * canonical dump names them. Called by the stream reader only while a view
 * is drawn (TC_FIELDS_ON).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../common/bytes.h"
#include "../common/fields.h"
#include "ovni_models.h"
#include "ovni_show.h"

/* A byte of the MCV: 'V', or its hex when it is not printable. */
static const char *mcv_char(uint8_t c, char *buf, size_t size)
{
    if (c >= 0x21 && c <= 0x7e)
        snprintf(buf, size, "'%c'", (char)c);
    else
        snprintf(buf, size, "0x%02x (not printable)", c);
    return buf;
}

void tc_ovni_show_header(tc_diag_sink *d, const uint8_t *b, size_t n)
{
    if (!n)
        return;
    tc_fields_record(d, 0, n, TC_LOOK_HEX, "stream header%s",
                     n < TC_OVNI_HEADER_SIZE ? " (cut)" : "");
    if (!TC_FIELDS_WANT(d))
        return;
    if (n < 4) {
        tc_fields_field(d, 0, n, 0, 0, "magic", "%zu of its 4 bytes", n);
        return;
    }
    int ok = memcmp(b, "ovni", 4) == 0;
    tc_fields_field(d, 0, 4, 0, 0, "magic", ok ? "\"ovni\"" : "not \"ovni\"");
    if (n < TC_OVNI_HEADER_SIZE) {
        tc_fields_field(d, 4, n - 4, 0, 0, "version", "%zu of its 4 bytes", n - 4);
        return;
    }
    uint32_t le = tc_le32(b + 4), be = tc_be32(b + 4);
    if (le == 1)
        tc_fields_field(d, 4, 4, 0, 0, "version", "1 (little-endian stream)");
    else if (be == 1)
        tc_fields_field(d, 4, 4, 0, 0, "version", "1 (big-endian stream)");
    else
        tc_fields_field(d, 4, 4, 0, 0, "version",
                        "%" PRIu32 " little-endian, %" PRIu32 " big-endian (1 is defined)", le, be);
}

void tc_ovni_show_cut_header(tc_diag_sink *d, uint64_t pos, size_t n)
{
    if (!n)
        return;
    tc_fields_record(d, pos, n, TC_LOOK_HEX, "event (cut: %zu of its 12-byte header)", n);
    if (TC_FIELDS_WANT(d))
        tc_fields_field(d, pos, n, 0, 0, "header", "%zu of 12 bytes: the stream ends", n);
}

/* A string field: its text quoted, the bytes that are not printable as
 * \xHH, cut to what a value holds. */
static void quote(char *out, size_t size, const uint8_t *p, size_t n)
{
    size_t h = 0;
    out[h++] = '"';
    for (size_t i = 0; i < n; i++) {
        if (h + 8 >= size) {
            memcpy(out + h, "...", 3);
            h += 3;
            break;
        }
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
            out[h++] = (char)p[i];
        else
            h += (size_t)snprintf(out + h, size - h, "\\x%02x", p[i]);
    }
    if (h + 1 < size)
        out[h++] = '"';
    out[h] = '\0';
}

/* One payload field of type t at p (whole in the payload). */
static void scalar(tc_diag_sink *d, uint64_t pos, const char *name, tc_ovni_type t,
                   const uint8_t *p, int be)
{
    unsigned size = tc_ovni_type_size(t);
    switch (t) {
    case TC_OVNI_T_u8: tc_fields_field(d, pos, size, 0, 0, name, "%u", p[0]); break;
    case TC_OVNI_T_i8: tc_fields_field(d, pos, size, 0, 0, name, "%d", (int8_t)p[0]); break;
    case TC_OVNI_T_u16: tc_fields_field(d, pos, size, 0, 0, name, "%u", tc_rd16(p, be)); break;
    case TC_OVNI_T_i16:
        tc_fields_field(d, pos, size, 0, 0, name, "%d", (int16_t)tc_rd16(p, be));
        break;
    case TC_OVNI_T_u32:
        tc_fields_field(d, pos, size, 0, 0, name, "%" PRIu32, tc_rd32(p, be));
        break;
    case TC_OVNI_T_i32:
        tc_fields_field(d, pos, size, 0, 0, name, "%" PRId32, (int32_t)tc_rd32(p, be));
        break;
    case TC_OVNI_T_u64:
        tc_fields_field(d, pos, size, 0, 0, name, "%" PRIu64, tc_rd64(p, be));
        break;
    default: tc_fields_field(d, pos, size, 0, 0, name, "%" PRId64, (int64_t)tc_rd64(p, be)); break;
    }
}

/* The payload by its layout's field names, as the dump's "fields". */
static void payload_fields(tc_diag_sink *d, const tc_ovni_event *ev, uint64_t at,
                           const tc_ovni_field *f, unsigned n)
{
    const uint8_t *p = ev->payload, *end = ev->payload + ev->payload_len;
    int be = ev->big_endian;
    for (unsigned i = 0; i < n; i++) {
        uint64_t pos = at + (uint64_t)(p - ev->payload);
        unsigned size = tc_ovni_type_size(f[i].type);
        if (f[i].type == TC_OVNI_T_str) {
            const uint8_t *nul = memchr(p, 0, (size_t)(end - p));
            size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);
            char text[TC_FIELD_VALUE_MAX];
            quote(text, sizeof text, p, len);
            tc_fields_field(d, pos, (uint64_t)(end - p), 0, 0, f[i].name, "%s (%zu bytes%s)", text,
                            len, nul ? " and a NUL" : "");
            p = end;
            continue;
        }
        if (f[i].array) {
            char name[TC_FIELD_NAME_MAX];
            for (unsigned k = 0; p + size <= end; p += size, k++) {
                snprintf(name, sizeof name, "%s[%u]", f[i].name, k);
                scalar(d, at + (uint64_t)(p - ev->payload), name, f[i].type, p, be);
            }
            continue;
        }
        scalar(d, pos, f[i].name, f[i].type, p, be);
        p += size;
    }
}

void tc_ovni_show_event(tc_diag_sink *d, const tc_ovni_event *ev, uint64_t end)
{
    uint64_t at = ev->offset;
    const uint8_t *mcv = (const uint8_t *)ev->mcv;
    tc_ovni_model_id id = tc_ovni_model_of_letter(mcv[0]);
    const tc_ovni_event_info *e = tc_ovni_event_lookup(mcv[0], mcv[1], mcv[2]);
    char meaning[160], words[120], show_mcv[16];
    if (mcv[0] >= 0x21 && mcv[0] <= 0x7e && mcv[1] >= 0x21 && mcv[1] <= 0x7e && mcv[2] >= 0x21 &&
        mcv[2] <= 0x7e)
        snprintf(show_mcv, sizeof show_mcv, "%s", ev->mcv);
    else
        snprintf(show_mcv, sizeof show_mcv, "%02x %02x %02x", mcv[0], mcv[1], mcv[2]);
    if (e)
        snprintf(meaning, sizeof meaning, " (%s: %s)", tc_ovni_model_table[id].name,
                 tc_ovni_event_meaning(e, words, sizeof words));
    else if (id != TC_OVNI_M_NONE)
        snprintf(meaning, sizeof meaning, " (%s: no such event)", tc_ovni_model_table[id].name);
    else
        snprintf(meaning, sizeof meaning, " (no model tracecheck knows)");
    /* The header was read whole; the rest may be cut by the stream's end. */
    uint64_t whole = TC_OVNI_EVENT_HEADER_SIZE + (ev->jumbo ? 4u : 0u) + (uint64_t)ev->payload_len;
    int cut = end < at + whole;
    tc_fields_record(d, at, end - at, TC_LOOK_HEX, "%s %s%s%s", ev->jumbo ? "jumbo event" : "event",
                     show_mcv, meaning, cut ? ", cut by the end of the stream" : "");
    if (!TC_FIELDS_WANT(d))
        return;

    tc_fields_field(d, at, 1, 4, 4, "flags", "%u%s", ev->flags,
                    ev->flags == TC_OVNI_FLAG_JUMBO  ? " (jumbo)"
                    : ev->flags & TC_OVNI_FLAG_JUMBO ? " (jumbo, and bits that are not defined)"
                    : ev->flags                      ? " (bits that are not defined)"
                                                     : " (a normal event)");
    if (ev->jumbo)
        tc_fields_field(d, at, 1, 0, 4, "size_code", "%u%s", ev->size_code,
                        ev->size_code == TC_OVNI_JUMBO_SIZE_CODE ? " (a 4-byte jumbo size)"
                                                                 : " (jumbo events have 3)");
    else if (ev->size_code)
        tc_fields_field(d, at, 1, 0, 4, "size_code", "%u (%u payload bytes)", ev->size_code,
                        ev->size_code + 1u);
    else
        tc_fields_field(d, at, 1, 0, 4, "size_code", "0 (no payload)");
    char c[32];
    if (id != TC_OVNI_M_NONE)
        tc_fields_field(d, at + 1, 1, 0, 0, "model", "'%c' (%s)", (char)mcv[0],
                        tc_ovni_model_table[id].name);
    else
        tc_fields_field(d, at + 1, 1, 0, 0, "model", "%s%s", mcv_char(mcv[0], c, sizeof c),
                        mcv[0] >= 0x21 && mcv[0] <= 0x7e ? " (no model tracecheck knows)" : "");
    tc_fields_field(d, at + 2, 1, 0, 0, "category", "%s", mcv_char(mcv[1], c, sizeof c));
    tc_fields_field(d, at + 3, 1, 0, 0, "value", "%s", mcv_char(mcv[2], c, sizeof c));
    tc_fields_field(d, at + 4, 8, 0, 0, "clock", "%" PRIu64 " ns (absolute)%s", ev->clock,
                    ev->clock >= TC_OVNI_CLOCK_LIMIT ? ", 2^63 or more" : "");

    uint64_t data = at + TC_OVNI_EVENT_HEADER_SIZE;
    if (ev->jumbo) {
        if (end < data + 4) {
            tc_fields_field(d, data, end - data, 0, 0, "jumbo_size",
                            "%" PRIu64 " of its 4 bytes: the stream ends", end - data);
            return;
        }
        tc_fields_field(d, data, 4, 0, 0, "jumbo_size", "%" PRIu32 " bytes", ev->payload_len);
        data += 4;
    }
    if (!ev->payload_len)
        return;
    if (!ev->payload) {
        uint64_t there = end - data;
        if (cut)
            tc_fields_field(d, data, there, 0, 0, "payload",
                            "%" PRIu64 " of its %" PRIu32 " bytes: the stream ends", there,
                            ev->payload_len);
        else
            tc_fields_field(d, data, ev->payload_len, 0, 0, "payload",
                            "%" PRIu32 " bytes (not held: too large to read at once)",
                            ev->payload_len);
        return;
    }
    char why[200];
    const char *no = NULL;
    if (!e)
        no = "no layout: an event tracecheck does not know";
    else if (e->flags & TC_OVNI_EVF_OLD)
        no = "an old event ovniemu ignores: not read by field";
    else if (tc_ovni_payload_mismatch(e, ev->jumbo, ev->payload, ev->payload_len, why, sizeof why))
        no = why;
    tc_ovni_field f[TC_OVNI_MAX_FIELDS];
    unsigned n = no ? 0 : tc_ovni_event_fields(e, f);
    if (!no && !n)
        no = "its layout has no fields";
    if (no) {
        tc_fields_field(d, data, ev->payload_len, 0, 0, "payload", "%" PRIu32 " bytes (%s)",
                        ev->payload_len, no);
        return;
    }
    payload_fields(d, ev, data, f, n);
}
