/* What every format parser receives: where to report, what to report, and
 * where to send the decoded events. */
#ifndef TC_PARSE_H
#define TC_PARSE_H

#include "diag.h"
#include "reader.h"

typedef struct tc_parse_ctx {
    tc_diag_sink *diags;
    /* Called with a pointer to the format's own event struct (for XRay a
     * tc_xray_event); NULL when only validating. */
    void (*on_event)(void *user, const void *event);
    void *user;
    int no_models; /* formats with a model layer (ovni): skip it */
    /* The caller's options, for what a format reads from them (perf: the
     * channel, marker, SRC bits and container); NULL: TC_OPTIONS_INIT. The
     * input's name is diags->input. */
    const tc_options *options;
} tc_parse_ctx;

#endif
