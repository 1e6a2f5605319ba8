#ifndef TC_XRAY_DUMP_H
#define TC_XRAY_DUMP_H

#include "../common/dump.h"
#include "xray.h"

/* The line of one tc_xray_event. */
void tc_xray_dump(tc_jsonl *w, const void *event);

#endif
