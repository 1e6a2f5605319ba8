/*
 * Judging one outcome against the case's expectation.
 *
 * Every implementation: exit status 0 = accept, exactly 1 = reject; anything
 * else, a signal or the timeout is a crash or a timeout, never a verdict.
 * Third-party implementations are judged on the verdict (i_ cases: recorded,
 * never failed) and, when they print one, on the canonical dump: y_ cases in
 * full, n_ cases as a prefix (the expected lines must start the output).
 * tracecheck is judged on everything: verdict, the exact sets of error,
 * warning and note rule ids, the first error's rule and offset (and file, in
 * a directory case) when the case gives them, and the dump (n_: exactly the
 * prefix before the first error, docs/conformance.md).
 *
 * Every known tool was measured to follow the contract (docs/ovni-tools.md,
 * docs/dqr.md): none refuses input by another exit status or by aborting.
 * The dqr adapter decides its verdict itself (dqr.h) before this judges it.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

typedef struct reasons {
    char text[1536];
    size_t len;
} reasons;

static void add(reasons *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(reasons *r, const char *fmt, ...)
{
    if (r->len >= sizeof r->text - 1)
        return;
    if (r->len) {
        int k = snprintf(r->text + r->len, sizeof r->text - r->len, "; ");
        r->len += k > 0 ? (size_t)k : 0;
    }
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(r->text + r->len, sizeof r->text - r->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        r->len += (size_t)k;
    if (r->len >= sizeof r->text)
        r->len = sizeof r->text - 1;
}

static void compare_rules(reasons *why, const char *what, const tc_conf_rules *want,
                          const tc_conf_rules *got)
{
    if (tc_conf_rules_equal(want, got))
        return;
    char w[512], g[512];
    tc_conf_rules_format(want, w, sizeof w);
    tc_conf_rules_format(got, g, sizeof g);
    add(why, "%s: expected %s, reported %s", what, w, g);
}

/* Copies one line (without its newline) into buf, shortened for messages. */
static void line_text(const char *p, size_t n, char *buf, size_t size)
{
    size_t len = 0;
    while (len < n && p[len] != '\n')
        len++;
    if (len > 160)
        snprintf(buf, size, "%.150s...", p);
    else
        snprintf(buf, size, "%.*s", (int)len, p);
}

/* Compares dumps line by line. as_prefix: want only has to start got. */
static void compare_dump(reasons *why, const char *want, size_t wlen, const char *got,
                         size_t glen, int as_prefix, const char *what)
{
    if (wlen == glen && memcmp(want, got, wlen) == 0)
        return;
    if (as_prefix && glen >= wlen && memcmp(want, got, wlen) == 0)
        return;
    size_t line = 1, i = 0, start = 0;
    while (i < wlen && i < glen && want[i] == got[i]) {
        if (want[i] == '\n') {
            line++;
            start = i + 1;
        }
        i++;
    }
    char w[200], g[200];
    if (start >= wlen) {
        line_text(got + start, glen - start, g, sizeof g);
        add(why, "%s: %zu lines expected, the output goes on at line %zu with %s", what,
            line - 1, line, g);
        return;
    }
    line_text(want + start, wlen - start, w, sizeof w);
    if (start >= glen) {
        add(why, "%s: the output ends after %zu lines; line %zu should be %s", what, line - 1,
            line, w);
        return;
    }
    line_text(got + start, glen - start, g, sizeof g);
    add(why, "%s differs at line %zu: expected %s, got %s", what, line, w, g);
}

static char *tail(const char *s, size_t len)
{
    size_t keep = 2000;
    return tc_conf_strdup(len > keep ? s + len - keep : s);
}

static int same_file(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

void tc_conf_judge(const tc_conf_case *c, const tc_conf_impl *impl, tc_conf_outcome *o,
                   tc_conf_result *r)
{
    reasons why = {0};
    int ours = impl->kind == TC_IMPL_TRACECHECK;
    r->seconds = o->seconds;
    r->exit_status = o->exited ? o->exit_status : -1;
    r->signal = o->signal;
    r->verdict = TC_VERDICT_NONE;
    r->stderr_tail = tail(o->err, o->err_len);
    tc_conf_rules_move(&r->errors, &o->errors);
    tc_conf_rules_move(&r->warnings, &o->warnings);
    tc_conf_rules_move(&r->notes, &o->notes);

    if (o->timed_out) {
        r->kind = TC_CONF_TIMEOUT;
        r->reason = tc_conf_printf("no verdict after %.1f s; its process group was killed",
                                   o->seconds);
        return;
    }
    if (o->signal) {
        r->kind = TC_CONF_CRASH;
        r->reason = tc_conf_printf("killed by signal %d (%s)", o->signal, strsignal(o->signal));
        return;
    }
    if (o->no_verdict) {
        r->kind = TC_CONF_CRASH;
        r->reason = tc_conf_strdup(o->no_verdict);
        return;
    }
    if (!o->exited || (o->exit_status != 0 && o->exit_status != 1)) {
        r->kind = TC_CONF_CRASH;
        r->reason = tc_conf_printf("exit status %d: neither 0 (accept) nor 1 (reject)",
                                   o->exit_status);
        return;
    }
    if (ours && !o->have_protocol) {
        r->kind = TC_CONF_CRASH;
        r->reason = tc_conf_strdup("the parser's process ended without its final status");
        return;
    }
    r->verdict = o->exit_status == 0 ? TC_VERDICT_ACCEPT : TC_VERDICT_REJECT;

    if (c->cls == TC_CONF_I && !ours) {
        /* Implementation-defined: whatever it says is recorded, not judged. */
        r->kind = TC_CONF_PASS;
        return;
    }
    if (r->verdict != c->verdict)
        add(&why, "%s, expected %s", r->verdict == TC_VERDICT_ACCEPT ? "accepted" : "rejected",
            c->verdict == TC_VERDICT_ACCEPT ? "accept" : "reject");
    if (ours) {
        compare_rules(&why, "errors", &c->errors, &r->errors);
        compare_rules(&why, "warnings", &c->warnings, &r->warnings);
        compare_rules(&why, "notes", &c->notes, &r->notes);
        if (c->has_first_error && o->has_first_error &&
            (c->first_error_rule != o->first_error_rule ||
             c->first_error_offset != o->first_error_offset ||
             (c->first_error_file && !same_file(c->first_error_file, o->first_error_file))))
            add(&why, "first error: expected %s at %s%soffset %" PRIu64 ", reported %s at %s%s%"
                PRIu64, c->first_error_rule->id, c->first_error_file ? c->first_error_file : "",
                c->first_error_file ? " " : "", c->first_error_offset, o->first_error_rule->id,
                o->first_error_file ? o->first_error_file : "", o->first_error_file ? " " : "",
                o->first_error_offset);
    }
    if (o->mismatch && r->verdict == c->verdict)
        add(&why, "%s", o->mismatch);
    if (c->dump_path && (ours || impl->dump) && r->verdict == c->verdict) {
        size_t wlen;
        char *want = tc_conf_read_file(c->dump_path, &wlen);
        if (!want) {
            add(&why, "cannot read the expected dump %s", c->dump_path);
        } else if (o->out_truncated) {
            add(&why, "the output is larger than the runner keeps (64 MiB)");
        } else if (ours) {
            size_t glen = o->out_len;
            if (c->verdict == TC_VERDICT_REJECT && o->prefix_len >= 0 &&
                (size_t)o->prefix_len <= glen)
                glen = (size_t)o->prefix_len;
            compare_dump(&why, want, wlen, o->out, glen, 0,
                         c->verdict == TC_VERDICT_REJECT ? "dump before the first error"
                                                         : "dump");
        } else {
            compare_dump(&why, want, wlen, o->out, o->out_len,
                         c->verdict == TC_VERDICT_REJECT, "dump");
        }
        free(want);
    }
    if (why.len) {
        r->kind = TC_CONF_FAIL;
        r->reason = tc_conf_strdup(why.text);
    } else {
        r->kind = TC_CONF_PASS;
    }
}
