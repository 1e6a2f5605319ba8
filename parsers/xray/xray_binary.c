/* A trace against its programs' instrumentation maps: see xray_binary.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/idset.h"
#include "xray.h"
#include "xray_binary.h"

#define OBJECTS 256 /* what 8 bits of object id can number */

struct tc_xray_bins {
    tc_xray_map *maps[TC_MAX_BINARIES];
    const char *paths[TC_MAX_BINARIES];
    unsigned n;
    /* Reported already: ids not in their map; per map and function, the
     * record kinds (bit = action) without a sled; objects without a map. */
    tc_idset unknown;
    uint8_t *kinds_reported[TC_MAX_BINARIES];
    uint8_t object_noted[OBJECTS];
};

/* What each record kind needs: the sled kinds that write it. */
static unsigned sleds_for(unsigned action)
{
    switch (action) {
    case TC_XRAY_ENTER: return 1u << TC_XRAY_SLED_ENTRY | 1u << TC_XRAY_SLED_LOG_ARGS;
    case TC_XRAY_EXIT: return 1u << TC_XRAY_SLED_EXIT;
    case TC_XRAY_TAIL_EXIT: return 1u << TC_XRAY_SLED_TAIL;
    case TC_XRAY_ENTER_ARGS: return 1u << TC_XRAY_SLED_LOG_ARGS;
    default: return 0;
    }
}

static const char *const sled_words[TC_XRAY_SLED_KINDS] = {
    "entry", "exit", "tail-call", "argument-logging entry", "custom event", "typed event",
};

static const char *const record_names[4] = {"Enter", "Exit", "TailExit", "EnterArg"};
/* The sled each record kind is missing, in words (sleds_for). */
static const char *const needed_words[4] = {"entry", "exit", "tail-call",
                                            "argument-logging entry"};

tc_xray_bins *tc_xray_bins_open(const tc_parse_ctx *ctx)
{
    const tc_options *opt = ctx->options;
    if (!opt || !opt->n_binaries)
        return NULL;
    tc_xray_bins *b = calloc(1, sizeof *b);
    if (!b) {
        tc_diag_fail(ctx->diags, "out of memory");
        return NULL;
    }
    for (unsigned i = 0; i < opt->n_binaries && i < TC_MAX_BINARIES; i++) {
        char why[256];
        b->paths[i] = opt->binaries[i];
        b->maps[i] = tc_xray_map_load(opt->binaries[i], why, sizeof why);
        b->n = i + 1;
        if (b->maps[i])
            b->kinds_reported[i] = calloc(b->maps[i]->nfunctions + 1, 1);
        if (!b->maps[i] || !b->kinds_reported[i]) {
            tc_diag_fail(ctx->diags, "--binary %s: %s", opt->binaries[i],
                         b->maps[i] ? "out of memory" : why);
            tc_xray_bins_close(b);
            return NULL;
        }
    }
    return b;
}

void tc_xray_bins_close(tc_xray_bins *b)
{
    if (!b)
        return;
    for (unsigned i = 0; i < b->n; i++) {
        tc_xray_map_free(b->maps[i]);
        free(b->kinds_reported[i]);
    }
    tc_idset_free(&b->unknown);
    free(b);
}

static const tc_xray_function *function_of(const tc_xray_bins *b, uint32_t id, unsigned *obj)
{
    *obj = id >> TC_XRAY_FN_BITS;
    if (*obj >= b->n)
        return NULL;
    return tc_xray_map_function(b->maps[*obj], id & ((1u << TC_XRAY_FN_BITS) - 1));
}

const char *tc_xray_bins_name(const tc_xray_bins *b, uint32_t id)
{
    unsigned obj;
    const tc_xray_function *f = b ? function_of(b, id, &obj) : NULL;
    return f ? f->name : NULL;
}

void tc_xray_bins_label(const tc_xray_bins *b, uint32_t id, char *buf, size_t size)
{
    const char *name = tc_xray_bins_name(b, id);
    snprintf(buf, size, "%s%s%s", name ? " (" : "", name ? name : "", name ? ")" : "");
}

/* "entry, exit": the sled kinds a function has. */
static void sled_list(unsigned kinds, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < TC_XRAY_SLED_KINDS && n < size; k++)
        if (kinds >> k & 1)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", sled_words[k]);
    if (!n)
        snprintf(buf, size, "none");
}

void tc_xray_bins_record(tc_xray_bins *b, tc_diag_sink *d, uint64_t pos, uint64_t len,
                         unsigned action, uint32_t id)
{
    if (action > 3)
        return;
    unsigned obj;
    const tc_xray_function *f = function_of(b, id, &obj);
    uint32_t fn = id & ((1u << TC_XRAY_FN_BITS) - 1);
    if (obj >= b->n) {
        if (!b->object_noted[obj & (OBJECTS - 1)]) {
            b->object_noted[obj & (OBJECTS - 1)] = 1;
            tc_report(d, TC_RULE_XRAY_BINARY_NO_OBJECT, pos, len,
                      "function id %" PRIu32 " is function %" PRIu32 " of object %u (a shared "
                      "object's), and --binary named %u object%s (the executable is object 0): "
                      "its records are not checked against a binary",
                      id, fn, obj, b->n, b->n == 1 ? "" : "s");
        }
        return;
    }
    const tc_xray_map *m = b->maps[obj];
    char which[64] = "";
    if (obj)
        snprintf(which, sizeof which, " (function %" PRIu32 " of object %u)", fn, obj);
    if (!f) {
        if (!tc_idset_has(&b->unknown, id)) {
            tc_idset_add(&b->unknown, id);
            tc_report(d, TC_RULE_XRAY_BINARY_NO_FUNCTION, pos, len,
                      "function id %" PRIu32 "%s is not in %s's instrumentation map (%zu "
                      "function%s): the trace and the binary come from different builds",
                      id, which, b->paths[obj], m->nfunctions, m->nfunctions == 1 ? "" : "s");
        }
        return;
    }
    if (f->kinds & sleds_for(action))
        return;
    uint8_t *reported = &b->kinds_reported[obj][fn];
    if (*reported >> action & 1)
        return;
    *reported |= (uint8_t)(1u << action);
    char has[128];
    sled_list(f->kinds, has, sizeof has);
    tc_report(d, TC_RULE_XRAY_BINARY_NO_SLED, pos, len,
              "%s record of function %" PRIu32 "%s%s%s%s, which has no %s sled in %s (its "
              "sleds: %s): the record comes from another build of the function",
              record_names[action], id, which, f->name ? " (" : "", f->name ? f->name : "",
              f->name ? ")" : "",
              needed_words[action],
              b->paths[obj], has);
}

int tc_xray_bins_one_thread(const tc_options *opt) { return opt && opt->n_binaries > 0; }
