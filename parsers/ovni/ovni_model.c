/*
 * The model layer, a thread's own part: which events a stream may hold and
 * how their payloads are laid out (rulings 8, 12, 15, 17), the thread's
 * life (ruling 8), what a model needs the thread to be doing (ruling 13),
 * and the states of its channels and marks (ovniemu's chan_push, chan_pop
 * and chan_set on the thread's channels). The parts threads share are in
 * ovni_shared.c. See ovni_model.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_model.h"
#include "ovni_model_priv.h"

const char *const tc_ovni_thread_state_names[] = {"not started", "running", "paused",
                                                  "cooling", "warming", "ended"};

/* ---- setting up ---- */

static void init_common(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta)
{
    memset(m, 0, sizeof *m);
    m->d = d;
    m->stream = d->input;
    m->models = meta && meta->models.known ? &meta->models : NULL;
    /* Without metadata the stream is taken for a thread's (the usual kind). */
    m->thread = !meta || !meta->readable || meta->thread;
    m->judge_ovni = !(m->models && m->models->incompatible['O']);
    m->state = TC_OVNI_TH_NEW;
    m->cpu = TC_OVNI_CPU_NONE;
    for (int c = 0; c < TC_OVNI_CH__COUNT; c++)
        if (tc_ovni_chans[c].init >= 0) { /* the models set it when the emulator starts */
            m->chans[c].has_value = 1;
            m->chans[c].value = (tc_ovni_level){tc_ovni_chans[c].init, UINT64_MAX};
        }
    if (meta && meta->readable && meta->thread && meta->has_tid) {
        m->tid = meta->tid;
        m->has_tid = 1;
    }
    if (meta && meta->has_pid)
        m->pid = meta->pid;
    /* Asked once per letter here, not once per event. */
    for (int c = 0; c < 128; c++)
        m->allowed[c] = (int8_t)(m->models ? tc_ovni_model_allowed(m->models, (char)c) : -1);
    for (int c = 0; c < 0x21; c++) /* not a letter: OVNI-MCV-PRINTABLE says so */
        m->allowed[c] = -1;
    m->allowed[0x7f] = -1;
    m->allowed['O'] = 1;
    /* A model is judged when the stream requires it at a version tracecheck
     * knows (rulings 9 and 15); ovni's own always, unless at such a version.
     * Without metadata no other model's version is known: not judged. */
    for (int i = 0; i < TC_OVNI_M__COUNT; i++) {
        unsigned char letter = (unsigned char)tc_ovni_model_table[i].letter;
        m->judged[i] = letter == 'O' ? m->judge_ovni
                                     : m->allowed[letter] == 1 && !m->models->incompatible[letter];
        m->gate[letter] = m->judged[i] ? (uint8_t)(i + 1) : 0;
        if (m->judged[i])
            m->needs_mask[tc_ovni_model_table[i].needs] |= 1u << i;
    }
    tc_ovni_model_refresh(m);
}

void tc_ovni_model_refresh(tc_ovni_model *m)
{
    int st = m->state;
    if (!m->thread || m->failed || st == TC_OVNI_TH_ENDED) {
        m->fast_on = m->fast_off = m->fast_models = 0;
        return;
    }
    int running = st == TC_OVNI_TH_RUNNING;
    int active = running || st == TC_OVNI_TH_COOLING || st == TC_OVNI_TH_WARMING;
    unsigned ok = m->needs_mask[TC_OVNI_NEEDS_ANY];
    if (active)
        ok |= m->needs_mask[TC_OVNI_NEEDS_ACTIVE];
    if (running)
        ok |= m->needs_mask[TC_OVNI_NEEDS_RUNNING];
    /* Off its CPU, ovni's events and nOS-V's are judged one by one. */
    m->fast_off = ok & ~(1u << TC_OVNI_M_NOSV);
    m->fast_on = ok | m->needs_mask[TC_OVNI_NEEDS_OVNI];
    m->fast_models = m->out_of_cpu ? m->fast_off : m->fast_on;
}

void tc_ovni_model_init_in(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta,
                           tc_ovni_world *w, size_t proc, const char *stream)
{
    int twin = m->twin; /* set by the world's maker */
    init_common(m, d, meta);
    m->twin = twin;
    m->world = w;
    m->proc = proc;
    if (stream)
        m->stream = stream;
}

void tc_ovni_model_init(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta)
{
    init_common(m, d, meta);
    /* A world of this one thread: no CPU list, one process; the marks and
     * counters its own metadata declares. */
    tc_ovni_world *w = calloc(1, sizeof *w);
    tc_ovni_proc *p = calloc(1, sizeof *p);
    tc_ovni_model **t = calloc(1, sizeof *t);
    if (!w || !p || !t) {
        free(w);
        free(p);
        free(t);
        m->failed = 1;
        return;
    }
    p->pid = m->pid;
    t[0] = m;
    w->procs = p;
    w->nprocs = 1;
    w->threads = t;
    w->nthreads = 1;
    if (meta && meta->readable) {
        tc_ovni_world_declare(w, meta);
        w->marks_known = 1;
        w->hwc_known = 1;
    }
    if (meta && meta->has_loom)
        w->loom = meta->loom;
    m->world = w;
    m->own_world = 1;
}

/* ---- reporting ---- */

void tc_ovni_say(tc_ovni_model *m, tc_rule_id rule, const tc_ovni_event *ev, const char *fmt, ...)
{
    char message[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    tc_report(m->d, rule, ev->offset, TC_OVNI_EVENT_HEADER_SIZE, "%s", message);
}

const char *tc_ovni_thread_name(const tc_ovni_model *m, char *buf, size_t size)
{
    if (m->has_tid)
        snprintf(buf, size, "thread %" PRId64, m->tid);
    else
        snprintf(buf, size, "the thread");
    return buf;
}

/* ---- channels: stacks and single values ---- */

static int reserve(tc_ovni_model *m, tc_ovni_chan_state *c)
{
    if (c->n < c->cap)
        return 1;
    uint32_t cap = c->cap ? c->cap * 2 : 8;
    tc_ovni_level *v = realloc(c->v, cap * sizeof *v);
    if (!v) {
        m->failed = 1;
        tc_ovni_model_refresh(m);
        tc_diag_fail(m->d, "out of memory for the states of a thread");
        return 0;
    }
    c->v = v;
    c->cap = cap;
    return 1;
}

int tc_ovni_chan_push(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_chan_state *c, int dup,
                      int64_t value, const tc_ovni_namer *names)
{
    char what[160], top[160], chan[96];
    if (!dup && c->n && c->v[c->n - 1].value == value) {
        tc_ovni_say(m, TC_RULE_OVNI_STATE_REPEAT, ev,
                    "%s enters %s over itself (entered at offset %" PRIu64 "); %s does not "
                    "repeat a state",
                    ev->mcv, names->name(names, value, what, sizeof what), c->v[c->n - 1].at,
                    names->channel(names, chan, sizeof chan));
        return 0;
    }
    if (c->n >= TC_OVNI_MAX_STACK) {
        tc_ovni_say(m, TC_RULE_OVNI_STATE_DEPTH, ev,
                    "%s enters %s %u levels deep (innermost: %s, entered at offset %" PRIu64
                    "); the emulator holds %u",
                    ev->mcv, names->channel(names, chan, sizeof chan), c->n + 1,
                    names->name(names, c->v[c->n - 1].value, top, sizeof top), c->v[c->n - 1].at,
                    TC_OVNI_MAX_STACK);
        return 0;
    }
    if (!reserve(m, c))
        return 0;
    c->v[c->n++] = (tc_ovni_level){value, ev->offset};
    return 1;
}

int tc_ovni_chan_pop(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_chan_state *c,
                     int64_t value, const tc_ovni_namer *names)
{
    char what[160], top[160], chan[96];
    if (c->n == 0) {
        tc_ovni_say(m, TC_RULE_OVNI_STATE_POP, ev, "%s leaves %s, but %s has none entered",
                    ev->mcv, names->name(names, value, what, sizeof what), names->channel(names, chan, sizeof chan));
        return 0;
    }
    if (c->v[c->n - 1].value != value) {
        tc_ovni_say(m, TC_RULE_OVNI_STATE_POP, ev,
                    "%s leaves %s, but the innermost of %s is %s (entered at offset %" PRIu64 ")",
                    ev->mcv, names->name(names, value, what, sizeof what), names->channel(names, chan, sizeof chan),
                    names->name(names, c->v[c->n - 1].value, top, sizeof top),
                    c->v[c->n - 1].at);
        return 0;
    }
    c->n--;
    return 1;
}

static void chan_set(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_chan_state *c, int dup,
                     int64_t value, const tc_ovni_namer *names)
{
    char what[160], chan[96];
    if (!dup && c->has_value && c->value.value == value) {
        char when[64];
        if (c->value.at == UINT64_MAX)
            snprintf(when, sizeof when, "the state a thread starts in");
        else
            snprintf(when, sizeof when, "set at offset %" PRIu64, c->value.at);
        tc_ovni_say(m, TC_RULE_OVNI_STATE_REPEAT, ev,
                    "%s sets %s again (%s); %s does not repeat a state", ev->mcv,
                    names->name(names, value, what, sizeof what), when, names->channel(names, chan, sizeof chan));
        return;
    }
    c->has_value = 1;
    c->value = (tc_ovni_level){value, ev->offset};
}

/* Names of a model channel's states. */
static const char *state_name(const tc_ovni_namer *n, int64_t value, char *buf, size_t size)
{
    (void)n;
    if (value >= 0 && value < TC_OVNI_ST__COUNT)
        snprintf(buf, size, "'%s'", tc_ovni_states[value].words);
    else
        snprintf(buf, size, "state %" PRId64, value);
    return buf;
}

static const char *chan_words(const tc_ovni_namer *n, char *buf, size_t size)
{
    const tc_ovni_chan_info *c = &tc_ovni_chans[n->arg];
    snprintf(buf, size, "the thread's %s %s", tc_ovni_model_table[c->model].name, c->name);
    return buf;
}

void tc_ovni_chan_namer(tc_ovni_namer *n, tc_ovni_chan_id chan)
{
    n->channel = chan_words;
    n->name = state_name;
    n->arg = chan;
}

/* ---- marks (ovni's OM events, ovniemu's mark_event) ---- */

static const char *mark_name(const tc_ovni_namer *n, int64_t value, char *buf, size_t size)
{
    (void)n;
    snprintf(buf, size, "value %" PRId64, value);
    return buf;
}

static const char *mark_words(const tc_ovni_namer *n, char *buf, size_t size)
{
    snprintf(buf, size, "the thread's stack of mark type %" PRId64, n->arg);
    return buf;
}

static void mark_event(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_action a)
{
    int64_t value = (int64_t)tc_ovni_event_u64(ev, 0);
    int32_t type = (int32_t)tc_ovni_event_u32(ev, 8);
    const tc_ovni_world *w = m->world;
    if (!w->marks_known)
        return; /* no metadata to say which types there are */
    if (type < 0 || type >= TC_OVNI_MARK_TYPES || !w->mark_kind[type]) {
        tc_ovni_say(m, TC_RULE_OVNI_MARK_UNDECLARED, ev,
                    "%s is of mark type %" PRId32 ", which no stream's ovni.mark declares", ev->mcv,
                    type);
        return;
    }
    if (value == 0) {
        tc_ovni_say(m, TC_RULE_OVNI_MARK_VALUE_ZERO, ev,
                    "%s gives mark type %" PRId32 " the value 0, which means no mark", ev->mcv,
                    type);
        return;
    }
    int stack = w->mark_kind[type] == 2;
    if (stack != (a != TC_OVNI_A_MARK_SET)) {
        tc_ovni_say(m, TC_RULE_OVNI_MARK_KIND, ev,
                    "%s %s mark type %" PRId32 ", which ovni.mark declares \"%s\"; %s", ev->mcv,
                    a == TC_OVNI_A_MARK_SET ? "sets" : a == TC_OVNI_A_MARK_PUSH ? "pushes on"
                                                                               : "pops off",
                    type, stack ? "stack" : "single",
                    stack ? "a stack is pushed (OM[) and popped (OM]), not set"
                          : "a single mark is set (OM=), not pushed or popped");
        return;
    }
    if (!m->marks && !(m->marks = calloc(TC_OVNI_MARK_TYPES, sizeof *m->marks))) {
        m->failed = 1;
        tc_ovni_model_refresh(m);
        tc_diag_fail(m->d, "out of memory for the marks of a thread");
        return;
    }
    tc_ovni_namer n = {.channel = mark_words, .name = mark_name, .arg = type};
    tc_ovni_chan_state *c = &m->marks[type];
    if (a == TC_OVNI_A_MARK_PUSH)
        tc_ovni_chan_push(m, ev, c, 1, value, &n);
    else if (a == TC_OVNI_A_MARK_POP)
        tc_ovni_chan_pop(m, ev, c, value, &n);
}

/* ---- flush and unsorted regions ---- */

static void region(tc_ovni_model *m, const tc_ovni_event *ev, int *open, uint64_t *at,
                   tc_rule_id rule, const char *name)
{
    int begin = ev->mcv[2] == '[';
    if (begin && *open)
        tc_report_ex(m->d, rule, ev->offset, TC_OVNI_EVENT_HEADER_SIZE, TC_EXTRA(TC_RELATED(*at)),
                     "%s begins inside the %s region begun at offset %" PRIu64 "; they do not nest",
                     ev->mcv, name, *at);
    else if (!begin && !*open)
        tc_report(m->d, rule, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "%s ends a %s region, but none began (no %.2s[ before it)", ev->mcv, name,
                  ev->mcv);
    *open = begin;
    *at = ev->offset;
}

/* ---- the event ---- */

/* What the event's model needs the thread to be doing (ovniemu's
 * process_ev: "current thread not active" or "not running"). */
static void needs(tc_ovni_model *m, const tc_ovni_event *ev, const tc_ovni_model_info *info)
{
    int st = m->state;
    if (st == TC_OVNI_TH_ENDED || !m->judge_ovni)
        return; /* OVNI-THREAD-AFTER-END says so; or the thread's life is not followed */
    int ok = info->needs == TC_OVNI_NEEDS_RUNNING
                 ? st == TC_OVNI_TH_RUNNING
                 : st == TC_OVNI_TH_RUNNING || st == TC_OVNI_TH_COOLING || st == TC_OVNI_TH_WARMING;
    if (ok)
        return;
    char who[48];
    tc_ovni_say(m, TC_RULE_OVNI_THREAD_INACTIVE, ev,
                "%s, of the %s model, while %s is %s; %s's events need the thread %s", ev->mcv,
                info->name, tc_ovni_thread_name(m, who, sizeof who),
                tc_ovni_thread_state_names[st], info->name,
                info->needs == TC_OVNI_NEEDS_RUNNING ? "running" : "running, cooling or warming");
}

static void local_action(tc_ovni_model *m, const tc_ovni_event *ev, const tc_ovni_event_hot *e)
{
    tc_ovni_namer n;
    /* The commonest, with direct branches (a jump table mispredicts). */
    if (tc_ovni_model_step(m, e, ev->offset, ev->payload, ev->big_endian))
        return;
    switch (e->action) {
    case TC_OVNI_A_PUSH:
    case TC_OVNI_A_POP:
    case TC_OVNI_A_SET:
        tc_ovni_chan_namer(&n, e->chan);
        if (e->action == TC_OVNI_A_PUSH)
            tc_ovni_chan_push(m, ev, &m->chans[e->chan], e->dup, e->state, &n);
        else if (e->action == TC_OVNI_A_POP)
            tc_ovni_chan_pop(m, ev, &m->chans[e->chan], e->state, &n);
        else
            chan_set(m, ev, &m->chans[e->chan], e->dup, e->state, &n);
        break;
    case TC_OVNI_A_CPU_OUT:
    case TC_OVNI_A_CPU_IN:
        /* The kernel's context switches, refused (the common ones are
         * above): a stack of one state. */
        tc_ovni_chan_namer(&n, e->chan);
        if (e->action == TC_OVNI_A_CPU_OUT) {
            if (tc_ovni_chan_push(m, ev, &m->chans[e->chan], 0, e->state, &n))
                m->out_at = ev->offset;
            m->out_of_cpu = 1;
            tc_ovni_model_refresh(m);
        } else {
            tc_ovni_chan_pop(m, ev, &m->chans[e->chan], e->state, &n);
            m->out_of_cpu = 0;
            tc_ovni_model_refresh(m);
        }
        break;
    case TC_OVNI_A_MARK_PUSH:
    case TC_OVNI_A_MARK_POP:
    case TC_OVNI_A_MARK_SET: mark_event(m, ev, (tc_ovni_action)e->action); break;
    case TC_OVNI_A_FLUSH_BEGIN:
    case TC_OVNI_A_FLUSH_END:
        region(m, ev, &m->in_flush, &m->flush_at, TC_RULE_OVNI_FLUSH_BALANCE, "flush");
        break;
    case TC_OVNI_A_UNSORTED_BEGIN:
    case TC_OVNI_A_UNSORTED_END:
        region(m, ev, &m->in_unsorted, &m->unsorted_at, TC_RULE_OVNI_UNSORTED_BALANCE, "unsorted");
        break;
    case TC_OVNI_A_HWC:
        tc_ovni_hwc_event(m, ev);
        break;
    default: break;
    }
}

static const tc_ovni_event_info *local_slow(tc_ovni_model *m, const tc_ovni_event *ev);

const tc_ovni_event_info *tc_ovni_model_local(tc_ovni_model *m, const tc_ovni_event *ev)
{
    unsigned char letter = (unsigned char)ev->mcv[0];
    m->end_offset = ev->offset;
    /* The common case: a running thread on its CPU, an event of a model it
     * requires, laid out as the model says. Nothing to report, whatever
     * the model needs of the thread; the full path below would do the same. */
    unsigned gate = m->gate[letter];
    if (gate && ((m->fast_models >> (gate - 1)) & 1) && !ev->jumbo) {
        unsigned index = tc_ovni_event_index_of((tc_ovni_model_id)(gate - 1),
                                                (unsigned char)ev->mcv[1], (unsigned char)ev->mcv[2]);
        const tc_ovni_event_hot *e = index ? &tc_ovni_events_hot[index - 1] : NULL;
        if (e && !(e->flags & (TC_OVNI_EVF_OLD | TC_OVNI_EVF_JUMBO)) &&
            ev->payload_len == e->fixed)
            return tc_ovni_model_act(m, ev, index - 1);
    }
    return local_slow(m, ev);
}

const tc_ovni_event_info *tc_ovni_model_act(tc_ovni_model *m, const tc_ovni_event *ev,
                                            unsigned index)
{
    const tc_ovni_event_hot *e = &tc_ovni_events_hot[index];
    if (e->shared)
        return &tc_ovni_events[index];
    if (e->action != TC_OVNI_A_NONE)
        local_action(m, ev, e);
    return NULL;
}

/* Every event the fast path leaves, judged step by step. */
static __attribute__((noinline)) const tc_ovni_event_info *local_slow(tc_ovni_model *m,
                                                                     const tc_ovni_event *ev)
{
    unsigned char letter = (unsigned char)ev->mcv[0];
    if (m->failed || (letter == 'O' && !m->judge_ovni))
        return NULL; /* and the thread's state never changes: nothing is judged after its end */
    int flush = letter == 'O' && ev->mcv[1] == 'F';
    if (m->thread && m->state == TC_OVNI_TH_ENDED && !flush)
        tc_report(m->d, TC_RULE_OVNI_THREAD_AFTER_END, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "%s after the thread ended (OHe)", ev->mcv);

    if (letter != 'O' && m->allowed[letter < 0x80 ? letter : 0] == 0) {
        tc_report(m->d, TC_RULE_OVNI_MODEL_NOT_REQUIRED, ev->offset, 1,
                  "event %s is of model '%c', which the stream does not require (it requires "
                  "%s)", ev->mcv, letter, m->models->names[0] ? m->models->names : "nothing");
        return NULL;
    }
    unsigned slot = letter < 128 ? tc_ovni_model_by_letter[letter] : 0;
    if (!slot || !m->judged[slot - 1])
        return NULL; /* a model tracecheck does not know, or at a version it does not */
    tc_ovni_model_id id = (tc_ovni_model_id)(slot - 1);
    const tc_ovni_model_info *info = &tc_ovni_model_table[id];
    unsigned index = tc_ovni_event_index_of(id, (unsigned char)ev->mcv[1], (unsigned char)ev->mcv[2]);
    if (!index) {
        tc_report(m->d, TC_RULE_OVNI_MODEL_UNKNOWN_EVENT, ev->offset, 4,
                  "event %s is not one of the %s model's events (%s %s)", ev->mcv, info->name,
                  info->name, info->version);
        return NULL;
    }
    const tc_ovni_event_hot *e = &tc_ovni_events_hot[index - 1];
    if (e->flags & TC_OVNI_EVF_OLD) {
        tc_report(m->d, TC_RULE_OVNI_MODEL_OLD_EVENT, ev->offset, 4,
                  "event %s is an old event of the %s model, which the emulator ignores; its "
                  "payload is not checked", ev->mcv, info->name);
        return NULL;
    }
    /* The common case first: a normal event with its layout's size. */
    int payload_ok = !ev->jumbo && !(e->flags & TC_OVNI_EVF_JUMBO) && ev->payload_len == e->fixed;
    if (!payload_ok) {
        char why[240];
        payload_ok = !tc_ovni_payload_mismatch(&tc_ovni_events[index - 1], ev->jumbo, ev->payload,
                                               ev->payload_len, why, sizeof why);
        if (!payload_ok)
            tc_report(m->d, TC_RULE_OVNI_MODEL_PAYLOAD, ev->offset, 1, "%s %s", ev->mcv, why);
        else if (!ev->payload && ev->payload_len)
            payload_ok = 0; /* a jumbo payload not held in memory: its fields cannot be read */
    }
    if (!m->thread) {
        /* Not a thread: its thread life and models are not followed, but its
         * flushes and unsorted regions pair up all the same (ruling 8). */
        if (payload_ok || e->fixed == 0)
            switch (e->action) {
            case TC_OVNI_A_FLUSH_BEGIN:
            case TC_OVNI_A_FLUSH_END:
            case TC_OVNI_A_UNSORTED_BEGIN:
            case TC_OVNI_A_UNSORTED_END: local_action(m, ev, e); break;
            default: break;
            }
        return NULL;
    }
    if (info->needs == TC_OVNI_NEEDS_OVNI || id == TC_OVNI_M_NOSV) {
        if (m->out_of_cpu && m->state != TC_OVNI_TH_ENDED) {
            char who[48];
            tc_ovni_say(m, TC_RULE_OVNI_THREAD_OUT_OF_CPU, ev,
                        "%s while the kernel has %s off its CPU (KCO at offset %" PRIu64
                        ", no KCI since)",
                        ev->mcv, tc_ovni_thread_name(m, who, sizeof who), m->out_at);
        }
    }
    if ((info->needs == TC_OVNI_NEEDS_RUNNING && m->state != TC_OVNI_TH_RUNNING) ||
        (info->needs == TC_OVNI_NEEDS_ACTIVE && m->state != TC_OVNI_TH_RUNNING &&
         m->state != TC_OVNI_TH_COOLING && m->state != TC_OVNI_TH_WARMING))
        needs(m, ev, info);
    if (m->state == TC_OVNI_TH_ENDED && !flush)
        return NULL; /* judged no further: OVNI-THREAD-AFTER-END */
    if (e->shared)
        /* Thread life goes on with a short payload (it reads nothing);
         * the other shared actions read their fields. */
        return payload_ok || (id == TC_OVNI_M_OVNI && ev->mcv[1] == 'H') ? &tc_ovni_events[index - 1]
                                                                          : NULL;
    /* An event without fields acts whatever it carries (its action reads
     * nothing); one with fields needs them to match. */
    if (payload_ok || (e->fixed == 0 && !e->tail))
        local_action(m, ev, e);
    return NULL;
}

/* ---- the end ---- */

static void lint(tc_ovni_model *m)
{
    for (int c = 0; c < TC_OVNI_CH__COUNT; c++) {
        const tc_ovni_chan_info *ci = &tc_ovni_chans[c];
        const tc_ovni_chan_state *s = &m->chans[c];
        if (!ci->lint || !s->n || !m->judged[ci->model])
            continue;
        char list[200];
        size_t used = 0;
        list[0] = '\0';
        for (uint32_t i = s->n; i-- > 0 && used < sizeof list - 40;) {
            int w = snprintf(list + used, sizeof list - used, "%s'%s' (offset %" PRIu64 ")",
                             i + 1 < s->n ? ", " : "", tc_ovni_states[s->v[i].value].words,
                             s->v[i].at);
            used += w > 0 ? (size_t)w : 0;
        }
        char who[48];
        tc_report(m->d, TC_RULE_OVNI_STATE_OPEN_AT_END, s->v[s->n - 1].at,
                  TC_OVNI_EVENT_HEADER_SIZE,
                  "%s's stream ends with %u %s %s%s still entered: %s",
                  tc_ovni_thread_name(m, who, sizeof who), (unsigned)s->n,
                  tc_ovni_model_table[ci->model].name, ci->name, s->n == 1 ? "" : "s", list);
    }
}

void tc_ovni_model_free(tc_ovni_model *m)
{
    if (!m->world)
        return;
    for (int c = 0; c < TC_OVNI_CH__COUNT; c++)
        free(m->chans[c].v);
    if (m->marks)
        for (int t = 0; t < TC_OVNI_MARK_TYPES; t++)
            free(m->marks[t].v);
    free(m->marks);
    for (int k = 0; k < TC_OVNI_TASKS__COUNT; k++)
        free(m->bodies[k].v);
    free(m->omp_labels.v);
    if (m->own_world) {
        tc_ovni_world_free_books(m->world);
        free(m->world->procs);
        free(m->world->threads);
        free(m->world);
    }
    m->world = NULL;
}

void tc_ovni_model_finish(tc_ovni_model *m)
{
    if (!m->world) { /* init failed */
        return;
    }
    if (m->in_flush)
        tc_report(m->d, TC_RULE_OVNI_FLUSH_BALANCE, m->flush_at, TC_OVNI_EVENT_HEADER_SIZE,
                  "the stream ends inside the flush begun here (no OF])");
    if (m->in_unsorted)
        tc_report(m->d, TC_RULE_OVNI_UNSORTED_BALANCE, m->unsorted_at, TC_OVNI_EVENT_HEADER_SIZE,
                  "the stream ends inside the unsorted region begun here (no OU])");
    if (m->thread && m->judge_ovni && m->state != TC_OVNI_TH_NEW && m->state != TC_OVNI_TH_ENDED)
        tc_report(m->d, TC_RULE_OVNI_THREAD_NO_END, m->end_offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "the thread is still %s at the stream's last event (no OHe)",
                  tc_ovni_thread_state_names[m->state]);
    if (m->thread && !m->failed && !m->cut)
        lint(m);
    tc_ovni_model_free(m);
}
