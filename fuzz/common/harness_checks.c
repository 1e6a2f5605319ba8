/* The harness kit's checks of one run: findings well formed and located
 * where the input allows (harness.h). */
#include <inttypes.h>
#include <string.h>

#include "harness.h"

/* ---- checks of one run ---- */

int hx_clean_text(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char b = *p;
        if (b < 0x20)
            return 0;
        if (b < 0x80) {
            p++;
            continue;
        }
        size_t len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (b < 0xc2 || b > 0xf4)
            return 0;
        for (size_t i = 1; i < len; i++)
            if ((p[i] & 0xc0) != 0x80)
                return 0;
        if ((b == 0xe0 && p[1] < 0xa0) || (b == 0xed && p[1] >= 0xa0) ||
            (b == 0xf0 && p[1] < 0x90) || (b == 0xf4 && p[1] >= 0x90))
            return 0;
        p += len;
    }
    return 1;
}

int hx_family_in(tc_rule_id rule, const char *families)
{
    const char *family = tc_rules[rule].family;
    size_t n = strlen(family);
    for (const char *p = families; (p = strstr(p, family)) != NULL; p += n)
        if ((p == families || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

int hx_starts_with(const char *s, const char *prefix)
{
    while (*prefix && *s == *prefix)
        s++, prefix++;
    return *prefix == '\0';
}

void hx_check_well_formed(const hx_findings *f, const char *families)
{
    uint64_t sev[3] = {0};
    uint64_t per_rule[TC_RULE__COUNT] = {0};
    size_t suppressed = 0;
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *x = &f->v[i];
        FUZZ_ASSERT_MSG((unsigned)x->rule < TC_RULE__COUNT, "rule index %d", (int)x->rule);
        const tc_rule_info *info = &tc_rules[x->rule];
        if (x->rule == TC_RULE_DIAG_SUPPRESSED) {
            /* The sink's own note at the end, about a rule over the cap. */
            FUZZ_ASSERT_MSG(x->unlocated, "TC-DIAG-SUPPRESSED located: %s", x->message);
            suppressed++;
            continue;
        }
        FUZZ_ASSERT_MSG(suppressed == 0, "%s after a TC-DIAG-SUPPRESSED note", info->id);
        FUZZ_ASSERT_MSG(hx_family_in(x->rule, families), "%s is not of the families %s",
                        info->id, families);
        FUZZ_ASSERT_MSG(x->severity == info->severity, "%s reported with severity %d", info->id,
                        (int)x->severity);
        FUZZ_ASSERT_MSG(x->message && x->message[0] && hx_clean_text(x->message),
                        "%s: the message is empty, or not one line of UTF-8 text: %s", info->id,
                        x->message ? x->message : "(none)");
        FUZZ_ASSERT_MSG(!x->path || (x->path[0] == '$' && hx_clean_text(x->path)),
                        "%s: the JSON path is not UTF-8 text starting with $: %s", info->id,
                        x->path);
        per_rule[x->rule]++;
    }
    size_t over = 0;
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        if (r == TC_RULE_DIAG_SUPPRESSED)
            continue;
        uint64_t shown = f->count[r] < f->max_repeats ? f->count[r] : f->max_repeats;
        FUZZ_ASSERT_MSG(shown == per_rule[r], "%s counted %" PRIu64 ", delivered %" PRIu64
                        " (repeat cap %u)", tc_rules[r].id, f->count[r], per_rule[r],
                        f->max_repeats);
        sev[tc_rules[r].severity] += f->count[r];
        over += f->count[r] > f->max_repeats;
    }
    FUZZ_ASSERT_MSG(suppressed == over, "%zu suppression notes for %zu rules over the cap",
                    suppressed, over);
    FUZZ_ASSERT_MSG(f->errors == sev[TC_ERROR] && f->warnings == sev[TC_WARNING] &&
                        f->notes == sev[TC_NOTE],
                    "counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " but %" PRIu64 "/%" PRIu64
                    "/%" PRIu64 " findings counted per rule", f->errors, f->warnings, f->notes,
                    sev[TC_ERROR], sev[TC_WARNING], sev[TC_NOTE]);
}

void hx_check_binary_locations(const hx_findings *f, size_t n, int (*past_end)(tc_rule_id))
{
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *d = &f->v[i];
        const char *id = tc_rules[d->rule].id;
        if (d->rule == TC_RULE_DIAG_SUPPRESSED)
            continue; /* the sink's, about the report */
        FUZZ_ASSERT_MSG(!d->unlocated && d->line == 0 && d->column == 0 && d->path == NULL,
                        "%s: a binary format's finding is located by offset only", id);
        FUZZ_ASSERT_MSG(d->offset <= n, "%s at offset %" PRIu64 ", the input has %zu bytes", id,
                        d->offset, n);
        FUZZ_ASSERT_MSG(d->length <= n - d->offset || (past_end && past_end(d->rule)),
                        "%s covers %" PRIu64 "+%" PRIu64 ", the input has %zu bytes: %s", id,
                        d->offset, d->length, n, d->message);
    }
}

void hx_check_text_locations(const hx_findings *f, const uint8_t *p, size_t n,
                             int allow_unlocated)
{
    hx_lines cur = {0};
    for (size_t i = 0; i < f->n; i++) {
        const hx_finding *x = &f->v[i];
        const char *id = tc_rules[x->rule].id;
        if (x->rule == TC_RULE_DIAG_SUPPRESSED)
            continue; /* the sink's, about the report */
        if (x->unlocated) {
            FUZZ_ASSERT_MSG(allow_unlocated, "%s is unlocated", id);
            continue;
        }
        /* A point at the very end (a document cut short) may cover the byte
         * that is missing. */
        FUZZ_ASSERT_MSG(x->offset <= n && (x->length <= n - x->offset ||
                                           (x->offset == n && x->length <= 1)),
                        "%s at %" PRIu64 "+%" PRIu64 " in an input of %zu bytes", id, x->offset,
                        x->length, n);
        FUZZ_ASSERT_MSG(x->path != NULL, "%s at %" PRIu64 " has no JSON path", id, x->offset);
        uint32_t line, column;
        hx_line_column_next(&cur, p, n, x->offset, &line, &column);
        FUZZ_ASSERT_MSG(x->line == line && x->column == column,
                        "%s at %" PRIu64 " says %" PRIu32 ":%" PRIu32 ", the bytes say %" PRIu32
                        ":%" PRIu32, id, x->offset, x->line, x->column, line, column);
    }
}

void hx_line_column(const uint8_t *p, size_t n, uint64_t offset, uint32_t *line,
                    uint32_t *column)
{
    uint64_t start = n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
    uint32_t l = 1;
    for (uint64_t i = 0; i < offset && i < n; i++)
        if (p[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    *column = offset < start ? 1 : (uint32_t)(offset - start + 1);
}

void hx_line_column_next(hx_lines *c, const uint8_t *p, size_t n, uint64_t offset,
                         uint32_t *line, uint32_t *column)
{
    if (c->line == 0 || offset < c->at) {
        c->at = 0;
        c->start = n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
        c->line = 1;
    }
    for (uint64_t i = c->at; i < offset && i < n; i++)
        if (p[i] == '\n') {
            c->line++;
            c->start = i + 1;
        }
    if (offset > c->at)
        c->at = offset < n ? offset : n;
    *line = c->line;
    *column = offset < c->start ? 1 : (uint32_t)(offset - c->start + 1);
}
