/* One input's findings kept for later: `validate -j N` checks inputs in
 * worker threads and reports them in input order from the main thread, so
 * each finding is copied out of the callback (its strings live only as long
 * as the call). */
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/diag_copy.h"
#include "report.h"

void tc_report_input_collect(void *input, const tc_diag *d)
{
    tc_report_input *r = input;
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        tc_diag *n = realloc(r->diags, cap * sizeof *n);
        if (!n) {
            r->oom = 1;
            return;
        }
        r->diags = n;
        void **b = realloc(r->blocks, cap * sizeof *b);
        if (!b) {
            r->oom = 1;
            return;
        }
        r->blocks = b;
        r->cap = cap;
    }
    if (tc_diag_copy(&r->diags[r->count], d, &r->blocks[r->count]) < 0) {
        r->oom = 1;
        return;
    }
    r->count++;
}

void tc_report_input_free(tc_report_input *r)
{
    for (size_t i = 0; i < r->count; i++)
        free(r->blocks[i]);
    free(r->diags);
    free(r->blocks);
    memset(r, 0, sizeof *r);
}
