/*
 * The models ovni's emulator knows, compiled from spec/ovni/models.def: the
 * model of each letter, the state channels a thread has in it and their
 * states, and every event with its payload layout and what it does. Lookups
 * are constant tables: nothing here is built at run time.
 */
#ifndef TC_OVNI_MODELS_H
#define TC_OVNI_MODELS_H

#include <stddef.h>
#include <stdint.h>

/* ---- models ---- */

typedef enum tc_ovni_model_id {
#define TC_OVNI_MODEL(ID, LETTER, NAME, VERSION, NEEDS, WHO) TC_OVNI_M_##ID,
#include "../../spec/ovni/models.def"
    TC_OVNI_M__COUNT,
    TC_OVNI_M_NONE = TC_OVNI_M__COUNT
} tc_ovni_model_id;

/* What a thread must be for a model's events (ovniemu's process_ev). */
typedef enum tc_ovni_needs {
    TC_OVNI_NEEDS_ANY,
    TC_OVNI_NEEDS_ACTIVE,  /* running, cooling or warming */
    TC_OVNI_NEEDS_RUNNING,
    TC_OVNI_NEEDS_OVNI     /* ovni's own: its thread events say (rulings 8, 13) */
} tc_ovni_needs;

typedef struct tc_ovni_model_info {
    char letter;
    const char *name;
    const char *version;   /* "MAJOR.MINOR.PATCH" */
    tc_ovni_needs needs;
    const char *who;       /* the runtime or library that writes its events */
} tc_ovni_model_info;

extern const tc_ovni_model_info tc_ovni_model_table[TC_OVNI_M__COUNT];

/* The model of a letter, or TC_OVNI_M_NONE. */
tc_ovni_model_id tc_ovni_model_of_letter(unsigned char letter);
/* The model of a name ("nosv"), or TC_OVNI_M_NONE. */
tc_ovni_model_id tc_ovni_model_of_name(const char *name);

/* ---- channels and states ---- */

typedef enum tc_ovni_chan_id {
    TC_OVNI_CH_NOCHAN = -1,
#define TC_OVNI_CHAN(MODEL, CHAN, NAME, KIND, DUP, LINT, INIT) TC_OVNI_CH_##MODEL##_##CHAN,
#include "../../spec/ovni/models.def"
    TC_OVNI_CH__COUNT
} tc_ovni_chan_id;

typedef struct tc_ovni_chan_info {
    tc_ovni_model_id model;
    const char *name;
    int stack;  /* 1: entered and left in nested order; 0: a value set */
    int dup;    /* the same state may be entered over itself, or set again */
    int lint;   /* left empty by the end of a thread's stream (ovniemu -l) */
    int init;   /* a single channel's state before any event (tc_ovni_state_id), or -1 */
} tc_ovni_chan_info;

extern const tc_ovni_chan_info tc_ovni_chans[TC_OVNI_CH__COUNT];

typedef enum tc_ovni_state_id {
    TC_OVNI_ST_NOSTATE = -1,
#define TC_OVNI_STATE(MODEL, CHAN, NAME, WORDS) TC_OVNI_ST_##MODEL##_##NAME,
#include "../../spec/ovni/models.def"
    TC_OVNI_ST__COUNT
} tc_ovni_state_id;

typedef struct tc_ovni_state_info {
    tc_ovni_chan_id chan;
    const char *name;  /* TASK_BODY */
    const char *words; /* "running a task body" */
} tc_ovni_state_info;

extern const tc_ovni_state_info tc_ovni_states[TC_OVNI_ST__COUNT];

/* ---- events ---- */

/* What an event does to the model's books. */
typedef enum tc_ovni_action {
    TC_OVNI_A_NONE,
    TC_OVNI_A_PUSH, TC_OVNI_A_POP, TC_OVNI_A_SET,
    TC_OVNI_A_THREAD_EXECUTE, TC_OVNI_A_THREAD_END, TC_OVNI_A_THREAD_PAUSE,
    TC_OVNI_A_THREAD_RESUME, TC_OVNI_A_THREAD_COOL, TC_OVNI_A_THREAD_WARM,
    TC_OVNI_A_THREAD_CREATE,
    TC_OVNI_A_AFFINITY_SET, TC_OVNI_A_AFFINITY_REMOTE,
    TC_OVNI_A_FLUSH_BEGIN, TC_OVNI_A_FLUSH_END,
    TC_OVNI_A_UNSORTED_BEGIN, TC_OVNI_A_UNSORTED_END,
    TC_OVNI_A_MARK_PUSH, TC_OVNI_A_MARK_POP, TC_OVNI_A_MARK_SET,
    TC_OVNI_A_TASK_CREATE, TC_OVNI_A_TASK_CREATE_PARALLEL, TC_OVNI_A_TASK_EXECUTE,
    TC_OVNI_A_TASK_END, TC_OVNI_A_TASK_PAUSE, TC_OVNI_A_TASK_RESUME,
    TC_OVNI_A_TYPE_CREATE, TC_OVNI_A_WS_BEGIN, TC_OVNI_A_WS_END,
    TC_OVNI_A_HWC,
    TC_OVNI_A_CPU_OUT, TC_OVNI_A_CPU_IN,
    TC_OVNI_A__COUNT
} tc_ovni_action;

/* Whether an action reads or changes what threads share (CPUs, tasks,
 * types): such events are judged in clock order across the threads of a
 * loom; every other event touches its own thread alone. */
int tc_ovni_action_shared(tc_ovni_action a);
const char *tc_ovni_action_name(tc_ovni_action a);

/* Payload field types. STR: a NUL-terminated string to the end of a jumbo
 * payload; an array field (tc_ovni_field.array) repeats its type to the
 * end of one. */
typedef enum tc_ovni_type {
    TC_OVNI_T_u8, TC_OVNI_T_u16, TC_OVNI_T_u32, TC_OVNI_T_u64,
    TC_OVNI_T_i8, TC_OVNI_T_i16, TC_OVNI_T_i32, TC_OVNI_T_i64,
    TC_OVNI_T_str
} tc_ovni_type;

/* Bytes of a field of each type (a string: 0, it takes what is left). */
#define TC_OVNI_SIZE_u8 1
#define TC_OVNI_SIZE_u16 2
#define TC_OVNI_SIZE_u32 4
#define TC_OVNI_SIZE_u64 8
#define TC_OVNI_SIZE_i8 1
#define TC_OVNI_SIZE_i16 2
#define TC_OVNI_SIZE_i32 4
#define TC_OVNI_SIZE_i64 8

extern const char *const tc_ovni_type_names[];
unsigned tc_ovni_type_size(tc_ovni_type t);

typedef struct tc_ovni_field {
    char name[24];
    tc_ovni_type type;
    int array;       /* the type repeats to the end of a jumbo payload */
} tc_ovni_field;

#define TC_OVNI_MAX_FIELDS 4

/* Event flags (models.def's FLAGS). */
#define TC_OVNI_EVF_JUMBO 1u /* the payload is a jumbo event's data */
#define TC_OVNI_EVF_OLD 2u   /* ignored by ovniemu as an old event (ruling 17) */

typedef struct tc_ovni_event_info {
    uint8_t shared;     /* tc_ovni_action_shared(action), kept here for the hot path */
    tc_ovni_model_id model;
    char mcv[4];
    unsigned flags;
    const char *layout; /* models.def's FIELDS as written: "F(u32, taskid) F(u32, typeid)" */
    uint16_t fixed;     /* bytes of the fixed fields */
    uint8_t tail;       /* the last field takes the rest of a jumbo payload (string, array) */
    uint8_t tail_unit;  /* an array's element size; 1 for a string */
    tc_ovni_action action;
    tc_ovni_chan_id chan;
    tc_ovni_state_id state;
    const char *meaning; /* "" for PUSH and POP: the state's words say */
} tc_ovni_event_info;

extern const tc_ovni_event_info tc_ovni_events[];
extern const size_t tc_ovni_nevents;

/* What the model layer reads of an event on every event, apart from the
 * rest (tc_ovni_events[i] and tc_ovni_events_hot[i] are the same event): a
 * small table that stays in the processor's first cache. */
typedef struct tc_ovni_event_hot {
    uint8_t flags, shared, action, tail;
    uint16_t fixed;
    int16_t state;
    int8_t chan;
    uint8_t dup;  /* its channel's */
    uint8_t code; /* its first byte (flags and size code) when a reader may take it in one
                     step: no flags, its fixed size, not old, not an unsorted region's
                     marker (the stream reader follows those); else 0xff */
} tc_ovni_event_hot;

extern const tc_ovni_event_hot tc_ovni_events_hot[];

/* Model + 1 by letter (0: none), and event index + 1 by model, category
 * and value (0: none; categories and values are printable ASCII, 0x21 to
 * 0x7E): constant tables behind the lookups below, on every event. */
#define TC_OVNI_MCV_BASE 0x21
#define TC_OVNI_MCV_SPAN 94
extern const uint8_t tc_ovni_model_by_letter[128];
extern const uint16_t tc_ovni_event_index[TC_OVNI_M__COUNT][TC_OVNI_MCV_SPAN][TC_OVNI_MCV_SPAN];

/* The event of model id, category and value, or NULL. */
static inline const tc_ovni_event_info *tc_ovni_event_of(tc_ovni_model_id id, unsigned char c,
                                                         unsigned char v)
{
    unsigned cc = (unsigned)c - TC_OVNI_MCV_BASE, vv = (unsigned)v - TC_OVNI_MCV_BASE;
    if (cc >= TC_OVNI_MCV_SPAN || vv >= TC_OVNI_MCV_SPAN)
        return NULL;
    unsigned i = tc_ovni_event_index[id][cc][vv];
    return i ? &tc_ovni_events[i - 1] : NULL;
}

/* The index + 1 of the event of model id, category and value, or 0. */
static inline unsigned tc_ovni_event_index_of(tc_ovni_model_id id, unsigned char c, unsigned char v)
{
    unsigned cc = (unsigned)c - TC_OVNI_MCV_BASE, vv = (unsigned)v - TC_OVNI_MCV_BASE;
    return cc < TC_OVNI_MCV_SPAN && vv < TC_OVNI_MCV_SPAN ? tc_ovni_event_index[id][cc][vv] : 0;
}

/* The event of a model letter, category and value, or NULL. */
static inline const tc_ovni_event_info *tc_ovni_event_lookup(unsigned char m, unsigned char c,
                                                             unsigned char v)
{
    unsigned id = m < 128 ? tc_ovni_model_by_letter[m] : 0;
    return id ? tc_ovni_event_of((tc_ovni_model_id)(id - 1), c, v) : NULL;
}

/* The event's meaning in words: its own, or "enters"/"leaves" and its
 * state's words for a PUSH or POP. Writes into buf, returns buf. */
const char *tc_ovni_event_meaning(const tc_ovni_event_info *e, char *buf, size_t size);

/* Its fields, from its layout: how many (at most TC_OVNI_MAX_FIELDS). */
unsigned tc_ovni_event_fields(const tc_ovni_event_info *e, tc_ovni_field *out);

/* Its payload layout in words: "u32 taskid, u32 typeid", "u32 typeid, str
 * label" (jumbo), "i64 values[]" (jumbo), "" without payload. */
const char *tc_ovni_event_layout(const tc_ovni_event_info *e, char *buf, size_t size);

/* Whether a payload matches the event's layout: NULL, or why not (into
 * buf). jumbo: the event came as a jumbo event; data/len its payload. */
const char *tc_ovni_payload_mismatch(const tc_ovni_event_info *e, int jumbo, const uint8_t *data,
                                     uint32_t len, char *buf, size_t size);

#endif
