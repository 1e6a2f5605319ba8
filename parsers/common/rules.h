/* Internal view of the rule catalogue: the enum of rule ids, derived from
 * spec/rules.def. Public code uses the string ids (include/tracecheck). */
#ifndef TC_RULES_H
#define TC_RULES_H

#include "tracecheck/tracecheck.h"

typedef enum tc_rule_id {
#define TC_RULE(name, id, fam, sev, flags, ref, sum, doc) TC_RULE_##name,
#include "rules.def"
#undef TC_RULE
    TC_RULE__COUNT
} tc_rule_id;

/* The catalogue, indexed by tc_rule_id. */
extern const tc_rule_info tc_rules[TC_RULE__COUNT];

static inline tc_rule_id tc_rule_index(const tc_rule_info *r) { return (tc_rule_id)(r - tc_rules); }

#endif
