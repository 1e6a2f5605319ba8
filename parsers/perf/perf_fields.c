/* The fields of SiFive perf messages for `tracecheck show`: see perf_fields.h. */
#include <inttypes.h>

#include "perf_fields.h"

static const char *width_name(unsigned code)
{
    static const char *const names[4] = {"32-bit write", "width code 1 (none: not perf data)",
                                         "16-bit write", "8-bit write"};
    return names[code & 3];
}

void tc_perf_fields_message(tc_diag_sink *d, const tc_perf_msg *m, const tc_perf_spans *s,
                            int text)
{
    if (!TC_FIELDS_WANT(d))
        return;
    if (s->len[0])
        tc_fields_field(d, s->pos[0], s->len[0], 0, 0, "SRC", "%" PRIu32, m->src);
    tc_fields_field(d, s->pos[1], s->len[1], 0, 0, "IDTAG", "0x%" PRIx64 ": channel %" PRIu64 ", %s",
                    m->idtag, m->idtag >> 2, width_name((unsigned)(m->idtag & 3)));
    tc_fields_field(d, s->pos[2], s->len[2], 0, 0, text ? "VALUE" : "DQDATA", "0x%" PRIx64 " (%" PRIu64 ")",
                    m->value, m->value);
    if (m->has_timestamp)
        tc_fields_field(d, s->pos[3], s->len[3], 0, 0, "TIMESTAMP", "%" PRIu64, m->timestamp);
}
