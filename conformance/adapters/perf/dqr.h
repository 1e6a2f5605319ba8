/*
 * The adapter for SiFive's trace decoder, dqr (docs/dqr.md, which cites the
 * dqr 0.18.0 source for each fact used here). dqr extracts perf data only
 * when a settings file asks for it, and only with an ELF that covers every
 * address it prints. So each .rtd case runs in a scratch directory of its
 * own holding a copy of the trace, a stand-in ELF made for that trace
 * (dqr_elf.c) and the settings file, as
 *
 *     dqr -sf props.pf -nodasm
 *
 * The verdict comes from dqr's exit status and the errors it prints
 * (dqr.c); for an accepted y_ case, the .perf text dqr wrote is compared with
 * the case's expected dump (dqr_perf.c).
 */
#ifndef TC_CONF_DQR_H
#define TC_CONF_DQR_H

#include "../../../parsers/common/error.h"
#include <stddef.h>
#include <stdint.h>

#include "../../runner/impl.h"

/* The settings file, the stand-in ELF, and what dqr names after the ELF:
 * BASENAME.perf next to the trace, and the perf/ directory. */
#define TC_DQR_PROPS "props.pf"
#define TC_DQR_ELF "perf.elf"
#define TC_DQR_PERF "perf.perf"
/* dqr's arguments. -nodasm: no disassembly of the instruction trace some
 * cases carry (the stand-in ELF holds no program). */
#define TC_DQR_ARGS "-sf " TC_DQR_PROPS " -nodasm"
/* The objdump dqr runs on the ELF (its DEFAULTOBJDUMPNAME), looked up on
 * PATH by the adapter and named in the settings file. */
#define TC_DQR_OBJDUMP "riscv64-unknown-elf-objdump"

/* The adapter (tools.c): tc_dqr_start and tc_dqr_outcome. */
extern const tc_conf_adapter tc_dqr_adapter;

/* Starts dqr (impl->program) on the case in a scratch directory (job->scratch,
 * removed by tc_impl_finish). Returns 0, or -1 with the reason in err. */
int tc_dqr_start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c, double timeout,
                 tc_error *err);

/* Once dqr has exited, before the scratch directory goes: turns what dqr did
 * into the runner's terms (docs/dqr.md, "Verdicts"): o->exit_status 0
 * (accept) or 1 (reject), or o->no_verdict; for an accepted case that expects
 * acceptance, sets o->mismatch when the .perf text differs from the expected
 * dump. What dqr printed goes to standard error for the reports. */
void tc_dqr_outcome(const tc_impl_job *job, tc_conf_outcome *o);

/* ---- dqr_elf.c: the stand-in ELF ---- */

/* The addresses dqr will look up in the trace at path (a .rtd file): those of
 * the records tracecheck's perf parser reads in it, and in DeltaXOR mode
 * also their running XOR (what dqr takes them for). Returns the count and a
 * malloc'ed array in *out (sorted, without duplicates or 0), or -1 with the
 * reason in err. */
long tc_dqr_trace_addresses(const char *path, uint64_t **out, tc_error *err);

/* Writes a 64-bit little-endian RISC-V ELF whose code sections (nops) cover
 * each address, each with a function symbol, plus one fixed section so that
 * the ELF always has a symbol. Returns 0, or -1 with the reason in err. */
int tc_dqr_write_elf(const char *path, const uint64_t *addr, size_t n, tc_error *err);

/* ---- dqr_perf.c: dqr's .perf text against the expected dump ---- */

/* Compares the .perf text with the canonical dump (count type, mask, counter
 * definitions; each record's kind, addresses and counter values). Returns
 * NULL when they agree, else a malloc'ed sentence saying where they first
 * differ. */
char *tc_dqr_compare(const char *perf, const char *dump);

/* What a .perf text holds: headers (COUNT_TYPE lines), records and counter
 * values. */
void tc_dqr_perf_summary(const char *perf, size_t *headers, size_t *records, size_t *values);

#endif
