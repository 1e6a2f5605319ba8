/*
 * The value conventions DCFG and DCFG-trace share (spec/dcfg/dcfg.md rulings 3,
 * 4, 5, 8 and 14). Everything is decided on the token itself, so these
 * functions hold no state and cost nothing beyond a scan of the text.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_common.h"

/* At most this much of an offending string goes into a message. */
#define SHOWN 40

/* Digits of a string Integer, exact to 64 bits. Returns 1 when the whole
 * string is one, 0 when it is not, -1 when it is one that overflows. */
static int parse_text(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        int over = 0;
        for (i = 2; i < n; i++) {
            unsigned c = (unsigned char)s[i], d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                return 0;
            if (v >> 60)
                over = 1;
            v = v << 4 | d;
        }
        *out = v;
        return over ? -1 : 1;
    }
    if (n == 0)
        return 0;
    int over = 0;
    for (i = 0; i < n; i++) {
        unsigned c = (unsigned char)s[i];
        if (c < '0' || c > '9')
            return 0;
        unsigned d = c - '0';
        if (v > (UINT64_MAX - d) / 10)
            over = 1;
        v = v * 10 + d;
    }
    *out = v;
    return over ? -1 : 1;
}

int tc_dcfg_int(tc_json *j, const tc_json_token *t, const char *what, uint64_t *out)
{
    if (t->kind == TC_JSON_NUMBER) {
        if (!t->integer) {
            tc_json_report(j, t, TC_RULE_DCFG_INTEGER,
                           "%s is %.*s, a number with a fraction or exponent, not an Integer",
                           what, (int)(t->len > SHOWN ? SHOWN : t->len), t->text);
            return 0;
        }
        if (t->negative) {
            tc_json_report(j, t, TC_RULE_DCFG_INTEGER, "%s is %.*s: Integers are not negative",
                           what, (int)(t->len > SHOWN ? SHOWN : t->len), t->text);
            return 0;
        }
        if (!t->fits) {
            tc_json_report(j, t, TC_RULE_DCFG_INTEGER,
                           "%s is %.*s%s, more than 64 bits (18446744073709551615) hold", what,
                           (int)(t->len > SHOWN ? SHOWN : t->len), t->text,
                           t->len > SHOWN ? "..." : "");
            return 0;
        }
        *out = t->u64;
        return 1;
    }
    if (t->kind == TC_JSON_STRING) {
        int shown = (int)(t->len > SHOWN ? SHOWN : t->len);
        int rc = parse_text(t->text, t->len, out);
        if (rc == 1)
            return 1;
        if (rc < 0)
            tc_json_report(j, t, TC_RULE_DCFG_INTEGER,
                           "%s is \"%.*s%s\", more than 64 bits (0xFFFFFFFFFFFFFFFF) hold", what,
                           shown, t->text, t->len > SHOWN ? "..." : "");
        else
            tc_json_report(j, t, TC_RULE_DCFG_INTEGER,
                           "%s is the string \"%.*s%s\", neither decimal digits nor 0x and hex "
                           "digits",
                           what, shown, t->text,
                           t->len > SHOWN ? "..." : "");
        return 0;
    }
    const char *kind = "a value";
    switch (t->kind) {
    case TC_JSON_OBJECT_BEGIN: kind = "an object"; break;
    case TC_JSON_ARRAY_BEGIN: kind = "an array"; break;
    case TC_JSON_TRUE:
    case TC_JSON_FALSE: kind = "a boolean"; break;
    case TC_JSON_NULL: kind = "null"; break;
    default: break;
    }
    tc_json_report(j, t, TC_RULE_DCFG_INTEGER, "%s is %s, not an Integer", what, kind);
    return 0;
}

int tc_dcfg_id(tc_json *j, const tc_json_token *t, const char *what, int zero_ok, uint64_t *out)
{
    uint64_t v;
    if (!tc_dcfg_int(j, t, what, &v))
        return 0;
    if (v > 0x7FFFFFFFu || (v == 0 && !zero_ok)) {
        tc_json_report_ex(j, t, TC_RULE_DCFG_ID_RANGE, TC_EXTRA(TC_VALUES(TC_UINT("id", v))),
                          "%s is %" PRIu64 ", outside %s..2147483647", what, v,
                          zero_ok ? "0" : "1");
        return 0;
    }
    *out = v;
    return 1;
}

int tc_dcfg_tag(tc_json *j, const tc_json_token *t)
{
    if (t->kind != TC_JSON_STRING) {
        tc_json_report(j, t, TC_RULE_DCFG_TABLE_TAG, "a table header holds a non-string");
        return 0;
    }
    int ok = t->len > 0;
    for (size_t i = 0; ok && i < t->len; i++) {
        unsigned char c = (unsigned char)t->text[i];
        ok = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    if (!ok) {
        int shown = (int)(t->len > SHOWN ? SHOWN : t->len);
        tc_json_report(j, t, TC_RULE_DCFG_TABLE_TAG,
                       "table header tag \"%.*s%s\" is not made of A-Z, 0-9 and _",
                       shown, t->text, t->len > SHOWN ? "..." : "");
    }
    return ok;
}

int tc_dcfg_major_version(tc_json *j, const tc_json_token *t, uint64_t major)
{
    if (major > 1) {
        tc_json_report(j, t, TC_RULE_DCFG_VERSION_MAJOR,
                       "MAJOR_VERSION is %" PRIu64 "; tracecheck reads version 1", major);
        return 0;
    }
    if (major == 0)
        tc_json_report(j, t, TC_RULE_DCFG_VERSION_ZERO,
                       "MAJOR_VERSION is 0; read as version 1");
    return 1;
}

int tc_dcfg_grow(void **v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return 0;
        n *= 2;
    }
    void *p = realloc(*v, n * elem);
    if (!p)
        return 0;
    *v = p;
    *cap = n;
    return 1;
}

/* ---- the view of `tracecheck show` ---- */

void tc_dcfg_field(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name,
                   const char *fmt, ...)
{
    char value[TC_FIELD_VALUE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    tc_fields_field(d, t->offset, end > t->offset ? end - t->offset : 0, 0, 0, name, "%s", value);
}

void tc_dcfg_field_int(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name,
                       int ok, uint64_t v)
{
    if (!ok)
        tc_dcfg_field(d, t, end, name, "(not read: %s is not an Integer)", tc_json_kind_name(t->kind));
    else if (t->kind == TC_JSON_STRING && t->len > 2 && (t->text[1] == 'x' || t->text[1] == 'X'))
        tc_dcfg_field(d, t, end, name, "%" PRIu64 " (0x%" PRIx64 ")", v, v);
    else
        tc_dcfg_field(d, t, end, name, "%" PRIu64, v);
}

void tc_dcfg_field_id(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name,
                      int ok, uint64_t v)
{
    if (ok)
        tc_dcfg_field(d, t, end, name, "%" PRIu64, v);
    else
        tc_dcfg_field(d, t, end, name, "(not read: not an id of 1..0x7FFFFFFF)");
}

void tc_dcfg_field_str(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name)
{
    if (t->kind != TC_JSON_STRING) {
        tc_dcfg_field(d, t, end, name, "(not read: %s, not a string)", tc_json_kind_name(t->kind));
        return;
    }
    int cut = t->len > TC_FIELD_VALUE_MAX - 8;
    tc_dcfg_field(d, t, end, name, "\"%.*s%s\"", (int)(cut ? TC_FIELD_VALUE_MAX - 8 : t->len),
                  t->text, cut ? "..." : "");
}

void tc_dcfg_member(tc_diag_sink *d, const tc_json_token *k, const char *object, int known)
{
    int cut = k->len > 48;
    tc_fields_record(d, k->offset, 0, TC_LOOK_TEXT, "%s%.*s%s%s%s%s", known ? "" : "unknown key ",
                     (int)(cut ? 48 : k->len), k->text, cut ? "..." : "", object ? " of " : "",
                     object ? object : "", known ? "" : " (not read)");
}
