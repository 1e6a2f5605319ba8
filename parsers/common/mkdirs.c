/* mkdir -p: see mkdirs.h. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mkdirs.h"

int tc_mkdirs(const char *dir)
{
    char *p = strdup(dir);
    if (!p) {
        errno = ENOMEM;
        return -1;
    }
    /* The directories above: a failure there shows at the last one. */
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0777);
            *s = '/';
        }
    int rc = mkdir(p, 0777) == 0 || errno == EEXIST ? 0 : -1;
    int saved = errno;
    free(p);
    errno = saved;
    return rc;
}
