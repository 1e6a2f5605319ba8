/*
 * The events of a trace, loom by loom: the streams of one loom read at once
 * and their events judged in clock order across them (ovni_model.h), as
 * ovniemu plays a trace; the looms of a trace on several threads.
 */
#ifndef TC_OVNI_REPLAY_H
#define TC_OVNI_REPLAY_H

#include "../common/diag_order.h"
#include "ovni_dump.h"
#include "ovni_model.h"
#include "ovni_trace.h"

/* What threads share: the streams of a loom (or one stream that belongs to
 * no loom: no metadata, not a thread), in path order, and its world. */
typedef struct tc_ovni_group {
    size_t *streams;      /* indexes into the trace's streams */
    size_t n;
    tc_ovni_world world;
    int64_t *phyids;      /* the world's CPU phyids, by index */
    tc_ovni_model *models;
} tc_ovni_group;

/* The groups of a trace's streams (those with a stream.obs), their worlds
 * from the metadata of every stream, in *groups (*count of them). Returns
 * 0, or -1 when out of memory. */
int tc_ovni_groups(tc_ovni_stream_file *streams, size_t n, tc_ovni_group **groups, size_t *count);
void tc_ovni_groups_free(tc_ovni_group *groups, size_t n);

/* The keys of a stream's findings (diag_order.h), in the order a stream's
 * checks report: its metadata, its events, its directory names. */
#define TC_OVNI_KEY(stream, phase) ((uint64_t)(stream) * 4u + (phase))
enum { TC_OVNI_PHASE_META, TC_OVNI_PHASE_EVENTS, TC_OVNI_PHASE_DIRS };

/* Reads the events of group g's streams, judging them, findings to o. */
void tc_ovni_replay(tc_ovni_stream_file *streams, tc_ovni_group *g, tc_diag_order *o,
                    const tc_ovni_opts *opts);

#endif
