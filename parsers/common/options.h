/* Option values as the program and tc_options_set spell them. */
#ifndef TC_OPTIONS_H
#define TC_OPTIONS_H

/* A decimal or 0x-hexadecimal number from min to max; no sign, no spaces.
 * 0, or -1 when s is not one. */
int tc_parse_number(const char *s, unsigned long long min, unsigned long long max,
                    unsigned long long *out);

/* An unsigned decimal with an optional K, M, G or T suffix (powers of 1024,
 * "KiB" and "KB" too): sizes and counts on the command line. 0, or -1. */
int tc_parse_size(const char *s, unsigned long long *out);

#endif
