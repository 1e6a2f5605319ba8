/* mkdir -p: the directories where reports, cases and traces are written. */
#ifndef TC_MKDIRS_H
#define TC_MKDIRS_H

/* Makes dir and every directory above it that is missing. 0, or -1 with
 * errno set (the last component's failure, or ENOMEM). */
int tc_mkdirs(const char *dir);

#endif
