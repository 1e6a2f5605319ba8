/*
 * The HTML implementation matrix of a conformance run (docs/conformance.md,
 * "Reports"): one self-contained page, CSS and script inline, nothing fetched,
 * so that it can be archived as a CI artifact and opened from disk.
 *
 * Rows are cases, grouped by case group (the format) and then by the rule ids
 * the case expects ("valid" for a case that expects none); columns are the
 * implementations. Every text that comes from a case, a command or a child's
 * output is untrusted and escaped; the script reads no data but the DOM's
 * own attributes, so nothing is ever written into script context.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../conformance/runner/generate.h"
#include "conformance_report.h"
#include "report_writers.h"

/* How much of a child's standard error a cell shows. */
#define STDERR_SHOWN 2000

/* Text or attribute value: the five markup characters as references, C0
 * controls (not allowed in HTML text) but newline and tab as '?', and bytes
 * that are not UTF-8 (a tool's standard error may hold any) as U+FFFD. */
void tc_conf_html_text(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= 0x80) {
            i += tc_report_utf8_char(f, p + i, n - i) - 1;
            continue;
        }
        switch (p[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        case '\n':
        case '\t': fputc(p[i], f); break;
        default: fputc(p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i], f);
        }
    }
}

/* The first `max` bytes of s, cut at a character boundary of UTF-8. */
static void html_text_cut(FILE *f, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) {
        tc_conf_html_text(f, s);
        return;
    }
    while (max && ((unsigned char)s[max] & 0xc0) == 0x80)
        max--;
    char *head = tc_conf_printf("%.*s", (int)max, s);
    tc_conf_html_text(f, head);
    free(head);
    fprintf(f, "\n[... %zu more bytes]", n - max);
}

/* The rule ids a case is grouped under: its expected errors, or "valid". */
static char *rule_key(const tc_conf_case *c)
{
    if (!c->errors.n)
        return tc_conf_strdup("valid");
    char buf[1024];
    tc_conf_rules_format(&c->errors, buf, sizeof buf);
    return tc_conf_strdup(buf);
}

typedef struct row {
    const tc_conf_case *c;
    size_t order; /* the case's index in the first run: groups keep the suite's order */
    char *rule;
    const tc_conf_result **cell; /* one per run; NULL: the run did not select the case */
} row;

static int group_rank(const row *rows, size_t n, const char *group)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].c->group, group))
            return (int)i;
    return 0;
}

/* qsort has no context argument in C11: the rows are sorted after each got
 * its group's rank in `order`. */
static int row_cmp(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    int va = !strcmp(a->rule, "valid"), vb = !strcmp(b->rule, "valid");
    if (va != vb)
        return vb - va;
    int k = strcmp(a->rule, b->rule);
    return k ? k : strcmp(a->c->name, b->c->name);
}

static const tc_conf_result *find_result(const tc_conf_run *run, size_t hint,
                                         const tc_conf_case *c)
{
    if (hint < run->count && run->results[hint].c == c)
        return &run->results[hint];
    for (size_t i = 0; i < run->count; i++)
        if (run->results[i].c == c)
            return &run->results[i];
    return NULL;
}

/* Whether the implementations that ran the case gave the same result and
 * the same verdict (two passes of an i_ case may differ in verdict). Cases
 * not run take no part: an absent tool agrees with everyone. */
static int agree(const row *r, size_t nruns)
{
    const tc_conf_result *first = NULL;
    for (size_t j = 0; j < nruns; j++) {
        const tc_conf_result *x = r->cell[j];
        if (!x || tc_conf_result_not_run(x->kind))
            continue;
        if (!first)
            first = x;
        else if (x->kind != first->kind || x->verdict != first->verdict)
            return 0;
    }
    return 1;
}

static void rules_line(FILE *f, const char *what, const tc_conf_rules *s)
{
    char buf[1024];
    tc_conf_rules_format(s, buf, sizeof buf);
    fprintf(f, "\n%s: ", what);
    tc_conf_html_text(f, buf);
}

/* What a cell shows on hover or click: why it is not a plain pass. */
static void detail(FILE *f, const tc_conf_run *run, const tc_conf_result *r)
{
    const tc_conf_case *c = r->c;
    fputs("<div class=\"why\">", f);
    fprintf(f, "<b>%s</b>", tc_conf_result_name(r->kind));
    if (r->reason) {
        fputs(": ", f);
        tc_conf_html_text(f, r->reason);
    }
    if (r->xfail_reason) {
        fputs("\nexpected failure: ", f);
        tc_conf_html_text(f, r->xfail_reason);
    }
    if (!tc_conf_result_not_run(r->kind)) {
        fprintf(f, "\nexpected %s, got %s", tc_conf_verdict_name(c->verdict),
                tc_conf_verdict_name(r->verdict));
        if (r->exit_status >= 0)
            fprintf(f, "; exit status %d", r->exit_status);
        if (r->signal)
            fprintf(f, "; signal %d", r->signal);
    }
    if (run->opt->impl->kind == TC_IMPL_TRACECHECK && r->verdict != TC_VERDICT_NONE &&
        r->kind != TC_CONF_PASS) {
        rules_line(f, "errors", &r->errors);
        if (r->warnings.n)
            rules_line(f, "warnings", &r->warnings);
        if (r->notes.n)
            rules_line(f, "notes", &r->notes);
    }
    if (r->kind != TC_CONF_PASS && !tc_conf_result_not_run(r->kind) && r->stderr_tail &&
        *r->stderr_tail) {
        fputs("\nstderr:\n", f);
        html_text_cut(f, r->stderr_tail, STDERR_SHOWN);
    }
    fputs("</div>", f);
}

static void cell(FILE *f, const tc_conf_run *run, const tc_conf_result *r)
{
    fputs("<td class=\"r ", f);
    if (!r) {
        fputs("none\" data-impl=\"", f);
        tc_conf_html_text(f, run->opt->impl->name);
        fputs("\">-</td>", f);
        return;
    }
    const char *name = tc_conf_result_name(r->kind);
    fprintf(f, "%s\" data-impl=\"", name);
    tc_conf_html_text(f, run->opt->impl->name);
    fprintf(f, "\" data-result=\"%s\">%s", name, name);
    if (r->kind == TC_CONF_PASS && r->c->cls == TC_CONF_I)
        fprintf(f, " (%s)", tc_conf_verdict_name(r->verdict));
    if (r->kind != TC_CONF_PASS || r->c->cls == TC_CONF_I)
        detail(f, run, r);
    fputs("</td>", f);
}

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}"
    "h1{font-size:1.4em;margin:0 0 .3em}"
    "table{border-collapse:collapse}"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
    "thead th{position:sticky;top:0;background:#eee}"
    "tr.grp th{background:#dde;font-size:1.1em}"
    "tr.rule th{background:#f3f3f8;font-weight:normal;font-family:monospace}"
    "tr.case th{font-weight:normal;font-family:monospace;white-space:nowrap}"
    "td.r{position:relative;cursor:default;white-space:nowrap}"
    "td.r .why{display:none;position:absolute;z-index:2;left:0;top:100%;min-width:24em;"
    "max-width:60em;max-height:30em;overflow:auto;white-space:pre-wrap;background:#fff;"
    "color:#222;border:1px solid #888;padding:4px 6px;box-shadow:2px 2px 6px #888;"
    "font:12px monospace}"
    "td.r:hover .why,td.r.open .why{display:block}"
    ".pass{background:#b7e4b0}.fail{background:#f4a6a6}.crash{background:#c58ad8}"
    ".timeout{background:#f6c27a}.skip{background:#e4e4e4;color:#666}"
    ".out-of-scope{background:#f4f4f4;color:#aaa}"
    ".not-installed{background:#fff;color:#b00;font-style:italic}"
    ".broken{background:#fff;color:#b00;font-weight:bold;font-style:italic}"
    "th.impl .ver{display:block;font-weight:normal;font-size:.85em;color:#555}"
    "th.impl .ver.missing{color:#b00;font-style:italic}"
    ".xfail{background:#f3eaa0}.xpass{background:#7fb3f0}.none{background:#fff}"
    "#legend span{display:inline-block;padding:1px 8px;margin-right:4px;border:1px solid #ccc}"
    "#controls{margin:.6em 0}#controls input[type=search]{width:24em}"
    "table#totals{margin:.6em 0}table#totals td{text-align:right}";

/* Filter and pruned view. Their state can be given in the address
 * (#prune, #filter=TEXT, both joined by '&'), so a link or a headless browser
 * can open the page in either view. */
static const char script[] =
    "(function(){\n"
    "var rows=document.querySelectorAll('#matrix tbody tr');\n"
    "var prune=document.getElementById('prune'),filter=document.getElementById('filter');\n"
    "function apply(){\n"
    " var q=filter.value.trim().toLowerCase(),p=prune.checked,shown=0,grp=null,rule=null;\n"
    " rows.forEach(function(r){\n"
    "  if(r.classList.contains('grp')){grp=r;r.hidden=true;return;}\n"
    "  if(r.classList.contains('rule')){rule=r;r.hidden=true;return;}\n"
    "  var vis=(!q||r.getAttribute('data-key').indexOf(q)>=0)&&\n"
    "          !(p&&r.getAttribute('data-agree')==='1');\n"
    "  r.hidden=!vis;\n"
    "  if(vis){shown++;if(grp)grp.hidden=false;if(rule)rule.hidden=false;}\n"
    " });\n"
    " document.getElementById('shown').textContent=String(shown);\n"
    "}\n"
    "location.hash.replace(/^#/,'').split('&').forEach(function(part){\n"
    " if(part==='prune')prune.checked=true;\n"
    " else if(part.indexOf('filter=')===0)\n"
    "  filter.value=decodeURIComponent(part.slice(7).replace(/\\+/g,' '));\n"
    "});\n"
    "prune.addEventListener('change',apply);filter.addEventListener('input',apply);\n"
    "document.getElementById('matrix').addEventListener('click',function(e){\n"
    " var td=e.target.closest('td.r');if(td)td.classList.toggle('open');\n"
    "});\n"
    "apply();\n"
    "})();\n";

static void totals_table(FILE *f, const tc_conf_run *runs, size_t n)
{
    fputs("<table id=\"totals\"><thead><tr><th>implementation</th><th>cases</th>", f);
    for (int k = 0; k < TC_CONF__RESULTS; k++)
        fprintf(f, "<th class=\"%s\">%s</th>", tc_conf_result_name((tc_conf_result_kind)k),
                tc_conf_result_name((tc_conf_result_kind)k));
    fputs("<th>stale xfail</th><th>seconds</th></tr></thead><tbody>\n", f);
    for (size_t j = 0; j < n; j++) {
        const tc_conf_totals *t = &runs[j].totals;
        fputs("<tr class=\"total\" data-impl=\"", f);
        tc_conf_html_text(f, runs[j].opt->impl->name);
        fputs("\"><th>", f);
        tc_conf_html_text(f, runs[j].opt->impl->name);
        fprintf(f, "</th><td data-result=\"cases\">%zu</td>", t->cases);
        for (int k = 0; k < TC_CONF__RESULTS; k++) {
            const char *name = tc_conf_result_name((tc_conf_result_kind)k);
            fprintf(f, "<td data-result=\"%s\">%zu</td>", name, t->count[k]);
        }
        fprintf(f, "<td data-result=\"stale_xfail\">%zu</td><td>%.2f</td></tr>\n",
                t->stale_xfail, t->seconds);
    }
    fputs("</tbody></table>\n", f);
}

static void column_head(FILE *f, const tc_conf_run *run)
{
    const tc_conf_impl *impl = run->opt->impl;
    fputs("<th class=\"impl\" data-impl=\"", f);
    tc_conf_html_text(f, impl->name);
    fputs("\" title=\"", f);
    tc_conf_html_text(f, tc_conf_report_impl_how(impl));
    if (impl->unavailable) {
        fputs("\n", f);
        tc_conf_html_text(f, impl->unavailable);
    }
    if (run->broken) {
        fputs("\ncannot run: ", f);
        tc_conf_html_text(f, run->broken);
    }
    if (run->opt->xfail) {
        fputs("\nexpected failures: ", f);
        tc_conf_html_text(f, run->opt->xfail->path);
    }
    fputs("\">", f);
    tc_conf_html_text(f, impl->name);
    /* Under the name: the version that was run, or that there was none. */
    if (impl->unavailable) {
        fputs("<span class=\"ver missing\">not installed</span>", f);
    } else if (run->broken) {
        fputs("<span class=\"ver missing\">cannot run</span>", f);
    } else if (impl->version) {
        fputs("<span class=\"ver\">", f);
        tc_conf_html_text(f, impl->version);
        fputs("</span>", f);
    } else if (impl->kind == TC_IMPL_TRACECHECK) {
        fputs("<span class=\"ver\">" TC_VERSION_STRING "</span>", f);
    }
    fputs("</th>", f);
}

static void case_row(FILE *f, const tc_conf_run *runs, size_t n, const row *r)
{
    const tc_conf_case *c = r->c;
    /* What the filter box matches, lowercased here so the script need not. */
    char *key = tc_conf_printf("%s %s %s", c->id, c->group, r->rule);
    for (char *p = key; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    fputs("<tr class=\"case\" id=\"case-", f);
    tc_conf_html_text(f, c->id);
    fputs("\" data-group=\"", f);
    tc_conf_html_text(f, c->group);
    fputs("\" data-rule=\"", f);
    tc_conf_html_text(f, r->rule);
    fputs("\" data-key=\"", f);
    tc_conf_html_text(f, key);
    fprintf(f, "\" data-agree=\"%d\"><th title=\"", agree(r, n));
    tc_conf_html_text(f, c->description);
    fputs("\">", f);
    tc_conf_html_text(f, c->name);
    fputs("</th>", f);
    for (size_t j = 0; j < n; j++)
        cell(f, &runs[j], r->cell[j]);
    fputs("</tr>\n", f);
    free(key);
}

static void head_row(FILE *f, const char *cls, const char *group, const char *rule, size_t span)
{
    fprintf(f, "<tr class=\"%s\" data-group=\"", cls);
    tc_conf_html_text(f, group);
    if (rule) {
        fputs("\" data-rule=\"", f);
        tc_conf_html_text(f, rule);
    }
    fprintf(f, "\"><th colspan=\"%zu\">", span);
    tc_conf_html_text(f, rule ? rule : group);
    fputs("</th></tr>\n", f);
}

void tc_conf_report_html(FILE *f, const tc_conf_run *runs, size_t n)
{
    tc_conf_report_html_generated(f, runs, n, NULL);
}

void tc_conf_report_html_generated(FILE *f, const tc_conf_run *runs, size_t n,
                                   const tc_gen_conf_run *gen)
{
    if (!n)
        return;
    const tc_conf_run *first = &runs[0];
    row *rows = calloc(first->count ? first->count : 1, sizeof *rows);
    if (!rows)
        abort();
    for (size_t i = 0; i < first->count; i++) {
        row *r = &rows[i];
        r->c = first->results[i].c;
        r->rule = rule_key(r->c);
        r->cell = calloc(n, sizeof *r->cell);
        if (!r->cell)
            abort();
        for (size_t j = 0; j < n; j++)
            r->cell[j] = find_result(&runs[j], i, r->c);
    }
    for (size_t i = 0; i < first->count; i++)
        rows[i].order = (size_t)group_rank(rows, first->count, rows[i].c->group);
    qsort(rows, first->count, sizeof *rows, row_cmp);

    time_t when = first->started ? first->started : time(NULL);
    struct tm tm;
    char date[32] = "";
    if (gmtime_r(&when, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);

    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<title>tracecheck conformance suite ", f);
    tc_conf_html_text(f, first->suite->version);
    fprintf(f, "</title>\n<style>%s</style></head><body>\n", style);
    fputs("<h1>tracecheck conformance matrix</h1>\n<p id=\"meta\">suite version <span "
          "id=\"suite-version\">", f);
    tc_conf_html_text(f, first->suite->version);
    fprintf(f, "</span>, tracecheck <span id=\"tool-version\">%s</span>, run <time "
               "id=\"date\" datetime=\"%s\">%s</time>, <span id=\"case-count\">%zu</span> "
               "cases, <span id=\"impl-count\">%zu</span> implementation%s</p>\n",
            TC_VERSION_STRING, date, date, first->count, n, n == 1 ? "" : "s");
    fputs("<p id=\"legend\">", f);
    for (int k = 0; k < TC_CONF__RESULTS; k++)
        fprintf(f, "<span class=\"%s\">%s</span>", tc_conf_result_name((tc_conf_result_kind)k),
                tc_conf_result_name((tc_conf_result_kind)k));
    fputs(" (xfail: a listed expected failure; xpass: listed, but passed; out-of-scope: a "
          "case the implementation does not read; not-installed: the tool was not found, so "
          "its cases were not run; broken: the tool could not read the one case it must accept, so "
          "its cases were not run; hover or click a cell for why)</p>\n", f);
    totals_table(f, runs, n);
    if (gen)
        tc_gen_conf_report_html(f, gen);
    fputs("<p id=\"controls\"><input type=\"search\" id=\"filter\" placeholder=\"filter: case, "
          "rule id or group\"> <label><input type=\"checkbox\" id=\"prune\"> pruned: hide "
          "cases on which every implementation that ran agrees</label> &middot; <span "
          "id=\"shown\"></span> shown</p>\n", f);
    fputs("<table id=\"matrix\"><thead><tr><th>case</th>", f);
    for (size_t j = 0; j < n; j++)
        column_head(f, &runs[j]);
    fputs("</tr></thead><tbody>\n", f);
    const char *group = NULL, *rule = NULL;
    for (size_t i = 0; i < first->count; i++) {
        const row *r = &rows[i];
        if (!group || strcmp(group, r->c->group) != 0) {
            group = r->c->group;
            rule = NULL;
            head_row(f, "grp", group, NULL, n + 1);
        }
        if (!rule || strcmp(rule, r->rule) != 0) {
            rule = r->rule;
            head_row(f, "rule", group, rule, n + 1);
        }
        case_row(f, runs, n, r);
    }
    fprintf(f, "</tbody></table>\n<script>%s</script>\n</body></html>\n", script);
    for (size_t i = 0; i < first->count; i++) {
        free(rows[i].rule);
        free(rows[i].cell);
    }
    free(rows);
}
