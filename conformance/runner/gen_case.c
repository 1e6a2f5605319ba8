/*
 * A divergence written as a case of the suite (docs/conformance.md, "Cases
 * found by --generate"): the trace as shrunk, its expectation (tracecheck's
 * verdict, rules, first error: what the rulings say), the expected dump,
 * and what the implementation printed, for the user to review.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_internal.h"
#include "scratch.h"

char *gx_mkdtemp(const char *parent)
{
    char *t = tc_conf_printf("%s/c.XXXXXX", parent);
    if (!mkdtemp(t)) {
        free(t);
        return NULL;
    }
    return t;
}

void gx_walk(const char *path, void (*file)(void *user, const char *path, uint64_t size),
             void *user)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISREG(st.st_mode))
        file(user, path, (uint64_t)st.st_size);
    if (!S_ISDIR(st.st_mode))
        return;
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *sub = tc_conf_printf("%s/%s", path, e->d_name);
        gx_walk(sub, file, user);
        free(sub);
    }
    if (d)
        closedir(d);
}

static void add_size(void *user, const char *path, uint64_t size)
{
    (void)path;
    *(uint64_t *)user += size;
}

uint64_t gx_bytes(const char *path)
{
    uint64_t n = 0;
    gx_walk(path, add_size, &n);
    return n;
}

static void add_rules(cJSON *o, const char *key, const tc_conf_rules *r)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    for (size_t i = 0; i < r->n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(r->r[i]->id));
}

static int write_text(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static char *expectation(const gx_probe *p, const gx_case_source *src,
                         const tc_gen_conf_options *opt)
{
    const tc_conf_case *c = &p->c;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "expect_version", TC_CONF_EXPECT_VERSION);
    cJSON_AddStringToObject(o, "format", tc_format_name(c->format));
    if (p->ours_failed) {
        /* tracecheck failed the trace: the generator's intent is what the
         * case expects (and tracecheck fails it until it is fixed). */
        tc_conf_rules none = {0}, broken = {0};
        const tc_rule_info *r = p->intent >= 0 ? &tc_rules[p->intent] : NULL;
        int error = r && r->severity == TC_ERROR;
        if (r)
            tc_conf_rules_add(&broken, r);
        cJSON_AddStringToObject(o, "verdict", error ? "reject" : "accept");
        add_rules(o, "errors", error ? &broken : &none);
        add_rules(o, "warnings", r && r->severity == TC_WARNING ? &broken : &none);
        add_rules(o, "notes", r && r->severity == TC_NOTE ? &broken : &none);
        tc_conf_rules_free(&broken);
    } else {
        cJSON_AddStringToObject(o, "verdict", tc_conf_verdict_name(c->verdict));
        add_rules(o, "errors", &c->errors);
        add_rules(o, "warnings", &c->warnings);
        add_rules(o, "notes", &c->notes);
    }
    cJSON_AddBoolToObject(o, "pedantic", c->pedantic);
    if (c->no_dump)
        cJSON_AddFalseToObject(o, "dump");
    if (!p->ours_failed && c->has_first_error && c->first_error_rule) {
        cJSON *fe = cJSON_AddObjectToObject(o, "first_error");
        cJSON_AddStringToObject(fe, "rule", c->first_error_rule->id);
        cJSON_AddNumberToObject(fe, "offset", (double)c->first_error_offset);
        if (c->first_error_file)
            cJSON_AddStringToObject(fe, "file", c->first_error_file);
    }
    char *desc = tc_conf_printf("found by conformance --generate: %s answers %s where tracecheck "
                                "%ss (%s)", opt->impl_name, p->answer,
                                tc_conf_verdict_name(c->verdict), p->rules);
    cJSON_AddStringToObject(o, "description", desc);
    free(desc);
    cJSON *source = cJSON_AddObjectToObject(o, "source");
    cJSON_AddStringToObject(source, "kind", "generated");
    /* Reproducible by `tracecheck gen` alone when no byte was cut. */
    char *how = src->bytes_cut == src->bytes_shrunk
                    ? tc_conf_printf("%s (tracecheck conformance --generate --seed %llu drew %s, "
                                     "%llu bytes)", src->shrunk, (unsigned long long)opt->seed,
                                     src->drawn, (unsigned long long)src->bytes_drawn)
                    : tc_conf_printf("%s, then cut from %llu to %llu bytes (tracecheck "
                                     "conformance --generate --seed %llu drew %s, %llu bytes)",
                                     src->shrunk, (unsigned long long)src->bytes_shrunk,
                                     (unsigned long long)src->bytes_cut,
                                     (unsigned long long)opt->seed, src->drawn,
                                     (unsigned long long)src->bytes_drawn);
    cJSON_AddStringToObject(source, "how", how);
    free(how);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        abort();
    char *out = tc_conf_printf("%s\n", text);
    cJSON_free(text);
    return out;
}

/* What the implementation printed, with how it was judged. */
static char *output_text(const gx_probe *p, const tc_gen_conf_options *opt)
{
    const tc_conf_outcome *o = &p->theirs;
    char status[64];
    if (o->timed_out)
        snprintf(status, sizeof status, "killed after the %.1f s timeout", opt->timeout);
    else if (o->signal)
        snprintf(status, sizeof status, "killed by signal %d (%s)", o->signal,
                 strsignal(o->signal));
    else
        snprintf(status, sizeof status, "exit status %d", o->exit_status);
    return tc_conf_printf("implementation: %s\ncommand: %s\n%s\nanswer: %s\ntracecheck: %s (%s)\n"
                          "judged: %s\n\n---- standard output%s ----\n%s\n---- standard error "
                          "----\n%s\n",
                          opt->impl_name, opt->impl->command ? opt->impl->command : "(in-process)",
                          status, p->answer, tc_conf_verdict_name(p->c.verdict), p->rules,
                          p->r.reason ? p->r.reason : p->answer,
                          o->out_truncated ? " (truncated)" : "", o->out ? o->out : "",
                          o->err ? o->err : "");
}

int gx_case_write(const char *dir, const gx_probe *p, const char *input, const gx_case_source *src,
                  const tc_gen_conf_options *opt)
{
    /* The input keeps what its name says of it (.xray, .itc, .dcfg.json):
     * "case" and the suffix from the name's first dot. */
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    const char *dot = strchr(base, '.');
    char *dst = tc_conf_printf("%s/case%s", dir, p->c.input_is_dir || !dot ? "" : dot);
    tc_error err = TC_ERROR_INIT;
    int rc = tc_scratch_copy_tree(input, dst, &err);
    if (rc) {
        char why[300];
        tc_error_format(&err, why, sizeof why);
        fprintf(stderr, "tracecheck conformance: %s\n", why);
    }
    tc_error_free(&err);
    free(dst);
    char *path = tc_conf_printf("%s/case.expect.json", dir);
    char *text = expectation(p, src, opt);
    rc |= write_text(path, text, strlen(text));
    free(path);
    free(text);
    if (!p->c.no_dump) {
        size_t len = p->ours.out_len;
        if (p->c.verdict == TC_VERDICT_REJECT && p->ours.prefix_len >= 0 &&
            (size_t)p->ours.prefix_len <= len)
            len = (size_t)p->ours.prefix_len;
        path = tc_conf_printf("%s/case.dump.jsonl", dir);
        rc |= write_text(path, p->ours.out ? p->ours.out : "", len);
        free(path);
    }
    path = tc_conf_printf("%s/case.output.txt", dir);
    text = output_text(p, opt);
    rc |= write_text(path, text, strlen(text));
    free(path);
    free(text);
    if (rc)
        fprintf(stderr, "tracecheck conformance: cannot write the case in %s\n", dir);
    return rc ? -1 : 0;
}
