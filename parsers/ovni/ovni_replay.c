/*
 * The streams of a loom, read at once and judged in clock order across
 * them, as ovniemu's player merges them (src/emu/player.c): the event with
 * the lowest clock next, ties by stream path. Only events that act on what
 * threads share wait their turn (ovni_model.h): each stream runs ahead
 * through the events of its own thread and stops at the next shared one,
 * so the merge costs a heap operation per shared event, not per event.
 * Memory: each stream's reader window and its thread's books.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "ovni_replay.h"
#include "ovni_stream_priv.h"

typedef struct player {
    tc_ovni_stream_file *f;
    size_t index;          /* the stream's place in path order */
    tc_input *in;
    tc_ovni_stream *s;
    tc_ovni_model *m;
    tc_ovni_event ev;      /* the shared event it waits at */
    const tc_ovni_event_info *e; /* and what it is */
    int first;
} player;

/* Every stream of the loom holds a reader window at once: their sum stays
 * near what one stream alone would take. */
#define WINDOW_BUDGET (64u << 20)
#define WINDOW_MIN (256u << 10)
#define WINDOW_MAX (16u << 20)

static int before(const player *a, const player *b)
{
    if (a->ev.clock != b->ev.clock)
        return a->ev.clock < b->ev.clock;
    return a->index < b->index;
}

static void sift_down(player **h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && before(h[l], h[m]))
            m = l;
        if (l + 1 < n && before(h[l + 1], h[m]))
            m = l + 1;
        if (m == i)
            return;
        player *t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The longest normal event: a header and 16 bytes of payload. */
#define FAST_SPAN (TC_OVNI_EVENT_HEADER_SIZE + 16u)

/* The stream's common events taken whole, in one loop without a call per
 * event: the checks of tc_ovni_stream_next's and tc_ovni_model_local's
 * fast paths at once (a normal event with its model's fixed size, a
 * printable code of a model the thread may use now, its clock in order and
 * below 2^63). Stops at the first event that is not one (0; the full path
 * reads it) or at a shared one (1, in p->ev and p->e). The same results as
 * the full path, event by event: it only skips work. */
static int run_fast(player *p)
{
    tc_ovni_stream *s = p->s;
    tc_ovni_model *m = p->m;
    tc_reader *r = s->r;
    if (s->done || !s->have_clock)
        return 0;
    const uint8_t *b = r->cur, *end = r->end, *last_at = NULL;
    uint64_t last = s->last_clock, count = 0;
    int be = s->be, shared = 0;
    while ((size_t)(end - b) >= FAST_SPAN) {
        unsigned g = m->gate[b[1]];
        unsigned cc = (unsigned)b[2] - TC_OVNI_MCV_BASE, vv = (unsigned)b[3] - TC_OVNI_MCV_BASE;
        if (!g || !((m->fast_models >> (g - 1)) & 1) || cc >= TC_OVNI_MCV_SPAN ||
            vv >= TC_OVNI_MCV_SPAN)
            break;
        unsigned index = tc_ovni_event_index[g - 1][cc][vv];
        if (!index || b[0] != tc_ovni_events_hot[index - 1].code)
            break;
        uint64_t clock = tc_rd64(b + 4, be);
        if (clock < last || clock >= TC_OVNI_CLOCK_LIMIT)
            break;
        const tc_ovni_event_hot *e = &tc_ovni_events_hot[index - 1];
        uint32_t len = b[0] ? b[0] + 1u : 0u;
        last = clock;
        last_at = b;
        count++;
        const uint8_t *next = b + TC_OVNI_EVENT_HEADER_SIZE + len;
        if (e->action == TC_OVNI_A_NONE && !e->shared) {
            b = next;
            continue;
        }
        uint64_t pos = r->base_off + (uint64_t)(b - r->base);
        if (!e->shared && tc_ovni_model_step(m, e, pos, b + TC_OVNI_EVENT_HEADER_SIZE, be)) {
            b = next;
            continue;
        }
        /* The model needs the whole event: the stream's state first, as
         * the full path would leave it. */
        tc_ovni_event *ev = &p->ev;
        ev->offset = pos;
        ev->flags = 0;
        ev->size_code = b[0];
        memcpy(ev->mcv, b + 1, 3);
        ev->mcv[3] = '\0';
        ev->clock = clock;
        ev->jumbo = 0;
        ev->big_endian = be;
        ev->payload_len = len;
        ev->payload = b + TC_OVNI_EVENT_HEADER_SIZE;
        r->cur = next;
        s->last_clock = last;
        s->last_clock_offset = pos;
        s->count += count;
        count = 0;
        m->end_offset = pos;
        b = next;
        const tc_ovni_event_info *info = tc_ovni_model_act(m, ev, index - 1);
        if (info) {
            p->e = info;
            shared = 1;
            break;
        }
    }
    r->cur = b;
    if (count) {
        uint64_t pos = r->base_off + (uint64_t)(last_at - r->base);
        s->last_clock = last;
        s->last_clock_offset = pos;
        s->count += count;
        m->end_offset = pos;
    }
    return shared;
}

/* Runs the stream through the events of its own thread: 1 when it stops at
 * a shared one (in p->ev), 0 at its end. Its findings carry its key. While
 * its shared events come before bound's (the first of the other streams,
 * which wait), they are its turn in the merge anyway: it judges them itself
 * and runs on. With bound p itself, it stops at the first. */
static int advance(player *p, const player *bound, tc_diag_order *o, int models)
{
    tc_diag_order_key(o, TC_OVNI_KEY(p->index, TC_OVNI_PHASE_EVENTS));
    tc_diag_order_sink(o)->input = p->f->obs;
    if (p->first) { /* ruling 10 compares the first clock of each stream */
        if (!tc_ovni_stream_next(p->s, &p->ev))
            return 0;
        p->first = 0;
        if (p->ev.clock < TC_OVNI_CLOCK_LIMIT) {
            p->f->has_first_clock = 1;
            p->f->first_clock = p->ev.clock;
            p->f->first_offset = p->ev.offset;
        }
        if (models && (p->e = tc_ovni_model_local(p->m, &p->ev)) != NULL)
            return 1;
    }
    tc_ovni_stream *s = p->s;
    tc_ovni_model *m = p->m;
    tc_ovni_event *ev = &p->ev;
    if (!models) {
        while (tc_ovni_stream_next(s, ev))
            ;
        return 0;
    }
    for (;;) {
        if (!run_fast(p)) {
            if (!tc_ovni_stream_next(s, ev))
                return 0;
            if ((p->e = tc_ovni_model_local(m, ev)) == NULL)
                continue;
        }
        if (bound && !before(p, bound))
            return 1;
        tc_ovni_model_shared(m, ev, p->e);
    }
}

static void open_player(player *p, tc_ovni_model *m, tc_ovni_world *w, size_t proc,
                        tc_diag_order *o, const tc_ovni_opts *opts, size_t window)
{
    tc_ovni_stream_file *f = p->f;
    tc_diag_order_key(o, TC_OVNI_KEY(p->index, TC_OVNI_PHASE_EVENTS));
    tc_diag_sink *d = tc_diag_order_sink(o);
    d->input = f->obs;
    tc_input_opts io = opts->input;
    if (!io.window || io.window > window)
        io.window = window;
    p->in = tc_input_open(f->obs, &io, &f->err);
    if (!p->in) {
        tc_error_add(&f->err, "ovni", "%s", f->obs);
        return;
    }
    p->s = tc_ovni_stream_new(tc_input_reader(p->in), d, 1);
    p->m = m;
    tc_ovni_model_init_in(m, d, f->has_json ? &f->meta : NULL, w, proc, f->obs);
    p->first = 1;
    if (!p->s || !tc_ovni_stream_header(p->s)) {
        tc_ovni_stream_free(p->s);
        p->s = NULL;
    }
}

static void close_player(player *p, tc_diag_order *o, int models)
{
    tc_ovni_stream_file *f = p->f;
    tc_diag_order_key(o, TC_OVNI_KEY(p->index, TC_OVNI_PHASE_EVENTS));
    tc_diag_order_sink(o)->input = f->obs;
    if (p->m && p->s && models) {
        p->m->cut = tc_ovni_stream_cut(p->s);
        tc_ovni_model_finish(p->m);
    }
    if (p->m)
        tc_ovni_model_free(p->m);
    f->big_endian = p->s && tc_ovni_stream_big_endian(p->s);
    tc_ovni_stream_free(p->s);
    if (p->in) {
        f->bytes += tc_pos(tc_input_reader(p->in));
        tc_input_close(p->in);
    }
}

static size_t proc_of(const tc_ovni_world *w, const tc_ovni_stream_file *f)
{
    int64_t pid = f->has_json && f->meta.has_pid ? f->meta.pid : 0;
    for (size_t p = 0; p < w->nprocs; p++)
        if (w->procs[p].pid == pid)
            return p;
    return 0;
}

void tc_ovni_replay(tc_ovni_stream_file *streams, tc_ovni_group *g, tc_diag_order *o,
                    const tc_ovni_opts *opts)
{
    int models = !opts->no_models;
    player *pl = calloc(g->n ? g->n : 1, sizeof *pl);
    player **heap = calloc(g->n ? g->n : 1, sizeof *heap);
    if (!pl || !heap) {
        free(pl);
        free(heap);
        tc_diag_fail(tc_diag_order_sink(o), "out of memory for the streams of a loom");
        return;
    }
    size_t window = WINDOW_BUDGET / (g->n ? g->n : 1);
    window = window < WINDOW_MIN ? WINDOW_MIN : window > WINDOW_MAX ? WINDOW_MAX : window;
    for (size_t k = 0; k < g->n; k++) {
        pl[k].index = g->streams[k];
        pl[k].f = &streams[g->streams[k]];
        open_player(&pl[k], &g->models[k], &g->world, proc_of(&g->world, pl[k].f), o, opts,
                    window);
    }
    /* Every stream runs to its first shared event; then the merge. */
    size_t live = 0;
    for (size_t k = 0; k < g->n; k++)
        if (pl[k].s && advance(&pl[k], &pl[k], o, models))
            heap[live++] = &pl[k];
    for (size_t i = live / 2; i-- > 0;)
        sift_down(heap, live, i);
    while (live) {
        player *p = heap[0];
        tc_diag_order_key(o, TC_OVNI_KEY(p->index, TC_OVNI_PHASE_EVENTS));
        tc_diag_order_sink(o)->input = p->f->obs;
        tc_ovni_model_shared(p->m, &p->ev, p->e);
        const player *bound = live < 2 ? NULL : live > 2 && before(heap[2], heap[1]) ? heap[2] : heap[1];
        if (advance(p, bound, o, models)) {
            sift_down(heap, live, 0);
        } else {
            heap[0] = heap[--live];
            if (live)
                sift_down(heap, live, 0);
        }
    }
    for (size_t k = 0; k < g->n; k++)
        close_player(&pl[k], o, models);
    free(pl);
    free(heap);
}
