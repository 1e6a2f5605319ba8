/*
 * A program's XRay instrumentation map (its xray_instr_map section, and
 * xray_fn_idx where the compiler wrote one), read from the ELF file the
 * trace was recorded from (--binary): which function ids exist, the sleds
 * each has, and their names. The facts and their sources are in
 * spec/xray/xray.md, "The program's binary".
 */
#ifndef TC_XRAY_MAP_H
#define TC_XRAY_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Sled kinds (the entry's kind byte). */
enum {
    TC_XRAY_SLED_ENTRY = 0,
    TC_XRAY_SLED_EXIT = 1,
    TC_XRAY_SLED_TAIL = 2,
    TC_XRAY_SLED_LOG_ARGS = 3,
    TC_XRAY_SLED_CUSTOM_EVENT = 4,
    TC_XRAY_SLED_TYPED_EVENT = 5,
    TC_XRAY_SLED_KINDS = 6
};

/* How xray_fn_idx is laid out (its 16-byte entries). */
typedef enum tc_xray_fn_idx {
    TC_XRAY_FN_IDX_NONE = 0,     /* no section: ids counted over the sleds */
    TC_XRAY_FN_IDX_POINTERS = 1, /* {begin, end}: addresses of sled entries */
    TC_XRAY_FN_IDX_RELATIVE = 2, /* {begin relative to the entry, sled count} */
} tc_xray_fn_idx;

/* One sled entry, its addresses resolved to the file's own (link-time)
 * addresses. */
typedef struct tc_xray_sled {
    uint64_t address, function;
    uint8_t kind, always, version;
    uint32_t id; /* the function id it belongs to (1-based) */
} tc_xray_sled;

/* One function id: its sleds are sleds[first .. first + count). */
typedef struct tc_xray_function {
    uint64_t address;
    size_t first, count;
    unsigned kinds; /* bit k set: a sled of kind k */
    char *name;     /* demangled; NULL when no symbol has its address */
} tc_xray_function;

typedef struct tc_xray_map {
    tc_xray_sled *sleds;
    size_t nsleds;
    tc_xray_function *functions; /* function id i is functions[i - 1] */
    size_t nfunctions;
    /* llvm-xray's count: runs of consecutive sleds of one function. With
     * xray_fn_idx the ids are its entries (the runtime's); the two agree
     * on every map a Debian clang writes (spec/xray/xray.md). */
    size_t groups;
    tc_xray_fn_idx fn_idx;
    unsigned min_version, max_version; /* of the sled entries */
} tc_xray_map;

/* Reads the map of the ELF file at path. NULL when it cannot (not an ELF
 * file, no xray_instr_map, a section whose size is not a whole number of
 * entries, a sled kind above 5, an xray_fn_idx entry outside the map, out
 * of memory): the reason is then in why ("no xray_instr_map section"). */
tc_xray_map *tc_xray_map_load(const char *path, char *why, size_t size);
void tc_xray_map_free(tc_xray_map *m);

/* The function of id (1-based), or NULL when the map has none. */
static inline const tc_xray_function *tc_xray_map_function(const tc_xray_map *m, uint64_t id)
{
    return id >= 1 && id <= m->nfunctions ? &m->functions[id - 1] : NULL;
}

/* "function-enter", ...: the names llvm-xray extract gives the kinds. */
const char *tc_xray_sled_kind_name(unsigned kind);

#endif
