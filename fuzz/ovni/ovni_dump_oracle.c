#define _GNU_SOURCE /* fmemopen, open_memstream */
/* The canonical dump of one ovni stream: see ovni_dump_oracle.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/dump.h"
#include "../common/dump_oracle.h"
#include "ovni_dump_oracle.h"
#include "ovni_spec_table.h"

/* ---- the canonical dump ---- */

/* spec/canonical-dump.md: three characters, each byte the code point of
 * its value (\u00XX outside printable ASCII). */
static void dump_mcv_n(char *out, const char *mcv, int n)
{
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        uint8_t c = (uint8_t)mcv[i];
        if (c == '"' || c == '\\') {
            out[k++] = '\\';
            out[k++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            out[k++] = (char)c;
        } else {
            k += (size_t)snprintf(out + k, 7, "\\u%04x", c);
        }
    }
    out[k] = '\0';
}

static void dump_mcv(char *out, const char mcv[4]) { dump_mcv_n(out, mcv, 3); }

/* Every model's events, by this file's own reading of
 * spec/ovni/models.def: the layout as text, one field per ';' ("F u32
 * taskid;", "S label;", "A i64 values;"), and whether the event is jumbo or
 * old. */
#define F(t, n) "F " #t " " #n ";"
#define S(n) "S x " #n ";"
#define A(t, n) "A " #t " " #n ";"
#define NOFIELDS ""
#define JUMBO 1
#define OLD 2
static const struct {
    char mcv[3];
    int flags;
    const char *layout;
} od_events[] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING)                    \
    {{OVS_LETTER_##MODEL, C, V}, FLAGS, FIELDS},
#include "../../spec/ovni/models.def"
};
#undef F
#undef S
#undef A
#undef NOFIELDS
#undef JUMBO
#undef OLD

static const char *model_name(char letter)
{
    static const char *const names[][2] = {{"O", "ovni"},   {"V", "nosv"}, {"6", "nanos6"},
                                           {"D", "nodes"},  {"T", "tampi"}, {"M", "mpi"},
                                           {"P", "openmp"}, {"K", "kernel"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (letter == names[i][0][0])
            return names[i][1];
    return NULL;
}

static unsigned type_size(const char *t) { return (unsigned)atoi(t + 1) / 8; }

static uint64_t rd_le_be(const uint8_t *p, unsigned n, int be)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

/* One field's value as the dump writes it. */
static void put_value(FILE *f, const char *type, const uint8_t *p, int be)
{
    unsigned n = type_size(type);
    uint64_t v = rd_le_be(p, n, be);
    if (type[0] == 'i' && n < 8 && (v >> (8 * n - 1)) & 1)
        v |= ~0ull << (8 * n);
    const char *q = n == 8 ? "\"" : "";
    if (type[0] == 'i')
        fprintf(f, "%s%" PRId64 "%s", q, (int64_t)v, q);
    else
        fprintf(f, "%s%" PRIu64 "%s", q, v, q);
}

/* Reads the next field of a layout: 1, with its kind (F, S, A), type and
 * name, and *next past it; 0 at the end. */
static int next_field(const char **p, char *kind, char *type, char *name)
{
    int used = 0;
    if (sscanf(*p, "%1s %7s %39[^;];%n", kind, type, name, &used) != 3 || !used)
        return 0;
    *p += used;
    return 1;
}

void ovni_oracle_dump_model(FILE *f, const char mcv[3], int jumbo, const uint8_t *payload, uint32_t len,
                    int be)
{
    const char *model = model_name(mcv[0]);
    if (!model)
        return;
    fprintf(f, ",\"model\":\"%s\"", model);
    const char *layout = NULL;
    int flags = 0;
    for (size_t i = 0; i < sizeof od_events / sizeof od_events[0]; i++)
        if (!memcmp(od_events[i].mcv, mcv, 3)) {
            layout = od_events[i].layout;
            flags = od_events[i].flags;
        }
    if (!layout || !*layout || (flags & 2) || jumbo != ((flags & 1) != 0) || !payload)
        return;
    /* The fixed part, then the tail: the payload must fit exactly. */
    unsigned fixed = 0, tail = 0;
    char kind[2], type[8], name[40];
    for (const char *p = layout; next_field(&p, kind, type, name);) {
        if (kind[0] == 'F')
            fixed += type_size(type);
        else
            tail = kind[0] == 'S' ? 1 : type_size(type);
    }
    if (!jumbo || !tail) {
        if (len != fixed)
            return;
    } else if (len <= fixed ||
               (tail == 1 ? memchr(payload + fixed, '\0', len - fixed) != payload + len - 1
                          : (len - fixed) % tail != 0)) {
        return;
    }
    fputs(",\"fields\":{", f);
    unsigned at = 0;
    int first = 1;
    for (const char *p = layout; next_field(&p, kind, type, name); first = 0) {
        fprintf(f, "%s\"%s\":", first ? "" : ",", name);
        if (kind[0] == 'F') {
            put_value(f, type, payload + at, be);
            at += type_size(type);
        } else if (kind[0] == 'S') {
            fputc('"', f);
            for (; at + 1 < len; at++) {
                char esc[8];
                dump_mcv_n(esc, (const char *)payload + at, 1);
                fputs(esc, f);
            }
            fputc('"', f);
        } else {
            fputc('[', f);
            for (unsigned j = 0; at < len; at += tail, j++) {
                if (j)
                    fputc(',', f);
                fputc('"', f);
                uint64_t v = rd_le_be(payload + at, tail, be);
                if (type[0] == 'i')
                    fprintf(f, "%" PRId64, (int64_t)v);
                else
                    fprintf(f, "%" PRIu64, v);
                fputc('"', f);
            }
            fputc(']', f);
        }
    }
    fputc('}', f);
}

void ovni_oracle_check_dump(const ov_run *run)
{
    const char *s = run->dump ? run->dump : "";
    size_t lineno = 0;
    char want[2048];
    while (*s) {
        const char *nl = strchr(s, '\n');
        FUZZ_ASSERT_MSG(nl, "the dump's last line has no newline");
        size_t len = (size_t)(nl - s);
        /* Lines are compared with the schema's exactly, below; the strict
         * tokenizer (a 60 KiB state to set up) reads a sample of them, and
         * the lines compared by a prefix only. */
        int exact = 1, validated = 0;
        if (lineno < 3 || lineno % 64 == 0) {
            od_check_json_line(s, len, lineno);
            validated = 1;
        }
        if (lineno == 0) {
            snprintf(want, sizeof want, "{\"t\":\"header\",\"format\":\"ovni\",\"dump_version\":%d}",
                     TC_DUMP_VERSION);
        } else if (lineno == 1) {
            snprintf(want, sizeof want, "{\"t\":\"stream\",\"path\":\".\",\"byte_order\":\"%s\"}",
                     run->big_endian ? "big" : "little");
        } else {
            FUZZ_ASSERT_MSG(lineno - 2 < run->nevents, "dump line %zu: more lines than events",
                            lineno);
            const ov_event *e = &run->ev[lineno - 2];
            char mcv[24];
            dump_mcv(mcv, e->mcv);
            int k = snprintf(want, sizeof want,
                             "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"%" PRIu64
                             "\",\"mcv\":\"%s\",\"flags\":%u,\"size_code\":%u",
                             e->clock, mcv, e->flags, e->size_code);
            if (e->jumbo)
                k += snprintf(want + k, sizeof want - (size_t)k, ",\"jumbo_size\":%" PRIu32,
                              e->payload_len);
            k += snprintf(want + k, sizeof want - (size_t)k, ",\"payload\":\"");
            /* Payloads are compared by length and a prefix: the line may be long. */
            size_t show = e->payload_len > 64 ? 64 : e->payload_len;
            for (size_t i = 0; i < show; i++)
                k += snprintf(want + k, sizeof want - (size_t)k, "%02x", e->payload[i]);
            if (e->payload_len > 64) {
                /* The rest of the payload is skipped; what follows it (the
                 * model and the fields) is compared as it ends the line. */
                char *tail = NULL;
                size_t tail_len = 0;
                FILE *m = open_memstream(&tail, &tail_len);
                FUZZ_CHECK_ALLOC(m);
                fputc('"', m);
                ovni_oracle_dump_model(m, e->mcv, e->jumbo, e->payload, e->payload_len, run->big_endian);
                fputc('}', m);
                fclose(m);
                FUZZ_ASSERT_MSG(len == (size_t)k + 2 * (e->payload_len - 64) + tail_len &&
                                    strncmp(s, want, (size_t)k) == 0 &&
                                    memcmp(s + len - tail_len, tail, tail_len) == 0,
                                "dump line %zu is not the event's: %.*s", lineno,
                                (int)(len > 300 ? 300 : len), s);
                free(tail);
                exact = 0;
                if (!validated)
                    od_check_json_line(s, len, lineno);
            } else {
                FILE *m = fmemopen(want + k, sizeof want - (size_t)k, "w");
                FUZZ_CHECK_ALLOC(m);
                fputc('"', m);
                ovni_oracle_dump_model(m, e->mcv, e->jumbo, e->payload, e->payload_len, run->big_endian);
                fputc('}', m);
                FUZZ_ASSERT_MSG(ftell(m) < (long)(sizeof want - (size_t)k) - 1,
                                "dump line %zu: too long to compare", lineno);
                fclose(m);
            }
        }
        if (exact)
            FUZZ_ASSERT_MSG(strlen(want) == len && strncmp(s, want, len) == 0,
                            "dump line %zu is\n  %.*s\nnot\n  %s", lineno,
                            (int)(len > 300 ? 300 : len), s, want);
        lineno++;
        s = nl + 1;
    }
    size_t lines = run->header_ok ? run->nevents + 2 : 0;
    FUZZ_ASSERT_MSG(lineno == lines, "%zu dump lines for %zu events", lineno, run->nevents);
}

