/*
 * spec/ovni/models.def compiled into constant tables. Each table is one
 * expansion of the file with the macros it needs; an event's position in
 * the file is its index everywhere.
 */
#include <stdio.h>
#include <string.h>

#include "ovni_models.h"

/* ---- models ---- */

const tc_ovni_model_info tc_ovni_model_table[TC_OVNI_M__COUNT] = {
#define TC_OVNI_MODEL(ID, LETTER, NAME, VERSION, NEEDS, WHO)                                       \
    [TC_OVNI_M_##ID] = {LETTER, NAME, VERSION, TC_OVNI_NEEDS_##NEEDS, WHO},
#include "../../spec/ovni/models.def"
};

const uint8_t tc_ovni_model_by_letter[128] = {
#define TC_OVNI_MODEL(ID, LETTER, NAME, VERSION, NEEDS, WHO) [LETTER] = TC_OVNI_M_##ID + 1,
#include "../../spec/ovni/models.def"
};

tc_ovni_model_id tc_ovni_model_of_letter(unsigned char letter)
{
    return letter < 128 && tc_ovni_model_by_letter[letter]
               ? (tc_ovni_model_id)(tc_ovni_model_by_letter[letter] - 1)
               : TC_OVNI_M_NONE;
}

tc_ovni_model_id tc_ovni_model_of_name(const char *name)
{
    for (int m = 0; m < TC_OVNI_M__COUNT; m++)
        if (!strcmp(tc_ovni_model_table[m].name, name))
            return (tc_ovni_model_id)m;
    return TC_OVNI_M_NONE;
}

/* ---- channels and states ---- */

/* NOCHAN and NOSTATE of every model, so that an event's CHAN and STATE
 * columns name an enumerator whatever they hold; and each model's letter,
 * for its events' MCV. */
enum {
#define TC_OVNI_MODEL(ID, LETTER, NAME, VERSION, NEEDS, WHO)                                       \
    TC_OVNI_CH_##ID##_NOCHAN = TC_OVNI_CH_NOCHAN, TC_OVNI_ST_##ID##_NOSTATE = TC_OVNI_ST_NOSTATE,  \
    TC_OVNI_LETTER_##ID = LETTER,
#include "../../spec/ovni/models.def"
};

#define STACK 1
#define SINGLE 0
const tc_ovni_chan_info tc_ovni_chans[TC_OVNI_CH__COUNT] = {
#define TC_OVNI_CHAN(MODEL, CHAN, NAME, KIND, DUP, LINT, INIT)                                     \
    [TC_OVNI_CH_##MODEL##_##CHAN] = {TC_OVNI_M_##MODEL, NAME, KIND, DUP, LINT,                     \
                                     TC_OVNI_ST_##MODEL##_##INIT},
#include "../../spec/ovni/models.def"
};
#undef STACK
#undef SINGLE

const tc_ovni_state_info tc_ovni_states[TC_OVNI_ST__COUNT] = {
#define TC_OVNI_STATE(MODEL, CHAN, NAME, WORDS)                                                    \
    [TC_OVNI_ST_##MODEL##_##NAME] = {TC_OVNI_CH_##MODEL##_##CHAN, #NAME, WORDS},
#include "../../spec/ovni/models.def"
};

/* ---- events ---- */

/* FIELDS summed: fixed bytes in the low 16 bits, a tail field (string or
 * array) as 1 << 16, an array's element size in bits 20 up. */
#define F(t, n) +TC_OVNI_SIZE_##t
#define S(n) +(1 << 16) + (1 << 20)
#define A(t, n) +(1 << 16) + (TC_OVNI_SIZE_##t << 20)
#define NOFIELDS
#define SUM(FIELDS) (0 FIELDS)
#define JUMBO TC_OVNI_EVF_JUMBO
#define OLD TC_OVNI_EVF_OLD

/* Which actions act on what threads share (tc_ovni_action_shared). */
#define SHARED_NONE 0
#define SHARED_PUSH 0
#define SHARED_POP 0
#define SHARED_SET 0
#define SHARED_THREAD_EXECUTE 1
#define SHARED_THREAD_END 1
#define SHARED_THREAD_PAUSE 1
#define SHARED_THREAD_RESUME 1
#define SHARED_THREAD_COOL 1
#define SHARED_THREAD_WARM 1
#define SHARED_THREAD_CREATE 0
#define SHARED_AFFINITY_SET 1
#define SHARED_AFFINITY_REMOTE 1
#define SHARED_FLUSH_BEGIN 0
#define SHARED_FLUSH_END 0
#define SHARED_UNSORTED_BEGIN 0
#define SHARED_UNSORTED_END 0
#define SHARED_MARK_PUSH 0
#define SHARED_MARK_POP 0
#define SHARED_MARK_SET 0
#define SHARED_TASK_CREATE 1
#define SHARED_TASK_CREATE_PARALLEL 1
#define SHARED_TASK_EXECUTE 1
#define SHARED_TASK_END 1
#define SHARED_TASK_PAUSE 1
#define SHARED_TASK_RESUME 1
#define SHARED_TYPE_CREATE 1
#define SHARED_WS_BEGIN 1
#define SHARED_WS_END 1
#define SHARED_HWC 0
#define SHARED_CPU_OUT 0
#define SHARED_CPU_IN 0

const tc_ovni_event_info tc_ovni_events[] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING)                    \
    {SHARED_##ACTION,                                                                              \
     TC_OVNI_M_##MODEL,                                                                            \
     {TC_OVNI_LETTER_##MODEL, C, V, 0},                                                                                 \
     FLAGS,                                                                                        \
     #FIELDS,                                                                                      \
     SUM(FIELDS) & 0xffff,                                                                         \
     (SUM(FIELDS) >> 16) & 1,                                                                      \
     SUM(FIELDS) >> 20,                                                                            \
     TC_OVNI_A_##ACTION,                                                                           \
     TC_OVNI_CH_##MODEL##_##CHAN,                                                                  \
     TC_OVNI_ST_##MODEL##_##STATE,                                                                 \
     MEANING},
#include "../../spec/ovni/models.def"
};
#undef F
#undef S
#undef A
#undef NOFIELDS
#undef JUMBO
#undef OLD

const size_t tc_ovni_nevents = sizeof tc_ovni_events / sizeof tc_ovni_events[0];

#define F(t, n) +TC_OVNI_SIZE_##t
#define S(n) +(1 << 16) + (1 << 20)
#define A(t, n) +(1 << 16) + (TC_OVNI_SIZE_##t << 20)
#define NOFIELDS
#define JUMBO TC_OVNI_EVF_JUMBO
#define OLD TC_OVNI_EVF_OLD
#define DUP_OF(MODEL, CHAN) DUP_##MODEL##_##CHAN
#define CODE_OF(FLAGS, FIXED, ACTION)                                                              \
    ((FLAGS) & (TC_OVNI_EVF_JUMBO | TC_OVNI_EVF_OLD) || (ACTION) == TC_OVNI_A_UNSORTED_BEGIN ||    \
             (ACTION) == TC_OVNI_A_UNSORTED_END || (FIXED) == 1 || (FIXED) > 16                    \
         ? 0xff                                                                                    \
     : (FIXED) ? (FIXED)-1                                                                         \
               : 0)
/* Each channel's DUP, by name; NOCHAN's is 0. */
enum {
#define TC_OVNI_MODEL(ID, LETTER, NAME, VERSION, NEEDS, WHO) DUP_##ID##_NOCHAN = 0,
#define TC_OVNI_CHAN(MODEL, CHAN, NAME, KIND, DUP, LINT, INIT) DUP_##MODEL##_##CHAN = DUP,
#include "../../spec/ovni/models.def"
};
const tc_ovni_event_hot tc_ovni_events_hot[] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING)                    \
    {FLAGS, SHARED_##ACTION, TC_OVNI_A_##ACTION, (SUM(FIELDS) >> 16) & 1, SUM(FIELDS) & 0xffff,     \
     TC_OVNI_ST_##MODEL##_##STATE, TC_OVNI_CH_##MODEL##_##CHAN, DUP_OF(MODEL, CHAN),            \
     CODE_OF(FLAGS, SUM(FIELDS) & 0xffff, TC_OVNI_A_##ACTION)},
#include "../../spec/ovni/models.def"
};
#undef F
#undef S
#undef A
#undef NOFIELDS
#undef JUMBO
#undef OLD

/* The event index table: __COUNTER__ numbers the events in file order
 * (clang and gcc have it). */
enum { COUNTER_START = __COUNTER__ };
const uint16_t tc_ovni_event_index[TC_OVNI_M__COUNT][TC_OVNI_MCV_SPAN][TC_OVNI_MCV_SPAN] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING)                    \
    [TC_OVNI_M_##MODEL][(C)-TC_OVNI_MCV_BASE][(V)-TC_OVNI_MCV_BASE] = __COUNTER__ - COUNTER_START,
#include "../../spec/ovni/models.def"
};

/* ---- actions ---- */

int tc_ovni_action_shared(tc_ovni_action a)
{
    switch (a) {
    case TC_OVNI_A_THREAD_EXECUTE:
    case TC_OVNI_A_THREAD_END:
    case TC_OVNI_A_THREAD_PAUSE:
    case TC_OVNI_A_THREAD_RESUME:
    case TC_OVNI_A_THREAD_COOL:
    case TC_OVNI_A_THREAD_WARM:
    case TC_OVNI_A_AFFINITY_SET:
    case TC_OVNI_A_AFFINITY_REMOTE:
    case TC_OVNI_A_TASK_CREATE:
    case TC_OVNI_A_TASK_CREATE_PARALLEL:
    case TC_OVNI_A_TASK_EXECUTE:
    case TC_OVNI_A_TASK_END:
    case TC_OVNI_A_TASK_PAUSE:
    case TC_OVNI_A_TASK_RESUME:
    case TC_OVNI_A_TYPE_CREATE:
    case TC_OVNI_A_WS_BEGIN:
    case TC_OVNI_A_WS_END: return 1;
    default: return 0;
    }
}

const char *tc_ovni_action_name(tc_ovni_action a)
{
    static const char *const names[TC_OVNI_A__COUNT] = {
        [TC_OVNI_A_NONE] = "none",
        [TC_OVNI_A_PUSH] = "enters a state",
        [TC_OVNI_A_POP] = "leaves a state",
        [TC_OVNI_A_SET] = "sets a state",
        [TC_OVNI_A_THREAD_EXECUTE] = "thread runs",
        [TC_OVNI_A_THREAD_END] = "thread ends",
        [TC_OVNI_A_THREAD_PAUSE] = "thread pauses",
        [TC_OVNI_A_THREAD_RESUME] = "thread resumes",
        [TC_OVNI_A_THREAD_COOL] = "thread cools",
        [TC_OVNI_A_THREAD_WARM] = "thread warms",
        [TC_OVNI_A_THREAD_CREATE] = "thread made",
        [TC_OVNI_A_AFFINITY_SET] = "own CPU",
        [TC_OVNI_A_AFFINITY_REMOTE] = "other thread's CPU",
        [TC_OVNI_A_FLUSH_BEGIN] = "flush begins",
        [TC_OVNI_A_FLUSH_END] = "flush ends",
        [TC_OVNI_A_UNSORTED_BEGIN] = "unsorted region begins",
        [TC_OVNI_A_UNSORTED_END] = "unsorted region ends",
        [TC_OVNI_A_MARK_PUSH] = "mark pushed",
        [TC_OVNI_A_MARK_POP] = "mark popped",
        [TC_OVNI_A_MARK_SET] = "mark set",
        [TC_OVNI_A_TASK_CREATE] = "task made",
        [TC_OVNI_A_TASK_CREATE_PARALLEL] = "parallel task made",
        [TC_OVNI_A_TASK_EXECUTE] = "task body runs",
        [TC_OVNI_A_TASK_END] = "task body ends",
        [TC_OVNI_A_TASK_PAUSE] = "task body pauses",
        [TC_OVNI_A_TASK_RESUME] = "task body resumes",
        [TC_OVNI_A_TYPE_CREATE] = "task type made",
        [TC_OVNI_A_WS_BEGIN] = "worksharing begins",
        [TC_OVNI_A_WS_END] = "worksharing ends",
        [TC_OVNI_A_HWC] = "hardware counters",
        [TC_OVNI_A_CPU_OUT] = "off the CPU",
        [TC_OVNI_A_CPU_IN] = "back on a CPU",
    };
    return a >= 0 && a < TC_OVNI_A__COUNT && names[a] ? names[a] : "?";
}

/* ---- fields ---- */

const char *const tc_ovni_type_names[] = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64",
                                          "str"};

unsigned tc_ovni_type_size(tc_ovni_type t)
{
    static const unsigned char sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 0};
    return (unsigned)t < sizeof sizes ? sizes[t] : 0;
}

static int type_of(const char *s, size_t n, tc_ovni_type *t)
{
    for (unsigned i = 0; i < sizeof tc_ovni_type_names / sizeof *tc_ovni_type_names; i++)
        if (strlen(tc_ovni_type_names[i]) == n && !memcmp(tc_ovni_type_names[i], s, n)) {
            *t = (tc_ovni_type)i;
            return 1;
        }
    return 0;
}

/* A word of the layout text: letters, digits and '_'. */
static size_t word(const char *s)
{
    size_t n = 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
           (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
        n++;
    return n;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ')
        s++;
    return s;
}

/* The layout text is models.def's, as the preprocessor wrote it:
 * "F(u32, taskid) S(label)", "A(i64, values)" or "NOFIELDS". */
unsigned tc_ovni_event_fields(const tc_ovni_event_info *e, tc_ovni_field *out)
{
    unsigned n = 0;
    const char *s = skip_space(e->layout);
    while (*s && n < TC_OVNI_MAX_FIELDS) {
        char kind = *s;
        if ((kind != 'F' && kind != 'S' && kind != 'A') || s[1] != '(')
            break; /* NOFIELDS */
        s += 2;
        tc_ovni_field f = {.type = TC_OVNI_T_str, .array = kind == 'A'};
        if (kind != 'S') {
            size_t tl = word(s);
            if (!type_of(s, tl, &f.type))
                break;
            s = skip_space(s + tl);
            if (*s++ != ',')
                break;
            s = skip_space(s);
        }
        size_t nl = word(s);
        if (nl == 0 || nl >= sizeof f.name)
            break;
        memcpy(f.name, s, nl);
        f.name[nl] = '\0';
        s = skip_space(s + nl);
        if (*s++ != ')')
            break;
        out[n++] = f;
        s = skip_space(s);
    }
    return n;
}

const char *tc_ovni_event_layout(const tc_ovni_event_info *e, char *buf, size_t size)
{
    tc_ovni_field f[TC_OVNI_MAX_FIELDS];
    unsigned n = tc_ovni_event_fields(e, f);
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s %s%s", i ? ", " : "",
                         tc_ovni_type_names[f[i].type], f[i].name, f[i].array ? "[]" : "");
        used += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

const char *tc_ovni_event_meaning(const tc_ovni_event_info *e, char *buf, size_t size)
{
    if (e->meaning[0] || e->state == TC_OVNI_ST_NOSTATE)
        snprintf(buf, size, "%s", e->meaning);
    else
        snprintf(buf, size, "%s %s: %s", e->action == TC_OVNI_A_POP ? "leaves" : "enters",
                 tc_ovni_chans[e->chan].name, tc_ovni_states[e->state].words);
    return buf;
}

/* The common case, on every event: the payload as its layout has it. */
static int payload_fits(const tc_ovni_event_info *e, int jumbo, const uint8_t *data, uint32_t len)
{
    int want_jumbo = (e->flags & TC_OVNI_EVF_JUMBO) != 0;
    if (jumbo != want_jumbo)
        return 0;
    if (!want_jumbo)
        return len == e->fixed;
    if (len < e->fixed || (!e->tail && len != e->fixed))
        return 0;
    if (!e->tail)
        return 1;
    uint32_t rest = len - e->fixed;
    if (e->tail_unit > 1)
        return rest && rest % e->tail_unit == 0;
    return !data || (rest && memchr(data + e->fixed, '\0', rest) == data + len - 1);
}

const char *tc_ovni_payload_mismatch(const tc_ovni_event_info *e, int jumbo, const uint8_t *data,
                                     uint32_t len, char *buf, size_t size)
{
    if (payload_fits(e, jumbo, data, len))
        return NULL;
    int want_jumbo = (e->flags & TC_OVNI_EVF_JUMBO) != 0;
    char layout[96];
    tc_ovni_event_layout(e, layout, sizeof layout);
    if (jumbo != want_jumbo) {
        if (want_jumbo)
            snprintf(buf, size, "is a normal event with a %u-byte payload; its layout (%s) is a "
                     "jumbo event's", (unsigned)len, layout);
        else
            snprintf(buf, size, "is a jumbo event of %u bytes; its layout is %s%s, in a normal "
                     "event", (unsigned)len, layout[0] ? layout : "no payload",
                     layout[0] ? "" : "");
        return buf;
    }
    if (!want_jumbo) {
        if (len == e->fixed)
            return NULL;
        if (len == 0)
            snprintf(buf, size, "carries no payload; its layout is %s (%u bytes)", layout,
                     (unsigned)e->fixed);
        else if (e->fixed == 0)
            snprintf(buf, size, "carries a %u-byte payload; it has none", (unsigned)len);
        else
            snprintf(buf, size, "carries a %u-byte payload; its layout is %s (%u bytes)",
                     (unsigned)len, layout, (unsigned)e->fixed);
        return buf;
    }
    /* Jumbo: the fixed fields, then the tail. */
    if (len < e->fixed || (!e->tail && len != e->fixed)) {
        snprintf(buf, size, "carries %u bytes of jumbo data; its layout is %s (%s%u bytes)",
                 (unsigned)len, layout, e->tail ? "at least " : "", (unsigned)e->fixed);
        return buf;
    }
    if (!e->tail)
        return NULL;
    uint32_t rest = len - e->fixed;
    if (e->tail_unit > 1) {
        if (rest == 0 || rest % e->tail_unit) {
            snprintf(buf, size, "carries %u bytes of jumbo data; its layout is %s, a whole "
                     "number (at least one) of %u-byte values", (unsigned)len, layout,
                     (unsigned)e->tail_unit);
            return buf;
        }
        return NULL;
    }
    /* A string: its NUL is the last byte (libovni writes label and NUL). */
    if (data && (rest == 0 || memchr(data + e->fixed, '\0', rest) != data + len - 1)) {
        const void *nul = rest ? memchr(data + e->fixed, '\0', rest) : NULL;
        if (!nul)
            snprintf(buf, size, "carries %u bytes of jumbo data whose string has no NUL; its "
                     "layout is %s, the string ending with a NUL at the end", (unsigned)len,
                     layout);
        else
            snprintf(buf, size, "carries %u bytes of jumbo data with %u after the string's NUL; "
                     "its layout is %s, the string ending with a NUL at the end",
                     (unsigned)len, (unsigned)(data + len - 1 - (const uint8_t *)nul), layout);
        return buf;
    }
    return NULL;
}
