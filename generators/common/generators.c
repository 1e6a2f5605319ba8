/*
 * The registry of generators: one line per format that has one, keyed by
 * the format (include/tracecheck/formats.def). The generator layer's part of
 * a format is registered here, not in its parser's descriptor, so that the
 * library (parsers/) never reaches up to generators/ (docs/design.md,
 * "Layout"). Each generator is defined in generators/<folder>/.
 */
#include "generator.h"

#define TC_GENERATOR_REGISTRY(X)                                                                  \
    X(XRAY, xray_generator)                                                                       \
    X(XRAY_BASIC, xray_basic_generator)                                                           \
    X(PERF, perf_generator)                                                                       \
    X(DCFG, dcfg_generator)                                                                       \
    X(DCFG_TRACE, dcfg_generator)                                                                 \
    X(OVNI, ovni_generator)

/* A generator may serve several formats (DCFG and DCFG-trace: one writes
 * both), so each is declared once by name. */
#define DECLARE(id, generator) extern const tc_generator generator;
TC_GENERATOR_REGISTRY(DECLARE)
#undef DECLARE

static const struct {
    tc_format format;
    const tc_generator *generator;
} registry[] = {
#define ENTRY(id, generator) {TC_FORMAT_##id, &generator},
    TC_GENERATOR_REGISTRY(ENTRY)
#undef ENTRY
};

const tc_generator *tc_generator_of(tc_format format)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (registry[i].format == format)
            return registry[i].generator;
    return NULL;
}
