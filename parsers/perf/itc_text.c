/*
 * The text message list (spec/perf/perf.md, "Text message list"): one message
 * per line, IDTAG VALUE [TIMESTAMP]. Read byte by byte through a small
 * state machine, so a line of any length costs no memory and every error
 * has its line and column.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "perf_fields.h"
#include "perf_msg.h"

enum { MAX_FIELDS = 3 };

typedef struct text {
    tc_diag_sink *d;
    tc_perf_msg_fn fn;
    void *user;
    uint64_t delivered;
    /* the line */
    uint64_t line_start; /* offset */
    uint32_t line;
    int bad;       /* reported: the rest of the line is skipped */
    int comment;   /* inside a comment */
    int cr;        /* the byte before was a CR */
    uint64_t content_end; /* offset just after the last byte that is not a blank or comment */
    /* the fields */
    unsigned nfields;
    uint64_t val[MAX_FIELDS];
    uint64_t start[MAX_FIELDS], end[MAX_FIELDS]; /* offsets of each number */
    /* the number being read */
    int in_num;
    int hex;            /* 0x seen */
    unsigned digits;    /* digits after any prefix */
    int zero_first;     /* the number began with '0' (maybe a 0x prefix) */
    uint64_t num_start; /* offset */
} text;

static uint32_t column(const text *t, uint64_t off) { return (uint32_t)(off - t->line_start + 1); }

static void syntax(text *t, uint64_t off, const char *fmt, const char *what)
{
    char msg[160];
    snprintf(msg, sizeof msg, fmt, what);
    tc_report_text(t->d, TC_RULE_PERF_TEXT_SYNTAX, off, 1, t->line, column(t, off), NULL,
                   "%s; a line holds IDTAG VALUE [TIMESTAMP] (numbers in hex with 0x, or "
                   "decimal)",
                   msg);
    t->bad = 1;
    t->in_num = 0;
}

static void show_byte(char *out, size_t size, uint8_t c)
{
    if (c >= 0x21 && c < 0x7f)
        snprintf(out, size, "'%c'", c);
    else
        snprintf(out, size, "byte 0x%02x", c);
}

/* The number being read ends. */
static void end_number(text *t)
{
    t->in_num = 0;
    if (t->hex && t->digits == 0) {
        syntax(t, t->num_start, "%s", "\"0x\" without hex digits");
        return;
    }
    t->start[t->nfields] = t->num_start;
    t->end[t->nfields] = t->content_end;
    t->nfields++;
}

static void end_line(text *t, uint64_t eol)
{
    if (t->in_num)
        end_number(t);
    if (!t->bad && t->nfields > 0) {
        if (t->nfields < 2) {
            syntax(t, t->line_start, "%s", "only one number");
        } else {
            tc_perf_msg m = {.offset = t->line_start,
                             .length = (uint32_t)((t->content_end - t->line_start) > UINT32_MAX
                                                      ? UINT32_MAX
                                                      : t->content_end - t->line_start),
                             .line = t->line,
                             .idtag = t->val[0],
                             .value = t->val[1],
                             .timestamp = t->nfields == 3 ? t->val[2] : 0,
                             .has_timestamp = t->nfields == 3};
            if (TC_FIELDS_ON(t->d)) {
                tc_fields_record(t->d, m.offset, m.length, TC_LOOK_TEXT, "ITC message (line %" PRIu32 ")",
                                 m.line);
                tc_perf_spans sp = {{0}, {0}};
                for (unsigned k = 0; k < t->nfields; k++) {
                    sp.pos[k + 1] = t->start[k];
                    sp.len[k + 1] = t->end[k] - t->start[k];
                }
                tc_perf_fields_message(t->d, &m, &sp, 1);
            }
            t->delivered++;
            t->fn(t->user, &m);
        }
    }
    t->line++;
    t->line_start = eol + 1;
    t->content_end = t->line_start;
    t->bad = t->comment = t->cr = 0;
    t->nfields = 0;
    memset(t->val, 0, sizeof t->val);
}

static void byte(text *t, uint8_t c, uint64_t off)
{
    if (t->cr && c != '\n') {
        t->cr = 0;
        if (!t->bad)
            syntax(t, off - 1, "%s", "a carriage return not followed by a line feed");
    }
    if (c == '\n') {
        end_line(t, off);
        return;
    }
    if (c == '\r') {
        t->cr = 1;
        return;
    }
    if (t->bad || t->comment)
        return;
    if (c == '#' || c == ' ' || c == '\t') {
        if (t->in_num)
            end_number(t);
        if (c == '#')
            t->comment = 1;
        return;
    }
    t->content_end = off + 1;
    char shown[16];
    if (!t->in_num) {
        if (c < '0' || c > '9') {
            show_byte(shown, sizeof shown, c);
            syntax(t, off, "%s where a number starts", shown);
            return;
        }
        if (t->nfields == MAX_FIELDS) {
            syntax(t, off, "%s", "a fourth number");
            return;
        }
        t->in_num = 1;
        t->hex = 0;
        t->digits = 1;
        t->zero_first = c == '0';
        t->num_start = off;
        t->val[t->nfields] = (uint64_t)(c - '0');
        return;
    }
    uint64_t *v = &t->val[t->nfields];
    if ((c == 'x' || c == 'X') && t->zero_first && !t->hex && t->digits == 1) {
        t->hex = 1;
        t->digits = 0;
        *v = 0;
        return;
    }
    unsigned d;
    if (c >= '0' && c <= '9')
        d = (unsigned)(c - '0');
    else if (t->hex && c >= 'a' && c <= 'f')
        d = (unsigned)(c - 'a' + 10);
    else if (t->hex && c >= 'A' && c <= 'F')
        d = (unsigned)(c - 'A' + 10);
    else {
        show_byte(shown, sizeof shown, c);
        syntax(t, off, "%s inside a number", shown);
        return;
    }
    uint64_t base = t->hex ? 16 : 10;
    if (*v > (UINT64_MAX - d) / base) {
        syntax(t, t->num_start, "%s", "a number above 18446744073709551615");
        return;
    }
    *v = *v * base + d;
    t->digits++;
}

uint64_t tc_itc_text_read(tc_reader *r, tc_diag_sink *d, tc_perf_msg_fn fn, void *user)
{
    text t;
    memset(&t, 0, sizeof t);
    t.d = d;
    t.fn = fn;
    t.user = user;
    t.line = 1;
    for (;;) {
        const uint8_t *p = tc_need(r, 1);
        if (!p)
            break;
        size_t avail = tc_avail(r);
        uint64_t base = tc_pos(r);
        for (size_t i = 0; i < avail; i++)
            byte(&t, p[i], base + i);
        tc_advance(r, avail);
    }
    uint64_t end = tc_pos(r);
    if (t.cr && !t.bad)
        syntax(&t, end - 1, "%s", "a carriage return not followed by a line feed");
    /* The last line may lack its line feed. */
    if (end > t.line_start || t.in_num)
        end_line(&t, end);
    return t.delivered;
}
