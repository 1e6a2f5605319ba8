/*
 * The registry of generators (generators.def), keyed by format. The
 * generator layer's part of a format is registered here, not in its
 * parser's descriptor, so that the library (parsers/) never reaches up to
 * generators/ (docs/design.md, "Layout").
 */
#include "generator.h"

/* Each generator declared once, however many formats it serves: a
 * declaration per line (repeating one is allowed in C). */
#define TC_GENERATOR_ENTRY(format, generator) extern const tc_generator generator;
#include "generators.def"
#undef TC_GENERATOR_ENTRY

static const struct {
    tc_format format;
    const tc_generator *generator;
} registry[] = {
#define TC_GENERATOR_ENTRY(format, generator) {TC_FORMAT_##format, &generator},
#include "generators.def"
#undef TC_GENERATOR_ENTRY
};

const tc_generator *tc_generator_of(tc_format format)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (registry[i].format == format)
            return registry[i].generator;
    return NULL;
}
