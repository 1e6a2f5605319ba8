#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_tasks.h"

const char *const tc_ovni_body_state_names[] = {"Created", "Running", "Paused", "Dead"};

static void free_value(void *value, void *user)
{
    (void)user;
    free(value);
}

static void free_task(void *value, void *user)
{
    (void)user;
    tc_ovni_task *t = value;
    tc_idmap_each(&t->bodies, free_value, NULL);
    tc_idmap_free(&t->bodies);
    tc_idset_free(&t->dead);
    free(t);
}

void tc_ovni_books_free(tc_ovni_books *b)
{
    while (b->spare) {
        tc_ovni_task *t = b->spare;
        b->spare = t->next_spare;
        free(t);
    }
    tc_idmap_each(&b->tasks, free_task, NULL);
    tc_idmap_free(&b->tasks);
    tc_idset_free(&b->dead);
    tc_idmap_each(&b->types, free_value, NULL);
    tc_idmap_free(&b->types);
}

tc_ovni_task *tc_ovni_task_create(tc_ovni_books *b, uint32_t id, uint32_t type, unsigned flags)
{
    tc_ovni_task *t = b->spare;
    if (t) {
        b->spare = t->next_spare;
        memset(t, 0, sizeof *t);
    } else if (!(t = calloc(1, sizeof *t))) {
        return NULL;
    }
    t->id = id;
    t->type = type;
    t->flags = flags;
    t->one.id = 1;
    t->one.task = t;
    if (tc_idmap_put(&b->tasks, id, t) != 0) {
        t->next_spare = b->spare;
        b->spare = t;
        return NULL;
    }
    tc_idset_remove(&b->dead, id);
    return t;
}

int tc_ovni_task_exists(const tc_ovni_books *b, uint32_t id)
{
    return tc_idmap_get(&b->tasks, id) != NULL || tc_idset_has(&b->dead, id);
}

tc_ovni_task *tc_ovni_task_find(tc_ovni_books *b, uint32_t id, unsigned flags, int *oom)
{
    tc_ovni_task *t = tc_idmap_get(&b->tasks, id);
    if (t || !tc_idset_has(&b->dead, id))
        return t;
    /* Dropped when its body ended: back, as the emulator still has it. */
    t = tc_ovni_task_create(b, id, 0, flags);
    if (!t) {
        *oom = 1;
        return NULL;
    }
    t->nbodies = 1;
    t->one.state = TC_OVNI_BODY_DEAD;
    return t;
}

tc_ovni_body *tc_ovni_body_get(tc_ovni_task *t, uint32_t id, int create, char *why, size_t size)
{
    if (!(t->flags & TC_OVNI_TASK_PARALLEL)) {
        if (t->nbodies == 0) {
            if (!create) {
                snprintf(why, size, "task %u has no body: it never ran", (unsigned)t->id);
                return NULL;
            }
            t->nbodies = 1;
            t->one.state = TC_OVNI_BODY_CREATED;
        }
        return &t->one;
    }
    tc_ovni_body *body = tc_idmap_get(&t->bodies, id);
    if (body)
        return body;
    if (tc_idset_has(&t->dead, id)) {
        /* An ended body of a parallel task: it cannot run again (parallel
         * tasks do not resurrect), so only its state is needed. */
        if (!create) {
            snprintf(why, size, "body %u of parallel task %u has ended", (unsigned)id,
                     (unsigned)t->id);
            return NULL;
        }
        snprintf(why, size, "body(id=%u,taskid=%u) has ended and is not allowed to run again",
                 (unsigned)id, (unsigned)t->id);
        return NULL;
    }
    if (!create) {
        snprintf(why, size, "parallel task %u has no body %u", (unsigned)t->id, (unsigned)id);
        return NULL;
    }
    body = calloc(1, sizeof *body);
    if (!body || tc_idmap_put(&t->bodies, id, body) != 0) {
        free(body);
        snprintf(why, size, "out of memory");
        return NULL;
    }
    body->id = id;
    body->task = t;
    body->state = TC_OVNI_BODY_CREATED;
    t->nbodies++;
    return body;
}

void tc_ovni_body_ended(tc_ovni_books *b, tc_ovni_body *body)
{
    tc_ovni_task *t = body->task;
    if (t->flags & TC_OVNI_TASK_PARALLEL) {
        tc_idmap_remove(&t->bodies, body->id);
        tc_idset_add(&t->dead, body->id);
        free(body);
        return;
    }
    /* The task's one body ended: the task is an id now (the emulator keeps
     * it Dead, or lets it run again when its model resurrects bodies). */
    tc_idmap_remove(&b->tasks, t->id);
    tc_idset_add(&b->dead, t->id);
    /* A task that is not parallel holds nothing of its own: kept for the
     * next one. */
    t->next_spare = b->spare;
    b->spare = t;
}

const char *tc_ovni_body_name(const tc_ovni_body *body, char *buf, size_t size)
{
    snprintf(buf, size, "body(id=%u,taskid=%u)", (unsigned)body->id, (unsigned)body->task->id);
    return buf;
}

/* FNV-1a over the label as the emulator names the type: an empty label is
 * "(unlabeled task type ID)". Equal labels, equal hashes: the emulator
 * tells labels apart by a hash of them. */
uint64_t tc_ovni_label_hash(const char *label, uint32_t type_id)
{
    char unlabeled[48];
    if (!label[0]) {
        snprintf(unlabeled, sizeof unlabeled, "(unlabeled task type %u)", (unsigned)type_id);
        label = unlabeled;
    }
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)label; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}
