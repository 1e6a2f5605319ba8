/*
 * Prints a program's XRay instrumentation map as tracecheck reads it
 * (parsers/xray/xray_map.c), for tests/xray/producers/xray_map_check.sh to
 * compare with `llvm-xray extract`:
 *
 *   xray_map BINARY
 *
 * First a line of facts ("# sleds 20 functions 9 groups 9 fn_idx relative
 * versions 2-2"), then one line per sled: ID ADDRESS FUNCTION KIND ALWAYS
 * VERSION NAME, addresses in hex, KIND as llvm-xray names it. Exit 0, or 2
 * with the reason on stderr when the map cannot be read.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../../../parsers/xray/xray_map.h"

static const char *const layouts[] = {"none", "pointers", "relative"};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: xray_map BINARY\n");
        return 2;
    }
    char why[256];
    tc_xray_map *m = tc_xray_map_load(argv[1], why, sizeof why);
    if (!m) {
        fprintf(stderr, "xray_map: %s: %s\n", argv[1], why);
        return 2;
    }
    printf("# sleds %zu functions %zu groups %zu fn_idx %s versions %u-%u\n", m->nsleds,
           m->nfunctions, m->groups, layouts[m->fn_idx], m->min_version, m->max_version);
    for (size_t i = 0; i < m->nsleds; i++) {
        const tc_xray_sled *s = &m->sleds[i];
        const tc_xray_function *f = tc_xray_map_function(m, s->id);
        printf("%" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64 " %s %s %u %s\n", s->id, s->address,
               s->function, tc_xray_sled_kind_name(s->kind), s->always ? "true" : "false",
               s->version, f && f->name ? f->name : "-");
    }
    tc_xray_map_free(m);
    return 0;
}
