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

#include "ovni_merge.h"
#include "ovni_replay.h"
#include "ovni_run.h"

typedef struct player {
    tc_ovni_head head;     /* first: its next event and place, in the merge */
    tc_ovni_stream_file *f;
    tc_input *in;
    tc_ovni_stream *s;
    tc_ovni_model *m;
    const tc_ovni_event_info *e; /* and what it is */
    int first;
} player;

/* Each stream is read through a buffer that read() fills, small enough to
 * stay in the processor's second-level cache while its events are judged:
 * the kernel copies the page cache's bytes faster than the first touch of
 * each page of a mapping costs (a page-table walk and a cache miss per
 * line, twice the time of the whole check on a virtual machine). */
#define WINDOW (256u << 10)

static int before(const player *a, const player *b) { return tc_ovni_before(&a->head, &b->head); }

/* Runs the stream through the events of its own thread: 1 when it stops at
 * a shared one (in p->head.ev), 0 at its end. Its findings carry its key. While
 * its shared events come before bound's (the first of the other streams,
 * which wait), they are its turn in the merge anyway: it judges them itself
 * and runs on. With bound p itself, it stops at the first. */
static int advance(player *p, const player *bound, tc_diag_order *o, int models)
{
    tc_diag_order_key(o, TC_OVNI_KEY(p->head.index, TC_OVNI_PHASE_EVENTS));
    tc_diag_order_sink(o)->input = p->f->obs;
    if (p->first) { /* ruling 10 compares the first clock of each stream */
        if (!tc_ovni_stream_next(p->s, &p->head.ev))
            return 0;
        p->first = 0;
        if (p->head.ev.clock < TC_OVNI_CLOCK_LIMIT) {
            p->f->has_first_clock = 1;
            p->f->first_clock = p->head.ev.clock;
            p->f->first_offset = p->head.ev.offset;
        }
        if (models && (p->e = tc_ovni_model_local(p->m, &p->head.ev)) != NULL)
            return 1;
    }
    tc_ovni_stream *s = p->s;
    tc_ovni_model *m = p->m;
    tc_ovni_event *ev = &p->head.ev;
    if (!models) {
        while (tc_ovni_stream_next(s, ev))
            ;
        return 0;
    }
    while (tc_ovni_run(s, m, ev, &p->e)) {
        if (bound && !before(p, bound))
            return 1;
        tc_ovni_model_shared(m, ev, p->e);
    }
    return 0;
}

static void open_player(player *p, tc_ovni_model *m, tc_ovni_world *w, size_t proc,
                        tc_diag_order *o, const tc_ovni_opts *opts, size_t window)
{
    tc_ovni_stream_file *f = p->f;
    tc_diag_order_key(o, TC_OVNI_KEY(p->head.index, TC_OVNI_PHASE_EVENTS));
    tc_diag_sink *d = tc_diag_order_sink(o);
    d->input = f->obs;
    tc_input_opts io = opts->input;
    if (!io.window || io.window > window)
        io.window = window;
    io.no_mmap = 1;
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
    tc_diag_order_key(o, TC_OVNI_KEY(p->head.index, TC_OVNI_PHASE_EVENTS));
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
    tc_ovni_head **heap = calloc(g->n ? g->n : 1, sizeof *heap);
    if (!pl || !heap) {
        free(pl);
        free(heap);
        tc_diag_fail(tc_diag_order_sink(o), "out of memory for the streams of a loom");
        return;
    }
    size_t window = WINDOW;
    for (size_t k = 0; k < g->n; k++) {
        pl[k].head.index = g->streams[k];
        pl[k].f = &streams[g->streams[k]];
        open_player(&pl[k], &g->models[k], &g->world, proc_of(&g->world, pl[k].f), o, opts,
                    window);
    }
    /* Every stream runs to its first shared event; then the merge. */
    size_t live = 0;
    for (size_t k = 0; k < g->n; k++)
        if (pl[k].s && advance(&pl[k], &pl[k], o, models))
            heap[live++] = &pl[k].head;
    tc_ovni_heapify(heap, live);
    while (live) {
        player *p = (player *)heap[0];
        tc_diag_order_key(o, TC_OVNI_KEY(p->head.index, TC_OVNI_PHASE_EVENTS));
        tc_diag_order_sink(o)->input = p->f->obs;
        tc_ovni_model_shared(p->m, &p->head.ev, p->e);
        const player *bound = (const player *)(live < 2                                  ? NULL
                                                : live > 2 && tc_ovni_before(heap[2], heap[1]) ? heap[2]
                                                                                            : heap[1]);
        if (advance(p, bound, o, models)) {
            tc_ovni_sift_down(heap, live, 0);
        } else {
            heap[0] = heap[--live];
            if (live)
                tc_ovni_sift_down(heap, live, 0);
        }
    }
    for (size_t k = 0; k < g->n; k++)
        close_player(&pl[k], o, models);
    free(pl);
    free(heap);
}
