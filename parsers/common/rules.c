/* The catalogue table, expanded from spec/rules.def. */
#include <string.h>

#include "rules.h"

#define ERROR TC_ERROR
#define WARNING TC_WARNING
#define NOTE TC_NOTE
const tc_rule_info tc_rules[TC_RULE__COUNT] = {
#define TC_RULE(name, id, fam, sev, flags, ref, sum, doc) {id, #fam, sev, flags, ref, sum, doc},
#include "rules.def"
#undef TC_RULE
};
#undef ERROR
#undef WARNING
#undef NOTE

size_t tc_rule_count(void) { return TC_RULE__COUNT; }

const tc_rule_info *tc_rule_at(size_t index)
{
    return index < TC_RULE__COUNT ? &tc_rules[index] : NULL;
}

const tc_rule_info *tc_rule_find(const char *id)
{
    for (size_t i = 0; i < TC_RULE__COUNT; i++)
        if (strcmp(tc_rules[i].id, id) == 0)
            return &tc_rules[i];
    return NULL;
}
