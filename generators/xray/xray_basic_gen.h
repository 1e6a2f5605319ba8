/* Writing a whole XRay basic-mode log: synthesis, then optionally one
 * mutation. */
#ifndef TC_XRAY_BASIC_GEN_H
#define TC_XRAY_BASIC_GEN_H

#include "../../parsers/common/error.h"
#include "xray_basic_synth.h"
#include "xray_gen.h"

/* violate: a rule to break, or -1 for a valid log. choices: NULL to seed
 * from p->seed. Returns 0, or -1 with the reason in err. stats->buffers
 * counts blocks. */
int xray_basic_generate(const xray_basic_params *p, int violate, tc_rng *choices, xray_sink sink,
                        xray_gen_stats *stats, tc_error *err);

/* The version --violate picks when none is given: 3 if the rule can be
 * broken in version 3, else the highest version it can. */
unsigned xray_basic_default_version(int violate);

#endif
