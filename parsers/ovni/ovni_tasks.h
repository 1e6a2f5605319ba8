/*
 * The tasks of one model in one process, as ovni's emulator keeps them
 * (src/emu/task.c and body.c): task types, tasks, and the bodies that run
 * them on threads' body stacks. Memory follows what is alive: a body that
 * ended is dropped and its id remembered in a set of ranges (ids are given
 * out in order, so the set stays small), and so is a task whose only body
 * ended. Messages say what the emulator's function refuses, with the ids.
 */
#ifndef TC_OVNI_TASKS_H
#define TC_OVNI_TASKS_H

#include <stdint.h>

#include "../common/idmap.h"
#include "../common/idset.h"

/* How a model's tasks behave (task.h's TASK_FLAG_*). */
#define TC_OVNI_TASK_PARALLEL 1u  /* several bodies, by body id */
#define TC_OVNI_TASK_RESURRECT 2u /* a body may run again after it ended */
#define TC_OVNI_TASK_PAUSE 4u     /* a body may pause */
#define TC_OVNI_TASK_RELAX 8u     /* a body may start over a running one */

typedef enum { TC_OVNI_BODY_CREATED, TC_OVNI_BODY_RUNNING, TC_OVNI_BODY_PAUSED,
               TC_OVNI_BODY_DEAD } tc_ovni_body_state;

extern const char *const tc_ovni_body_state_names[];

typedef struct tc_ovni_task tc_ovni_task;

/* The thread whose body stack holds a body: opaque here. */
typedef struct tc_ovni_stack_owner tc_ovni_stack_owner;

typedef struct tc_ovni_body {
    uint32_t id;
    tc_ovni_task *task;
    tc_ovni_body_state state;
    const tc_ovni_stack_owner *owner; /* on whose stack, NULL when on none */
    uint64_t at;                      /* offset of the event that last changed it */
    const char *at_stream;            /* in which stream */
} tc_ovni_body;

struct tc_ovni_task {
    tc_ovni_task *next_spare;
    uint32_t id, type;  /* type 0: not known (the task ran again after it ended) */
    unsigned flags;
    uint32_t nbodies;   /* made so far */
    tc_ovni_body one;   /* the body of a task that is not parallel */
    tc_idmap bodies;    /* a parallel task's live bodies, by id */
    tc_idset dead;      /* a parallel task's ended bodies */
};

typedef struct tc_ovni_tasktype {
    uint64_t label_hash; /* of the label as the emulator names it */
} tc_ovni_tasktype;

typedef struct tc_ovni_books {
    tc_idmap tasks;  /* live tasks by id */
    tc_idset dead;   /* ids of tasks dropped once their body ended */
    tc_idmap types;  /* task types by id (tc_ovni_tasktype) */
    tc_ovni_task *spare; /* tasks dropped, kept for the next ones (as many as were alive at
                            once, at most) */
} tc_ovni_books;

void tc_ovni_books_free(tc_ovni_books *b);

/* A task by id: a live one, or, when the id is among the ended ones, one
 * made again in the Dead state (flags as given, type 0). NULL: no such
 * task (or out of memory: *oom set). */
tc_ovni_task *tc_ovni_task_find(tc_ovni_books *b, uint32_t id, unsigned flags, int *oom);
/* Whether the id was given to a task, alive or ended. */
int tc_ovni_task_exists(const tc_ovni_books *b, uint32_t id);
tc_ovni_task *tc_ovni_task_create(tc_ovni_books *b, uint32_t id, uint32_t type, unsigned flags);

/* The body with that id (1 for a task that is not parallel), made in the
 * Created state if the task has none; NULL: refused, why in why. */
tc_ovni_body *tc_ovni_body_get(tc_ovni_task *t, uint32_t id, int create, char *why, size_t size);

/* After a body ended: drops what is no longer needed (a parallel task's
 * body, a task whose body cannot run again... kept as ids). */
void tc_ovni_body_ended(tc_ovni_books *b, tc_ovni_body *body);

/* The name ovniemu gives a body: "body(id=1,taskid=5)". */
const char *tc_ovni_body_name(const tc_ovni_body *body, char *buf, size_t size);

uint64_t tc_ovni_label_hash(const char *label, uint32_t type_id);

#endif
