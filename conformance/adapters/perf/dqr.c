/* The adapter for SiFive's dqr (dqr.h, docs/dqr.md). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dqr.h"
#include "../../runner/scratch.h"

static int write_file(const char *path, const void *data, size_t len, tc_error *err)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        tc_error_set(err, "dqr", "%s: %s", path, strerror(errno));
    return ok ? 0 : -1;
}

/* name on PATH, or NULL. */
static char *on_path(const char *name)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        char *cand = tc_conf_printf("%.*s/%s", (int)n, n ? p : ".", name);
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
            return cand;
        free(cand);
        p += n + (p[n] == ':');
    }
    return NULL;
}

/* The child: dqr runs in the scratch directory, where the settings name
 * the trace and the ELF by relative paths and where it writes its outputs
 * (next to the trace). */
static int dqr_body(void *arg)
{
    const tc_impl_job *job = arg;
    if (chdir(job->scratch) != 0) {
        perror("tracecheck conformance: chdir to the scratch directory");
        return 127;
    }
    execl(job->cmdline, "dqr", "-sf", TC_DQR_PROPS, "-nodasm", (char *)NULL);
    fprintf(stderr, "tracecheck conformance: %s: %s\n", job->cmdline, strerror(errno));
    return 127;
}

/* The scratch directory's settings file and stand-in ELF. */
static int prepare(const tc_conf_case *c, const char *dir, const char *trace, const char *objdump,
                   tc_error *err)
{
    uint64_t *addr = NULL;
    long n = tc_dqr_trace_addresses(c->input, &addr, err);
    if (n < 0)
        return -1;
    char *elf = tc_conf_printf("%s/%s", dir, TC_DQR_ELF);
    int rc = tc_dqr_write_elf(elf, addr, (size_t)n, err);
    free(elf);
    free(addr);
    if (rc != 0)
        return -1;
    /* tolerateErrors: keep decoding after an error, as dqr's own command
     * line does by default (-allowerrors); a settings file defaults to
     * stopping at the first error of any kind (TraceSettings::
     * TraceSettings), the instruction trace's included. Channel 6 is the
     * library's default and every case's. */
    char *props = tc_conf_printf("rtd=%s\nelf=%s\nobjdump=%s\ntolerateErrors=true\n"
                                 "trace.config.int.itc.perf=true\n"
                                 "trace.config.int.itc.perf.channel=6\n",
                                 trace, TC_DQR_ELF, objdump);
    char *path = tc_conf_printf("%s/%s", dir, TC_DQR_PROPS);
    rc = write_file(path, props, strlen(props), err);
    free(path);
    free(props);
    return rc;
}

int tc_dqr_start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c, double timeout,
                 tc_error *err)
{
    /* Without it dqr refuses every ELF before reading the trace. */
    char *objdump = on_path(TC_DQR_OBJDUMP);
    if (!objdump) {
        tc_error_set(err, "dqr",
                     "%s is not on PATH: dqr runs it on the ELF it is given (Debian: "
                     "binutils-riscv64-unknown-elf; docs/dqr.md)",
                     TC_DQR_OBJDUMP);
        return -1;
    }
    char *copy = NULL;
    int rc = tc_scratch_copy(c->input, &job->scratch, &copy, err);
    if (rc == 0) {
        const char *base = strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy;
        rc = prepare(c, job->scratch, base, objdump, err);
    }
    free(copy);
    free(objdump);
    if (rc == 0) {
        job->cmdline = tc_conf_strdup(impl->program);
        rc = tc_proc_start(&job->proc, dqr_body, job, NULL, timeout, err);
    }
    if (rc != 0) {
        tc_impl_job_release(job);
        return -1;
    }
    return 0;
}

/* ---- what dqr printed (all of it on standard output) ---- */

/* Lines that say the perf data is wrong: PerfConverter::processITCPerf
 * (src/trace.cpp). */
static const char *const perf_errors[] = {"Error: processITCPerf()", NULL};

/* Lines that say the Nexus stream is wrong: SliceFileParser::readBinaryMsg,
 * readNextTraceMsg and its parse* functions (src/dqr.cpp), and
 * Trace::NextInstruction's report of them (src/trace.cpp). */
static const char *const framing_errors[] = {
    "Error: SliceFileParser::",
    "Error: parse",
    "Error possibly due to corrupted message in trace",
    "Error: readNextTraceMsg()",
    "Error reading trace file",
    "Error: Trace::NextInstruction(): Errors in trace file",
    "Error: Trace::NextInstruction(): Trace file does not contain any trace messages",
    NULL,
};

typedef struct printed {
    size_t perf, framing, other, info;   /* error lines of each kind, Info lines */
    char first_perf[200], first_framing[200], first_other[200], first_info[200];
    int terminated;                      /* "Error (N) terminated trace decode" (main.cpp) */
    int ended;                           /* "End of Trace File" */
} printed;

static int starts_any(const char *line, size_t len, const char *const *prefixes)
{
    for (const char *const *p = prefixes; *p; p++)
        if (len >= strlen(*p) && !memcmp(line, *p, strlen(*p)))
            return 1;
    return 0;
}

static int contains(const char *line, size_t len, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= len; i++)
        if (!memcmp(line + i, needle, k))
            return 1;
    return 0;
}

static void keep(char *dst, size_t size, const char *line, size_t len)
{
    if (!dst[0])
        snprintf(dst, size, "%.*s", (int)(len < size - 1 ? len : size - 1), line);
}

/* Reads the first limit bytes (all of them after a normal exit; a dqr
 * that loops prints without end). */
static void read_printed(const char *out, size_t out_len, size_t limit, printed *p)
{
    memset(p, 0, sizeof *p);
    if (limit > out_len)
        limit = out_len;
    for (size_t at = 0; at < limit;) {
        const char *line = out + at;
        const char *nl = memchr(line, '\n', limit - at);
        size_t len = nl ? (size_t)(nl - line) : limit - at;
        at += len + 1;
        if (len >= 17 && !memcmp(line, "End of Trace File", 17))
            p->ended = 1;
        if (len >= 6 && !memcmp(line, "Error ", 6) && contains(line, len, "terminated trace decode"))
            p->terminated = 1;
        if (starts_any(line, len, perf_errors)) {
            p->perf++;
            keep(p->first_perf, sizeof p->first_perf, line, len);
        } else if (starts_any(line, len, framing_errors)) {
            p->framing++;
            keep(p->first_framing, sizeof p->first_framing, line, len);
        } else if (len >= 5 && !memcmp(line, "Error", 5) && !p->terminated) {
            p->other++;
            keep(p->first_other, sizeof p->first_other, line, len);
        } else if (len >= 5 && !memcmp(line, "Info:", 5)) {
            /* Not errors: the start of a wrapped buffer ("Skipping"), a
             * last message cut short (SliceFileParser::readBinaryMsg). */
            p->info++;
            keep(p->first_info, sizeof p->first_info, line, len);
        }
    }
}

static void note(tc_conf_outcome *o, const char *msg)
{
    char *err = tc_conf_printf("%s%s%s\n", o->err ? o->err : "",
                               o->err_len && o->err[o->err_len - 1] != '\n' ? "\n" : "", msg);
    free(o->err);
    o->err = err;
    o->err_len = strlen(err);
}

/* A few lines of what dqr printed, for the reports (its own stderr is
 * empty: dqr prints everything to stdout): the first line of each kind,
 * then how many there were. The first error comes first: it is the line
 * that says what went wrong (a --generate class is named by it). */
static void note_printed(tc_conf_outcome *o, const printed *p)
{
    if (p->first_perf[0])
        note(o, p->first_perf);
    if (p->first_framing[0])
        note(o, p->first_framing);
    if (p->first_other[0])
        note(o, p->first_other);
    if (p->first_info[0])
        note(o, p->first_info);
    char *s = tc_conf_printf("dqr printed %zu perf error%s, %zu Nexus error%s, %zu other "
                             "error line%s and %zu Info line%s%s", p->perf,
                             p->perf == 1 ? "" : "s", p->framing, p->framing == 1 ? "" : "s",
                             p->other, p->other == 1 ? "" : "s", p->info,
                             p->info == 1 ? "" : "s",
                             p->perf || p->framing || p->other || p->info
                                 ? " (the first of each above)" : "");
    note(o, s);
    free(s);
}

void tc_dqr_outcome(const tc_impl_job *job, tc_conf_outcome *o)
{
    if (!job->scratch)
        return;
    printed p;
    size_t limit = o->exited ? SIZE_MAX : (size_t)4 << 20;
    read_printed(o->out ? o->out : "", o->out ? o->out_len : 0, limit, &p);
    if (o->timed_out || !o->exited) {
        note_printed(o, &p); /* a timeout or a signal: judged as such */
        return;
    }
    if (o->exit_status == 1 && !p.terminated) {
        /* Exit status 1 before decoding began: the settings, the ELF or the
         * objdump were refused (main.cpp: "new Trace() failed"). */
        o->no_verdict = tc_conf_printf("dqr exited with 1 before decoding the trace (%s): "
                                       "no verdict", p.first_other[0] ? p.first_other
                                       : "nothing said");
        note_printed(o, &p);
        return;
    }
    if (o->exit_status != 0 && o->exit_status != 1)
        return; /* a crash for the runner */
    char *perf_path = tc_conf_printf("%s/%s", job->scratch, TC_DQR_PERF);
    char *perf = tc_conf_read_file(perf_path, NULL);
    free(perf_path);
    if (!perf && o->exit_status == 0) {
        o->no_verdict = tc_conf_strdup("dqr exited with 0 without writing " TC_DQR_PERF
                                       ": no verdict");
        note_printed(o, &p);
        return;
    }
    size_t headers = 0, records = 0, values = 0;
    if (perf)
        tc_dqr_perf_summary(perf, &headers, &records, &values);
    char *s = tc_conf_printf("dqr exited with %d; %s: %zu header%s, %zu record%s, %zu counter "
                             "value%s", o->exit_status, TC_DQR_PERF, headers,
                             headers == 1 ? "" : "s", records, records == 1 ? "" : "s", values,
                             values == 1 ? "" : "s");
    note(o, s);
    free(s);
    note_printed(o, &p);
    /* The verdict (docs/dqr.md, "Verdicts"): decoding stopped on an error
     * (exit status 1), or an error about the perf data or the Nexus stream
     * was printed, is a rejection; errors of the instruction trace are not
     * about the perf data (and the stand-in ELF holds no program). */
    if (o->exit_status == 0 && (p.perf || p.framing)) {
        o->exit_status = 1;
        note(o, "tracecheck conformance: dqr exited with 0 after printing an error about the "
                "perf data or the Nexus stream: a rejection");
    }
    const tc_conf_case *c = job->c;
    if (o->exit_status == 0 && perf && c->dump_path && c->verdict == TC_VERDICT_ACCEPT) {
        char *dump = tc_conf_read_file(c->dump_path, NULL);
        if (dump) {
            char *why = tc_dqr_compare(perf, dump);
            if (why) {
                o->mismatch = tc_conf_printf("%s differs from the expected dump: %s",
                                             TC_DQR_PERF, why);
                note(o, o->mismatch);
                free(why);
            }
        }
        free(dump);
    }
    free(perf);
}

const tc_conf_adapter tc_dqr_adapter = {tc_dqr_start, tc_dqr_outcome};
