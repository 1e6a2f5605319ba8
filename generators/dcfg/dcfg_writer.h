/*
 * Writing the DCFG (doc §2) of a program model whose threads have run:
 * counts from the run, ids, addresses, dominators and loops from the model.
 * Keys of objects in shuffled order, table columns of basic blocks and
 * edges sometimes permuted, rows of edges shuffled (doc §1.2.2, §1.2.4:
 * readers must not rely on order), integers in the three forms.
 */
#ifndef TC_DCFG_WRITE_H
#define TC_DCFG_WRITE_H

#include "dcfg_code.h"
#include "dcfg_out.h"

struct dg_mutation;

/* mu: the DCFG part of a mutation (dcfg_mutate.h), or NULL. */
void dg_write_dcfg(const dg_program *pg, tc_rng *r, dg_out *o, const struct dg_mutation *mu);

#endif
