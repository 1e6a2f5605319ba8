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

/* Whether the case's name holds "_topic_" (or ends with "_topic"). */
static int about(const tc_conf_case *c, const char *topic)
{
    size_t n = strlen(topic);
    for (const char *p = strchr(c->name, '_'); p; p = strchr(p + 1, '_'))
        if (!strncmp(p + 1, topic, n) && (p[1 + n] == '_' || p[1 + n] == '\0'))
            return 1;
    return 0;
}

/* Each coverage topic of a format (its models...) has a y_, an n_ and an
 * i_ case of that format. */
static size_t topic_gaps(const tc_conf_suite *s, int verbose)
{
    size_t gaps = 0;
    for (size_t i = 0; tc_format_at(i); i++) {
        const tc_format_ops *f = tc_format_at(i);
        for (size_t t = 0; f->coverage_topics && f->coverage_topics[t]; t++) {
            size_t have[3] = {0, 0, 0};
            for (size_t k = 0; k < s->count; k++) {
                const tc_conf_case *c = &s->cases[k];
                if (c->format == f->format && about(c, f->coverage_topics[t]))
                    have[c->cls == TC_CONF_Y ? 0 : c->cls == TC_CONF_N ? 1 : 2]++;
            }
            static const char *const cls[] = {"y", "n", "i"};
            for (int k = 0; k < 3; k++)
                if (!have[k]) {
                    gaps++;
                    fprintf(stderr, "coverage: %s's %s has no %s_ case (a name with _%s_)\n",
                            f->name, f->coverage_topics[t], cls[k], f->coverage_topics[t]);
                }
            if (verbose)
                printf("%s %-30s %zu y_, %zu n_, %zu i_ cases\n", f->name, f->coverage_topics[t],
                       have[0], have[1], have[2]);
        }
    }
    return gaps;
}

size_t tc_conf_coverage(const tc_conf_suite *s, int verbose)
{
    size_t gaps = topic_gaps(s, verbose);
    for (size_t i = 0; i < tc_rule_count(); i++) {
        const tc_rule_info *r = tc_rule_at(i);
        /* A rule judged only against another input (--binary) has no case:
         * a case is one trace. tests/xray/producers/ checks those. */
        if (!implemented_family(r->family) || (r->flags & TC_RF_NEEDS_INPUT))
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
