/*
 * Nexus message ends many bytes at a time (parsers/common/simd.h): a byte
 * whose MSEO bits are 3 (both low bits set) ends a message, and the idle
 * byte 0xFF is one too. The kernels turn 64-byte blocks into bit masks of
 * those bytes; the framing then walks the set bits, so that no byte is
 * tested on its own.
 */
#ifndef TC_NEXUS_SIMD_H
#define TC_NEXUS_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "../common/simd.h"

#define TC_NEXUS_BLOCK 64 /* bytes per mask word */

/* Bit j of out[k] is set when (p[64 k + j] & 3) == 3, for k < blocks. */
typedef void (*tc_nexus_ends_fn)(const uint8_t *p, size_t blocks, uint64_t *out);

/* The reference: eight bytes at a time in a 64-bit word (byte by byte
 * where the byte order is not little-endian). */
void tc_nexus_ends_scalar(const uint8_t *p, size_t blocks, uint64_t *out);

/* The kernel of a level (the scalar one where the build has no other). */
tc_nexus_ends_fn tc_nexus_ends_kernel(tc_simd_level level);

#endif
