/*
 * The expected-dump prefix of a rejected trace directory (trace_prefix.h).
 *
 * A dump's event lines carry no byte offsets, but they carry everything that
 * sizes an event (flags, size code, jumbo size), and a stream's events appear
 * in the dump in stream order (the merge keeps it). So walking a stream's
 * lines from offset 8 (after the stream header) gives each event's extent in
 * its stream.obs, and so which lines lie before an error's offset.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "trace_prefix.h"

#define STREAM_HEADER 8u
#define EVENT_HEADER 12u
#define FLAG_JUMBO 0x10u

typedef struct line {
    size_t start, end; /* end: after the newline */
} line;

static int next_line(const char *dump, size_t len, size_t pos, line *l)
{
    if (pos >= len)
        return 0;
    const char *nl = memchr(dump + pos, '\n', len - pos);
    l->start = pos;
    l->end = nl ? (size_t)(nl - dump) + 1 : len;
    return 1;
}

static cJSON *parse(const char *dump, const line *l)
{
    return cJSON_ParseWithLength(dump + l->start, l->end - l->start);
}

static const char *kind_of(const cJSON *o)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t");
    return cJSON_IsString(t) ? t->valuestring : "";
}

/* Where the event lines start: after the header and stream lines. */
static size_t layout_end(const char *dump, size_t len)
{
    size_t pos = 0;
    line l;
    while (next_line(dump, len, pos, &l)) {
        cJSON *o = parse(dump, &l);
        const char *k = kind_of(o);
        int layout = !strcmp(k, "header") || !strcmp(k, "stream");
        cJSON_Delete(o);
        if (!layout)
            break;
        pos = l.end;
    }
    return pos;
}

static double number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* The byte size of the event of one dump line, in its stream. */
static uint64_t event_size(const cJSON *o)
{
    unsigned flags = (unsigned)number(o, "flags"), code = (unsigned)number(o, "size_code");
    if (flags & FLAG_JUMBO) /* a 4-byte size whatever the code says, then the data */
        return EVENT_HEADER + 4u + (uint64_t)number(o, "jumbo_size");
    return EVENT_HEADER + (code ? code + 1u : 0u);
}

/* The cut for an error at byte x of the stream whose path is `stream`. */
static size_t cut_in_stream(const char *dump, size_t len, size_t events, const char *stream,
                            uint64_t x)
{
    size_t cut = events, pos = events;
    uint64_t at = STREAM_HEADER;
    line l;
    while (next_line(dump, len, pos, &l)) {
        pos = l.end;
        cJSON *o = parse(dump, &l);
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "stream");
        int ours = !strcmp(kind_of(o), "event") && cJSON_IsString(s) &&
                   !strcmp(s->valuestring, stream);
        uint64_t end = ours ? at + event_size(o) : 0;
        int bad = !o;
        cJSON_Delete(o);
        if (bad)
            break;
        if (!ours)
            continue;
        if (end > x)
            break;
        cut = l.end;
        at = end;
    }
    return cut;
}

/* The stream (its directory, relative to the trace) whose stream.obs the file
 * is, or NULL. */
static char *stream_of(const char *file, char *buf, size_t size)
{
    static const char obs[] = "stream.obs";
    size_t n = strlen(file), k = sizeof obs - 1;
    if (n < k || strcmp(file + n - k, obs) != 0)
        return NULL;
    if (n == k) {
        snprintf(buf, size, ".");
        return buf;
    }
    if (file[n - k - 1] != '/' || n - k - 1 >= size)
        return NULL;
    memcpy(buf, file, n - k - 1);
    buf[n - k - 1] = '\0';
    return buf;
}

long long tc_conf_trace_prefix(const char *dump, size_t len, const tc_conf_finding *errors,
                               size_t n)
{
    if (n == 0)
        return -1;
    size_t events = layout_end(dump, len), best = len;
    for (size_t i = 0; i < n && best > 0; i++) {
        char buf[4096];
        const char *stream = stream_of(errors[i].file, buf, sizeof buf);
        size_t cut = 0;
        if (stream && errors[i].located && errors[i].offset >= STREAM_HEADER)
            cut = cut_in_stream(dump, len, events, stream, errors[i].offset);
        if (cut < best)
            best = cut;
    }
    return (long long)best;
}
