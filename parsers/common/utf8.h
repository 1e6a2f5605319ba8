/* UTF-8 checks shared by the diagnostics and the report writers. */
#ifndef TC_UTF8_H
#define TC_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF) at p, of at most n bytes (n >= 1);
 * 0 if there is none. An ASCII byte is a sequence of 1. */
static inline size_t tc_utf8_len(const unsigned char *p, size_t n)
{
    unsigned char b = p[0];
    if (b < 0x80)
        return 1;
    size_t len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    if (b < 0xc2 || b > 0xf4 || n < len)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((b == 0xe0 && p[1] < 0xa0) || (b == 0xed && p[1] >= 0xa0) || (b == 0xf0 && p[1] < 0x90) ||
        (b == 0xf4 && p[1] >= 0x90))
        return 0;
    return len;
}

#endif
