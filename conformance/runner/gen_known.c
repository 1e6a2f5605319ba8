/*
 * Which classes of `conformance --generate` the implementation's
 * expected-failure list already records ("known: [topic]") and which are
 * NEW: a long run against a tool finds its known departures again and
 * again, and the one class worth reading is the one nobody has recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_answer.h"
#include "generate.h"

#define CLASS_MAX 100 /* gx_answer_class's longest class */
/* Enough of a message to find where it starts in an answer that has the
 * tool's name or a log prefix before it. */
#define ANCHOR 24

/* Whether the class of a message (m) is the answer (a) or its end. A class
 * is cut at CLASS_MAX bytes: when either was cut, the part both have must
 * agree. A list elides a message's middle with "..." ("check_stream_header:
 * ... stream version mismatch N"): each part must come in order. */
static int message_in_answer(const char *m, const char *a)
{
    size_t alen = strlen(a);
    int cut = alen >= CLASS_MAX || strlen(m) >= CLASS_MAX;
    const char *dots = strstr(m, "...");
    size_t first = dots ? (size_t)(dots - m) : strlen(m);
    while (first && m[first - 1] == ' ')
        first--;
    if (!first)
        return 0;
    size_t anchor = first < ANCHOR ? first : ANCHOR;
    for (const char *p = a; *p; p++) {
        if (p != a && p[-1] != ' ')
            continue; /* a message starts a word */
        if (strncmp(p, m, anchor) != 0)
            continue;
        size_t rest = strlen(p), n = rest < first ? rest : first;
        if (strncmp(p, m, n) != 0)
            continue;
        if (!dots) {
            if (rest == first || cut)
                return 1;
            continue;
        }
        /* The parts after each "...", in order, the last at the end. */
        const char *at = p + n, *part = dots + 3;
        int ok = 1;
        while (ok && *part) {
            while (*part == ' ')
                part++;
            const char *more = strstr(part, "...");
            size_t plen = more ? (size_t)(more - part) : strlen(part);
            while (plen && part[plen - 1] == ' ')
                plen--;
            char piece[CLASS_MAX + 16];
            snprintf(piece, sizeof piece, "%.*s", (int)plen, part);
            const char *found = plen ? strstr(at, piece) : at;
            ok = found != NULL;
            if (ok)
                at = found + plen;
            part = more ? more + 3 : part + strlen(part);
        }
        if (ok && (!*at || cut))
            return 1;
    }
    return 0;
}

/* The message's class, piece by piece around each "..." (which the
 * classing would take for a value). */
static char *message_class(const char *msg)
{
    char *m = tc_conf_strdup("");
    for (const char *p = msg;;) {
        const char *dots = strstr(p, "...");
        size_t n = dots ? (size_t)(dots - p) : strlen(p);
        char *piece = gx_answer_class(p, n);
        char *joined = tc_conf_printf("%s%s%s", m, piece, dots ? " ... " : "");
        free(piece);
        free(m);
        m = joined;
        if (!dots)
            return m;
        p = dots + 3;
    }
}

int gx_entry_matches(const tc_conf_xfail_entry *e, const tc_conf_case *c,
                     tc_conf_verdict verdict, const char *rules, const char *answer)
{
    if (e->kind != TC_XFAIL_FAIL) {
        /* A listed crash or hang records a class that crashes or hangs on
         * what the entry's case breaks: its error rules. */
        int crash = !strncmp(answer, "crash", 5), hang = !strcmp(answer, "timeout");
        if (!c || c->verdict != TC_VERDICT_REJECT || verdict != TC_VERDICT_REJECT ||
            !(e->kind == TC_XFAIL_TIMEOUT ? hang : crash))
            return 0;
        char want[512];
        tc_conf_rules_format(&c->errors, want, sizeof want);
        return !strcmp(want, rules);
    }
    if (verdict == TC_VERDICT_ACCEPT && !strncmp(answer, "reject: ", 8) && e->message) {
        char *m = message_class(e->message);
        int yes = message_in_answer(m, answer + 8);
        free(m);
        return yes;
    }
    if (verdict == TC_VERDICT_REJECT && !strcmp(answer, "accept") && c &&
        c->verdict == TC_VERDICT_REJECT) {
        char want[512];
        tc_conf_rules_format(&c->errors, want, sizeof want);
        return !strcmp(want, rules);
    }
    return 0;
}

/* Whether the gen command line has each of the options, as whole words,
 * and none of those written !OPTION ("--big-endian !--mode": big-endian
 * traces of the default mode). */
static int drawn_with(const char *generated, const char *options)
{
    if (!generated)
        return 0;
    for (const char *o = options; *o;) {
        int absent = *o == '!';
        o += absent;
        size_t n = strcspn(o, " \t");
        int found = 0;
        for (const char *p = strstr(generated, " "); p && !found; p = strchr(p + 1, ' '))
            found = !strncmp(p + 1, o, n) && (p[1 + n] == ' ' || !p[1 + n]);
        if (found == absent)
            return 0;
        o += n;
        while (*o == ' ' || *o == '\t')
            o++;
    }
    return 1;
}

/* Whether case c is an i_ case that tracecheck rejects for exactly the
 * rules of a class where tracecheck rejects and the tool accepts. */
static int implementation_defined(const tc_conf_case *c, tc_conf_verdict verdict,
                                  const char *rules, const char *answer)
{
    if (strncmp(c->name, "i_", 2) != 0 || c->verdict != TC_VERDICT_REJECT ||
        verdict != TC_VERDICT_REJECT || strcmp(answer, "accept") != 0)
        return 0;
    char want[512];
    tc_conf_rules_format(&c->errors, want, sizeof want);
    return !strcmp(want, rules);
}

/* Adds a topic to what a class is known as, each topic once, in the list's
 * order. */
static void add_topic(tc_gen_class *k, const char *topic)
{
    size_t tlen = strlen(topic);
    for (const char *p = k->known; p && *p; p += strcspn(p, ","), p += *p ? 2 : 0)
        if (strcspn(p, ",") == tlen && !strncmp(p, topic, tlen))
            return;
    char *more = k->known ? tc_conf_printf("%s, %s", k->known, topic) : tc_conf_strdup(topic);
    free(k->known);
    k->known = more;
}

static int new_first(const void *pa, const void *pb)
{
    const tc_gen_class *a = pa, *b = pb;
    if (!a->known != !b->known)
        return a->known ? 1 : -1;
    return strcmp(a->key, b->key);
}

void tc_gen_conf_mark_known(tc_gen_conf_run *run, const tc_conf_xfail *x,
                            const tc_conf_suite *suite)
{
    run->nnew = 0;
    run->xfail_path = x ? x->path : NULL;
    for (size_t i = 0; i < run->nclasses; i++) {
        tc_gen_class *k = &run->classes[i];
        free(k->known);
        k->known = NULL;
        for (size_t j = 0; x && j < x->n; j++) {
            const tc_conf_xfail_entry *e = &x->e[j];
            const tc_conf_case *c = suite ? tc_conf_suite_find(suite, e->name) : NULL;
            if (!gx_entry_matches(e, c, k->verdict, k->rules, k->answer))
                continue;
            /* An entry without a topic is named by its case. */
            add_topic(k, e->topic ? e->topic : e->name);
        }
        for (size_t j = 0; x && j < x->ndrawn; j++)
            if (drawn_with(k->generated, x->drawn[j].options))
                add_topic(k, x->drawn[j].topic);
        /* Where the suite says readers may disagree (an i_ case that
         * tracecheck rejects for exactly the class's rules), a tool that
         * accepts is no departure: the class is known as that case. */
        for (size_t j = 0; suite && j < suite->count; j++)
            if (implementation_defined(&suite->cases[j], k->verdict, k->rules, k->answer))
                add_topic(k, suite->cases[j].name);
        run->nnew += !k->known;
    }
    if (run->nclasses > 1)
        qsort(run->classes, run->nclasses, sizeof *run->classes, new_first);
}
