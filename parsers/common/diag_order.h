/*
 * Findings made out of order, reported in order. A check that interleaves
 * the parts of an input (an ovni trace's streams, judged in clock order
 * across threads) gives each finding a key (the part and a phase of it) and
 * reports to a sink made here; the finding then waits with its key. At the
 * end they are replayed sorted by key, findings of one key in the order they
 * were made, into the input's sink: what checking the parts one after the
 * other would report. Only the first max_repeats findings of each rule by
 * that order are kept (the sink would show no more), so memory does not grow
 * with the number of findings or of parts; every finding is counted.
 */
#ifndef TC_DIAG_ORDER_H
#define TC_DIAG_ORDER_H

#include <stdint.h>

#include "diag.h"

typedef struct tc_diag_order tc_diag_order;

/* Keeps at most like->max_repeats findings of each rule. */
tc_diag_order *tc_diag_order_new(const tc_diag_sink *like);
void tc_diag_order_free(tc_diag_order *o);

/* A sink with like's settings whose findings o keeps; its counts are the
 * order's too. */
tc_diag_sink *tc_diag_order_sink(tc_diag_order *o);

/* Findings from now on carry this key (keys sort as numbers). */
void tc_diag_order_key(tc_diag_order *o, uint64_t key);

/* Moves what from kept and counted into o (from is freed). */
void tc_diag_order_merge(tc_diag_order *o, tc_diag_order *from);

/* Replays the kept findings into to, in order, and the counts of the rest
 * (tc_diag_absorb). o is emptied. */
void tc_diag_order_replay(tc_diag_order *o, tc_diag_sink *to);

#endif
