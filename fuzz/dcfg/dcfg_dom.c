/*
 * The immediate dominators a DCFG's routines are checked against
 * (ruling: DCFG-ROUTINE-IDOM, parsers/dcfg/dcfg_dom.c, Lengauer and Tarjan
 * with path compression) on graphs of any shape, against the slow, obvious
 * fixed point of dcfg_dominators_oracle.h: the same immediate dominator for
 * every node, and "unreachable" for exactly the nodes the root does not
 * reach. The DCFG generator's routines are regular; fuzzed documents rarely
 * keep a routine whole: this harness reaches what they do not.
 *
 * Input layout: byte 0 the number of nodes less one (1 to 256), byte 1 the
 * root (modulo the nodes), then edges as pairs of bytes (source, target,
 * each modulo the nodes), in any order, repeats and self-loops included.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/harness.h"
#include "../../parsers/dcfg/dcfg_dom.h"
#include "dcfg_dominators_oracle.h"

#define MAX_EDGES 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint32_t n = 1u + data[0], root = data[1] % n;
    size_t m = (size - 2) / 2 < MAX_EDGES ? (size - 2) / 2 : MAX_EDGES;
    static uint32_t off[DOM_MAX_NODES + 1], succ[MAX_EDGES + 1], want[DOM_MAX_NODES],
        got[DOM_MAX_NODES];
    /* Successor lists by source, in the input's order (counting sort). */
    memset(off, 0, sizeof off);
    for (size_t e = 0; e < m; e++)
        off[data[2 + 2 * e] % n + 1]++;
    for (uint32_t v = 0; v < n; v++)
        off[v + 1] += off[v];
    uint32_t at[DOM_MAX_NODES];
    memcpy(at, off, n * sizeof *at);
    for (size_t e = 0; e < m; e++)
        succ[at[data[2 + 2 * e] % n]++] = data[3 + 2 * e] % n;

    FUZZ_ASSERT_MSG(tc_dcfg_dominators(n, off, succ, root, got), "out of memory");
    dom_naive(n, off, succ, root, want);
    for (uint32_t v = 0; v < n; v++)
        FUZZ_ASSERT_MSG(got[v] == want[v],
                        "node %u of %u (root %u, %zu edges): immediate dominator %d, the fixed "
                        "point says %d", v, n, root, m, got[v] == UINT32_MAX ? -1 : (int)got[v],
                        want[v] == UINT32_MAX ? -1 : (int)want[v]);
    return 0;
}
