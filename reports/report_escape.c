/* Escaping shared by the JSON, SARIF, TAP and JUnit writers. */
#include <string.h>

#include "report_writers.h"
#include "../parsers/common/utf8.h"

static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */

size_t tc_report_utf8_char(FILE *f, const unsigned char *p, size_t n)
{
    size_t len = tc_utf8_len(p, n);
    if (!len) {
        fputs(replacement, f);
        return 1;
    }
    fwrite(p, 1, len, f);
    return len;
}

void tc_report_json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    putc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c >= 0x80) {
            i += tc_report_utf8_char(f, p + i, n - i);
            continue;
        }
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                putc(c, f);
        }
        i++;
    }
    putc('"', f);
}

void tc_report_xml_text(FILE *f, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c >= 0x80) {
            /* U+FFFE and U+FFFF are not XML characters either. */
            if (c == 0xef && n - i >= 3 && p[i + 1] == 0xbf && p[i + 2] >= 0xbe) {
                fputs(replacement, f);
                i++;
            } else {
                i += tc_report_utf8_char(f, p + i, n - i);
            }
            continue;
        }
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\r': fputs("&#13;", f); break;
        case '\t': fputs("&#9;", f); break;
        default:
            if (c < 0x20 || c == 0x7f) {
                putc('\\', f);
                putc('x', f);
                putc(hex[c >> 4], f);
                putc(hex[c & 15], f);
            } else {
                putc(c, f);
            }
        }
        i++;
    }
}

size_t tc_report_rule_index(const tc_rule_info *r)
{
    size_t n = tc_rule_count();
    const tc_rule_info *first = tc_rule_at(0);
    if (r >= first && r < first + n)
        return (size_t)(r - first);
    for (size_t i = 0; r && i < n; i++)
        if (!strcmp(tc_rule_at(i)->id, r->id))
            return i;
    return 0;
}
