/*
 * Mutators of the model layer of every model (rulings 13 to 17): each
 * inserts a short run of events, or changes the plan, so that one state the
 * emulator refuses appears and nothing else does. Most insert just before
 * the victim thread's OHe, where the generator has closed every region it
 * opened (ovni_synth.c): the thread runs (or cools) and owns nothing, so the
 * inserted events meet a known state. Ids the inserted events give out
 * (task types 0xFFFF0000 up, tasks 0xFFFFFF00 up) are far from the
 * generator's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "ovni_mutate.h"

#define R(name) TC_RULE_##name
#define TYPE 0xFFFF0001u
#define TASK 0xFFFFFF01u

/* ---- what the hooks share ---- */

/* A victim that uses the models of mask (made to when none does). */
static int victim_using(ovni_mutation *mu, ovni_plan *pl, unsigned mask)
{
    ovni_victim_any(mu, pl);
    ovni_stream_plan *s = &pl->streams[mu->victim];
    s->uses |= mask;
    s->unrequired &= ~mask;
    return 1;
}

static int plan_nosv(ovni_mutation *mu, ovni_plan *pl)
{
    return victim_using(mu, pl, OVNI_USES_NOSV);
}

static int plan_kernel(ovni_mutation *mu, ovni_plan *pl)
{
    return victim_using(mu, pl, OVNI_USES_KERNEL);
}

static int plan_marks(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    pl->streams[mu->victim].has_marks = 1;
    return 1;
}

static void emit_payload(ovni_emitter *em, const char *mcv, const uint8_t *p, unsigned len)
{
    ovni_ev ev;
    ovni_ev_normal(&ev, mcv, em->last_clock, p, len);
    ovni_emit(em, &ev);
}

static void emit_plain(ovni_emitter *em, const char *mcv) { emit_payload(em, mcv, NULL, 0); }

/* An event with u32 fields a and b (n of them). */
static void emit_u32s(ovni_emitter *em, const char *mcv, uint32_t a, uint32_t b, unsigned n)
{
    uint8_t p[8];
    tc_put32(p, a, em->be);
    tc_put32(p + 4, b, em->be);
    emit_payload(em, mcv, p, 4 * n);
}

static void emit_i32s(ovni_emitter *em, const char *mcv, int32_t a, int32_t b, unsigned n)
{
    emit_u32s(em, mcv, (uint32_t)a, (uint32_t)b, n);
}

/* An ovni mark event: i64 value, i32 type. */
static void emit_mark(ovni_emitter *em, const char *mcv, int64_t value, int32_t type)
{
    uint8_t p[12];
    tc_put64(p, (uint64_t)value, em->be);
    tc_put32(p + 8, (uint32_t)type, em->be);
    emit_payload(em, mcv, p, 12);
}

/* nOS-V's VYc: a task type and its label. */
static void emit_type(ovni_emitter *em, uint32_t id)
{
    uint8_t p[16];
    tc_put32(p, id, em->be);
    memcpy(p + 4, "mutant", 7);
    ovni_ev ev;
    ovni_ev_jumbo(&ev, "VYc", em->last_clock, p, 11);
    ovni_emit(em, &ev);
}

/* Before the victim's OHe: 1 when this is the place (once). */
static int at_end(ovni_mutation *mu, ovni_emitter *em, const ovni_ev *ev)
{
    if (mu->applied || !ovni_ev_is(ev, "OHe") || em->st->out_of_cpu)
        return 0;
    mu->applied = 1;
    return 1;
}

/* ---- old events, thread and CPU states ---- */

static void old_event(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    /* As nOS-V writes it: count and maxcpu, 8 bytes (ruling 17). */
    emit_i32s(em, "OCn", (int32_t)tc_rng_range(mu->rng, 1, 64), 64, 2);
}

static void inactive(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    /* Paused, a nOS-V event of no consequence (it needs the thread active),
     * resumed. */
    emit_plain(em, "OHp");
    emit_plain(em, "VSr");
    emit_plain(em, "OHr");
}

static void out_of_cpu(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_plain(em, "KCO");
    emit_plain(em, "OB.");
    emit_plain(em, "KCI");
}

static void cpu_unknown(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    const ovni_stream_plan *s = &em->plan->streams[em->stream];
    int32_t past = (int32_t)em->plan->looms[s->loom].ncpus;
    emit_i32s(em, "OAs", past + (int32_t)tc_rng_below(mu->rng, 8), 0, 1);
}

/* Two threads of a loom on CPU 0 from the same clock: the victim, and a
 * thread added beside it. */
static int plan_cpu_shared(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    ovni_stream_plan *v = &pl->streams[mu->victim];
    int64_t tid = v->tid;
    for (size_t i = 0; i < pl->n; i++)
        if (pl->streams[i].tid >= tid)
            tid = pl->streams[i].tid + 1;
    char dir[64];
    snprintf(dir, sizeof dir, "thread.%lld", (long long)tid);
    size_t t = ovni_plan_add_thread(pl, mu->victim, tid, dir);
    v = &pl->streams[mu->victim];
    v->cpu_mode = OVNI_CPU_ZERO;
    pl->streams[t].cpu_mode = OVNI_CPU_ZERO;
    pl->streams[t].clock0 = v->clock0;
    mu->applied = 1;
    return 1;
}

static void thread_unknown(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    int64_t tid = 0;
    for (size_t i = 0; i < em->plan->n; i++)
        if (em->plan->streams[i].tid > tid)
            tid = em->plan->streams[i].tid;
    emit_i32s(em, "OAr", -1, (int32_t)(tid + 1 + (int64_t)tc_rng_below(mu->rng, 1000)), 2);
}

static void affinity_state(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    /* The thread moves itself while paused. */
    emit_plain(em, "OHp");
    emit_i32s(em, "OAs", -1, 0, 1);
    emit_plain(em, "OHr");
}

/* ---- states of channels and marks ---- */

static void state_pop(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (at_end(mu, em, ev))
        emit_plain(em, "KCI"); /* back on the CPU, never taken off it */
}

static void state_repeat(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_plain(em, "KCO");
    emit_plain(em, "KCO");
    emit_plain(em, "KCI");
}

static void state_depth(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    /* Marks pushed one too many (the mark stacks are not linted). */
    for (unsigned i = 0; i <= 512; i++)
        emit_mark(em, "OM[", 7, 2);
}

static void left_open(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (at_end(mu, em, ev))
        emit_plain(em, "VMa"); /* allocating memory, never done */
}

/* ---- tasks ---- */

static void task_duplicate(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_type(em, TYPE);
    emit_u32s(em, "VTc", TASK, TYPE, 2);
    emit_u32s(em, tc_rng_chance(mu->rng, 1, 2) ? "VTc" : "VTC", TASK, TYPE, 2);
}

static void task_unknown(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (at_end(mu, em, ev))
        emit_u32s(em, "VTx", TASK, 0, 2);
}

static void type_unknown(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (at_end(mu, em, ev))
        emit_u32s(em, "VTc", TASK, TYPE, 2);
}

static void type_duplicate(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_type(em, TYPE);
    emit_type(em, TYPE);
}

static void id_zero(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (at_end(mu, em, ev))
        emit_type(em, 0);
}

static void body_id(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_type(em, TYPE);
    emit_u32s(em, "VTc", TASK, TYPE, 2);
    emit_u32s(em, "VTx", TASK, (uint32_t)tc_rng_range(mu->rng, 1, 9), 2);
}

static void task_state(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_type(em, TYPE);
    emit_u32s(em, "VTc", TASK, TYPE, 2);
    emit_u32s(em, "VTe", TASK, 0, 2); /* it never ran */
}

static void task_nesting(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_type(em, TYPE);
    emit_u32s(em, "VTc", TASK, TYPE, 2);
    emit_u32s(em, "VTc", TASK + 1, TYPE, 2);
    emit_u32s(em, "VTx", TASK, 0, 2);
    emit_u32s(em, "VTx", TASK + 1, 0, 2); /* over the running one */
    emit_u32s(em, "VTe", TASK + 1, 0, 2);
    emit_u32s(em, "VTe", TASK, 0, 2);
}

static void task_stack(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    emit_type(em, TYPE);
    emit_u32s(em, "VTc", TASK, TYPE, 2);
    emit_u32s(em, "VTc", TASK + 1, TYPE, 2);
    emit_u32s(em, "VTx", TASK, 0, 2);
    emit_u32s(em, "VTp", TASK, 0, 2);
    emit_u32s(em, "VTx", TASK + 1, 0, 2);
    emit_u32s(em, "VTr", TASK, 0, 2); /* under the one running over it */
    emit_u32s(em, "VTe", TASK + 1, 0, 2);
    emit_u32s(em, "VTr", TASK, 0, 2);
    emit_u32s(em, "VTe", TASK, 0, 2);
}

/* ---- marks and counters ---- */

static void mark_undeclared(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (at_end(mu, em, ev))
        emit_mark(em, "OM=", 1, (int32_t)tc_rng_range(mu->rng, 3, 99));
}

static void mark_zero(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (at_end(mu, em, ev))
        emit_mark(em, "OM=", 0, OVNI_MARK_SINGLE);
}

static void mark_kind(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    if (tc_rng_chance(mu->rng, 1, 2)) {
        emit_mark(em, "OM=", 5, OVNI_MARK_STACK);
    } else {
        emit_mark(em, "OM[", 5, OVNI_MARK_SINGLE);
    }
}

static void hwc_undeclared(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev)
{
    if (!at_end(mu, em, ev))
        return;
    uint8_t p[8];
    tc_put64(p, 123456789, em->be);
    ovni_ev e;
    ovni_ev_jumbo(&e, "VWC", em->last_clock, p, 8);
    ovni_emit(em, &e);
}

/* ---- declarations in the metadata ---- */

static int plan_meta_mark(ovni_mutation *mu, ovni_plan *pl)
{
    plan_marks(mu, pl);
    pl->streams[mu->victim].mark_style = 1;
    mu->applied = 1;
    return 1;
}

static int plan_meta_hwc(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    pl->streams[mu->victim].hwc_style = 1;
    mu->applied = 1;
    return 1;
}

/* A second stream that declares what the victim does (added when the
 * trace has one stream). */
static size_t other_stream(ovni_mutation *mu, ovni_plan *pl)
{
    if (pl->n == 1) {
        char dir[64];
        int64_t tid = pl->streams[0].tid + 1;
        snprintf(dir, sizeof dir, "thread.%lld", (long long)tid);
        return ovni_plan_add_thread(pl, 0, tid, dir);
    }
    size_t k = (size_t)tc_rng_below(mu->rng, pl->n - 1);
    return k >= mu->victim ? k + 1 : k;
}

static int plan_mark_conflict(ovni_mutation *mu, ovni_plan *pl)
{
    plan_marks(mu, pl);
    size_t o = other_stream(mu, pl);
    pl->streams[o].has_marks = 1;
    pl->streams[mu->victim].mark_style = 2;
    mu->applied = 1;
    return 1;
}

static int plan_hwc_conflict(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    size_t o = other_stream(mu, pl);
    pl->streams[mu->victim].hwc_style = 2;
    pl->streams[o].hwc_style = 3;
    mu->applied = 1;
    return 1;
}

const ovni_mutator ovni_model_mutators[] = {
    {R(OVNI_MODEL_OLD_EVENT), "inserts OCn as nOS-V writes it (8 bytes)", ovni_victim_any, NULL,
     NULL, NULL, old_event, NULL},
    {R(OVNI_THREAD_INACTIVE), "inserts a nOS-V event (VSr) while the thread is paused (OHp ... OHr)",
     plan_nosv, NULL, NULL, NULL, inactive, NULL},
    {R(OVNI_THREAD_OUT_OF_CPU), "inserts OB. between the kernel's KCO and KCI", plan_kernel, NULL,
     NULL, NULL, out_of_cpu, NULL},
    {R(OVNI_CPU_UNKNOWN), "inserts OAs to a CPU index past the loom's CPUs", ovni_victim_any, NULL,
     NULL, NULL, cpu_unknown, NULL},
    {R(OVNI_CPU_SHARED), "adds a thread that runs on CPU 0 from the clock another thread does",
     plan_cpu_shared, NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_THREAD_UNKNOWN), "inserts OAr naming a tid no stream has", ovni_victim_any, NULL, NULL,
     NULL, thread_unknown, NULL},
    {R(OVNI_AFFINITY_STATE), "inserts OAs while the thread is paused (OHp ... OHr)",
     ovni_victim_any, NULL, NULL, NULL, affinity_state, NULL},
    {R(OVNI_STATE_POP), "inserts the kernel's KCI with no KCO before it", plan_kernel, NULL, NULL,
     NULL, state_pop, NULL},
    {R(OVNI_STATE_REPEAT), "inserts KCO twice (then KCI)", plan_kernel, NULL, NULL, NULL,
     state_repeat, NULL},
    {R(OVNI_STATE_DEPTH), "pushes 513 marks at once (OM[)", plan_marks, NULL, NULL, NULL,
     state_depth, NULL},
    {R(OVNI_STATE_OPEN_AT_END), "enters a nOS-V subsystem (VMa) just before OHe", plan_nosv, NULL,
     NULL, NULL, left_open, NULL},
    {R(OVNI_TASK_DUPLICATE), "makes a nOS-V task twice with one id", plan_nosv, NULL, NULL, NULL,
     task_duplicate, NULL},
    {R(OVNI_TASK_UNKNOWN), "runs a nOS-V task never made", plan_nosv, NULL, NULL, NULL,
     task_unknown, NULL},
    {R(OVNI_TASK_TYPE_UNKNOWN), "makes a nOS-V task of a type never made", plan_nosv, NULL, NULL,
     NULL, type_unknown, NULL},
    {R(OVNI_TASK_TYPE_DUPLICATE), "makes a nOS-V task type twice with one id", plan_nosv, NULL,
     NULL, NULL, type_duplicate, NULL},
    {R(OVNI_TASK_ID_ZERO), "makes a nOS-V task type with id 0", plan_nosv, NULL, NULL, NULL,
     id_zero, NULL},
    {R(OVNI_TASK_BODY_ID), "runs a non-parallel nOS-V task with a body id other than 0",
     plan_nosv, NULL, NULL, NULL, body_id, NULL},
    {R(OVNI_TASK_STATE), "ends a nOS-V task that never ran", plan_nosv, NULL, NULL, NULL,
     task_state, NULL},
    {R(OVNI_TASK_NESTING), "runs a nOS-V task over another that is running", plan_nosv, NULL,
     NULL, NULL, task_nesting, NULL},
    {R(OVNI_TASK_STACK), "resumes a paused nOS-V task under another that runs over it",
     plan_nosv, NULL, NULL, NULL, task_stack, NULL},
    {R(OVNI_MARK_UNDECLARED), "sets a mark of a type no stream declares", ovni_victim_any, NULL,
     NULL, NULL, mark_undeclared, NULL},
    {R(OVNI_MARK_VALUE_ZERO), "sets a declared mark to 0", plan_marks, NULL, NULL, NULL,
     mark_zero, NULL},
    {R(OVNI_MARK_KIND), "sets a stack mark, or pushes a single one", plan_marks, NULL, NULL, NULL,
     mark_kind, NULL},
    {R(OVNI_HWC_UNDECLARED), "inserts nOS-V's VWC in a trace without nosv.hwc", plan_nosv, NULL,
     NULL, NULL, hwc_undeclared, NULL},
    {R(OVNI_META_MARK), "declares a mark type whose chan_type is \"queue\"", plan_meta_mark, NULL,
     NULL, NULL, NULL, NULL},
    {R(OVNI_META_HWC), "declares a hardware counter without a name in nosv.hwc", plan_meta_hwc,
     NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_TRACE_MARK_CONFLICT), "gives a mark type another title in a second stream",
     plan_mark_conflict, NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_TRACE_HWC_CONFLICT), "declares one counter in a stream and two in another",
     plan_hwc_conflict, NULL, NULL, NULL, NULL, NULL},
};

const size_t ovni_model_mutator_count = sizeof ovni_model_mutators / sizeof ovni_model_mutators[0];
