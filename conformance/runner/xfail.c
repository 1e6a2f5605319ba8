/*
 * Expected-failure lists: conformance/xfail/<impl>.txt. One case per line,
 * its name then the reason (the single source of why an implementation
 * departs from the suite; docs/llvm-xray.md is generated from it):
 *
 *     # comment
 *     n_xray_header_20_bytes  [short-file] accepts a 20-byte file ...
 *     n_ovni_jumbo_size_7fffffff  @crash [jumbo-int] ...
 *
 * A plain entry expects a wrong verdict or output. A crash or a timeout is
 * never taken for one: it is expected only when the entry says "@crash" or
 * "@timeout", which a third-party tool's list uses for its known crashes and
 * hangs (so that they stay visible as such, and a fix shows as xpass).
 *
 * A third-party tool's list says which version of the tool it was measured
 * on, in a line of its own:
 *
 *     @version 1.14.0
 *
 * The runner compares it with the version the tool reports, and says so when
 * they differ (the departures of another version may differ: measure them,
 * and keep that version's list under its own name, --name TOOL-VERSION).
 *
 * A departure that a kind of trace shows whatever the tool prints then (a
 * reader that reads every file as little-endian, given a big-endian one) is
 * said once for `conformance --generate`'s marks, by the generator options
 * that draw such traces:
 *
 *     @drawn [big-endian] --big-endian !--mode
 *
 * (every option given, none of those written !OPTION).
 * "@crash-or-pass" is for a crash that does not happen on every run: an
 * out-of-bounds read that faults or not depending on where the kernel put
 * the mapping. Its crash is an expected failure and its pass a pass (never
 * an unexpected one: that would fail runs at random).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* "[clock-gate] ..." -> "clock-gate"; NULL without a leading [topic]. */
static char *topic_of(const char *reason)
{
    const char *end = reason[0] == '[' ? strchr(reason, ']') : NULL;
    return end && end > reason + 1 ? tc_conf_printf("%.*s", (int)(end - reason - 1), reason + 1)
                                   : NULL;
}

/* The first "..." of the reason: what the tool printed, as it printed it. */
static char *message_of(const char *reason)
{
    const char *open = strchr(reason, '"');
    const char *close = open ? strchr(open + 1, '"') : NULL;
    return close && close > open + 1
               ? tc_conf_printf("%.*s", (int)(close - open - 1), open + 1)
               : NULL;
}

int tc_conf_xfail_load(tc_conf_xfail *x, const char *path, tc_error *err)
{
    memset(x, 0, sizeof *x);
    x->path = tc_conf_strdup(path);
    char *text = tc_conf_read_file(path, NULL);
    if (!text) {
        tc_error_set(err, "conformance", "cannot read the expected-failure list: %s",
                     strerror(errno));
        tc_error_add(err, "conformance", "%s", path);
        return -1;
    }
    unsigned lineno = 0;
    int rc = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        if (!strncmp(s, "@version", 8) && (s[8] == ' ' || s[8] == '\t' || !s[8])) {
            char *v = trim(s + 8);
            if (!*v || x->version) {
                tc_error_set(err, "conformance", "%s",
                             *v ? "a second @version line" : "@version names no version");
                rc = -1;
                break;
            }
            x->version = tc_conf_strdup(v);
            continue;
        }
        if (!strncmp(s, "@drawn", 6) && (s[6] == ' ' || s[6] == '\t')) {
            char *rest = trim(s + 6), *close = rest[0] == '[' ? strchr(rest, ']') : NULL;
            char *opts = close ? trim(close + 1) : NULL;
            if (!close || close == rest + 1 || !opts || (opts[0] != '-' && opts[0] != '!')) {
                tc_error_set(err, "conformance", "@drawn takes [TOPIC] and the generator "
                             "options that draw the traces (\"@drawn [big-endian] "
                             "--big-endian\")");
                rc = -1;
                break;
            }
            tc_conf_xfail_drawn *d = realloc(x->drawn, (x->ndrawn + 1) * sizeof *d);
            if (!d)
                abort();
            x->drawn = d;
            *close = '\0';
            x->drawn[x->ndrawn++] = (tc_conf_xfail_drawn){tc_conf_strdup(rest + 1),
                                                          tc_conf_strdup(opts), lineno};
            continue;
        }
        size_t nlen = strcspn(s, " \t");
        char *reason = trim(s + nlen);
        s[nlen] = '\0';
        tc_conf_xfail_kind kind = TC_XFAIL_FAIL;
        if (reason[0] == '@') {
            size_t klen = strcspn(reason, " \t");
            if (klen == 6 && !strncmp(reason, "@crash", 6)) {
                kind = TC_XFAIL_CRASH;
            } else if (klen == 8 && !strncmp(reason, "@timeout", 8)) {
                kind = TC_XFAIL_TIMEOUT;
            } else if (klen == 14 && !strncmp(reason, "@crash-or-pass", 14)) {
                kind = TC_XFAIL_CRASH_OR_PASS;
            } else {
                tc_error_set(err, "conformance",
                             "%s: unknown marker %.*s (@crash, @timeout or @crash-or-pass)", s,
                             (int)klen, reason);
                rc = -1;
                break;
            }
            reason = trim(reason + klen);
        }
        if (!*reason) {
            tc_error_set(err, "conformance", "%s has no reason; every expected failure says why",
                         s);
            rc = -1;
            break;
        }
        if (tc_conf_xfail_find(x, s)) {
            tc_error_set(err, "conformance", "%s is listed twice", s);
            rc = -1;
            break;
        }
        tc_conf_xfail_entry *e = realloc(x->e, (x->n + 1) * sizeof *e);
        if (!e)
            abort();
        x->e = e;
        x->e[x->n++] = (tc_conf_xfail_entry){tc_conf_strdup(s), tc_conf_strdup(reason), kind, lineno,
                                             0, topic_of(reason), message_of(reason)};
    }
    free(text);
    if (rc != 0) {
        /* Where in the list: "PATH:LINE: what is wrong". */
        tc_error_add(err, "conformance", "%s:%u", path, lineno);
        tc_conf_xfail_free(x);
    }
    return rc;
}

tc_conf_xfail_entry *tc_conf_xfail_find(const tc_conf_xfail *x, const char *name)
{
    for (size_t i = 0; x && i < x->n; i++)
        if (!strcmp(x->e[i].name, name))
            return &x->e[i];
    return NULL;
}

void tc_conf_xfail_free(tc_conf_xfail *x)
{
    for (size_t i = 0; i < x->n; i++) {
        free(x->e[i].name);
        free(x->e[i].reason);
        free(x->e[i].topic);
        free(x->e[i].message);
    }
    free(x->e);
    for (size_t i = 0; i < x->ndrawn; i++) {
        free(x->drawn[i].topic);
        free(x->drawn[i].options);
    }
    free(x->drawn);
    free(x->path);
    free(x->version);
    memset(x, 0, sizeof *x);
}
