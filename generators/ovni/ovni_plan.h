/*
 * The plan of a synthesised ovni trace: its looms (names, CPUs), processes
 * and thread streams, and everything the metadata of each stream says, made
 * from the choices before any stream is written. Mutators edit the plan
 * (drop a file, rename a directory, take the CPU list off a loom, add a
 * stream) before the streams are written from it. Memory: a few hundred
 * bytes per stream plus the CPU lists; it does not grow with --size.
 */
#ifndef TC_OVNI_PLAN_H
#define TC_OVNI_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/ovni/ovni_models.h"
#include "../common/rng.h"
#include "ovni_json.h"

/* The models a stream requires and emits events of (bit masks, by model
 * of parsers/ovni/ovni_models.h; ovni's own is always there). */
#define OVNI_USES(model) (1u << (model))
#define OVNI_USES_NOSV OVNI_USES(TC_OVNI_M_NOSV)
#define OVNI_USES_KERNEL OVNI_USES(TC_OVNI_M_KERNEL)
#define OVNI_USES_ALL (((1u << TC_OVNI_M__COUNT) - 1u) & ~OVNI_USES(TC_OVNI_M_OVNI))
/* ovni_gen_params.models: ovni's own events alone. */
#define OVNI_USES_NONE OVNI_USES(TC_OVNI_M_OVNI)

/* The mark types a stream with marks declares in ovni.mark (as libovni's
 * ovni_mark_type writes them): a value set with OM=, and values pushed with
 * OM[ and popped with OM]. */
#define OVNI_MARK_SINGLE 1
#define OVNI_MARK_STACK 2

/* Limits of the shape (command line and fuzzers). */
#define OVNI_MAX_LOOMS 64u
#define OVNI_MAX_PROCS 256u
#define OVNI_MAX_THREADS 1024u
#define OVNI_MAX_STREAMS 65536u

enum { OVNI_CPU_OWN, OVNI_CPU_VIRTUAL, OVNI_CPU_ZERO };

/* The smallest stream.obs of a complete thread: header, OHx (28), OHe (12). */
#define OVNI_MIN_STREAM 48u

typedef struct ovni_gen_params {
    uint64_t seed;
    uint64_t size;    /* bytes of all stream.obs files together (about) */
    unsigned looms;   /* >= 1 */
    unsigned procs;   /* processes per loom, >= 1 */
    unsigned threads; /* threads per process, >= 1 */
    int big_endian;
    int mixed_byte_order; /* each stream picks its own byte order (big_endian ignored) */
    /* Nanoseconds: each stream starts up to this much later than the plan's
     * clock, as threads created during a run do (under ruling 10's hour,
     * at most OVNI_MAX_START_SPREAD); 0, the default: all within a
     * millisecond. */
    uint64_t start_spread;
    /* The models whose events every process writes (OVNI_USES_*); 0: each
     * process takes some models. */
    unsigned models;
} ovni_gen_params;

#define OVNI_MAX_START_SPREAD (3000ull * 1000000000ull)

typedef struct ovni_cpu {
    int64_t index, phyid;
} ovni_cpu;

typedef struct ovni_loom {
    char name[48];
    ovni_cpu *cpus; /* the loom's CPUs, in index order */
    size_t ncpus;
} ovni_loom;

typedef struct ovni_stream_plan {
    unsigned loom, proc, thread; /* proc within the loom, thread within the process */
    int64_t pid, tid;
    int has_app_id, has_rank;    /* has_rank: ovni.rank and ovni.nranks */
    int64_t app_id, rank, nranks;
    unsigned uses;               /* OVNI_USES_*: required, and their events emitted */
    unsigned unrequired;         /* of those, the ones it does not require (mutations) */
    char also_requires[48];      /* a known model required without events, or "" */
    int unknown_model;           /* also requires a model tracecheck does not know */
    int has_cpus;                /* writes ovni.loom_cpus */
    ovni_cpu *cpus;              /* its ovni.loom_cpus, in the order written */
    size_t ncpus;
    int primary;                 /* the loom's first carrier of its whole CPU list */
    int has_lib;                 /* writes ovni.lib */
    int has_marks;               /* declares the mark types and emits marks */
    /* Mutations: 1 declares a broken mark type 3 too (its chan_type is
     * "queue"), 2 titles type 2 differently ("Phase B"). */
    int mark_style;
    /* Mutations: 1 declares a counter without a name in nosv.hwc; 2 and 3
     * declare one and two counters. */
    int hwc_style;
    /* Which CPUs its thread runs on: 0 its own (OVNI_CPU_OWN); the loom's
     * virtual CPU alone (threads added by mutations); CPU 0 alone. */
    int cpu_mode;
    int section;                 /* writes a section of its own after "ovni" */
    int unicode;                 /* that section holds non-ASCII text */
    unsigned style;              /* metadata layout, see ovni_plan_style */
    int big_endian;
    char dir[3][64];             /* loom, process and thread directory names */
    int no_json, no_obs;         /* files it lacks (mutations) */
    uint64_t budget;             /* bytes of its stream.obs (about) */
    uint64_t clock0;             /* clock of its first event */
} ovni_stream_plan;

typedef struct ovni_plan {
    ovni_gen_params p;
    ovni_loom *looms;
    size_t nlooms;
    ovni_stream_plan *streams; /* by loom, then process, then thread */
    size_t n, cap;
    int dirs_only;             /* write the directories and no stream file (mutations) */
    char lib_version[16], lib_commit[16];
} ovni_plan;

/* The plan of a trace of shape p, every decision from choices. NULL when
 * the shape is out of the limits above. */
ovni_plan *ovni_plan_new(const ovni_gen_params *p, tc_rng *choices);
void ovni_plan_free(ovni_plan *pl);

/* A new stream, a copy of stream `like` (same loom and process) with the
 * given tid, written in directory thread_dir, with a minimal budget. The
 * copy has no CPU list. Returns its index. */
size_t ovni_plan_add_thread(ovni_plan *pl, size_t like, int64_t tid, const char *thread_dir);

/* The stream's directory relative to the trace: "loom.X/proc.P/thread.T". */
void ovni_plan_rel(const ovni_plan *pl, size_t i, char *buf, size_t size);

/* The metadata document of stream i. */
ovni_json *ovni_plan_metadata(const ovni_plan *pl, size_t i);
/* How stream i lays its metadata out. */
void ovni_plan_style(const ovni_plan *pl, size_t i, ovni_json_style *st);

/* ---- questions mutators ask ---- */

/* Streams of loom l, and of the process of stream i. */
size_t ovni_plan_loom_streams(const ovni_plan *pl, unsigned loom);
size_t ovni_plan_process_streams(const ovni_plan *pl, size_t i);
/* Whether stream i can drop out of the checks across streams (no metadata,
 * not a thread, no pid or loom) without leaving its loom short of CPUs:
 * it is not the loom's primary carrier, or it is alone in its loom. */
int ovni_plan_excludable(const ovni_plan *pl, size_t i);
/* Whether stream i's CPU list can be lost (malformed) without another
 * finding: another carrier gives the whole list, or it is the only carrier. */
int ovni_plan_cpus_losable(const ovni_plan *pl, size_t i);

#endif
