/*
 * Asking a third-party tool for its version (tool_version.h). The tools say
 * it in different ways ("Debian LLVM version 14.0.6", "ovniemu -- version
 * 1.14.0", "dqr: version 0.18.0", ovniver's "libovni: build v1.14.0"), so the
 * parse looks for the first number after "version" or "build".
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "tool_version.h"

/* The version command may hang (a tool that waits for input or loops): it
 * gets this long, then it is killed with its process group. */
#define VERSION_TIMEOUT 2.0

static int body(void *arg)
{
    execl("/bin/sh", "sh", "-c", (const char *)arg, (char *)NULL);
    return 127;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

char *tc_conf_version_parse(const char *text)
{
    static const char *const words[] = {"version", "build"};
    const char *best = NULL;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        for (const char *p = text; (p = strstr(p, words[w])) != NULL; p++) {
            const char *q = p + strlen(words[w]);
            while (*q == ' ' || *q == ':' || *q == '\t')
                q++;
            if (*q == 'v')
                q++;
            if (is_digit(*q)) {
                if (!best || q < best)
                    best = q;
                break;
            }
        }
    }
    if (!best)
        return NULL;
    size_t n = 0;
    while (is_digit(best[n]) || (best[n] == '.' && is_digit(best[n + 1])))
        n++;
    return tc_conf_printf("%.*s", (int)n, best);
}

char *tc_conf_tool_version(const char *command)
{
    tc_proc p;
    tc_error err = TC_ERROR_INIT;
    if (tc_proc_start(&p, body, (void *)command, NULL, VERSION_TIMEOUT, &err) != 0) {
        tc_error_free(&err); /* no version: the tool is named without one */
        return NULL;
    }
    tc_proc *list[1] = {&p};
    while (!tc_proc_done(&p))
        tc_proc_poll(list, 1, 0.5);
    tc_conf_outcome o;
    memset(&o, 0, sizeof o);
    tc_proc_outcome(&p, &o);
    char *v = NULL;
    if (!o.timed_out) {
        /* Some tools print it on stdout, others on stderr. */
        v = o.out ? tc_conf_version_parse(o.out) : NULL;
        if (!v && o.err)
            v = tc_conf_version_parse(o.err);
    }
    tc_conf_outcome_free(&o);
    return v;
}
