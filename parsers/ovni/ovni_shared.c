/*
 * The model layer, what threads share, judged in clock order across the
 * threads of a loom (ovni_model.h): threads on CPUs (ovniemu's
 * ovni/event.c, cpu.c, thread.c), and tasks, task types and worksharings
 * of a process (task.c, body.c and the nosv, nanos6 and openmp models'
 * event.c). Each message names the emulator function whose refusal it
 * follows in spec/ovni/ovni.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_model_priv.h"

/* ---- the world ---- */

static void free_books(tc_ovni_proc *p)
{
    for (int k = 0; k < TC_OVNI_TASKS__COUNT; k++)
        tc_ovni_books_free(&p->books[k]);
}

void tc_ovni_world_free_books(tc_ovni_world *w)
{
    for (size_t i = 0; i < w->nprocs; i++)
        free_books(&w->procs[i]);
}

tc_ovni_model *tc_ovni_world_thread(const tc_ovni_world *w, int64_t pid, int64_t tid)
{
    tc_ovni_model *other = NULL;
    for (size_t i = 0; i < w->nthreads; i++) {
        tc_ovni_model *t = w->threads[i];
        if (!t->has_tid || t->tid != tid || t->twin)
            continue;
        if (t->pid == pid)
            return t;
        if (!other)
            other = t;
    }
    return other;
}

void tc_ovni_world_declare(tc_ovni_world *w, const tc_ovni_meta *meta)
{
    for (int t = 0; t < TC_OVNI_MARK_TYPES; t++)
        if (meta->mark_kind[t] && !w->mark_kind[t])
            w->mark_kind[t] = meta->mark_kind[t];
    if (meta->hwc_counters && !w->hwc_counters)
        w->hwc_counters = meta->hwc_counters;
}

/* ---- threads on CPUs ---- */

static const char *cpu_name(const tc_ovni_world *w, int32_t cpu, char *buf, size_t size)
{
    if (cpu == TC_OVNI_CPU_VIRTUAL)
        snprintf(buf, size, "the virtual CPU%s%s", w->loom ? " of loom " : "",
                 w->loom ? w->loom : "");
    else if (w->phyids && cpu >= 0 && (size_t)cpu < w->ncpus)
        snprintf(buf, size, "CPU %" PRId32 " (phyid %" PRId64 ") of loom %s", cpu,
                 w->phyids[cpu], w->loom ? w->loom : "?");
    else
        snprintf(buf, size, "CPU %" PRId32, cpu);
    return buf;
}

/* Whether index names a CPU of the loom (ovniemu's loom_get_cpu); reports
 * when it does not. Without the loom's CPU list nothing can be said. */
static int cpu_known(tc_ovni_model *m, const tc_ovni_event *ev, int32_t cpu)
{
    const tc_ovni_world *w = m->world;
    if (cpu == TC_OVNI_CPU_VIRTUAL || !w->cpus_known || (cpu >= 0 && (size_t)cpu < w->ncpus))
        return 1;
    tc_ovni_say(m, TC_RULE_OVNI_CPU_UNKNOWN, ev,
                "%s names CPU index %" PRId32 ", but loom %s has CPUs 0 to %zu (and -1, its "
                "virtual CPU)",
                ev->mcv, cpu, w->loom ? w->loom : "?", w->ncpus - 1);
    return 0;
}

static tc_ovni_cpu_use *use_of(tc_ovni_world *w, int32_t cpu)
{
    if (cpu == TC_OVNI_CPU_VIRTUAL)
        return &w->virtual_use;
    if (cpu >= 0 && w->use && (size_t)cpu < w->ncpus)
        return &w->use[cpu];
    return NULL;
}

/* Thread t starts running on its CPU (ovniemu's cpu_update: only the
 * virtual CPU takes more than one running thread). */
static void run_on(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_model *t)
{
    tc_ovni_world *w = m->world;
    tc_ovni_cpu_use *u = use_of(w, t->cpu);
    if (!u || t->twin)
        return;
    if (u->running && t->cpu != TC_OVNI_CPU_VIRTUAL) {
        /* Who runs there: the last to start, unless that is t itself
         * (then another, found on this error path alone). */
        const tc_ovni_model *o = u->last;
        for (size_t i = 0; o == t && i < w->nthreads; i++)
            if (w->threads[i] != t && w->threads[i]->cpu == t->cpu &&
                w->threads[i]->state == TC_OVNI_TH_RUNNING && !w->threads[i]->twin)
                o = w->threads[i];
        char cpu[96], who[48], other[48], since[200];
        if (o == u->last)
            snprintf(since, sizeof since, "since offset %" PRIu64 " of %s", u->last_at,
                     o->stream ? o->stream : "its stream");
        else
            snprintf(since, sizeof since, "stream %s", o->stream ? o->stream : "?");
        tc_ovni_say(m, TC_RULE_OVNI_CPU_SHARED, ev,
                    "%s: %s runs on %s, where %s runs already (%s); a physical CPU runs one "
                    "thread at a time",
                    ev->mcv, tc_ovni_thread_name(t, who, sizeof who),
                    cpu_name(w, t->cpu, cpu, sizeof cpu), tc_ovni_thread_name(o, other, sizeof other),
                    since);
    }
    u->running++;
    u->last = t;
    u->last_at = ev->offset;
}

static void stop_on(tc_ovni_world *w, const tc_ovni_model *t)
{
    tc_ovni_cpu_use *u = use_of(w, t->cpu);
    if (u && u->running && !t->twin)
        u->running--;
}

static int running(int state) { return state == TC_OVNI_TH_RUNNING; }

/* Thread events OH*: ruling 8, and what ovniemu's pre_thread_* refuse. */
static void thread_event(tc_ovni_model *m, const tc_ovni_event *ev)
{
    char v = ev->mcv[2];
    int from = m->state, to = -1, ok = 0;
    switch (v) {
    case 'x': ok = from == TC_OVNI_TH_NEW; to = TC_OVNI_TH_RUNNING; break;
    case 'e': ok = from == TC_OVNI_TH_RUNNING || from == TC_OVNI_TH_COOLING; to = TC_OVNI_TH_ENDED; break;
    case 'p': ok = from == TC_OVNI_TH_RUNNING || from == TC_OVNI_TH_COOLING; to = TC_OVNI_TH_PAUSED; break;
    case 'r': ok = from == TC_OVNI_TH_PAUSED || from == TC_OVNI_TH_WARMING; to = TC_OVNI_TH_RUNNING; break;
    case 'c': ok = from == TC_OVNI_TH_RUNNING; to = TC_OVNI_TH_COOLING; break;
    case 'w': ok = from == TC_OVNI_TH_PAUSED; to = TC_OVNI_TH_WARMING; break;
    default: return; /* OHC: creating another thread changes nothing here */
    }
    if (from == TC_OVNI_TH_ENDED)
        return; /* reported as an event after the end */
    if (from == TC_OVNI_TH_NEW && v != 'x')
        tc_report(m->d, TC_RULE_OVNI_THREAD_BEFORE_START, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "%s before the thread's first OHx", ev->mcv);
    else if (v == 'x' && from == TC_OVNI_TH_RUNNING)
        tc_report_ex(m->d, TC_RULE_OVNI_THREAD_RUNNING, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                     TC_EXTRA(TC_RELATED(m->started_at)),
                     "OHx while the thread is already running (since offset %" PRIu64 ")",
                     m->started_at);
    else if (v == 'x' && !ok)
        tc_report(m->d, TC_RULE_OVNI_THREAD_STATE, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "OHx while the thread is %s: it has a CPU already (ovniemu's thread_set_cpu)",
                  tc_ovni_thread_state_names[from]);
    else if (!ok)
        tc_report(m->d, TC_RULE_OVNI_THREAD_STATE, ev->offset, TC_OVNI_EVENT_HEADER_SIZE,
                  "%s while the thread is %s", ev->mcv, tc_ovni_thread_state_names[from]);
    if (v == 'x' && from == TC_OVNI_TH_NEW)
        m->started_at = ev->offset;
    if (!ok)
        return; /* a refused transition leaves the state as it was */
    tc_ovni_world *w = m->world;
    if (v == 'x') {
        int32_t cpu = TC_OVNI_CPU_NONE;
        if (ev->payload && ev->payload_len == 16 && !ev->jumbo) {
            cpu = (int32_t)tc_ovni_event_u32(ev, 0);
            if (!cpu_known(m, ev, cpu))
                cpu = TC_OVNI_CPU_NONE;
        }
        m->cpu = cpu;
        m->state = to;
        tc_ovni_model_refresh(m);
        run_on(m, ev, m);
        return;
    }
    int was = running(from), is = running(to);
    if (was && !is)
        stop_on(w, m);
    m->state = to;
    tc_ovni_model_refresh(m);
    if (!was && is)
        run_on(m, ev, m);
    if (to == TC_OVNI_TH_ENDED)
        m->cpu = TC_OVNI_CPU_NONE;
}

/* Thread t moves to cpu (known): ovniemu's cpu_migrate_thread. */
static void migrate(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_model *t, int32_t cpu)
{
    if (running(t->state))
        stop_on(m->world, t);
    t->cpu = cpu;
    if (running(t->state))
        run_on(m, ev, t);
}

/* OAs: ovniemu's pre_affinity_set. */
static void affinity_set(tc_ovni_model *m, const tc_ovni_event *ev)
{
    int32_t cpu = (int32_t)tc_ovni_event_u32(ev, 0);
    int st = m->state;
    if (m->cpu == TC_OVNI_CPU_NONE && st == TC_OVNI_TH_NEW) {
        tc_ovni_say(m, TC_RULE_OVNI_AFFINITY_STATE, ev,
                    "OAs moves the thread to CPU index %" PRId32 " before it runs (no OHx "
                    "before it): it has no CPU to leave",
                    cpu);
        return;
    }
    if (st != TC_OVNI_TH_RUNNING && st != TC_OVNI_TH_COOLING && st != TC_OVNI_TH_WARMING) {
        tc_ovni_say(m, TC_RULE_OVNI_AFFINITY_STATE, ev,
                    "OAs moves the thread to CPU index %" PRId32 " while it is %s; a thread moves "
                    "itself while running, cooling or warming",
                    cpu, tc_ovni_thread_state_names[st]);
        return;
    }
    if (!cpu_known(m, ev, cpu) || m->cpu == TC_OVNI_CPU_NONE || cpu == m->cpu)
        return;
    migrate(m, ev, m, cpu);
}

/* OAr: ovniemu's pre_affinity_remote. */
static void affinity_remote(tc_ovni_model *m, const tc_ovni_event *ev)
{
    int32_t cpu = (int32_t)tc_ovni_event_u32(ev, 0);
    int32_t tid = (int32_t)tc_ovni_event_u32(ev, 4);
    tc_ovni_world *w = m->world;
    if (!w->loom && !m->own_world)
        return;
    /* A thread that names itself is itself, whoever else has its tid. */
    tc_ovni_model *t = m->has_tid && m->tid == tid ? m : tc_ovni_world_thread(w, m->pid, tid);
    if (!t) {
        /* A stream read alone knows no other thread; nor a loom some of
         * whose streams give no tid. */
        if (!m->own_world && w->tids_known)
            tc_ovni_say(m, TC_RULE_OVNI_THREAD_UNKNOWN, ev,
                        "OAr moves thread %" PRId32 " to CPU index %" PRId32 ", but no stream of "
                        "loom %s is thread %" PRId32,
                        tid, cpu, w->loom ? w->loom : "?", tid);
        return;
    }
    char who[48];
    if (t->state == TC_OVNI_TH_ENDED || t->state == TC_OVNI_TH_NEW) {
        tc_ovni_thread_name(t, who, sizeof who);
        tc_ovni_say(m, TC_RULE_OVNI_AFFINITY_STATE, ev,
                    "OAr moves %s to CPU index %" PRId32 ", but %s %s", who, cpu, who,
                    t->state == TC_OVNI_TH_NEW ? "has not started (no OHx of it yet)"
                                               : "has ended (OHe)");
        return;
    }
    if (t->cpu == TC_OVNI_CPU_NONE)
        return; /* its OHx named no CPU tracecheck could tell */
    if (!cpu_known(m, ev, cpu))
        return;
    if (t->cpu == cpu) {
        char where[96];
        tc_ovni_thread_name(t, who, sizeof who);
        tc_ovni_say(m, TC_RULE_OVNI_AFFINITY_STATE, ev,
                    "OAr moves %s to %s, where it is already; the emulator refuses to set a "
                    "thread's CPU to the one it has (its thread_migrate_cpu)",
                    who, cpu_name(w, cpu, where, sizeof where));
        return;
    }
    migrate(m, ev, t, cpu);
}

/* ---- tasks ---- */

/* How each model with tasks keeps them (the models' create_task and
 * update_task_state). */
typedef struct task_model {
    tc_ovni_model_id model;
    int slot;
    unsigned flags, parallel_flags;
    int body_in_payload;           /* nosv: u32 bodyid after the task id */
    tc_ovni_chan_id subsystem;     /* the channel a body's run is entered in, or NOCHAN */
    tc_ovni_state_id body_state;
    int zero_at_create;            /* openmp: ids 0 refused when made */
    const char *create, *execute;  /* event names for messages */
} task_model;

static const task_model task_models[] = {
    {TC_OVNI_M_NOSV, TC_OVNI_TASKS_NOSV, TC_OVNI_TASK_RESURRECT | TC_OVNI_TASK_PAUSE,
     TC_OVNI_TASK_PARALLEL, 1, TC_OVNI_CH_NOSV_SUBSYSTEM, TC_OVNI_ST_NOSV_TASK_BODY, 0, "VTc/VTC",
     "VTx"},
    {TC_OVNI_M_NANOS6, TC_OVNI_TASKS_NANOS6, TC_OVNI_TASK_PAUSE | TC_OVNI_TASK_RELAX, 0, 0,
     TC_OVNI_CH_NANOS6_SUBSYSTEM, TC_OVNI_ST_NANOS6_TASK_BODY, 0, "6Tc", "6Tx"},
    {TC_OVNI_M_OPENMP, TC_OVNI_TASKS_OPENMP, TC_OVNI_TASK_RELAX | TC_OVNI_TASK_RESURRECT, 0, 0,
     TC_OVNI_CH_NOCHAN, TC_OVNI_ST_NOSTATE, 1, "PPc", "PPx"},
};

static const task_model *task_model_of(tc_ovni_model_id id)
{
    for (size_t i = 0; i < sizeof task_models / sizeof task_models[0]; i++)
        if (task_models[i].model == id)
            return &task_models[i];
    return NULL;
}

static tc_ovni_books *books_of(tc_ovni_model *m, const task_model *tm)
{
    return &m->world->procs[m->proc].books[tm->slot];
}

static const char *proc_name(const tc_ovni_model *m, char *buf, size_t size)
{
    if (m->world->procs[m->proc].pid)
        snprintf(buf, size, "process %" PRId64, m->world->procs[m->proc].pid);
    else
        snprintf(buf, size, "the process");
    return buf;
}

static void oom(tc_ovni_model *m)
{
    m->failed = 1;
    tc_ovni_model_refresh(m);
    tc_diag_fail(m->d, "out of memory for the tasks of a trace");
}

static void type_create(tc_ovni_model *m, const tc_ovni_event *ev, const task_model *tm)
{
    uint32_t id = tc_ovni_event_u32(ev, 0);
    tc_ovni_books *b = books_of(m, tm);
    char p[48];
    if (id == 0) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_ID_ZERO, ev,
                    "%s makes task type 0; type ids start at 1 (the emulator's task_type_create)",
                    ev->mcv);
        return;
    }
    if (tc_idmap_get(&b->types, id)) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_TYPE_DUPLICATE, ev,
                    "%s makes task type %u of %s, which %s made already", ev->mcv, (unsigned)id,
                    tc_ovni_model_table[tm->model].name, proc_name(m, p, sizeof p));
        return;
    }
    tc_ovni_tasktype *t = malloc(sizeof *t);
    if (!t || tc_idmap_put(&b->types, id, t) != 0) {
        free(t);
        oom(m);
        return;
    }
    t->label_hash = tc_ovni_label_hash((const char *)ev->payload + 4, id);
}

static void task_create(tc_ovni_model *m, const tc_ovni_event *ev, const task_model *tm,
                        int parallel)
{
    uint32_t id = tc_ovni_event_u32(ev, 0), type = tc_ovni_event_u32(ev, 4);
    tc_ovni_books *b = books_of(m, tm);
    char p[48];
    if (tm->zero_at_create && (id == 0 || type == 0)) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_ID_ZERO, ev,
                    "%s makes task %u of type %u; task and type ids start at 1 (the openmp "
                    "model's create_task)",
                    ev->mcv, (unsigned)id, (unsigned)type);
        return;
    }
    if (tc_ovni_task_exists(b, id)) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_DUPLICATE, ev,
                    "%s makes task %u, which %s made already (the emulator's task_create)",
                    ev->mcv, (unsigned)id, proc_name(m, p, sizeof p));
        return;
    }
    if (!tc_idmap_get(&b->types, type)) {
        /* A stream read alone does not see the types its process's other
         * threads made: the task is not followed. */
        if (m->own_world)
            return;
        tc_ovni_say(m, TC_RULE_OVNI_TASK_TYPE_UNKNOWN, ev,
                    "%s makes task %u of type %u, but %s made no %s task type %u (the "
                    "emulator's task_create)",
                    ev->mcv, (unsigned)id, (unsigned)type, proc_name(m, p, sizeof p),
                    tc_ovni_model_table[tm->model].name, (unsigned)type);
        return;
    }
    if (!tc_ovni_task_create(b, id, type, parallel ? tm->parallel_flags : tm->flags))
        oom(m);
}

static const char *label_name(const tc_ovni_namer *n, int64_t value, char *buf, size_t size)
{
    (void)n;
    snprintf(buf, size, "type %" PRId64, value);
    return buf;
}

static const char *omp_words(const tc_ovni_namer *n, char *buf, size_t size)
{
    (void)n;
    snprintf(buf, size, "the thread's openmp tasks and worksharings (their types, innermost last)");
    return buf;
}

static void omp_labels(tc_ovni_namer *n)
{
    n->channel = omp_words;
    n->name = label_name;
    n->arg = 0;
}

/* The openmp label stack holds type ids; two types of the same label are
 * one label to the emulator, so a pop compares labels. */
static int64_t omp_label_of(tc_ovni_books *b, uint32_t type)
{
    const tc_ovni_tasktype *t = tc_idmap_get(&b->types, type);
    return t ? (int64_t)(t->label_hash >> 1) : -(int64_t)type;
}

static void body_event(tc_ovni_model *m, const tc_ovni_event *ev, const task_model *tm, char v)
{
    tc_ovni_books *b = books_of(m, tm);
    uint32_t id = tc_ovni_event_u32(ev, 0);
    char p[48], name[48], other[48], why[160];
#define NAME() tc_ovni_body_name(body, name, sizeof name)
    if (tm->zero_at_create && id == 0) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_ID_ZERO, ev,
                    "%s names task 0; task ids start at 1 (the openmp model's update_task)",
                    ev->mcv);
        return;
    }
    /* A body ends, pauses or resumes as the innermost of its thread: the
     * task is at hand, with no lookup. */
    tc_ovni_body_stack *stack = &m->bodies[tm->slot];
    tc_ovni_body *top = stack->n ? stack->v[stack->n - 1] : NULL;
    int out_of_memory = 0;
    tc_ovni_task *t = v != 'x' && top && top->task->id == id
                          ? top->task
                          : tc_ovni_task_find(b, id, tm->flags, &out_of_memory);
    if (out_of_memory) {
        oom(m);
        return;
    }
    if (!t) {
        if (m->own_world)
            return; /* made by another thread, which a stream read alone does not see */
        tc_ovni_say(m, TC_RULE_OVNI_TASK_UNKNOWN, ev,
                    "%s names task %u, which %s never made (no %s of it before; the %s model's "
                    "update_task_state)",
                    ev->mcv, (unsigned)id, proc_name(m, p, sizeof p), tm->create,
                    tc_ovni_model_table[tm->model].name);
        return;
    }
    uint32_t body_id = 1;
    if (tm->body_in_payload) {
        uint32_t given = tc_ovni_event_u32(ev, 4);
        int parallel = (t->flags & TC_OVNI_TASK_PARALLEL) != 0;
        if (parallel ? given == 0 : given != 0) {
            tc_ovni_say(m, TC_RULE_OVNI_TASK_BODY_ID, ev,
                        "%s names body %u of %s task %u; %s",
                        ev->mcv, (unsigned)given, parallel ? "parallel" : "non-parallel",
                        (unsigned)id,
                        parallel ? "the bodies of a parallel task are numbered from 1"
                                 : "a task that is not parallel has one body, named 0");
            return;
        }
        if (parallel)
            body_id = given;
    }
    tc_ovni_body *body = tc_ovni_body_get(t, body_id, v == 'x', why, sizeof why);
    if (!body) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_STATE, ev, "%s: %s", ev->mcv, why);
        return;
    }
    const char *since = body->at_stream ? body->at_stream : "";
    if (v == 'x') {
        if (body->state == TC_OVNI_BODY_DEAD) {
            if (!(t->flags & TC_OVNI_TASK_RESURRECT)) {
                tc_ovni_say(m, TC_RULE_OVNI_TASK_STATE, ev,
                            "%s runs %s again, but it has ended and %s bodies do not run again "
                            "(the emulator's body_execute)",
                            ev->mcv, NAME(), tc_ovni_model_table[tm->model].name);
                return;
            }
            body->state = TC_OVNI_BODY_CREATED;
        }
        if (body->state == TC_OVNI_BODY_PAUSED) {
            tc_ovni_say(m, TC_RULE_OVNI_TASK_STATE, ev,
                        "%s runs %s, which is Paused (offset %" PRIu64 " of %s): a paused body "
                        "is resumed, not run again (the emulator's body_execute)",
                        ev->mcv, NAME(), body->at, since);
            return;
        }
        if (body->state != TC_OVNI_BODY_CREATED) {
            tc_ovni_say(m, TC_RULE_OVNI_TASK_STATE, ev,
                        "%s runs %s, which must be Created but is %s (since offset %" PRIu64
                        " of %s; the emulator's body_execute)",
                        ev->mcv, NAME(), tc_ovni_body_state_names[body->state], body->at, since);
            return;
        }
        /* Reported, then taken as nested: the thread's later events (the
         * nested body's end, the other's) are judged as the runtime meant
         * them, not as the refusal would leave them. */
        if (top && top->state == TC_OVNI_BODY_RUNNING && !(t->flags & TC_OVNI_TASK_RELAX))
            tc_ovni_say(m, TC_RULE_OVNI_TASK_NESTING, ev,
                        "%s runs %s over %s, which is running on this thread: a body runs over "
                        "a paused one only (the emulator's body_execute)",
                        ev->mcv, NAME(), tc_ovni_body_name(top, other, sizeof other));
        if (stack->n == stack->cap) {
            uint32_t cap = stack->cap ? stack->cap * 2 : 8;
            tc_ovni_body **nv = realloc(stack->v, cap * sizeof *nv);
            if (!nv) {
                oom(m);
                return;
            }
            stack->v = nv;
            stack->cap = cap;
        }
        stack->v[stack->n++] = body;
        body->state = TC_OVNI_BODY_RUNNING;
        body->owner = (const tc_ovni_stack_owner *)m;
        body->at = ev->offset;
        body->at_stream = m->stream;
        if (t->id == 0 && !tm->zero_at_create)
            tc_ovni_say(m, TC_RULE_OVNI_TASK_ID_ZERO, ev,
                        "%s runs task 0; task ids start at 1 (the %s model's chan_body_running)",
                        ev->mcv, tc_ovni_model_table[tm->model].name);
        tc_ovni_namer n;
        if (tm->subsystem != TC_OVNI_CH_NOCHAN) {
            tc_ovni_chan_namer(&n, tm->subsystem);
            tc_ovni_chan_push(m, ev, &m->chans[tm->subsystem], tc_ovni_chans[tm->subsystem].dup,
                              tm->body_state, &n);
        } else {
            omp_labels(&n);
            tc_ovni_chan_push(m, ev, &m->omp_labels, 1, omp_label_of(b, t->type), &n);
        }
        return;
    }
    /* End, pause, resume: the body is on this thread's stack, innermost. */
    tc_ovni_body_state want = v == 'r' ? TC_OVNI_BODY_PAUSED : TC_OVNI_BODY_RUNNING;
    if (v == 'p' && !(t->flags & TC_OVNI_TASK_PAUSE)) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_STATE, ev,
                    "%s pauses %s, but %s%s tasks do not pause (the emulator's body_pause)",
                    ev->mcv, NAME(), (t->flags & TC_OVNI_TASK_PARALLEL) ? "parallel " : "",
                    tc_ovni_model_table[tm->model].name);
        return;
    }
    if (body->state != want) {
        char when[160] = "";
        if (body->at_stream)
            snprintf(when, sizeof when, " (since offset %" PRIu64 " of %s)", body->at, since);
        tc_ovni_say(m, TC_RULE_OVNI_TASK_STATE, ev,
                    "%s %s %s, which must be %s but is %s%s; the emulator's body_%s refuses it",
                    ev->mcv, v == 'e' ? "ends" : v == 'p' ? "pauses" : "resumes", NAME(),
                    tc_ovni_body_state_names[want], tc_ovni_body_state_names[body->state], when,
                    v == 'e' ? "end" : v == 'p' ? "pause" : "resume");
        return;
    }
    if (body->owner != (const tc_ovni_stack_owner *)m) {
        const tc_ovni_model *o = (const tc_ovni_model *)body->owner;
        tc_ovni_say(m, TC_RULE_OVNI_TASK_STACK, ev,
                    "%s %s %s, which %s runs (offset %" PRIu64 " of %s), not this thread",
                    ev->mcv, v == 'e' ? "ends" : v == 'p' ? "pauses" : "resumes", NAME(),
                    o ? tc_ovni_thread_name(o, other, sizeof other) : "another thread", body->at,
                    since);
        return;
    }
    if (top != body) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_STACK, ev,
                    "%s %s %s, but the innermost body of the thread is %s: bodies end, pause and "
                    "resume innermost first (the emulator's body_%s)",
                    ev->mcv, v == 'e' ? "ends" : v == 'p' ? "pauses" : "resumes", NAME(),
                    top ? tc_ovni_body_name(top, other, sizeof other) : "none",
                    v == 'e' ? "end" : v == 'p' ? "pause" : "resume");
        return;
    }
    body->at = ev->offset;
    body->at_stream = m->stream;
    if (v == 'p') {
        body->state = TC_OVNI_BODY_PAUSED;
        return;
    }
    if (v == 'r') {
        body->state = TC_OVNI_BODY_RUNNING;
        if (t->id == 0 && !tm->zero_at_create)
            tc_ovni_say(m, TC_RULE_OVNI_TASK_ID_ZERO, ev,
                        "%s resumes task 0; task ids start at 1 (the %s model's "
                        "chan_body_running)",
                        ev->mcv, tc_ovni_model_table[tm->model].name);
        return;
    }
    stack->n--;
    body->state = TC_OVNI_BODY_DEAD;
    body->owner = NULL;
    int64_t label = omp_label_of(b, t->type);
    int known_type = t->type != 0;
    tc_ovni_body_ended(b, body); /* body and perhaps t are gone */
    tc_ovni_namer n;
    if (tm->subsystem != TC_OVNI_CH_NOCHAN) {
        tc_ovni_chan_namer(&n, tm->subsystem);
        tc_ovni_chan_pop(m, ev, &m->chans[tm->subsystem], tm->body_state, &n);
    } else if (known_type) {
        omp_labels(&n);
        tc_ovni_chan_pop(m, ev, &m->omp_labels, label, &n);
    } else if (m->omp_labels.n) {
        m->omp_labels.n--; /* a task made again after it ended: its type is not known */
    }
}

#undef NAME

/* openmp's PQx and PQe: ovniemu's update_ws_state. */
static void worksharing(tc_ovni_model *m, const tc_ovni_event *ev, const task_model *tm, char v)
{
    uint32_t type = tc_ovni_event_u32(ev, 0);
    tc_ovni_books *b = books_of(m, tm);
    char p[48];
    if (type == 0) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_ID_ZERO, ev,
                    "%s names worksharing type 0; type ids start at 1 (the openmp model's "
                    "update_ws_state)",
                    ev->mcv);
        return;
    }
    if (!tc_idmap_get(&b->types, type) && !m->own_world) {
        tc_ovni_say(m, TC_RULE_OVNI_TASK_TYPE_UNKNOWN, ev,
                    "%s names worksharing type %u, but %s made no openmp type %u (POc)", ev->mcv,
                    (unsigned)type, proc_name(m, p, sizeof p), (unsigned)type);
        return;
    }
    tc_ovni_namer n;
    omp_labels(&n);
    if (v == 'x')
        tc_ovni_chan_push(m, ev, &m->omp_labels, 1, omp_label_of(b, type), &n);
    else
        tc_ovni_chan_pop(m, ev, &m->omp_labels, omp_label_of(b, type), &n);
}

/* ---- nosv's hardware counters ---- */

void tc_ovni_hwc_event(tc_ovni_model *m, const tc_ovni_event *ev)
{
    const tc_ovni_world *w = m->world;
    if (!w->hwc_known)
        return;
    if (!w->hwc_counters) {
        tc_ovni_say(m, TC_RULE_OVNI_HWC_UNDECLARED, ev,
                    "%s gives hardware counter values, but no stream's nosv.hwc declares a "
                    "counter", ev->mcv);
        return;
    }
    if (ev->payload_len != w->hwc_counters * 8)
        tc_report(m->d, TC_RULE_OVNI_MODEL_PAYLOAD, ev->offset, 1,
                  "%s carries %" PRIu32 " bytes of counter values; nosv.hwc declares %zu "
                  "counters, %zu bytes",
                  ev->mcv, ev->payload_len, w->hwc_counters, w->hwc_counters * 8);
}

/* ---- the shared part of an event ---- */

void tc_ovni_model_shared(tc_ovni_model *m, const tc_ovni_event *ev, const tc_ovni_event_info *e)
{
    if (m->failed)
        return;
    const task_model *tm = task_model_of(e->model);
    switch (e->action) {
    case TC_OVNI_A_THREAD_EXECUTE:
    case TC_OVNI_A_THREAD_END:
    case TC_OVNI_A_THREAD_PAUSE:
    case TC_OVNI_A_THREAD_RESUME:
    case TC_OVNI_A_THREAD_COOL:
    case TC_OVNI_A_THREAD_WARM: thread_event(m, ev); break;
    case TC_OVNI_A_AFFINITY_SET: affinity_set(m, ev); break;
    case TC_OVNI_A_AFFINITY_REMOTE: affinity_remote(m, ev); break;
    case TC_OVNI_A_TYPE_CREATE:
        if (tm)
            type_create(m, ev, tm);
        break;
    case TC_OVNI_A_TASK_CREATE:
    case TC_OVNI_A_TASK_CREATE_PARALLEL:
        if (tm)
            task_create(m, ev, tm, e->action == TC_OVNI_A_TASK_CREATE_PARALLEL);
        break;
    case TC_OVNI_A_TASK_EXECUTE:
    case TC_OVNI_A_TASK_END:
    case TC_OVNI_A_TASK_PAUSE:
    case TC_OVNI_A_TASK_RESUME:
        if (tm)
            body_event(m, ev, tm, ev->mcv[2]);
        break;
    case TC_OVNI_A_WS_BEGIN:
    case TC_OVNI_A_WS_END:
        if (tm)
            worksharing(m, ev, tm, ev->mcv[2]);
        break;
    default: break;
    }
}
