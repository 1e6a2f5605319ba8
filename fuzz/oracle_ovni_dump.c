/* The canonical dump of one ovni stream: see oracle_ovni_dump.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../parsers/common/dump.h"
#include "oracle_dump.h"
#include "oracle_ovni_dump.h"

/* ---- the canonical dump ---- */

/* spec/canonical-dump.md: three characters, each byte the code point of
 * its value (\u00XX outside printable ASCII). */
static void dump_mcv(char *out, const char mcv[4])
{
    size_t k = 0;
    for (int i = 0; i < 3; i++) {
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

void ovo_check_dump(const ov_run *run)
{
    const char *s = run->dump ? run->dump : "";
    size_t lineno = 0;
    char want[512];
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
                FUZZ_ASSERT_MSG(len == (size_t)k + 2 * (e->payload_len - 64) + 2 &&
                                    strncmp(s, want, (size_t)k) == 0,
                                "dump line %zu is not the event's: %.*s", lineno,
                                (int)(len > 300 ? 300 : len), s);
                exact = 0;
                if (!validated)
                    od_check_json_line(s, len, lineno);
            } else {
                snprintf(want + k, sizeof want - (size_t)k, "\"}");
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

