/* tracecheck conformance: run an implementation over the conformance cases. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../conformance/runner/conformance.h"
#include "../conformance/runner/dqr.h"
#include "../conformance/runner/impl.h"
#include "../reports/conformance_report.h"
#include "cli.h"

#define MAX_GLOBS 64

static void help(void)
{
    puts("usage: tracecheck conformance [OPTIONS]\n"
         "\n"
         "Runs an implementation over the conformance cases (conformance/cases/<group>/\n"
         "{y,n,i}_*: y_ must be accepted, n_ rejected, i_ is implementation-defined) and\n"
         "reports pass, fail, crash, timeout, skip, xfail (an expected failure) and xpass\n"
         "(a listed failure that now passes). See docs/conformance.md.\n"
         "\n"
         "Implementation (default: --impl tracecheck):\n"
         "      --impl NAME       tracecheck: this project's parser, each case in a forked\n"
         "                        process, judged on verdict, rule ids and dump;\n"
         "                        llvm-xray: 'llvm-xray fdr-dump --verify {file}' (XRay\n"
         "                        cases); ovniemu: 'ovniemu -l DIR', ovnidump: 'ovnidump\n"
         "                        DIR' (ovni cases, on a scratch copy; any exit status\n"
         "                        but 0 rejects). Found on PATH; when absent, every case\n"
         "                        is skipped with the reason (docs/ovni-tools.md);\n"
         "                        dqr: SiFive's decoder on each perf .rtd case from a\n"
         "                        properties file in a scratch directory (docs/dqr.md)\n"
         "      --cmd 'CMD {file}' any command: {file} becomes the case's path, a file or a\n"
         "                        directory (without {file} the input is on stdin).\n"
         "                        Exit 0 = accept, exactly 1 = reject; anything else, a\n"
         "                        signal or the timeout is a crash or a timeout\n"
         "      --name NAME       the command's name in reports (default: its program)\n"
         "      --dump            the command prints the canonical dump on stdout\n"
         "                        (spec/canonical-dump.md): compare it, y_ in full, n_ as a\n"
         "                        prefix\n"
         "      --format FORMAT   the command reads only this format: skip other cases\n"
         "      --copy            give the command a scratch copy of each case, removed\n"
         "                        afterwards (for readers that write into their input)\n"
         "\n"
         "Selection and judging:\n"
         "      --cases DIR       the cases (default: $TRACECHECK_CASES, else the source\n"
         "                        tree's conformance/cases, else ../share/tracecheck/cases\n"
         "                        next to this program, else ./conformance/cases)\n"
         "      --run GLOB        only cases whose id (xray/NAME) or name matches;\n"
         "                        repeatable\n"
         "      --skip GLOB       report matching cases as skipped; repeatable\n"
         "      --timeout SEC     per case (default 10)\n"
         "      --xfail FILE      the expected-failure list (default: the cases' sibling\n"
         "                        xfail/NAME.txt when it exists)\n"
         "      --no-xfail        use no expected-failure list\n"
         "  -j, --jobs N          cases run at once (default: the number of CPUs)\n"
         "\n"
         "Output:\n"
         "      --report KIND     text, json, tap or junit; repeatable or comma-separated.\n"
         "                        With --report-dir: files conformance-NAME.{txt,json,tap,\n"
         "                        xml} (all four by default). Without: that one report on\n"
         "                        stdout (results are logged on stderr)\n"
         "      --report-dir DIR  where report files go (created if needed)\n"
         "  -v, --verbose         log every result, not only the failures\n"
         "  -q, --quiet           log nothing but the summary\n"
         "\n"
         "Maintenance:\n"
         "      --list            list the selected cases and stop\n"
         "      --coverage        check that every rule of an implemented format and every\n"
         "                        TC rule has a case (an n_ case for errors, a y_ case for\n"
         "                        warnings and notes); with -v, the cases per rule\n"
         "      --write-dumps     tracecheck only: write what the parser printed as each\n"
         "                        selected case's expected dump (review before committing)\n"
         "  -h, --help            this help\n"
         "\n"
         "Exit status: 0 when nothing failed, crashed, timed out or passed unexpectedly\n"
         "(and the expected-failure list names only existing cases), 1 otherwise, 2 on a\n"
         "usage error or a broken case.");
}

static int is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The default case directory, in the order the help gives. */
static char *find_cases(void)
{
    const char *env = getenv("TRACECHECK_CASES");
    if (env && *env)
        return tc_conf_strdup(env);
#ifdef TC_SOURCE_DIR
    if (is_dir(TC_SOURCE_DIR "/conformance/cases"))
        return tc_conf_strdup(TC_SOURCE_DIR "/conformance/cases");
#endif
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char *installed = tc_conf_printf("%s/../share/tracecheck/cases", exe);
            if (is_dir(installed))
                return installed;
            free(installed);
        }
    }
    return tc_conf_strdup("conformance/cases");
}

/* A program on PATH, or NULL. */
static char *which(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        char *full = tc_conf_printf("%.*s/%s", (int)(n ? n : 1), n ? p : ".", prog);
        if (access(full, X_OK) == 0 && is_file(full))
            return full;
        free(full);
        p += n;
        if (*p == ':')
            p++;
    }
    return NULL;
}

/* "./bin/my-reader --strict {file}" -> "my-reader". */
static char *name_from_command(const char *cmd)
{
    while (*cmd == ' ')
        cmd++;
    size_t n = strcspn(cmd, " \t");
    const char *start = cmd;
    for (size_t i = 0; i < n; i++)
        if (cmd[i] == '/')
            start = cmd + i + 1;
    char *name = tc_conf_printf("%.*s", (int)(cmd + n - start), start);
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.'))
            *p = '_';
    if (!*name) {
        free(name);
        name = tc_conf_strdup("cmd");
    }
    return name;
}

static int mkdirs(const char *dir)
{
    char *p = tc_conf_strdup(dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0777);
            *s = '/';
        }
    int rc = mkdir(p, 0777) == 0 || errno == EEXIST ? 0 : -1;
    free(p);
    return rc;
}

typedef struct cli_state {
    tc_conf_suite suite;
    tc_conf_xfail xfail;
    int have_xfail;
    char *cases, *impl_name, *command, *unavailable, *only_reason;
    char *program; /* --impl dqr: dqr's path */
} cli_state;

/* Third-party tools known by name: how each is run and judged. */
typedef struct known_tool {
    const char *name;
    const char *program;
    const char *args;        /* after the program; {file} is the case */
    tc_format format;        /* the one format it reads */
    const char *only_reason;
    int copy_input, nonzero_rejects;
    const char *const *abort_rejects;
    const char *install;     /* said when it is not on PATH */
} known_tool;

/* libovni's die() prints why, then abort()s: after a failed load that is how
 * ovniemu refuses a trace (src/emu/ovniemu.c). */
static const char *const ovniemu_refusals[] = {"emu_init failed", "emu_connect failed", NULL};

static const known_tool known_tools[] = {
    {"llvm-xray", "llvm-xray", "fdr-dump --verify {file}", TC_FORMAT_XRAY,
     "not an XRay case: llvm-xray reads XRay FDR only", 0, 0, NULL, "Debian: apt-get install llvm"},
    /* Both write into the trace or open its streams read-write: a copy. */
    {"ovniemu", "ovniemu", "-l {file}", TC_FORMAT_OVNI,
     "not an ovni case: ovniemu reads ovni traces only", 1, 1, ovniemu_refusals,
     "libovni is not packaged in Debian; see docs/ovni-tools.md"},
    {"ovnidump", "ovnidump", "{file} >/dev/null", TC_FORMAT_OVNI,
     "not an ovni case: ovnidump reads ovni traces only", 1, 1, NULL,
     "libovni is not packaged in Debian; see docs/ovni-tools.md"},
    /* From a properties file in a scratch directory (conformance/runner/dqr.h). */
    {"dqr", "dqr", "-pf " TC_DQR_PROPS, TC_FORMAT_PERF,
     "not a perf case: dqr reads SiFive perf data only", 1, 1, NULL,
     "SiFive's trace-decoder is not packaged in Debian; see docs/dqr.md"},
};

static const known_tool *find_tool(const char *name)
{
    for (size_t i = 0; i < sizeof known_tools / sizeof known_tools[0]; i++)
        if (!strcmp(known_tools[i].name, name))
            return &known_tools[i];
    return NULL;
}

/* The tool's command line: exec, so that its own exit status or signal is
 * what the runner sees, not a shell's report of it. */
static char *tool_command(const char *path, const char *args)
{
    int unused;
    char *quoted = tc_impl_command_line("{file}", path, &unused);
    char *cmd = tc_conf_printf("exec %s %s", quoted, args);
    free(quoted);
    return cmd;
}

static void cleanup(cli_state *st)
{
    tc_conf_suite_free(&st->suite);
    if (st->have_xfail)
        tc_conf_xfail_free(&st->xfail);
    free(st->cases);
    free(st->impl_name);
    free(st->command);
    free(st->unavailable);
    free(st->only_reason);
    free(st->program);
}

static int write_reports(const tc_conf_run *run, const char *dir, const int *want,
                         const char *name)
{
    if (mkdirs(dir) != 0) {
        fprintf(stderr, "tracecheck conformance: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int k = 0; k < TC_CONF_REPORT__COUNT; k++) {
        if (!want[k])
            continue;
        char *path = tc_conf_printf("%s/conformance-%s.%s", dir, name,
                                    tc_conf_report_extension((tc_conf_report_kind)k));
        FILE *f = fopen(path, "w");
        if (!f || tc_conf_report_write((tc_conf_report_kind)k, f, run) != 0 || fclose(f) != 0) {
            fprintf(stderr, "tracecheck conformance: %s: %s\n", path, strerror(errno));
            rc = -1;
        }
        free(path);
    }
    return rc;
}

int cmd_conformance(int argc, char **argv)
{
    enum { O_IMPL = 256, O_CMD, O_NAME, O_DUMP, O_CASES, O_RUN, O_SKIP, O_TIMEOUT, O_XFAIL,
           O_NO_XFAIL, O_REPORT, O_REPORT_DIR, O_LIST, O_COVERAGE, O_WRITE_DUMPS, O_FORMAT,
           O_COPY };
    static const struct option longopts[] = {
        {"impl", required_argument, NULL, O_IMPL},
        {"cmd", required_argument, NULL, O_CMD},
        {"name", required_argument, NULL, O_NAME},
        {"dump", no_argument, NULL, O_DUMP},
        {"format", required_argument, NULL, O_FORMAT},
        {"copy", no_argument, NULL, O_COPY},
        {"cases", required_argument, NULL, O_CASES},
        {"run", required_argument, NULL, O_RUN},
        {"skip", required_argument, NULL, O_SKIP},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"xfail", required_argument, NULL, O_XFAIL},
        {"no-xfail", no_argument, NULL, O_NO_XFAIL},
        {"report", required_argument, NULL, O_REPORT},
        {"report-dir", required_argument, NULL, O_REPORT_DIR},
        {"jobs", required_argument, NULL, 'j'},
        {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},
        {"list", no_argument, NULL, O_LIST},
        {"coverage", no_argument, NULL, O_COVERAGE},
        {"write-dumps", no_argument, NULL, O_WRITE_DUMPS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *impl = NULL, *cmd = NULL, *name = NULL, *cases = NULL, *xfail = NULL;
    const char *format = NULL;
    int copy = 0;
    const char *report_dir = NULL;
    const char *run_globs[MAX_GLOBS], *skip_globs[MAX_GLOBS];
    size_t nrun = 0, nskip = 0;
    int want[TC_CONF_REPORT__COUNT] = {0}, nwant = 0;
    int dump = 0, no_xfail = 0, verbose = 0, quiet = 0, list = 0, coverage = 0;
    int write_dumps = 0, c;
    double timeout = 10;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    optind = 1;
    while ((c = getopt_long(argc, argv, "j:vqh", longopts, NULL)) != -1) {
        char *end;
        switch (c) {
        case O_IMPL: impl = optarg; break;
        case O_CMD: cmd = optarg; break;
        case O_NAME: name = optarg; break;
        case O_DUMP: dump = 1; break;
        case O_FORMAT: format = optarg; break;
        case O_COPY: copy = 1; break;
        case O_CASES: cases = optarg; break;
        case O_RUN:
        case O_SKIP:
            if ((c == O_RUN ? nrun : nskip) == MAX_GLOBS)
                return cli_usage_error("conformance", "at most %d --run and --skip globs each",
                                       MAX_GLOBS);
            if (c == O_RUN)
                run_globs[nrun++] = optarg;
            else
                skip_globs[nskip++] = optarg;
            break;
        case O_TIMEOUT:
            timeout = strtod(optarg, &end);
            if (*end || !(timeout > 0 && timeout <= 86400))
                return cli_usage_error("conformance", "--timeout takes seconds, above 0");
            break;
        case O_XFAIL: xfail = optarg; break;
        case O_NO_XFAIL: no_xfail = 1; break;
        case O_REPORT: {
            char *list_arg = tc_conf_strdup(optarg), *save = NULL;
            for (char *k = strtok_r(list_arg, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
                tc_conf_report_kind kind = tc_conf_report_from_name(k);
                if (kind == TC_CONF_REPORT__COUNT) {
                    free(list_arg);
                    return cli_usage_error("conformance", "unknown report '%s' (text, json, "
                                                          "tap, junit)", k);
                }
                nwant += !want[kind];
                want[kind] = 1;
            }
            free(list_arg);
            break;
        }
        case O_REPORT_DIR: report_dir = optarg; break;
        case 'j':
            jobs = strtol(optarg, &end, 10);
            if (*end || jobs < 1 || jobs > 32)
                return cli_usage_error("conformance", "--jobs takes 1 to 32");
            break;
        case 'v': verbose = 1; break;
        case 'q': quiet = 1; break;
        case O_LIST: list = 1; break;
        case O_COVERAGE: coverage = 1; break;
        case O_WRITE_DUMPS: write_dumps = 1; break;
        case 'h': help(); return 0;
        default: return cli_usage_error("conformance", "bad option");
        }
    }
    if (optind != argc)
        return cli_usage_error("conformance", "unexpected argument '%s'", argv[optind]);
    if (impl && cmd)
        return cli_usage_error("conformance", "--impl and --cmd exclude each other");
    if (dump && !cmd)
        return cli_usage_error("conformance", "--dump describes a --cmd implementation");
    if ((format || copy) && !cmd)
        return cli_usage_error("conformance", "--format and --copy describe a --cmd "
                                              "implementation");
    tc_format only = TC_FORMAT_AUTO;
    if (format && ((only = tc_format_from_name(format)) == TC_FORMAT__COUNT ||
                   only == TC_FORMAT_AUTO))
        return cli_usage_error("conformance", "unknown format '%s'", format);
    if (!report_dir && nwant > 1)
        return cli_usage_error("conformance", "several --report kinds need --report-dir");
    if (jobs < 1)
        jobs = 1;

    cli_state st = {0};
    tc_conf_impl im = {0};
    const known_tool *tool = impl ? find_tool(impl) : NULL;
    if (cmd) {
        im.kind = TC_IMPL_COMMAND;
        im.command = cmd;
        im.dump = dump;
        im.only_format = only;
        if (only != TC_FORMAT_AUTO)
            im.only_reason = st.only_reason =
                tc_conf_printf("not a case of %s, the one format --format names",
                               tc_format_name(only));
        im.copy_input = copy;
        st.impl_name = name ? tc_conf_strdup(name) : name_from_command(cmd);
    } else if (!impl || !strcmp(impl, "tracecheck")) {
        im.kind = TC_IMPL_TRACECHECK;
        st.impl_name = tc_conf_strdup("tracecheck");
    } else if (tool) {
        im.kind = TC_IMPL_COMMAND;
        char *path = which(tool->program);
        st.command = tool_command(path ? path : tool->program, tool->args);
        if (!path)
            st.unavailable = tc_conf_printf("%s not on PATH (%s)", tool->program, tool->install);
        free(path);
        im.command = st.command;
        im.unavailable = st.unavailable;
        im.only_format = tool->format;
        im.only_reason = tool->only_reason;
        im.copy_input = tool->copy_input;
        im.nonzero_rejects = tool->nonzero_rejects;
        im.abort_rejects = tool->abort_rejects;
        if (!strcmp(tool->name, "dqr")) {
            /* The command line is only shown in reports: the adapter runs it. */
            im.kind = TC_IMPL_DQR;
            im.program = st.program = which(tool->program);
            if (!im.program)
                im.program = st.program = tc_conf_strdup(tool->program);
            free(st.command);
            im.command = st.command = tc_conf_printf("cd SCRATCH && exec %s -pf %s",
                                                     im.program, TC_DQR_PROPS);
            im.only_suffix = ".rtd";
            im.only_suffix_reason = "a text message list: dqr reads Nexus .rtd traces only";
        }
        st.impl_name = tc_conf_strdup(name ? name : tool->name);
    } else {
        return cli_usage_error("conformance", "unknown implementation '%s' (tracecheck, "
                                              "llvm-xray, ovniemu, ovnidump, dqr; or --cmd)",
                                 impl);
    }
    im.name = st.impl_name;
    if (write_dumps && im.kind != TC_IMPL_TRACECHECK) {
        cleanup(&st);
        return cli_usage_error("conformance", "--write-dumps writes tracecheck's dumps");
    }

    st.cases = cases ? tc_conf_strdup(cases) : find_cases();
    if (tc_conf_suite_load(&st.suite, st.cases) != 0) {
        fprintf(stderr, "tracecheck conformance: the suite in %s has problems (above)\n",
                st.cases);
        cleanup(&st);
        return EXIT_TROUBLE;
    }
    if (coverage) {
        size_t gaps = tc_conf_coverage(&st.suite, verbose);
        printf("coverage: %zu cases in %s; %zu rule%s without a case\n", st.suite.count,
               st.cases, gaps, gaps == 1 ? "" : "s");
        cleanup(&st);
        return gaps ? EXIT_INVALID : EXIT_VALID;
    }
    if (list) {
        for (size_t i = 0; i < st.suite.count; i++) {
            const tc_conf_case *k = &st.suite.cases[i];
            if (!nrun || tc_conf_case_matches(k, run_globs, nrun, NULL))
                printf("%-52s %s\n", k->id, k->description);
        }
        cleanup(&st);
        return 0;
    }

    if (!no_xfail) {
        char *path = NULL;
        if (xfail) {
            path = tc_conf_strdup(xfail);
        } else {
            /* cases/ and xfail/ are siblings in conformance/. */
            char *dflt = tc_conf_printf("%s/../xfail/%s.txt", st.cases, st.impl_name);
            char real[PATH_MAX];
            if (is_file(dflt) && realpath(dflt, real))
                path = tc_conf_strdup(real);
            free(dflt);
        }
        if (path) {
            char err[512];
            if (tc_conf_xfail_load(&st.xfail, path, err, sizeof err) != 0) {
                fprintf(stderr, "tracecheck conformance: %s\n", err);
                free(path);
                cleanup(&st);
                return EXIT_TROUBLE;
            }
            st.have_xfail = 1;
            free(path);
            /* tracecheck crashing is a bug to fix, never a line in a list. */
            for (size_t i = 0; im.kind == TC_IMPL_TRACECHECK && i < st.xfail.n; i++)
                if (st.xfail.e[i].kind != TC_XFAIL_FAIL) {
                    fprintf(stderr, "tracecheck conformance: %s:%u: tracecheck's list cannot "
                                    "expect a crash or a timeout\n", st.xfail.path,
                            st.xfail.e[i].line);
                    cleanup(&st);
                    return EXIT_TROUBLE;
                }
        }
    }

    FILE *console = !report_dir && nwant == 1 ? stderr : stdout;
    tc_conf_options opt = {
        .impl = &im, .run = run_globs, .nrun = nrun, .skip = skip_globs, .nskip = nskip,
        .timeout = timeout, .jobs = (unsigned)jobs, .xfail = st.have_xfail ? &st.xfail : NULL,
        .write_dumps = write_dumps, .verbose = verbose, .log = quiet ? NULL : console,
    };
    tc_conf_run run;
    tc_conf_run_suite(&run, &st.suite, &opt);

    int status = tc_conf_run_failed(&run) ? EXIT_INVALID : EXIT_VALID;
    if (report_dir) {
        if (!nwant)
            for (int k = 0; k < TC_CONF_REPORT__COUNT; k++)
                want[k] = 1;
        if (write_reports(&run, report_dir, want, st.impl_name) != 0)
            status = EXIT_TROUBLE;
    } else if (nwant == 1) {
        for (int k = 0; k < TC_CONF_REPORT__COUNT; k++)
            if (want[k] && tc_conf_report_write((tc_conf_report_kind)k, stdout, &run) != 0)
                status = EXIT_TROUBLE;
    }
    fprintf(console, "conformance suite %s, %s: ", st.suite.version, st.impl_name);
    tc_conf_report_summary_line(console, &run);
    if (report_dir && !quiet)
        fprintf(console, "reports: %s/conformance-%s.*\n", report_dir, st.impl_name);
    tc_conf_run_free(&run);
    cleanup(&st);
    return status;
}
