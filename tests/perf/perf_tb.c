/* Test bench for the SiFive perf layer (perf_tb.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/perf/perf_dump.h"
#include "perf_tb.h"
#include "../tu.h"

void tb_init(tb_msgs *b, int text)
{
    memset(b, 0, sizeof *b);
    b->text = text;
    b->channel = TC_PERF_DEFAULT_CHANNEL;
}

void tb_free(tb_msgs *b)
{
    free(b->m);
    memset(b, 0, sizeof *b);
}

uint64_t tb_msg(tb_msgs *b, uint64_t idtag, uint64_t value)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        b->m = realloc(b->m, b->cap * sizeof *b->m);
        if (!b->m)
            abort();
    }
    tc_perf_msg *m = &b->m[b->n++];
    memset(m, 0, sizeof *m);
    m->offset = b->off;
    m->idtag = idtag;
    m->value = value;
    if (b->text) {
        m->line = (uint32_t)b->n;
        m->length = 16;
    } else {
        /* Nexus-like: the TCODE byte, then 6 data bits per byte. */
        m->length = 2 + (uint32_t)((idtag & 3) == 0 ? 6 : (idtag & 3) == 2 ? 3 : 2);
    }
    b->off += m->length + (b->text ? 1 : 0);
    return m->offset;
}

uint64_t tb_w32(tb_msgs *b, uint64_t v)
{
    return tb_msg(b, b->channel * 4, v);
}
uint64_t tb_w16(tb_msgs *b, uint64_t v)
{
    return tb_msg(b, b->channel * 4 + 2, v);
}
uint64_t tb_w8(tb_msgs *b, uint64_t v)
{
    return tb_msg(b, b->channel * 4 + 3, v);
}

void tb_timestamp(tb_msgs *b, uint64_t ts)
{
    b->m[b->n - 1].timestamp = ts;
    b->m[b->n - 1].has_timestamp = 1;
}

uint64_t tb_header(tb_msgs *b, unsigned count_type, uint32_t mask, const tb_counter *defs)
{
    uint64_t at = tb_w32(b, TC_PERF_DEFAULT_MARKER);
    tb_w8(b, count_type);
    tb_w32(b, mask);
    unsigned n = (unsigned)__builtin_popcount(mask);
    for (unsigned i = 0; i < n; i++) {
        tb_w32(b, defs[i].type);
        if (defs[i].type == 2) {
            tb_w32(b, defs[i].code & 0xffffffffu);
            tb_w32(b, defs[i].code >> 32);
        } else {
            tb_w32(b, defs[i].code);
        }
        tb_w32(b, defs[i].info);
    }
    return at;
}

uint64_t tb_header_w(tb_msgs *b, unsigned count_type, uint32_t mask, unsigned width)
{
    tb_counter defs[32];
    unsigned n = 0;
    for (unsigned bit = 0; bit < 32; bit++)
        if (mask >> bit & 1) {
            defs[n] = (tb_counter){0, 0x10 + n, TB_INFO(width, 0xc00 + bit)};
            n++;
        }
    return tb_header(b, count_type, mask, defs);
}

void tb_addr(tb_msgs *b, uint64_t addr)
{
    if (addr >> 32) {
        tb_w32(b, (addr & 0xffffffffu) | 1);
        tb_w32(b, addr >> 32);
    } else {
        tb_w32(b, addr);
    }
}

void tb_value(tb_msgs *b, uint64_t v)
{
    tb_w32(b, v & 0xffffffffu);
    if (v >> 32)
        tb_w16(b, v >> 32 & 0xffff);
}

uint64_t tb_record(tb_msgs *b, unsigned type, uint64_t a0, uint64_t a1, const uint64_t *v, size_t n)
{
    uint64_t at = tb_w8(b, type);
    tb_addr(b, a0);
    if (type <= 1)
        tb_addr(b, a1);
    for (size_t i = 0; i < n; i++)
        tb_value(b, v[i]);
    return at;
}

typedef struct tb_ctx {
    tb_run *r;
    tc_jsonl w;
} tb_ctx;

static void collect(void *user, const tc_diag *d)
{
    tb_run *r = user;
    if (r->nf == TB_MAX_FINDINGS)
        return;
    tb_finding *f = &r->f[r->nf++];
    f->id = d->rule->id;
    f->severity = d->severity;
    f->offset = d->offset;
    f->length = d->length;
    f->line = d->line;
    f->column = d->column;
    f->unlocated = d->unlocated;
    f->has_path = d->json_path != NULL;
    snprintf(f->message, sizeof f->message, "%s", d->message);
}

static void on_event(void *user, const tc_perf_event *ev)
{
    tb_ctx *c = user;
    tc_perf_dump(&c->w, ev);
    if (ev->kind == TC_PERF_EV_HEADER && c->r->nhdr < 8)
        c->r->hdr[c->r->nhdr++] = *ev->header;
    if (ev->kind == TC_PERF_EV_RECORD && c->r->nrec < TB_MAX_EVENTS)
        c->r->rec[c->r->nrec++] = *ev;
}

void tb_run_msgs(const tb_msgs *b, const tb_opts *o, tb_run *r)
{
    memset(r, 0, sizeof *r);
    tc_diag_sink d;
    tc_diag_init(&d, "<perf>", 1000, o && o->pedantic, collect, r);
    tb_ctx c = {.r = r};
    c.w.f = open_memstream(&r->dump, &r->dump_len);
    tc_perf_sm *s = malloc(sizeof *s);
    if (!s || !c.w.f)
        abort();
    tc_perf_sm_init(s, &d, o && o->channel ? o->channel : TC_PERF_DEFAULT_CHANNEL,
                    o && o->marker ? o->marker : TC_PERF_DEFAULT_MARKER, on_event, &c);
    s->wrapped = o && o->wrapped;
    for (size_t i = 0; i < b->n; i++)
        tc_perf_sm_feed(s, &b->m[i]);
    tc_perf_sm_finish(s);
    tc_diag_finish(&d);
    fclose(c.w.f);
    free(s);
    r->errors = d.errors;
    r->warnings = d.warnings;
    r->notes = d.notes;
}

void tb_run_free(tb_run *r)
{
    free(r->dump);
    r->dump = NULL;
}

const char *tb_ids(const tb_run *r)
{
    static char buf[2048];
    size_t h = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->nf && h < sizeof buf; i++)
        h += (size_t)snprintf(buf + h, sizeof buf - h, "%s%s", i ? " " : "", r->f[i].id);
    return buf;
}

const tb_finding *tb_find(const tb_run *r, const char *id)
{
    for (size_t i = 0; i < r->nf; i++)
        if (strcmp(r->f[i].id, id) == 0)
            return &r->f[i];
    return NULL;
}

size_t tb_count(const tb_run *r, const char *id)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nf; i++)
        n += strcmp(r->f[i].id, id) == 0;
    return n;
}

const char *tb_dump_line(const tb_run *r, size_t n)
{
    static char buf[4096];
    return tu_text_line(r->dump ? r->dump : "", r->dump_len, n, buf, sizeof buf);
}

void tb_expect_ids(const tb_run *r, const char *ids, const char *file, unsigned line)
{
    tu_assert(strcmp(tb_ids(r), ids) == 0, file, line, "findings: expected [%s], got [%s]%s%s",
              ids, tb_ids(r), r->nf ? "; first: " : "", r->nf ? r->f[0].message : "");
}

void tb_expect_at(const tb_run *r, const char *id, uint64_t off, const char *needle,
                  const char *file, unsigned line)
{
    const tb_finding *f = tb_find(r, id);
    tu_assert(f != NULL, file, line, "no %s among [%s]", id, tb_ids(r));
    if (!f)
        return;
    tu_assert(f->offset == off, file, line, "%s at offset %llu, expected %llu: %s", id,
              (unsigned long long)f->offset, (unsigned long long)off, f->message);
    tu_assert(!needle || strstr(f->message, needle) != NULL, file, line,
              "%s message lacks \"%s\": %s", id, needle ? needle : "", f->message);
}
