/*
 * A checked DCFG kept in memory for pairing with a DCFG-trace (spec/dcfg/dcfg.md,
 * ruling 13): per process its thread count, its edges (source and target
 * node) and the instruction count of each node. Lookups are O(1) or
 * O(log n); the model holds only what pairing needs.
 */
#ifndef TC_DCFG_MODEL_H
#define TC_DCFG_MODEL_H

#include <stdint.h>

#include "../common/diag.h"
#include "../common/reader.h"

typedef struct tc_dcfg_model tc_dcfg_model;

/* Parses and checks a DCFG from r, reporting into d as `tracecheck validate`
 * does, and returns the model of what was read (NULL when out of memory or
 * when the document is too broken to pair against; the reason is then
 * among the findings). */
tc_dcfg_model *tc_dcfg_model_load(tc_reader *r, tc_diag_sink *d);
void tc_dcfg_model_free(tc_dcfg_model *m);

/* Whether process pid is in the DCFG; *threads = the length of its
 * INSTR_COUNT_PER_THREAD (0 when absent). */
int tc_dcfg_model_process(const tc_dcfg_model *m, uint64_t pid, uint64_t *threads);

/* Whether edge_id exists in process pid; its source and target node ids. */
int tc_dcfg_model_edge(const tc_dcfg_model *m, uint64_t pid, uint64_t edge_id, uint64_t *source,
                       uint64_t *target);

/* NUM_INSTRS of node_id in process pid: 0 for special nodes (START, END)
 * and for unknown nodes. */
uint64_t tc_dcfg_model_node_instrs(const tc_dcfg_model *m, uint64_t pid, uint64_t node_id);

#endif
