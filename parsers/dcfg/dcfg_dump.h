/* The lines of a DCFG's canonical dump (spec/canonical-dump.md, "DCFG"). */
#ifndef TC_DCFG_DUMP_H
#define TC_DCFG_DUMP_H

#include "dcfg_doc.h"

enum { DCFG_D_HEADER, DCFG_D_FILE, DCFG_D_EDGE_TYPE, DCFG_D_SPECIAL, DCFG_D_PROCESS,
       DCFG_D_THREAD, DCFG_D_IMAGE, DCFG_D_SYMBOL, DCFG_D_BLOCK, DCFG_D_ROUTINE,
       DCFG_D_ROUTINE_NODE, DCFG_D_LOOP, DCFG_D_EDGE };

typedef struct tc_dcfg_dump_rec {
    int kind;
    const dcfg_doc *doc;
    const dcfg_proc *p;
    size_t i, k;
} tc_dcfg_dump_rec;

/* Every line of doc, in order, to on_line. */
void dcfg_dump_all(const dcfg_doc *doc, void (*on_line)(void *, const void *), void *user);

#endif
