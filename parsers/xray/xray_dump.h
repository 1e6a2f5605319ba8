#ifndef TC_XRAY_DUMP_H
#define TC_XRAY_DUMP_H

#include "../common/dump.h"
#include "xray.h"

void tc_xray_dump(tc_jsonl *w, const tc_xray_event *e);

#endif
