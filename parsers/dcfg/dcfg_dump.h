/* The lines of a DCFG's canonical dump (spec/canonical-dump.md, "DCFG"). */
#ifndef TC_DCFG_DUMP_H
#define TC_DCFG_DUMP_H

#include "dcfg_doc.h"

enum { TC_DCFG_D_HEADER, TC_DCFG_D_FILE, TC_DCFG_D_EDGE_TYPE, TC_DCFG_D_SPECIAL, TC_DCFG_D_PROCESS,
       TC_DCFG_D_THREAD, TC_DCFG_D_IMAGE, TC_DCFG_D_SYMBOL, TC_DCFG_D_BLOCK, TC_DCFG_D_ROUTINE,
       TC_DCFG_D_ROUTINE_NODE, TC_DCFG_D_LOOP, TC_DCFG_D_EDGE };

typedef struct tc_dcfg_dump_rec {
    int kind;
    const tc_dcfg_doc *doc;
    const tc_dcfg_proc *p;
    size_t i, k;
} tc_dcfg_dump_rec;

/* Every line of doc, in order, to on_line. */
void tc_dcfg_dump_all(const tc_dcfg_doc *doc, void (*on_line)(void *, const void *), void *user);

#endif
