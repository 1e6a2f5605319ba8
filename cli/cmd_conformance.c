/* tracecheck conformance: run implementations over the conformance cases. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../parsers/common/mkdirs.h"
#include "../conformance/runner/conformance.h"
#include "../conformance/adapters/tools.h"
#include "../conformance/runner/impl.h"
#include "../conformance/runner/tool_version.h"
#include "../reports/conformance_report.h"
#include "cli.h"
#include "conformance_generate.h"

#define MAX_GLOBS 64

static void help(void)
{
    puts("usage: tracecheck conformance [OPTIONS]\n"
         "\n"
         "Runs implementations over the conformance cases (conformance/cases/<group>/\n"
         "{y,n,i}_*: y_ must be accepted, n_ rejected, i_ is implementation-defined) and\n"
         "reports pass, fail, crash, timeout, skip (--skip), out-of-scope (a case the\n"
         "implementation does not read), not-installed (the tool was not found), broken\n"
         "(the tool could not read the one case it must accept: --no-preflight), xfail\n"
         "(an expected failure) and xpass (a listed failure that now passes). See\n"
         "docs/conformance.md.\n"
         "\n"
         "Implementations (default: --impl tracecheck; with --report html, tracecheck and\n"
         "every known tool). --impl is repeatable and --cmd may be added once: each is\n"
         "run over the cases in turn, a column of the HTML matrix, with its own reports\n"
         "and expected-failure list:\n"
         "      --impl NAME       tracecheck: this project's parser, each case in a forked\n"
         "                        process, judged on verdict, rule ids and dump;");
    /* The known tools say how they are run (conformance/adapters/tools.c). */
    char *text;
    for (size_t i = 0; (text = tc_known_tool_help(i)) != NULL; i++) {
        cli_help_wrapped("                        ", text);
        free(text);
    }
    puts("                        Known tools are found on --tool-path, then PATH; when\n"
         "                        one is absent, its cases are reported 'not-installed'\n"
         "                        with the reason\n"
         "      --impl NAME=PROGRAM  a known tool at another place or of another version,\n"
         "                        e.g. --impl ovniemu=/opt/ovni-1.13/bin/ovniemu (with\n"
         "                        --name ovniemu-1.13 its list is xfail/ovniemu-1.13.txt)\n"
         "      --tool-path DIRS  colon-separated directories searched for the known tools\n"
         "                        before PATH (e.g. /opt/ovni/bin:/opt/trace-decoder)\n"
         "                        Reports give each tool's version, as it tells it\n"
         "      --cmd 'CMD {file}' any command: {file} becomes the case's path, a file or a\n"
         "                        directory (without {file} the input is on stdin).\n"
         "                        Exit 0 = accept, exactly 1 = reject; anything else, a\n"
         "                        signal or the timeout is a crash or a timeout\n"
         "      --name NAME       the command's name in reports (default: its program);\n"
         "                        with a single --impl and no --cmd, that one's name\n"
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
         "      --xfail FILE      the expected-failure list of the one implementation\n"
         "                        (default, for each: the cases' sibling xfail/NAME.txt\n"
         "                        when it exists)\n"
         "      --no-xfail        use no expected-failure list\n"
         "      --no-preflight    run a known tool's cases even when it cannot read the case\n"
         "                        every version of it accepts (by default, that one run\n"
         "                        comes first, and a tool that fails it has its cases\n"
         "                        reported 'broken', with what it printed, once)\n"
         "  -j, --jobs N          cases run at once (default: the number of CPUs)\n"
         "\n"
         "Output:\n"
         "      --report KIND     text, json, tap, junit, sarif or html; repeatable or\n"
         "                        comma-separated. With --report-dir: files\n"
         "                        conformance-NAME.{txt,json,tap,xml,sarif} for each\n"
         "                        implementation (the first four by default); html is\n"
         "                        one page comparing them all, conformance-NAME.html, or\n"
         "                        conformance-matrix.html for several (self-contained:\n"
         "                        open it from disk). Without --report-dir: that one\n"
         "                        report on stdout (results are logged on stderr); all\n"
         "                        but html then take a single implementation\n"
         "      --report-dir DIR  where report files go (created if needed)\n"
         "  -v, --verbose         log every result, not only the failures\n"
         "  -q, --quiet           log nothing but the summary\n"
         "\n"
         "Searching with generated traces (one --impl or --cmd):\n"
         "      --generate        draw traces from every format's generators (options,\n"
         "                        sizes, valid and breaking each mutator's rule in turn),\n"
         "                        run each through the implementation and tracecheck,\n"
         "                        shrink every class of divergence (tracecheck's rules and\n"
         "                        the implementation's answer: accept, reject with its\n"
         "                        message, crash, timeout, dump) and write it as a case:\n"
         "                        OUT/cases/<format>/NAME.* (a suite: --cases OUT/cases)\n"
         "                        and what it printed, OUT/output/NAME.txt. Each class is\n"
         "                        marked against the expected-failure list (--xfail, else\n"
         "                        xfail/NAME.txt): 'known: [topic]' when an entry records\n"
         "                        it (its quoted message is the tool's, or its case\n"
         "                        expects the class's rules), else NEW; NEW classes come\n"
         "                        first. Exit status 1 when anything diverged\n"
         "      --fail-on-new     exit status 1 only when a NEW class is found (known\n"
         "                        departures found again give 0)\n"
         "      --seconds S       stop after S seconds (default 60; 0: no limit); Ctrl-C\n"
         "                        stops sooner and keeps what was found\n"
         "      --count N         stop after N traces (alone: no time limit)\n"
         "      --seed N          the run's seed (default 1): the same seed and --count\n"
         "                        write the same cases, whatever -j\n"
         "      --out DIR         where cases go (default tracecheck-generated; DIR/cases\n"
         "                        must not exist)\n"
         "      --format FORMAT   draw only this format (default: what the implementation\n"
         "                        reads); -j N workers; --timeout per run; --report text,\n"
         "                        json or html (the matrix of the cases found, with the\n"
         "                        classes), files with --report-dir\n"
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
         "usage error, a broken case, a report that could not be written or a tool that\n"
         "could not run (broken). With several implementations, the highest of theirs.");
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

/* A program in one of the colon-separated directories of path, or NULL. */
static char *which_in(const char *prog, const char *path)
{
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

/* A program: a path (with a '/'), or a name looked up in tool_path (--tool-path)
 * and then on PATH. NULL when there is no such executable file. */
static char *which(const char *prog, const char *tool_path)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0 && is_file(prog) ? tc_conf_strdup(prog) : NULL;
    char *found = which_in(prog, tool_path);
    return found ? found : which_in(prog, getenv("PATH"));
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

/* One implementation of the run: a column of the HTML matrix, a report file
 * set of its own (conformance-NAME.*), its own expected-failure list. */
typedef struct column {
    tc_conf_impl im;
    char *name, *command, *unavailable, *only_reason;
    char *also_command; /* a known tool's command for its second format */
    char *program; /* --impl dqr: dqr's path */
    char *version; /* a tool's version, as it reports it */
    tc_conf_xfail xfail;
    int have_xfail;
    tc_conf_options opt;
    tc_conf_run run;
    int ran;
} column;

#define MAX_IMPLS 16

typedef struct cli_state {
    tc_conf_suite suite;
    char *cases;
    column col[MAX_IMPLS];
    size_t ncol;
} cli_state;

/* How a --cmd column is described on the command line. */
typedef struct cmd_spec {
    const char *cmd, *name;
    int dump, copy;
    tc_format only;
} cmd_spec;

static void column_command(column *col, const cmd_spec *cs)
{
    tc_conf_impl *im = &col->im;
    im->kind = TC_IMPL_COMMAND;
    im->command = cs->cmd;
    im->dump = cs->dump;
    im->only_format = cs->only;
    if (cs->only != TC_FORMAT_AUTO)
        im->only_reason = col->only_reason =
            tc_conf_printf("not a case of %s, the one format --format names",
                           tc_format_name(cs->only));
    im->copy_input = cs->copy;
    col->name = cs->name ? tc_conf_strdup(cs->name) : name_from_command(cs->cmd);
}

/* The tool's version command with {program} and {dir} filled in. */
static char *version_command(const char *fmt, const char *path)
{
    int unused;
    char *quoted = tc_impl_command_line("{file}", path, &unused);
    const char *slash = strrchr(path, '/');
    char *dir = slash ? tc_conf_printf("%.*s", (int)(slash - path), path) : tc_conf_strdup(".");
    char *qdir = tc_impl_command_line("{file}", dir, &unused);
    char *out = tc_conf_strdup(""), *next;
    for (const char *p = fmt; *p;) {
        if (!strncmp(p, "{program}", 9)) {
            next = tc_conf_printf("%s%s", out, quoted);
            p += 9;
        } else if (!strncmp(p, "{dir}", 5)) {
            next = tc_conf_printf("%s%s", out, qdir);
            p += 5;
        } else {
            next = tc_conf_printf("%s%c", out, *p++);
        }
        free(out);
        out = next;
    }
    free(quoted);
    free(dir);
    free(qdir);
    char *cmd = tc_conf_printf("%s 2>&1 </dev/null", out);
    free(out);
    return cmd;
}

/* An --impl column: "NAME", or "NAME=PROGRAM" for a tool found elsewhere than
 * on --tool-path and PATH (another version, an uninstalled build). -1 when the
 * name is unknown. name: --name, or NULL. */
static int column_impl(column *col, const char *spec, const char *name, const char *tool_path)
{
    tc_conf_impl *im = &col->im;
    const char *eq = strchr(spec, '=');
    char *impl = eq ? tc_conf_printf("%.*s", (int)(eq - spec), spec) : tc_conf_strdup(spec);
    const char *suffix = "";
    const tc_known_tool *tool = tc_known_tool_find(impl, &suffix);
    if (!strcmp(impl, "tracecheck") && !eq) {
        free(impl);
        im->kind = TC_IMPL_TRACECHECK;
        col->name = tc_conf_strdup("tracecheck");
        return 0;
    }
    if (!tool || (eq && !eq[1])) {
        free(impl);
        return -1;
    }
    im->kind = TC_IMPL_COMMAND;
    /* Version N of a tool is its program with "-N" appended. */
    char *program = tc_conf_printf("%s%s", tool->program, suffix);
    const char *wanted = eq ? eq + 1 : program;
    char *path = which(wanted, tool_path);
    col->command = tool_command(path ? path : wanted, tool->args);
    if (!path && eq) {
        col->unavailable = tc_conf_printf("%s: no such executable (--impl %s)", wanted, spec);
    } else if (!path) {
        char *install = tc_known_tool_install(tool, suffix);
        col->unavailable = tc_conf_printf("%s not found on %sPATH (%s)", program,
                                          tool_path ? "--tool-path or " : "", install);
        free(install);
    }
    if (path) {
        char *vcmd = version_command(tool->version_cmd, path);
        im->version = col->version = tc_conf_tool_version(vcmd);
        free(vcmd);
    }
    im->command = col->command;
    im->unavailable = col->unavailable;
    im->only_format = tool->format;
    im->only_reason = tool->only_reason;
    if (tool->second_args) {
        im->also_format = tool->second_format;
        im->also_command = col->also_command =
            tool_command(path ? path : wanted, tool->second_args);
    }
    im->copy_input = tool->copy_input;
    /* A known tool has a case every version of it accepts: a --cmd reader
     * is the one under test, and its refusing a valid trace is a failure to
     * report case by case. */
    im->preflight = 1;
    if (tool->adapter) {
        /* The command line is only shown in reports: the adapter runs it. */
        im->kind = TC_IMPL_ADAPTER;
        im->adapter = tool->adapter;
        im->program = col->program = path ? tc_conf_strdup(path) : tc_conf_strdup(wanted);
        free(col->command);
        im->command = col->command = tc_conf_printf("cd SCRATCH && exec %s %s",
                                                    im->program, tool->args);
        im->only_suffix = tool->only_suffix;
        im->only_suffix_reason = tool->only_suffix_reason;
    }
    free(path);
    free(program);
    col->name = tc_conf_strdup(name ? name : impl);
    free(impl);
    return 0;
}

/* The column's expected-failure list: --xfail FILE, else the cases' sibling
 * xfail/NAME.txt when it exists. Returns 0, or EXIT_TROUBLE (said why).
 * Not judged by (--no-xfail: only the preflight's choice uses it), a list
 * that cannot be read is left out, and nothing is said of it. */
static int column_xfail(column *col, const char *cases, const char *xfail, int judged)
{
    char *path = NULL;
    if (xfail) {
        path = tc_conf_strdup(xfail);
    } else {
        /* cases/ and xfail/ are siblings in conformance/. */
        char *dflt = tc_conf_printf("%s/../xfail/%s.txt", cases, col->name);
        char real[PATH_MAX];
        if (is_file(dflt) && realpath(dflt, real))
            path = tc_conf_strdup(real);
        free(dflt);
    }
    if (!path)
        return 0;
    tc_error err = TC_ERROR_INIT;
    if (tc_conf_xfail_load(&col->xfail, path, &err) != 0) {
        if (!judged) {
            tc_error_free(&err);
            free(path);
            return 0;
        }
        char why[512];
        tc_error_format(&err, why, sizeof why);
        tc_error_free(&err);
        fprintf(stderr, "tracecheck conformance: %s\n", why);
        free(path);
        return EXIT_TROUBLE;
    }
    col->have_xfail = 1;
    free(path);
    /* Another version of the tool may depart elsewhere: the run goes on (the
     * list is what there is), but it says so, up front. */
    if (judged && col->xfail.version && col->version &&
        strcmp(col->xfail.version, col->version) != 0)
        fprintf(stderr, "tracecheck conformance: %s: note: the list was measured on %s %s; "
                        "this one is %s, whose departures may differ (measure them and keep "
                        "them in a list of their own: docs/conformance.md)\n",
                col->xfail.path, col->name, col->xfail.version, col->version);
    /* tracecheck crashing is a bug to fix, never a line in a list. */
    for (size_t i = 0; col->im.kind == TC_IMPL_TRACECHECK && i < col->xfail.n; i++)
        if (col->xfail.e[i].kind != TC_XFAIL_FAIL) {
            fprintf(stderr, "tracecheck conformance: %s:%u: tracecheck's list cannot "
                            "expect a crash or a timeout\n", col->xfail.path,
                    col->xfail.e[i].line);
            return EXIT_TROUBLE;
        }
    return 0;
}

static void cleanup(cli_state *st)
{
    tc_conf_suite_free(&st->suite);
    free(st->cases);
    for (size_t j = 0; j < st->ncol; j++) {
        column *col = &st->col[j];
        if (col->ran)
            tc_conf_run_free(&col->run);
        if (col->have_xfail)
            tc_conf_xfail_free(&col->xfail);
        free(col->name);
        free(col->command);
        free(col->also_command);
        free(col->unavailable);
        free(col->only_reason);
        free(col->program);
        free(col->version);
    }
}

static int write_file(const char *path, tc_conf_report_kind k, const tc_conf_run *runs, size_t n)
{
    FILE *f = fopen(path, "w");
    int bad = !f || (k == TC_CONF_REPORT_HTML ? tc_conf_report_write_matrix(f, runs, n)
                                              : tc_conf_report_write(k, f, runs)) != 0;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad)
        fprintf(stderr, "tracecheck conformance: %s: %s\n", path, strerror(errno));
    return bad ? -1 : 0;
}

/* The HTML matrix's file name: the implementation's, or "matrix" when the
 * page compares several. */
static char *matrix_path(const char *dir, const cli_state *st)
{
    return tc_conf_printf("%s/conformance-%s.html", dir, st->ncol == 1 ? st->col[0].name
                                                                        : "matrix");
}

static int write_reports(const cli_state *st, const tc_conf_run *runs, const char *dir,
                         const int *want)
{
    if (tc_mkdirs(dir) != 0) {
        fprintf(stderr, "tracecheck conformance: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (size_t j = 0; j < st->ncol; j++)
        for (int k = 0; k < TC_CONF_REPORT__COUNT; k++) {
            if (!want[k] || k == TC_CONF_REPORT_HTML)
                continue;
            char *path = tc_conf_printf("%s/conformance-%s.%s", dir, st->col[j].name,
                                        tc_conf_report_extension((tc_conf_report_kind)k));
            rc |= write_file(path, (tc_conf_report_kind)k, &runs[j], 1);
            free(path);
        }
    if (want[TC_CONF_REPORT_HTML]) {
        char *path = matrix_path(dir, st);
        rc |= write_file(path, TC_CONF_REPORT_HTML, runs, st->ncol);
        free(path);
    }
    return rc;
}

int cmd_conformance(int argc, char **argv)
{
    enum { O_IMPL = 256, O_CMD, O_NAME, O_DUMP, O_CASES, O_RUN, O_SKIP, O_TIMEOUT, O_XFAIL,
           O_NO_XFAIL, O_REPORT, O_REPORT_DIR, O_LIST, O_COVERAGE, O_WRITE_DUMPS, O_FORMAT,
           O_COPY, O_TOOL_PATH, O_GENERATE, O_SECONDS, O_SEED, O_COUNT, O_OUT, O_NO_PREFLIGHT,
           O_FAIL_ON_NEW };
    static const struct option longopts[] = {
        {"impl", required_argument, NULL, O_IMPL},
        {"cmd", required_argument, NULL, O_CMD},
        {"name", required_argument, NULL, O_NAME},
        {"dump", no_argument, NULL, O_DUMP},
        {"format", required_argument, NULL, O_FORMAT},
        {"copy", no_argument, NULL, O_COPY},
        {"tool-path", required_argument, NULL, O_TOOL_PATH},
        {"cases", required_argument, NULL, O_CASES},
        {"run", required_argument, NULL, O_RUN},
        {"skip", required_argument, NULL, O_SKIP},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"xfail", required_argument, NULL, O_XFAIL},
        {"no-xfail", no_argument, NULL, O_NO_XFAIL},
        {"no-preflight", no_argument, NULL, O_NO_PREFLIGHT},
        {"fail-on-new", no_argument, NULL, O_FAIL_ON_NEW},
        {"report", required_argument, NULL, O_REPORT},
        {"report-dir", required_argument, NULL, O_REPORT_DIR},
        {"jobs", required_argument, NULL, 'j'},
        {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},
        {"list", no_argument, NULL, O_LIST},
        {"coverage", no_argument, NULL, O_COVERAGE},
        {"write-dumps", no_argument, NULL, O_WRITE_DUMPS},
        {"generate", no_argument, NULL, O_GENERATE},
        {"seconds", required_argument, NULL, O_SECONDS},
        {"seed", required_argument, NULL, O_SEED},
        {"count", required_argument, NULL, O_COUNT},
        {"out", required_argument, NULL, O_OUT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_generate_args gen = {.seconds = 60, .seed = 1, .out = "tracecheck-generated"};
    int generate = 0, seconds_given = 0;
    /* The columns in command-line order: --impl names, and where --cmd is. */
    const char *impls[MAX_IMPLS];
    size_t nimpl = 0, cmd_at = 0;
    cmd_spec cs = {0};
    const char *cases = NULL, *xfail = NULL, *format = NULL, *tool_path = NULL;
    const char *report_dir = NULL;
    const char *run_globs[MAX_GLOBS], *skip_globs[MAX_GLOBS];
    size_t nrun = 0, nskip = 0;
    int want[TC_CONF_REPORT__COUNT] = {0}, nwant = 0;
    int no_xfail = 0, no_preflight = 0, verbose = 0, quiet = 0, list = 0, coverage = 0;
    int write_dumps = 0, c;
    double timeout = 10;
    long jobs = (long)cli_cpus();
    optind = 1;
    while ((c = getopt_long(argc, argv, "j:vqh", longopts, NULL)) != -1) {
        char *end;
        switch (c) {
        case O_IMPL:
            if (nimpl + !!cs.cmd == MAX_IMPLS)
                return cli_usage_error("conformance", "at most %d implementations", MAX_IMPLS);
            impls[nimpl++] = optarg;
            break;
        case O_CMD:
            if (cs.cmd)
                return cli_usage_error("conformance", "--cmd is given once (with --impl for "
                                                      "more columns)");
            if (nimpl == MAX_IMPLS)
                return cli_usage_error("conformance", "at most %d implementations", MAX_IMPLS);
            cs.cmd = optarg;
            cmd_at = nimpl;
            break;
        case O_NAME: cs.name = optarg; break;
        case O_DUMP: cs.dump = 1; break;
        case O_FORMAT: format = optarg; break;
        case O_COPY: cs.copy = 1; break;
        case O_TOOL_PATH: tool_path = *optarg ? optarg : NULL; break;
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
        case O_NO_PREFLIGHT: no_preflight = 1; break;
        case O_FAIL_ON_NEW: gen.fail_on_new = 1; break;
        case O_REPORT: {
            char *list_arg = tc_conf_strdup(optarg), *save = NULL;
            for (char *k = strtok_r(list_arg, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
                tc_conf_report_kind kind = tc_conf_report_from_name(k);
                if (kind == TC_CONF_REPORT__COUNT) {
                    free(list_arg);
                    return cli_usage_error("conformance", "unknown report '%s' (text, json, "
                                                          "tap, junit, html, sarif)", k);
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
        case O_GENERATE: generate = 1; break;
        case O_SECONDS:
            seconds_given = 1;
            gen.seconds = strtod(optarg, &end);
            if (*end || !(gen.seconds >= 0 && gen.seconds <= 31536000))
                return cli_usage_error("conformance", "--seconds takes seconds (0: no limit)");
            break;
        case O_SEED:
        case O_COUNT: {
            unsigned long long v;
            if (tc_parse_size(optarg, &v) != 0)
                return cli_usage_error("conformance", "--%s takes a number",
                                       c == O_SEED ? "seed" : "count");
            *(c == O_SEED ? &gen.seed : &gen.count) = v;
            break;
        }
        case O_OUT: gen.out = optarg; break;
        case 'h': help(); return 0;
        default: return cli_usage_error("conformance", "bad option");
        }
    }
    if (optind != argc)
        return cli_usage_error("conformance", "unexpected argument '%s'", argv[optind]);
    if (cs.dump && !cs.cmd)
        return cli_usage_error("conformance", "--dump describes a --cmd implementation");
    if ((format && !generate && !cs.cmd) || (cs.copy && !cs.cmd))
        return cli_usage_error("conformance", "--format and --copy describe a --cmd "
                                              "implementation (--format also chooses what "
                                              "--generate draws)");
    cs.only = TC_FORMAT_AUTO;
    if (format && ((cs.only = tc_format_from_name(format)) == TC_FORMAT__COUNT ||
                   cs.only == TC_FORMAT_AUTO))
        return cli_usage_error("conformance", "unknown format '%s'", format);
    if (!report_dir && nwant > 1)
        return cli_usage_error("conformance", "several --report kinds need --report-dir");
    if (generate && (want[TC_CONF_REPORT_TAP] || want[TC_CONF_REPORT_JUNIT] ||
                     want[TC_CONF_REPORT_SARIF]))
        return cli_usage_error("conformance", "--generate reports as text, json or html");
    if (generate && nimpl + !!cs.cmd != 1)
        return cli_usage_error("conformance", "--generate judges one implementation: one "
                                              "--impl NAME or one --cmd");
    if (gen.count && !seconds_given)
        gen.seconds = 0; /* --count alone: as long as it takes */
    if (!generate && (gen.count || gen.seed != 1 || seconds_given || gen.fail_on_new ||
                      strcmp(gen.out, "tracecheck-generated") != 0))
        return cli_usage_error("conformance", "--seconds, --seed, --count, --out and "
                                              "--fail-on-new are options of --generate");
    /* Without any: tracecheck; the matrix compares it with every known tool
     * (an absent one shows its cases as skipped, with the reason). */
    if (!nimpl && !cs.cmd) {
        impls[nimpl++] = "tracecheck";
        if (want[TC_CONF_REPORT_HTML])
            nimpl += tc_known_tool_names(impls + nimpl, MAX_IMPLS - nimpl);
    }
    size_t ncol = nimpl + !!cs.cmd;
    if (cs.name && !cs.cmd && ncol > 1)
        return cli_usage_error("conformance", "--name names the --cmd implementation (or the "
                                              "one --impl)");
    if (xfail && ncol > 1)
        return cli_usage_error("conformance", "--xfail is one implementation's list; with "
                                              "several, each uses its xfail/NAME.txt");
    if (!report_dir && nwant == 1 && !want[TC_CONF_REPORT_HTML] && ncol > 1)
        return cli_usage_error("conformance", "a text, json, tap, junit or sarif report on "
                                              "standard output is one implementation's: with "
                                              "several, use --report-dir");
    if (jobs < 1)
        jobs = 1;

    cli_state st = {0};
    for (size_t j = 0, i = 0; j < ncol; j++) {
        column *col = &st.col[st.ncol++];
        if (cs.cmd && j == cmd_at) {
            column_command(col, &cs);
        } else if (column_impl(col, impls[i++], cs.cmd ? NULL : cs.name, tool_path) != 0) {
            cleanup(&st);
            const char *names[MAX_IMPLS];
            size_t n = tc_known_tool_names(names, MAX_IMPLS);
            char *known = tc_conf_strdup("tracecheck"), *next;
            for (size_t k = 0; k < n; k++, known = next) {
                next = tc_conf_printf("%s, %s", known, names[k]);
                free(known);
            }
            int rc = cli_usage_error("conformance", "unknown implementation '%s' (%s, each "
                                                    "optionally NAME=PROGRAM; or --cmd)",
                                     impls[i - 1], known);
            free(known);
            return rc;
        }
        col->im.name = col->name;
        for (size_t k = 0; k + 1 < st.ncol; k++)
            if (!strcmp(st.col[k].name, col->name)) {
                int rc = cli_usage_error("conformance", "two implementations are named '%s'%s",
                                         col->name, col->im.kind == TC_IMPL_COMMAND && cs.cmd &&
                                         j == cmd_at ? ": give the command another --name" : "");
                cleanup(&st);
                return rc;
            }
    }
    if (generate) {
        gen.format = cs.only;
        gen.timeout = timeout;
        gen.jobs = (unsigned)jobs;
        gen.quiet = quiet;
        gen.report_dir = report_dir;
        memcpy(gen.want, want, sizeof gen.want);
        /* The suite and the list: the case the tool must accept first. */
        st.cases = cases ? tc_conf_strdup(cases) : find_cases();
        /* Read even with --no-xfail: the preflight picks its case by it. */
        int rc = column_xfail(&st.col[0], st.cases, no_xfail ? NULL : xfail, !no_xfail);
        if (rc) {
            cleanup(&st);
            return rc;
        }
        gen.cases = st.cases;
        gen.xfail = st.col[0].have_xfail && !no_xfail ? &st.col[0].xfail : NULL;
        gen.preflight_xfail = st.col[0].have_xfail ? &st.col[0].xfail : NULL;
        gen.no_preflight = no_preflight;
        rc = cli_conformance_generate(&st.col[0].im, st.col[0].name, &gen);
        cleanup(&st);
        return rc;
    }
    if (write_dumps && (ncol > 1 || st.col[0].im.kind != TC_IMPL_TRACECHECK)) {
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
    /* Read even with --no-xfail: the preflight picks its case by it. */
    for (size_t j = 0; j < st.ncol; j++) {
        int rc = column_xfail(&st.col[j], st.cases, no_xfail ? NULL : xfail, !no_xfail);
        if (rc) {
            cleanup(&st);
            return rc;
        }
    }

    /* One run per implementation, one after the other: each uses every job
     * slot, and its results stay apart for its own reports. */
    FILE *console = !report_dir && nwant == 1 ? stderr : stdout;
    tc_conf_run runs[MAX_IMPLS];
    int status = EXIT_VALID;
    for (size_t j = 0; j < st.ncol; j++) {
        column *col = &st.col[j];
        col->opt = (tc_conf_options){
            .impl = &col->im, .run = run_globs, .nrun = nrun, .skip = skip_globs,
            .nskip = nskip, .timeout = timeout, .jobs = (unsigned)jobs,
            .xfail = col->have_xfail && !no_xfail ? &col->xfail : NULL,
            .preflight_xfail = col->have_xfail ? &col->xfail : NULL, .write_dumps = write_dumps,
            .verbose = verbose, .log = quiet ? NULL : console, .log_name = st.ncol > 1,
            .no_preflight = no_preflight,
        };
        tc_conf_run_suite(&col->run, &st.suite, &col->opt);
        col->ran = 1;
        /* Several implementations: 1 when any of them has a result that
         * fails its own run (as it alone would); 2 when a tool could not
         * run at all, which no result of the others hides. */
        if (col->run.broken)
            status = EXIT_TROUBLE;
        else if (tc_conf_run_failed(&col->run) && status == EXIT_VALID)
            status = EXIT_INVALID;
    }
    /* The writers take the runs side by side; the copies share the results. */
    for (size_t j = 0; j < st.ncol; j++)
        runs[j] = st.col[j].run;

    if (report_dir) {
        if (!nwant)
            for (int k = 0; k <= TC_CONF_REPORT_JUNIT; k++)
                want[k] = 1;
        if (write_reports(&st, runs, report_dir, want) != 0)
            status = EXIT_TROUBLE;
    } else if (nwant == 1) {
        for (int k = 0; k < TC_CONF_REPORT__COUNT; k++)
            if (want[k] && (k == TC_CONF_REPORT_HTML
                                ? tc_conf_report_write_matrix(stdout, runs, st.ncol)
                                : tc_conf_report_write((tc_conf_report_kind)k, stdout, runs)) != 0)
                status = EXIT_TROUBLE;
    }
    for (size_t j = 0; j < st.ncol; j++) {
        fprintf(console, "conformance suite %s, %s: ", st.suite.version, st.col[j].name);
        tc_conf_report_summary_line(console, &st.col[j].run);
        int files = 0;
        for (int k = 0; k < TC_CONF_REPORT__COUNT; k++)
            files |= want[k] && k != TC_CONF_REPORT_HTML;
        if (report_dir && !quiet && files)
            fprintf(console, "reports: %s/conformance-%s.*\n", report_dir, st.col[j].name);
    }
    if (report_dir && !quiet && want[TC_CONF_REPORT_HTML]) {
        char *path = matrix_path(report_dir, &st);
        fprintf(console, "matrix: %s\n", path);
        free(path);
    }
    cleanup(&st);
    return status;
}
