/*
 * Function names as a C++ programmer wrote them: symbol tables hold
 * mangled names (_Z4walkl), messages and dumps show walk(long). Shared by
 * every format that names a program's functions (--binary).
 */
#ifndef TC_DEMANGLE_H
#define TC_DEMANGLE_H

/* A C++ name demangled (malloc'd), or a copy of name when it is not a
 * mangled one; NULL when out of memory. */
char *tc_demangle(const char *name);

#endif
