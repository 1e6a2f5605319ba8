/*
 * Loading the suite: cases/VERSION, then every cases/<group>/<name>.expect.json
 * with its input and optional expected dump. The input is the file
 * <name>.<ext>, or the directory <name>/ (a trace that is a whole tree,
 * such as ovni's; or an input with its companion, pair.h). The expectation is
 * checked against the catalogue as it is read, so a case that names an
 * unknown rule or contradicts its own class (a y_ case with errors) never
 * runs.
 */
#define _DEFAULT_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conformance.h"
#include "pair.h"

#define EXPECT_SUFFIX ".expect.json"
#define DUMP_SUFFIX ".dump.jsonl"

typedef struct names {
    char **v;
    size_t n, cap;
} names;

static void names_push(names *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 32;
        char **v = realloc(l->v, l->cap * sizeof *v);
        if (!v)
            abort();
        l->v = v;
    }
    l->v[l->n++] = tc_conf_strdup(s);
}

static void names_free(names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The visible entries of a directory, sorted. */
static int list_dir(const char *dir, names *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            names_push(out, e->d_name);
    closedir(d);
    qsort(out->v, out->n, sizeof *out->v, by_string);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int problem(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int problem(const char *path, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* Case names: the class prefix, then lowercase words (JSONTestSuite style). */
static int valid_name(const char *name)
{
    if (strlen(name) < 3 || !strchr("yni", name[0]) || name[1] != '_')
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

static const char *get_string(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* One of "errors", "warnings", "notes": rule ids of that severity. */
static int read_rules(const char *path, const cJSON *o, const char *key, tc_severity sev,
                      tc_conf_rules *out)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    int bad = 0;
    if (!cJSON_IsArray(a))
        return problem(path, "\"%s\" must be an array of rule ids", key);
    const cJSON *v;
    cJSON_ArrayForEach(v, a) {
        if (!cJSON_IsString(v)) {
            bad += problem(path, "\"%s\" holds a value that is not a string", key);
            continue;
        }
        const tc_rule_info *r = tc_rule_find(v->valuestring);
        if (!r) {
            bad += problem(path, "\"%s\" names %s, which is not in the rule catalogue "
                                 "(spec/rules.def)", key, v->valuestring);
            continue;
        }
        if (r->severity != sev) {
            bad += problem(path, "\"%s\" names %s, whose severity is %s", key, r->id,
                           r->severity == TC_ERROR ? "error"
                           : r->severity == TC_WARNING ? "warning" : "note");
            continue;
        }
        if (!tc_conf_rules_add(out, r))
            bad += problem(path, "\"%s\" names %s twice", key, r->id);
    }
    return bad;
}

static int read_expectation(tc_conf_case *c, const char *text)
{
    const char *path = c->expect_path;
    cJSON *o = cJSON_Parse(text);
    if (!o || !cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return problem(path, "not a JSON object");
    }
    int bad = 0;
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(o, "expect_version");
    if (ver && (!cJSON_IsNumber(ver) || ver->valuedouble != TC_CONF_EXPECT_VERSION))
        bad += problem(path, "\"expect_version\" is not %d, the version this runner reads",
                       TC_CONF_EXPECT_VERSION);

    const char *format = get_string(o, "format");
    if (!format || (c->format = tc_format_from_name(format)) == TC_FORMAT__COUNT) {
        char known[512];
        tc_format_names(known, sizeof known, ", ");
        bad += problem(path, "\"format\" must name a format (auto, %s)", known);
    }

    const char *verdict = get_string(o, "verdict");
    if (verdict && !strcmp(verdict, "accept"))
        c->verdict = TC_VERDICT_ACCEPT;
    else if (verdict && !strcmp(verdict, "reject"))
        c->verdict = TC_VERDICT_REJECT;
    else
        bad += problem(path, "\"verdict\" must be \"accept\" or \"reject\"");
    if ((c->cls == TC_CONF_Y && c->verdict == TC_VERDICT_REJECT) ||
        (c->cls == TC_CONF_N && c->verdict == TC_VERDICT_ACCEPT))
        bad += problem(path, "a %s_ case must be %s", tc_conf_class_name(c->cls),
                       c->cls == TC_CONF_Y ? "accepted" : "rejected");

    const char *ruling = get_string(o, "ruling");
    if (ruling)
        c->ruling = tc_conf_strdup(ruling);
    else if (c->cls == TC_CONF_I)
        bad += problem(path, "an i_ case needs a \"ruling\": the ruling that settles "
                             "tracecheck's verdict");

    bad += read_rules(path, o, "errors", TC_ERROR, &c->errors);
    bad += read_rules(path, o, "warnings", TC_WARNING, &c->warnings);
    bad += read_rules(path, o, "notes", TC_NOTE, &c->notes);
    if (c->verdict == TC_VERDICT_ACCEPT && c->errors.n)
        bad += problem(path, "an accepted case cannot expect errors");
    if (c->verdict == TC_VERDICT_REJECT && !c->errors.n)
        bad += problem(path, "a rejected case must expect at least one error");

    const cJSON *ped = cJSON_GetObjectItemCaseSensitive(o, "pedantic");
    if (!cJSON_IsBool(ped))
        bad += problem(path, "\"pedantic\" must be true or false");
    c->pedantic = cJSON_IsTrue(ped);
    for (size_t i = 0; i < c->notes.n; i++)
        if ((c->notes.r[i]->flags & TC_RF_PEDANTIC) && !c->pedantic)
            bad += problem(path, "%s is reported only with --pedantic: set \"pedantic\": true",
                           c->notes.r[i]->id);

    const cJSON *fe = cJSON_GetObjectItemCaseSensitive(o, "first_error");
    if (fe) {
        const char *rule = get_string(fe, "rule");
        const char *file = get_string(fe, "file");
        const cJSON *off = cJSON_GetObjectItemCaseSensitive(fe, "offset");
        /* In a trace directory an offset means nothing without its file. */
        if (c->input_is_dir && (!file || !*file || file[0] == '/' || strstr(file, "..")))
            bad += problem(path, "\"first_error\".\"file\" must name the file of the error, "
                                 "relative to the case's directory");
        else if (!c->input_is_dir && file)
            bad += problem(path, "\"first_error\".\"file\" is for cases that are directories");
        if (file)
            c->first_error_file = tc_conf_strdup(file);
        c->has_first_error = 1;
        c->first_error_rule = rule ? tc_rule_find(rule) : NULL;
        if (!c->first_error_rule || !tc_conf_rules_has(&c->errors, c->first_error_rule))
            bad += problem(path, "\"first_error\".\"rule\" must be one of \"errors\"");
        if (!cJSON_IsNumber(off) || off->valuedouble < 0 || off->valuedouble > 9007199254740992.0)
            bad += problem(path, "\"first_error\".\"offset\" must be a byte offset");
        else
            c->first_error_offset = (uint64_t)off->valuedouble;
    }

    const cJSON *dump = cJSON_GetObjectItemCaseSensitive(o, "dump");
    if (dump && !cJSON_IsFalse(dump))
        bad += problem(path, "\"dump\" is false or absent");
    c->no_dump = cJSON_IsFalse(dump);

    const char *desc = get_string(o, "description");
    if (!desc || !*desc || strchr(desc, '\n'))
        bad += problem(path, "\"description\" must be one line saying what the case tests");
    c->description = tc_conf_strdup(desc);

    const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "source");
    const char *kind = get_string(src, "kind"), *how = get_string(src, "how");
    if (!kind || !how || (strcmp(kind, "generated") && strcmp(kind, "hand-made") &&
                          strcmp(kind, "clang")))
        bad += problem(path, "\"source\" must be {\"kind\": \"generated\"|\"hand-made\"|"
                             "\"clang\", \"how\": \"...\"}");
    else
        c->source = tc_conf_printf("%s: %s", kind, how);
    cJSON_Delete(o);
    return bad;
}

static void case_free(tc_conf_case *c)
{
    free(c->id);
    free(c->name);
    free(c->group);
    free(c->input);
    free(c->expect_path);
    free(c->dump_path);
    free(c->ruling);
    free(c->first_error_file);
    free(c->pair_companion);
    free(c->pair_input);
    free(c->description);
    free(c->source);
    tc_conf_rules_free(&c->errors);
    tc_conf_rules_free(&c->warnings);
    tc_conf_rules_free(&c->notes);
}

/* Loads the cases of one group directory. */
static int load_group(tc_conf_suite *s, const char *dir, const char *group, size_t *cap)
{
    names files = {0};
    int bad = 0;
    if (list_dir(dir, &files) != 0) {
        return problem(dir, "cannot read the directory: %s", strerror(errno));
    }
    char *claimed = calloc(files.n ? files.n : 1, 1); /* files that belong to a case */
    if (!claimed)
        abort();
    for (size_t i = 0; i < files.n; i++) {
        if (!ends_with(files.v[i], EXPECT_SUFFIX))
            continue;
        claimed[i] = 1;
        size_t nlen = strlen(files.v[i]) - strlen(EXPECT_SUFFIX);
        char *name = tc_conf_printf("%.*s", (int)nlen, files.v[i]);
        tc_conf_case c = {0};
        c.name = name;
        c.group = tc_conf_strdup(group);
        c.id = tc_conf_printf("%s/%s", group, name);
        c.expect_path = tc_conf_printf("%s/%s", dir, files.v[i]);
        c.cls = name[0] == 'y' ? TC_CONF_Y : name[0] == 'n' ? TC_CONF_N : TC_CONF_I;
        int cbad = 0;
        if (!valid_name(name))
            cbad += problem(c.expect_path, "case names are y_, n_ or i_ followed by lowercase "
                                           "letters, digits and underscores");
        /* The input is the one other file named NAME.<something>, or the
         * directory NAME. */
        for (size_t j = 0; j < files.n; j++) {
            const char *f = files.v[j];
            if (j == i || strncmp(f, name, nlen) != 0 || (f[nlen] != '.' && f[nlen] != '\0') ||
                ends_with(f, EXPECT_SUFFIX))
                continue;
            char *full = tc_conf_printf("%s/%s", dir, f);
            int as_dir = is_dir(full);
            if (as_dir != (f[nlen] == '\0')) {
                free(full); /* NAME.x/ or a file NAME: belongs to no case */
                continue;
            }
            claimed[j] = 1;
            if (!strcmp(f + nlen, DUMP_SUFFIX)) {
                c.dump_path = full;
            } else if (c.input) {
                cbad += problem(c.expect_path, "two inputs: %s and %s", c.input, full);
                free(full);
            } else {
                c.input = full;
                c.input_is_dir = as_dir;
            }
        }
        if (!c.input)
            cbad += problem(c.expect_path, "no input next to it: a file %s.<ext> or a directory "
                                           "%s/", name, name);
        size_t len;
        char *text = tc_conf_read_file(c.expect_path, &len);
        if (!text)
            cbad += problem(c.expect_path, "cannot read: %s", strerror(errno));
        else
            cbad += read_expectation(&c, text);
        free(text);
        if (c.no_dump && c.dump_path)
            cbad += problem(c.dump_path, "the case says \"dump\": false");
        const tc_format_ops *f = tc_format_ops_for(c.format);
        if (c.input_is_dir && f && f->companion) {
            /* An input with its companion: the pair is the input. */
            tc_error perr = TC_ERROR_INIT;
            if (tc_conf_pair_find(c.input, f, &c.pair_companion, &c.pair_input, &perr)) {
                char why[300];
                tc_error_format(&perr, why, sizeof why);
                cbad += problem(c.input, "%s", why);
            }
            tc_error_free(&perr);
        } else if (c.input_is_dir && f && !f->dir) {
            cbad += problem(c.expect_path, "the input is a directory, which only a trace of a "
                                           "format whose traces are directories (or of \"auto\") "
                                           "or an input with its companion is");
        }
        for (size_t k = 0; k < s->count; k++)
            if (!strcmp(s->cases[k].name, name))
                cbad += problem(c.expect_path, "the name is also used by %s", s->cases[k].id);
        if (cbad) {
            case_free(&c);
            bad += cbad;
            continue;
        }
        if (s->count == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            tc_conf_case *v = realloc(s->cases, *cap * sizeof *v);
            if (!v)
                abort();
            s->cases = v;
        }
        s->cases[s->count++] = c;
    }
    for (size_t i = 0; i < files.n; i++)
        if (!claimed[i])
            bad += problem(dir, "%s belongs to no case (every case has NAME%s)", files.v[i],
                           EXPECT_SUFFIX);
    free(claimed);
    names_free(&files);
    return bad;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const tc_conf_case *)a)->id, ((const tc_conf_case *)b)->id);
}

int tc_conf_suite_load(tc_conf_suite *s, const char *dir)
{
    memset(s, 0, sizeof *s);
    s->dir = tc_conf_strdup(dir);
    if (!is_dir(dir))
        return problem(dir, "not a directory of conformance cases");
    char *vpath = tc_conf_printf("%s/VERSION", dir);
    char *v = tc_conf_read_file(vpath, NULL);
    int bad = 0;
    if (!v) {
        bad += problem(vpath, "cannot read the suite version: %s", strerror(errno));
        v = tc_conf_strdup("unknown");
    }
    v[strcspn(v, "\r\n")] = '\0';
    s->version = v;
    free(vpath);

    names groups = {0};
    list_dir(dir, &groups);
    size_t cap = 0;
    for (size_t i = 0; i < groups.n; i++) {
        char *sub = tc_conf_printf("%s/%s", dir, groups.v[i]);
        if (is_dir(sub))
            bad += load_group(s, sub, groups.v[i], &cap);
        free(sub);
    }
    names_free(&groups);
    if (s->count)
        qsort(s->cases, s->count, sizeof *s->cases, by_id);
    return bad;
}

void tc_conf_suite_free(tc_conf_suite *s)
{
    for (size_t i = 0; i < s->count; i++)
        case_free(&s->cases[i]);
    free(s->cases);
    free(s->dir);
    free(s->version);
    memset(s, 0, sizeof *s);
}

const tc_conf_case *tc_conf_suite_find(const tc_conf_suite *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (!strcmp(s->cases[i].name, name) || !strcmp(s->cases[i].id, name))
            return &s->cases[i];
    return NULL;
}
