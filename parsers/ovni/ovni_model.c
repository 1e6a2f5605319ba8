#include <inttypes.h>
#include <string.h>

#include "ovni_model.h"

enum { ST_NEW, ST_RUNNING, ST_PAUSED, ST_COOLING, ST_WARMING, ST_DEAD = TC_OVNI_THREAD_ENDED };

static const char *const state_names[] = {"not started", "running", "paused", "cooling", "warming",
                                          "ended"};

/* ovni's own events and their payload sizes (spec/ovni.md). */
static const struct {
    const char cv[3];
    unsigned payload;
} ovni_events[] = {
    {"Hx", 16}, {"HC", 12}, {"He", 0}, {"Hp", 0}, {"Hr", 0}, {"Hc", 0}, {"Hw", 0},
    {"As", 4},  {"Ar", 8},  {"Cn", 4}, {"B.", 0}, {"F[", 0}, {"F]", 0}, {"U[", 0},
    {"U]", 0},  {"M[", 12}, {"M]", 12}, {"M=", 12},
};

/* Where an event of model O is in ovni_events, or -1: a switch rather than
 * a search, since half the events of a trace are ovni's own. */
static int ovni_event_index(char c, char v)
{
    switch (c) {
    case 'H':
        switch (v) {
        case 'x': return 0;
        case 'C': return 1;
        case 'e': return 2;
        case 'p': return 3;
        case 'r': return 4;
        case 'c': return 5;
        case 'w': return 6;
        default: return -1;
        }
    case 'A': return v == 's' ? 7 : v == 'r' ? 8 : -1;
    case 'C': return v == 'n' ? 9 : -1;
    case 'B': return v == '.' ? 10 : -1;
    case 'F': return v == '[' ? 11 : v == ']' ? 12 : -1;
    case 'U': return v == '[' ? 13 : v == ']' ? 14 : -1;
    case 'M': return v == '[' ? 15 : v == ']' ? 16 : v == '=' ? 17 : -1;
    default: return -1;
    }
}

void tc_ovni_model_init(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta)
{
    memset(m, 0, sizeof *m);
    m->d = d;
    m->models = meta && meta->models.known ? &meta->models : NULL;
    /* Without metadata the stream is taken for a thread's (the usual kind). */
    m->thread = !meta || !meta->readable || meta->thread;
    m->judge_ovni = !(m->models && m->models->incompatible['O']);
    m->state = ST_NEW;
    /* Asked once per letter here, not once per event. */
    for (int c = 0; c < 128; c++)
        m->allowed[c] = (int8_t)(m->models ? tc_ovni_model_allowed(m->models, (char)c) : -1);
    for (int c = 0; c < 0x21; c++) /* not a letter: OVNI-MCV-PRINTABLE says so */
        m->allowed[c] = -1;
    m->allowed[0x7f] = -1;
    m->allowed['O'] = 1;
}

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

/* Thread events OH*: ruling 8 and libovni's states. */
static void thread_event(tc_ovni_model *m, const tc_ovni_event *ev)
{
    char v = ev->mcv[2];
    int from = m->state, to = -1, ok = 0;
    switch (v) {
    case 'x': ok = from != ST_RUNNING; to = ST_RUNNING; break;
    case 'e': ok = from == ST_RUNNING || from == ST_COOLING; to = ST_DEAD; break;
    case 'p': ok = from == ST_RUNNING || from == ST_COOLING; to = ST_PAUSED; break;
    case 'r': ok = from == ST_PAUSED || from == ST_WARMING; to = ST_RUNNING; break;
    case 'c': ok = from == ST_RUNNING; to = ST_COOLING; break;
    case 'w': ok = from == ST_PAUSED; to = ST_WARMING; break;
    default: return; /* OHC: creating another thread changes nothing here */
    }
    if (from == ST_DEAD)
        return; /* reported as an event after the end */
    if (from == ST_NEW && v != 'x')
        tc_report(m->d, TC_RULE_OVNI_THREAD_BEFORE_START, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "%s before the thread's first OHx", ev->mcv);
    else if (v == 'x' && from == ST_RUNNING)
        tc_report_ex(m->d, TC_RULE_OVNI_THREAD_RUNNING, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                     TC_EXTRA(TC_RELATED(m->started_at)),
                     "OHx while the thread is already running (since offset %" PRIu64 ")",
                     m->started_at);
    else if (!ok)
        tc_report(m->d, TC_RULE_OVNI_THREAD_STATE, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "%s while the thread is %s", ev->mcv, state_names[from]);
    if (v == 'x' && from == ST_NEW)
        m->started_at = ev->offset;
    if (ok && !(from == ST_NEW && v != 'x'))
        m->state = to; /* a refused transition leaves the state as it was */
}

void tc_ovni_model_event_any(tc_ovni_model *m, const tc_ovni_event *ev)
{
    char model = ev->mcv[0];
    m->end_offset = ev->offset;
    if (model == 'O' && !m->judge_ovni)
        return; /* and the thread's state never changes: nothing is judged after its end */
    int flush = model == 'O' && ev->mcv[1] == 'F';
    if (m->thread && m->state == ST_DEAD && !flush)
        tc_report(m->d, TC_RULE_OVNI_THREAD_AFTER_END, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "%s after the thread ended (OHe)", ev->mcv);

    if (model != 'O') {
        if (m->allowed[(unsigned char)model < 0x80 ? (unsigned char)model : 0] == 0)
            tc_report(m->d, TC_RULE_OVNI_MODEL_NOT_REQUIRED, ev->offset, 1,
                      "event %s is of model '%c', which the stream does not require (it requires "
                      "%s)", ev->mcv, model, m->models->names[0] ? m->models->names : "nothing");
        return;
    }
    int i = ovni_event_index(ev->mcv[1], ev->mcv[2]);
    if (i < 0) {
        tc_report(m->d, TC_RULE_OVNI_MODEL_UNKNOWN_EVENT, ev->offset, 4,
                  "event %s is not one of ovni's own events", ev->mcv);
        return;
    }
    unsigned declared = ovni_events[i].payload;
    if (ev->jumbo)
        tc_report(m->d, TC_RULE_OVNI_MODEL_PAYLOAD, ev->offset, 1,
                  "%s carries a jumbo payload of %" PRIu32 " bytes; ovni's model declares %u "
                  "bytes, in a normal event", ev->mcv, ev->payload_len, declared);
    else if (ev->payload_len != declared && ev->payload_len == 0)
        tc_report(m->d, TC_RULE_OVNI_MODEL_PAYLOAD, ev->offset, 1,
                  "%s carries no payload; ovni's model declares %u bytes", ev->mcv, declared);
    else if (ev->payload_len != declared)
        tc_report(m->d, TC_RULE_OVNI_MODEL_PAYLOAD, ev->offset, 1,
                  "%s carries a %" PRIu32 "-byte payload; ovni's model declares %u bytes",
                  ev->mcv, ev->payload_len, declared);
    switch (ev->mcv[1]) {
    case 'H':
        if (m->thread)
            thread_event(m, ev);
        break;
    case 'F':
        region(m, ev, &m->in_flush, &m->flush_at, TC_RULE_OVNI_FLUSH_BALANCE, "flush");
        break;
    case 'U':
        region(m, ev, &m->in_unsorted, &m->unsorted_at, TC_RULE_OVNI_UNSORTED_BALANCE,
               "unsorted");
        break;
    default:
        break;
    }
}

void tc_ovni_model_finish(tc_ovni_model *m)
{
    if (m->in_flush)
        tc_report(m->d, TC_RULE_OVNI_FLUSH_BALANCE, m->flush_at, TC_OVNI_EVENT_HEADER_SIZE,
                  "the stream ends inside the flush begun here (no OF])");
    if (m->in_unsorted)
        tc_report(m->d, TC_RULE_OVNI_UNSORTED_BALANCE, m->unsorted_at, TC_OVNI_EVENT_HEADER_SIZE,
                  "the stream ends inside the unsorted region begun here (no OU])");
    if (m->thread && m->state != ST_NEW && m->state != ST_DEAD)
        tc_report(m->d, TC_RULE_OVNI_THREAD_NO_END, m->end_offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "the thread is still %s at the stream's last event (no OHe)",
                  state_names[m->state]);
}
