/* Constructors of the individual writers (one file each). */
#ifndef TC_REPORT_WRITERS_H
#define TC_REPORT_WRITERS_H

#include "report.h"

tc_report_writer *tc_report_text_new(void);
tc_report_writer *tc_report_json_new(void);

#endif
