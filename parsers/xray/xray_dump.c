/*
 * Canonical dump of XRay events: one JSON object per record, in file order.
 * The schema is spec/canonical-dump.md (dump version 1): FDR traces, and
 * basic-mode logs with the keys of FDR's lines where they mean the same.
 */
#include "../common/jsonl.h"
#include "xray.h"
#include "xray_dump.h"

/* --binary: the function's name after its id (null when the binaries do
 * not have it); without a binary the line is as it always was. */
static void name(tc_jsonl *w, const tc_xray_event *e)
{
    if (!e->named)
        return;
    if (e->func_name)
        tc_jl_str(w, "name", e->func_name);
    else
        tc_jl_null(w, "name");
}

static const char *const action_keys[8] = {
    "enter", "exit", "tail_exit", "enter_args", "action_4", "action_5", "action_6", "action_7",
};

void tc_xray_dump(tc_jsonl *w, const void *event)
{
    const tc_xray_event *e = event;
    const tc_xray_header *h = e->header;
    switch (e->kind) {
    case TC_XRAY_EV_HEADER:
        tc_jl_begin(w, "header");
        tc_jl_str(w, "format", h->type == 0 ? "xray-basic" : "xray");
        tc_jl_int(w, "dump_version", TC_DUMP_VERSION);
        tc_jl_int(w, "version", h->version);
        tc_jl_int(w, "type", h->type);
        tc_jl_str(w, "byte_order", h->big_endian ? "big" : "little");
        tc_jl_bool(w, "constant_tsc", h->big_endian ? h->bitfield >> 31 & 1 : h->bitfield & 1);
        tc_jl_bool(w, "nonstop_tsc", h->big_endian ? h->bitfield >> 30 & 1 : h->bitfield >> 1 & 1);
        tc_jl_u64s(w, "cycle_frequency", h->cycle_frequency);
        if (h->type != 0) /* basic mode has no buffer_size */
            tc_jl_u64s(w, "buffer_size", h->buffer_size);
        break;
    case TC_XRAY_EV_BASIC_FUNCTION:
        tc_jl_begin(w, "function");
        tc_jl_str(w, "action", action_keys[e->action & 7]);
        tc_jl_int(w, "func", (int32_t)e->func_id);
        name(w, e);
        tc_jl_uint(w, "cpu", e->cpu);
        tc_jl_u64s(w, "tsc", e->tsc);
        tc_jl_uint(w, "tid", (uint32_t)e->tid);
        if (h->version >= 3)
            tc_jl_uint(w, "pid", (uint32_t)e->pid);
        break;
    case TC_XRAY_EV_BASIC_ARG:
        tc_jl_begin(w, "call_arg");
        tc_jl_int(w, "func", (int32_t)e->func_id);
        tc_jl_uint(w, "tid", (uint32_t)e->tid);
        if (h->version >= 3)
            tc_jl_uint(w, "pid", (uint32_t)e->pid);
        tc_jl_u64s(w, "value", e->value);
        break;
    case TC_XRAY_EV_FUNCTION:
        tc_jl_begin(w, "function");
        tc_jl_str(w, "action", action_keys[e->action & 7]);
        tc_jl_uint(w, "func", e->func_id);
        name(w, e);
        tc_jl_uint(w, "delta", e->delta);
        tc_jl_uint(w, "cpu", e->cpu);
        tc_jl_u64s(w, "tsc", e->tsc);
        break;
    case TC_XRAY_BUFFER_EXTENTS:
        tc_jl_begin(w, "buffer_extents");
        tc_jl_u64s(w, "size", e->value);
        break;
    case TC_XRAY_NEW_BUFFER:
        tc_jl_begin(w, "new_buffer");
        tc_jl_int(w, "tid", e->id);
        break;
    case TC_XRAY_END_OF_BUFFER:
        tc_jl_begin(w, "end_of_buffer");
        break;
    case TC_XRAY_WALL_TIME:
        tc_jl_begin(w, "wall_time");
        tc_jl_i64s(w, "sec", e->wall_sec);
        tc_jl_int(w, "usec", e->wall_usec);
        break;
    case TC_XRAY_PID:
        tc_jl_begin(w, "pid");
        tc_jl_int(w, "pid", e->id);
        break;
    case TC_XRAY_NEW_CPU:
        tc_jl_begin(w, "new_cpu");
        tc_jl_uint(w, "cpu", e->cpu);
        tc_jl_u64s(w, "tsc", e->value);
        break;
    case TC_XRAY_TSC_WRAP:
        tc_jl_begin(w, "tsc_wrap");
        tc_jl_u64s(w, "tsc", e->value);
        break;
    case TC_XRAY_CALL_ARG:
        tc_jl_begin(w, "call_arg");
        tc_jl_u64s(w, "value", e->value);
        break;
    case TC_XRAY_CUSTOM_EVENT:
    case TC_XRAY_TYPED_EVENT:
        tc_jl_begin(w, e->kind == TC_XRAY_CUSTOM_EVENT ? "custom_event" : "typed_event");
        if (e->kind == TC_XRAY_TYPED_EVENT)
            tc_jl_uint(w, "type", e->event_type);
        tc_jl_int(w, "size", e->size);
        if (h->version >= 5) {
            tc_jl_int(w, "delta", (int32_t)e->delta);
            tc_jl_uint(w, "cpu", e->cpu);
            tc_jl_u64s(w, "tsc", e->tsc);
        } else {
            tc_jl_uint(w, "cpu", h->version == 4 ? e->event_cpu : e->cpu);
            tc_jl_u64s(w, "tsc", e->value);
        }
        if (e->data)
            tc_jl_hex(w, "data", e->data, e->data_len);
        else
            tc_jl_null(w, "data");
        break;
    default:
        return;
    }
    tc_jl_end(w);
}
