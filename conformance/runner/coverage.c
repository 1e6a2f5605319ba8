/*
 * The coverage check: every rule of a format tracecheck implements, and every
 * generic TC rule, is shown by a case. An error rule needs an n_ case that
 * expects it (a rejection for that reason); a warning or note needs a y_ case
 * that expects it (an accepted input that still gets the finding). Case files
 * that name a rule outside the catalogue never load (cases.c), so they fail
 * the check too.
 */
#include <stdio.h>
#include <string.h>

#include "../../parsers/common/formats.h"
#include "conformance.h"

static int implemented_family(const char *family)
{
    if (!strcmp(family, "TC"))
        return 1;
    for (size_t i = 0; tc_format_at(i); i++)
        if (!strcmp(tc_format_at(i)->rule_family, family))
            return 1;
    return 0;
}

size_t tc_conf_coverage(const tc_conf_suite *s, int verbose)
{
    size_t gaps = 0;
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        if (!implemented_family(r->family))
            continue;
        tc_conf_class need = r->severity == TC_ERROR ? TC_CONF_N : TC_CONF_Y;
        size_t shown = 0, other = 0;
        for (size_t k = 0; k < s->count; k++) {
            const tc_conf_case *c = &s->cases[k];
            const tc_conf_rules *set = r->severity == TC_ERROR     ? &c->errors
                                       : r->severity == TC_WARNING ? &c->warnings
                                                                   : &c->notes;
            if (!tc_conf_rules_has(set, r))
                continue;
            if (c->cls == need)
                shown++;
            else
                other++;
        }
        if (!shown) {
            gaps++;
            fprintf(stderr, "coverage: %s (%s) has no %s_ case that expects it%s\n", r->id,
                    r->severity == TC_ERROR ? "error" : r->severity == TC_WARNING ? "warning"
                                                                                  : "note",
                    tc_conf_class_name(need), other ? " (only other classes do)" : "");
        } else if (verbose) {
            printf("%-36s %zu %s_ case%s%s\n", r->id, shown, tc_conf_class_name(need),
                   shown == 1 ? "" : "s", other ? ", and cases of other classes" : "");
        }
    }
    return gaps;
}
