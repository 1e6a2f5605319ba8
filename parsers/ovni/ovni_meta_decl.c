/*
 * Declarations in stream.json that events refer to: the mark types of
 * ovni.mark (libovni's ovni_mark_type and ovni_mark_label; ovniemu's
 * mark.c) and nosv's hardware counters, nosv.hwc (ovniemu's nosv/hwc.c).
 * The emulator merges them over every stream of a trace (ovni_trace.c
 * compares them); here each stream's are read and checked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_meta_walk.h"

/* A key that must be a decimal number in [0, 100): ovniemu reads it with
 * strtol, whole. */
static int small_index(const tc_json_token *k, int64_t *out)
{
    if (k->len == 0 || k->len > 3)
        return 0;
    int64_t v = 0;
    for (size_t i = 0; i < k->len; i++) {
        if (k->text[i] < '0' || k->text[i] > '9')
            return 0;
        v = v * 10 + (k->text[i] - '0');
    }
    *out = v;
    return v < 100;
}

/* A decimal int64, whole (ovniemu's parse_number: strtoll). */
static int decimal(const tc_json_token *k, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (k->len && (k->text[0] == '-' || k->text[0] == '+')) {
        neg = k->text[0] == '-';
        i = 1;
    }
    if (i == k->len || k->len - i > 19)
        return 0;
    uint64_t v = 0;
    for (; i < k->len; i++) {
        if (k->text[i] < '0' || k->text[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(k->text[i] - '0');
    }
    if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
        return 0;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 1;
}

static void read_labels(walker *w, const tc_json_token *open, tc_ovni_mark_decl *d)
{
    if (open->kind != TC_JSON_OBJECT_BEGIN) {
        tc_json_report(w->j, open, TC_RULE_OVNI_META_MARK,
                       "ovni.mark.%" PRId32 ".labels is %s; an object of value -> label is "
                       "required", d->type, tc_ovni_mw_what(open));
        tc_ovni_mw_skip(w, open);
        return;
    }
    tc_json_token k, v;
    size_t cap = 0;
    while (tc_ovni_mw_next(w, &k) && k.kind == TC_JSON_KEY) {
        int64_t value;
        int ok = decimal(&k, &value);
        if (!ok)
            tc_json_report(w->j, &k, TC_RULE_OVNI_META_MARK,
                           "ovni.mark.%" PRId32 ".labels has the key \"%.*s\"; a decimal mark "
                           "value is required", d->type, (int)(k.len > 40 ? 40 : k.len), k.text);
        if (!tc_ovni_mw_next(w, &v))
            return;
        if (v.kind != TC_JSON_STRING) {
            tc_json_report(w->j, &v, TC_RULE_OVNI_META_MARK,
                           "the label of value %.*s of ovni.mark.%" PRId32 " is %s; a string is "
                           "required", (int)(k.len > 40 ? 40 : k.len), k.text, d->type,
                           tc_ovni_mw_what(&v));
            tc_ovni_mw_skip(w, &v);
            continue;
        }
        if (!ok)
            continue;
        if (d->nlabels == cap) {
            cap = cap ? cap * 2 : 8;
            tc_ovni_mark_label *l = realloc(d->labels, cap * sizeof *l);
            if (!l)
                return;
            d->labels = l;
        }
        tc_ovni_mark_label *l = &d->labels[d->nlabels++];
        l->value = value;
        snprintf(l->label, sizeof l->label, "%.*s", (int)v.len, v.text);
        l->hash = tc_ovni_text_hash(v.text, v.len);
    }
}

/* One mark type: {"title": ..., "chan_type": "single"|"stack", "labels": {...}}. */
static void read_mark(walker *w, const tc_json_token *key, const tc_json_token *open, int64_t type)
{
    tc_ovni_meta *m = w->m;
    if (open->kind != TC_JSON_OBJECT_BEGIN) {
        tc_json_report(w->j, open, TC_RULE_OVNI_META_MARK,
                       "ovni.mark.%" PRId64 " is %s; an object with title and chan_type is "
                       "required", type, tc_ovni_mw_what(open));
        tc_ovni_mw_skip(w, open);
        return;
    }
    tc_ovni_mark_decl d = {.type = (int32_t)type};
    int has_title = 0, has_kind = 0, ok = 1;
    tc_json_token k, v;
    while (tc_ovni_mw_next(w, &k) && k.kind == TC_JSON_KEY) {
        int is_title = k.len == 5 && !memcmp(k.text, "title", 5);
        int is_kind = k.len == 9 && !memcmp(k.text, "chan_type", 9);
        int is_labels = k.len == 6 && !memcmp(k.text, "labels", 6);
        if (!tc_ovni_mw_next(w, &v))
            break;
        if (is_title) {
            if (v.kind != TC_JSON_STRING || v.len == 0) {
                tc_json_report(w->j, &v, TC_RULE_OVNI_META_MARK,
                               "the title of ovni.mark.%" PRId64 " is %s; a string that is not "
                               "empty is required", type,
                               v.kind == TC_JSON_STRING ? "empty" : tc_ovni_mw_what(&v));
                ok = 0;
                tc_ovni_mw_skip(w, &v);
                continue;
            }
            has_title = 1;
            snprintf(d.title, sizeof d.title, "%.*s", (int)v.len, v.text);
            d.title_hash = tc_ovni_text_hash(v.text, v.len);
        } else if (is_kind) {
            int single = v.kind == TC_JSON_STRING && v.len == 6 && !memcmp(v.text, "single", 6);
            int stack = v.kind == TC_JSON_STRING && v.len == 5 && !memcmp(v.text, "stack", 5);
            if (!single && !stack) {
                if (v.kind == TC_JSON_STRING)
                    tc_json_report(w->j, &v, TC_RULE_OVNI_META_MARK,
                                   "the chan_type of ovni.mark.%" PRId64 " is \"%.*s\"; \"single\" "
                                   "or \"stack\" is required", type,
                                   (int)(v.len > 40 ? 40 : v.len), v.text);
                else
                    tc_json_report(w->j, &v, TC_RULE_OVNI_META_MARK,
                                   "the chan_type of ovni.mark.%" PRId64 " is %s; \"single\" or "
                                   "\"stack\" is required", type, tc_ovni_mw_what(&v));
                ok = 0;
                tc_ovni_mw_skip(w, &v);
                continue;
            }
            has_kind = 1;
            d.stack = stack;
        } else if (is_labels) {
            read_labels(w, &v, &d);
        } else {
            tc_ovni_mw_skip(w, &v);
        }
    }
    if (ok && !w->failed && (!has_title || !has_kind)) {
        tc_json_report(w->j, key, TC_RULE_OVNI_META_MARK, "ovni.mark.%" PRId64 " lacks its %s",
                       type, !has_title ? "title" : "chan_type");
        ok = 0;
    }
    if (!ok || w->failed) {
        free(d.labels);
        return;
    }
    tc_ovni_mark_decl *all = realloc(m->marks, (m->nmarks + 1) * sizeof *all);
    if (!all) {
        free(d.labels);
        return;
    }
    m->marks = all;
    m->marks[m->nmarks++] = d;
    m->mark_kind[type] = d.stack ? 2 : 1;
}

void tc_ovni_meta_read_marks(walker *w, const tc_json_token *open)
{
    tc_ovni_mw_remember(w, open, &w->m->marks_at);
    if (open->kind != TC_JSON_OBJECT_BEGIN) {
        tc_ovni_mw_wrong_type(w, open, "ovni.mark", "an object of mark type -> declaration");
        return;
    }
    tc_json_token k, v;
    while (tc_ovni_mw_next(w, &k) && k.kind == TC_JSON_KEY) {
        int64_t type;
        int ok = small_index(&k, &type);
        if (!ok)
            tc_json_report(w->j, &k, TC_RULE_OVNI_META_MARK,
                           "ovni.mark has the key \"%.*s\"; a mark type is a decimal number from "
                           "0 to 99", (int)(k.len > 40 ? 40 : k.len), k.text);
        if (!tc_ovni_mw_next(w, &v))
            return;
        if (ok)
            read_mark(w, &k, &v, type);
        else if (!tc_ovni_mw_skip(w, &v))
            return;
    }
}

static void read_hwc(walker *w, const tc_json_token *open)
{
    tc_ovni_meta *m = w->m;
    tc_ovni_mw_remember(w, open, &m->hwc_at);
    if (open->kind != TC_JSON_OBJECT_BEGIN) {
        tc_ovni_mw_wrong_type(w, open, "nosv.hwc", "an object of index -> {\"name\": ...}");
        return;
    }
    tc_ovni_hwc_name names[100];
    uint8_t seen[100] = {0};
    size_t n = 0, max = 0;
    int ok = 1;
    tc_json_token k, v;
    while (tc_ovni_mw_next(w, &k) && k.kind == TC_JSON_KEY) {
        int64_t index = 0;
        int good = small_index(&k, &index);
        if (!good)
            tc_json_report(w->j, &k, TC_RULE_OVNI_META_HWC,
                           "nosv.hwc has the key \"%.*s\"; a counter index is a decimal number "
                           "from 0 to 99", (int)(k.len > 40 ? 40 : k.len), k.text);
        if (!tc_ovni_mw_next(w, &v))
            return;
        n++;
        int named = 0;
        tc_json_token nk, nv;
        if (v.kind != TC_JSON_OBJECT_BEGIN) {
            tc_json_report(w->j, &v, TC_RULE_OVNI_META_HWC,
                           "counter %.*s of nosv.hwc is %s; {\"name\": ...} is required",
                           (int)(k.len > 40 ? 40 : k.len), k.text, tc_ovni_mw_what(&v));
            ok = 0;
            if (!tc_ovni_mw_skip(w, &v))
                return;
            continue;
        }
        while (tc_ovni_mw_next(w, &nk) && nk.kind == TC_JSON_KEY) {
            int is_name = nk.len == 4 && !memcmp(nk.text, "name", 4);
            if (!tc_ovni_mw_next(w, &nv))
                return;
            if (is_name && nv.kind == TC_JSON_STRING && good) {
                named = 1;
                snprintf(names[index].name, sizeof names[index].name, "%.*s", (int)nv.len,
                         nv.text);
                names[index].hash = tc_ovni_text_hash(nv.text, nv.len);
            } else if (!tc_ovni_mw_skip(w, &nv)) {
                return;
            }
        }
        if (!named && good) {
            tc_json_report(w->j, &v, TC_RULE_OVNI_META_HWC,
                           "counter %.*s of nosv.hwc has no \"name\" string", (int)k.len, k.text);
            ok = 0;
        }
        if (!good) {
            ok = 0;
            continue;
        }
        seen[index] = 1;
        if ((size_t)index + 1 > max)
            max = (size_t)index + 1;
    }
    if (w->failed || !ok || n == 0)
        return; /* an empty object declares nothing (ovniemu ignores it) */
    /* ovniemu: every index below the number of counters. */
    for (size_t i = 0; i < max; i++)
        if (!seen[i] || max != n) {
            tc_json_report(w->j, open, TC_RULE_OVNI_META_HWC,
                           "nosv.hwc declares %zu counters, so indexes 0 to %zu, but index %zu "
                           "is %s", n, n - 1, max > n ? max - 1 : i,
                           max > n ? "given" : "missing");
            return;
        }
    m->hwc = malloc(n * sizeof *m->hwc);
    if (!m->hwc)
        return;
    memcpy(m->hwc, names, n * sizeof *m->hwc);
    m->hwc_counters = n;
}

void tc_ovni_meta_read_nosv(walker *w, const tc_json_token *open)
{
    if (open->kind != TC_JSON_OBJECT_BEGIN) {
        tc_ovni_mw_skip(w, open); /* another section's business */
        return;
    }
    tc_json_token k, v;
    while (tc_ovni_mw_next(w, &k) && k.kind == TC_JSON_KEY) {
        int is_hwc = k.len == 3 && !memcmp(k.text, "hwc", 3);
        if (!tc_ovni_mw_next(w, &v))
            return;
        if (is_hwc)
            read_hwc(w, &v);
        else if (!tc_ovni_mw_skip(w, &v))
            return;
    }
}
