/* The adapter for SiFive's dqr (dqr.h, docs/dqr.md). */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dqr.h"
#include "scratch.h"

/* A 64-byte ELF header and nothing else: a little-endian 64-bit RISC-V
 * executable without sections or symbols. dqr needs an ELF in its properties
 * (it names its output after the ELF's base name and prints the ELF's path
 * into it); the cases come from no program, so this stands in for one. */
static const unsigned char placeholder_elf[64] = {
    0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* little-endian */, 1 /* version */, 0, 0, 0, 0,
    0, 0, 0, 0, 0,
    2, 0,                   /* e_type: ET_EXEC */
    243, 0,                 /* e_machine: EM_RISCV */
    1, 0, 0, 0,             /* e_version */
    0, 0, 0, 0x80, 0, 0, 0, 0, /* e_entry: 0x80000000 */
    0, 0, 0, 0, 0, 0, 0, 0, /* e_phoff */
    0, 0, 0, 0, 0, 0, 0, 0, /* e_shoff */
    0, 0, 0, 0,             /* e_flags */
    64, 0,                  /* e_ehsize */
    56, 0, 0, 0,            /* e_phentsize, e_phnum */
    64, 0, 0, 0, 0, 0,      /* e_shentsize, e_shnum, e_shstrndx */
};

static int write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return 0;
}

/* The child: dqr runs in the scratch directory, where the properties name
 * the trace and the ELF by relative paths and its outputs land. */
static int dqr_body(void *arg)
{
    const tc_impl_job *job = arg;
    if (chdir(job->scratch) != 0) {
        perror("tracecheck conformance: chdir to the scratch directory");
        return 127;
    }
    execl(job->cmdline, "dqr", "-pf", TC_DQR_PROPS, (char *)NULL);
    fprintf(stderr, "tracecheck conformance: %s: %s\n", job->cmdline, strerror(errno));
    return 127;
}

int tc_dqr_start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c,
                 double timeout, char *err, size_t errlen)
{
    char *copy = NULL;
    if (tc_scratch_copy(c->input, &job->scratch, &copy, err, errlen) != 0)
        return -1;
    const char *base = strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy;
    /* Channel 6, the library's default and the one every case uses. */
    char *props = tc_conf_printf("rtd=%s\nelf=%s\ntrace.config.int.itc.perf=true\n"
                                 "trace.config.int.itc.perf.channel=6\n", base, TC_DQR_ELF);
    char *props_path = tc_conf_printf("%s/%s", job->scratch, TC_DQR_PROPS);
    char *elf_path = tc_conf_printf("%s/%s", job->scratch, TC_DQR_ELF);
    int rc = write_file(props_path, props, strlen(props), err, errlen);
    if (rc == 0)
        rc = write_file(elf_path, placeholder_elf, sizeof placeholder_elf, err, errlen);
    free(props);
    free(props_path);
    free(elf_path);
    free(copy);
    job->cmdline = tc_conf_strdup(impl->program);
    if (rc == 0)
        rc = tc_proc_start(&job->proc, dqr_body, job, NULL, timeout, err, errlen);
    if (rc != 0) {
        free(job->cmdline);
        job->cmdline = NULL;
        tc_scratch_remove(job->scratch);
        free(job->scratch);
        job->scratch = NULL;
        return -1;
    }
    return 0;
}

/* needle in the n bytes at p (a line), or NULL. */
static const char *find(const char *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(p + i, needle, k))
            return p + i;
    return NULL;
}

size_t tc_dqr_perf_values(const char *text, unsigned long long *v, size_t max)
{
    size_t n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *cntr = find(line, len, "[Perf Cntr]");
        const char *val = find(line, len, "[Value=");
        if (cntr && val) {
            if (n < max)
                v[n] = strtoull(val + 7, NULL, 10); /* dqr prints %lld: wraps as written */
            n++;
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

size_t tc_dqr_dump_values(const char *dump, unsigned long long *v, size_t max)
{
    size_t n = 0;
    for (const char *line = dump; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *dec = find(line, len, "\"decoded\":[");
        if (find(line, len, "{\"t\":\"record\"") && dec) {
            /* An array of decimal strings: ["1","2"]. */
            for (const char *p = dec + 11; p < line + len && *p != ']';) {
                if (*p == '"') {
                    if (n < max)
                        v[n] = strtoull(p + 1, NULL, 10);
                    n++;
                    p = strchr(p + 1, '"');
                    if (!p)
                        break;
                }
                p++;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

/* The .perf file dqr wrote into the scratch directory, or NULL. */
static char *find_perf(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".perf"))
            found = tc_conf_printf("%s/%s", dir, e->d_name);
    }
    closedir(d);
    return found;
}

static void note(tc_conf_outcome *o, const char *msg)
{
    char *err = tc_conf_printf("%s%s%s\n", o->err ? o->err : "",
                               o->err_len && o->err[o->err_len - 1] != '\n' ? "\n" : "", msg);
    free(o->err);
    o->err = err;
    o->err_len = strlen(err);
}

#define MAX_VALUES 65536

void tc_dqr_outcome(const tc_impl_job *job, tc_conf_outcome *o)
{
    if (!o->exited || o->exit_status != 0 || o->timed_out || !job->scratch)
        return; /* a crash, a timeout or a rejection by exit status */
    char *perf = find_perf(job->scratch);
    if (!perf) {
        /* Nothing extracted: dqr refused the trace without saying so. */
        o->exit_status = 1;
        note(o, "tracecheck conformance: dqr exited with 0 and wrote no .perf file: a "
                "rejection");
        return;
    }
    const tc_conf_case *c = job->c;
    char *text = tc_conf_read_file(perf, NULL);
    char *dump = c->dump_path && c->verdict == TC_VERDICT_ACCEPT
                     ? tc_conf_read_file(c->dump_path, NULL) : NULL;
    if (text && dump) {
        unsigned long long *got = calloc(MAX_VALUES, sizeof *got);
        unsigned long long *want = calloc(MAX_VALUES, sizeof *want);
        if (!got || !want)
            abort();
        size_t ng = tc_dqr_perf_values(text, got, MAX_VALUES);
        size_t nw = tc_dqr_dump_values(dump, want, MAX_VALUES);
        size_t i = 0;
        while (i < ng && i < nw && i < MAX_VALUES && got[i] == want[i])
            i++;
        if (ng != nw || (i < ng && i < MAX_VALUES)) {
            char *why;
            if (i < ng && i < nw && i < MAX_VALUES)
                why = tc_conf_printf("counter values: value %zu of the .perf file is %llu, the "
                                     "expected dump's is %llu (%zu and %zu values)", i + 1,
                                     got[i], want[i], ng, nw);
            else
                why = tc_conf_printf("counter values: the .perf file has %zu, the expected "
                                     "dump %zu (the first %zu agree)", ng, nw, i);
            note(o, why);
            o->mismatch = why;
        }
        free(got);
        free(want);
    }
    free(text);
    free(dump);
    free(perf);
}
