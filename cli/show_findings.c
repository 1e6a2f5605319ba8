/* validate --show: the bytes behind each finding (parsers/common/show.h),
 * drawn once the input is checked, for the first few findings of it. */
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/fields.h"
#include "../parsers/common/show.h"
#include "../reports/report.h"
#include "cli.h"

/* Whether a finding has bytes behind it: a place in an input. */
static int showable(const tc_diag *d)
{
    return !d->unlocated && !d->summarises && d->input && strcmp(d->input, "-") != 0;
}

void cli_show_findings(tc_report_input *kept, const tc_options *opt, unsigned max)
{
    tc_options o = *opt;
    tc_check_opts c = {.options = &o};
    /* The findings to draw, the first max that have bytes; those of one file
     * are drawn by one pair of parses. */
    size_t *pick = malloc((max ? max : 1) * sizeof *pick);
    tc_show_target *t = calloc(max ? max : 1, sizeof *t);
    if (!pick || !t) {
        free(pick);
        free(t);
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < kept->count && n < max; i++)
        if (showable(&kept->diags[i]))
            pick[n++] = i;
    int *done = calloc(n ? n : 1, sizeof *done);
    for (size_t i = 0; done && i < n; i++) {
        if (done[i])
            continue;
        const char *file = kept->diags[pick[i]].input;
        size_t k = 0;
        size_t which[TC_FIELDS_RANGES];
        for (size_t j = i; j < n && k < TC_FIELDS_RANGES; j++) {
            const tc_diag *d = &kept->diags[pick[j]];
            if (done[j] || strcmp(d->input, file) != 0)
                continue;
            done[j] = 1;
            which[k] = pick[j];
            t[k++] = (tc_show_target){.at = d->offset, .len = d->length};
        }
        tc_error err = TC_ERROR_INIT;
        int rc = tc_show(file, NULL, &c, TC_SHOW_CONTEXT, t, k, &err);
        for (size_t j = 0; j < k; j++) {
            if (rc == 0)
                kept->diags[which[j]].view = t[j].view;
            else
                free(t[j].view);
        }
        tc_error_free(&err);
    }
    free(done);
    free(pick);
    free(t);
}

void cli_show_findings_free(tc_report_input *kept)
{
    for (size_t i = 0; i < kept->count; i++) {
        free((char *)kept->diags[i].view);
        kept->diags[i].view = NULL;
    }
}
