/*
 * Function names as a C++ programmer wrote them: the symbol table holds
 * mangled names (_Z4walkl), messages and dumps show walk(long). The
 * demangler is the C++ runtime's own (__cxa_demangle of libstdc++, the
 * Itanium C++ ABI's interface), which every C++ toolchain on the system
 * keeps up with the ABI; a demangler of our own would lag behind it.
 */
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

/* The Itanium C++ ABI's demangler (cxxabi.h), declared here because this
 * is C: libstdc++ defines it with C linkage. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *tc_demangle(const char *name)
{
    if (name[0] == '_' && name[1] == 'Z') {
        int status = 0;
        char *s = __cxa_demangle(name, NULL, NULL, &status);
        if (s && status == 0)
            return s;
        free(s);
    }
    size_t n = strlen(name) + 1;
    char *copy = malloc(n);
    if (copy)
        memcpy(copy, name, n);
    return copy;
}
