/* The registry of formats: one line per format (formats.h). */
#include <stdio.h>
#include <string.h>

#include "formats.h"

/* Every format, in the order listings show them (--help, tracecheck
 * rules, the generators): include/tracecheck/formats.def, one line each.
 * Each descriptor is the format's own, in parsers/<folder>/<fmt>_format.c. */
#define TC_FORMAT_ENTRY(id, value, descriptor) extern const tc_format_ops descriptor;
#include "tracecheck/formats.def"
#undef TC_FORMAT_ENTRY

static const tc_format_ops *const registry[] = {
#define TC_FORMAT_ENTRY(id, value, descriptor) &descriptor,
#include "tracecheck/formats.def"
#undef TC_FORMAT_ENTRY
};

#define NFORMATS (sizeof registry / sizeof registry[0])

const tc_format_ops *tc_format_at(size_t i) { return i < NFORMATS ? registry[i] : NULL; }

const char *tc_format_name(tc_format f)
{
    if (f == TC_FORMAT_AUTO)
        return "auto";
    const tc_format_ops *ops = tc_format_ops_for(f);
    return ops ? ops->name : "unknown";
}

tc_format tc_format_from_name(const char *s)
{
    if (!strcmp(s, "auto"))
        return TC_FORMAT_AUTO;
    for (size_t i = 0; i < NFORMATS; i++)
        if (!strcmp(registry[i]->name, s))
            return registry[i]->format;
    return TC_FORMAT__COUNT;
}

const tc_format_ops *tc_format_ops_for(tc_format f)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (registry[i]->format == f)
            return registry[i];
    return NULL;
}

tc_format tc_format_detect(const uint8_t *p, size_t n) { return tc_format_detect_named(p, n, NULL); }

tc_format tc_format_detect_named(const uint8_t *p, size_t n, const char *name)
{
    /* The surest evidence first (formats.h, tc_detect_strength). */
    for (int s = TC_DETECT_NAME; s <= TC_DETECT_PLAUSIBLE; s++)
        for (size_t i = 0; i < NFORMATS; i++)
            if ((int)registry[i]->strength == s && registry[i]->sniff(p, n, name))
                return registry[i]->format;
    return TC_FORMAT_AUTO;
}

const tc_format_option *tc_format_option_of(const tc_format_ops *f, size_t j)
{
    const tc_format_option *tables[2] = {f->shared_options, f->options};
    for (size_t t = 0; t < 2; t++)
        for (const tc_format_option *o = tables[t]; o && o->name; o++)
            if (j-- == 0)
                return o;
    return NULL;
}

const tc_format_option *tc_format_option_find(const char *name)
{
    const tc_format_option *o;
    for (size_t i = 0; i < NFORMATS; i++)
        for (size_t j = 0; (o = tc_format_option_of(registry[i], j)) != NULL; j++)
            if (!strcmp(o->name, name))
                return o;
    return NULL;
}

int tc_format_shows_rule(const tc_format_ops *f, const tc_rule_info *r)
{
    if (!f || !strcmp(r->family, "TC"))
        return 1;
    return !strcmp(r->family, f->rule_family) && (!f->has_rule || f->has_rule(r));
}

const char *tc_rule_page(const tc_rule_info *r)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (!strcmp(registry[i]->rule_family, r->family))
            return registry[i]->name;
    return registry[0]->name;
}

void tc_format_names(char *buf, size_t size, const char *sep)
{
    size_t n = 0;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < NFORMATS && n < size; i++) {
        int k = snprintf(buf + n, size - n, "%s%s", i ? sep : "", registry[i]->name);
        if (k < 0)
            break;
        n += (size_t)k;
    }
}
