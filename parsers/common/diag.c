#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "utf8.h"

void tc_diag_init(tc_diag_sink *s, const char *input, unsigned max_repeats, int pedantic,
                  void (*on_diag)(void *, const tc_diag *), void *user)
{
    memset(s, 0, sizeof *s);
    s->input = input;
    s->max_repeats = max_repeats ? max_repeats : TC_DEFAULT_MAX_REPEATS;
    s->pedantic = pedantic;
    s->on_diag = on_diag;
    s->user = user;
    s->first_error_offset = UINT64_MAX;
}

/* A message is one line of UTF-8 text, whatever bytes of the input it
 * quotes (an ovni event's MCV, a JSON string with \n in it): control
 * characters and bytes that are not UTF-8 are written as \xNN. */
static void printable_text(char *out, size_t size, const char *in)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)in;
    size_t n = strlen(in), o = 0;
    for (size_t i = 0; i < n && o + 5 < size;) {
        size_t len = p[i] >= 0x80 ? tc_utf8_len(p + i, n - i) : 1;
        if (p[i] >= 0x80 && len && o + len < size) {
            memcpy(out + o, p + i, len);
            o += len;
            i += len;
        } else if (p[i] < 0x20 || p[i] >= 0x7f) {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[p[i] >> 4];
            out[o++] = hex[p[i] & 15];
            i++;
        } else {
            out[o++] = (char)p[i++];
        }
    }
    out[o] = '\0';
}

/* Counts a finding of rule (already enabled) at offset; whether it is
 * within the cap and so to be shown. */
static int count_finding(tc_diag_sink *s, tc_rule_id rule, uint64_t offset)
{
    s->count[rule]++;
    switch (tc_rules[rule].severity) {
    case TC_ERROR:
        s->errors++;
        if (offset < s->first_error_offset)
            s->first_error_offset = offset;
        break;
    case TC_WARNING: s->warnings++; break;
    case TC_NOTE: s->notes++; break;
    }
    if (s->wants)
        return s->on_diag && s->wants(s->user, rule);
    return s->on_diag && s->count[rule] <= s->max_repeats;
}

static void deliver(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
                    uint32_t line, uint32_t column, const char *json_path, int unlocated,
                    const tc_diag_extra *x, const char *fmt, va_list ap)
{
    const tc_rule_info *info = &tc_rules[rule];
    if (!tc_rule_enabled(s, rule) || !count_finding(s, rule, offset))
        return;

    char raw[512], message[4 * sizeof raw];
    vsnprintf(raw, sizeof raw, fmt, ap);
    printable_text(message, sizeof message, raw);
    char context[256];
    context[0] = '\0';
    if (s->context_fn)
        s->context_fn(s->context_parser, context, sizeof context);
    tc_diag d = {
        .rule = info, .severity = info->severity, .input = s->input,
        .offset = offset, .length = length, .line = line, .column = column,
        .json_path = json_path, .message = message,
        .context = context[0] ? context : NULL, .unlocated = unlocated,
    };
    if (x) {
        d.related = x->n_related ? x->related : NULL;
        d.n_related = x->n_related;
        d.values = x->n_values ? x->values : NULL;
        d.n_values = x->n_values;
    }
    s->on_diag(s->user, &d);
}

void tc_report(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    deliver(s, rule, offset, length, 0, 0, NULL, 0, NULL, fmt, ap);
    va_end(ap);
}

void tc_report_text(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
                    uint32_t line, uint32_t column, const char *json_path,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    deliver(s, rule, offset, length, line, column, json_path, 0, NULL, fmt, ap);
    va_end(ap);
}

void tc_report_ex(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
                  const tc_diag_extra *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    deliver(s, rule, offset, length, 0, 0, NULL, 0, x, fmt, ap);
    va_end(ap);
}

void tc_report_text_ex(tc_diag_sink *s, tc_rule_id rule, uint64_t offset, uint64_t length,
                       uint32_t line, uint32_t column, const char *json_path,
                       const tc_diag_extra *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    deliver(s, rule, offset, length, line, column, json_path, 0, x, fmt, ap);
    va_end(ap);
}

void tc_report_about(tc_diag_sink *s, tc_rule_id rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    deliver(s, rule, 0, 0, 0, 0, NULL, 1, NULL, fmt, ap);
    va_end(ap);
}

void tc_diag_replay(tc_diag_sink *s, const tc_diag *d)
{
    if (!count_finding(s, (tc_rule_id)(d->rule - tc_rules), d->offset))
        return;
    s->on_diag(s->user, d);
}

void tc_diag_absorb(tc_diag_sink *s, const tc_diag_sink *from, const uint64_t *replayed)
{
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        uint64_t more = from->count[r] - replayed[r];
        s->count[r] += more;
        switch (tc_rules[r].severity) {
        case TC_ERROR: s->errors += more; break;
        case TC_WARNING: s->warnings += more; break;
        case TC_NOTE: s->notes += more; break;
        }
    }
    if (from->first_error_offset < s->first_error_offset)
        s->first_error_offset = from->first_error_offset;
    if (from->failed[0] && !s->failed[0])
        memcpy(s->failed, from->failed, sizeof s->failed);
}

void tc_diag_fail(tc_diag_sink *s, const char *fmt, ...)
{
    if (s->failed[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->failed, sizeof s->failed, fmt, ap);
    va_end(ap);
}

void tc_diag_finish(tc_diag_sink *s)
{
    s->context_fn = NULL;
    for (int r = 0; r < TC_RULE__COUNT; r++) {
        if (s->count[r] <= s->max_repeats || r == TC_RULE_DIAG_SUPPRESSED)
            continue;
        if (!s->on_diag)
            continue;
        /* Not counted as a note of the input: it is about the report, not the data. */
        uint64_t more = s->count[r] - s->max_repeats;
        char message[256];
        snprintf(message, sizeof message, "%llu further %s findings not shown (%llu in all)",
                 (unsigned long long)more, tc_rules[r].id, (unsigned long long)s->count[r]);
        const tc_diag_value values[] = {
            TC_UINT("suppressed", more),
            TC_UINT("total", s->count[r]),
            TC_STR("rule", tc_rules[r].id),
        };
        tc_diag d = {
            .rule = &tc_rules[TC_RULE_DIAG_SUPPRESSED],
            .severity = TC_NOTE,
            .input = s->input,
            .message = message,
            .unlocated = 1,
            .summarises = &tc_rules[r],
            .suppressed = more,
            .values = values,
            .n_values = sizeof values / sizeof *values,
        };
        s->on_diag(s->user, &d);
    }
}
