/* tracecheck: command dispatch. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *what;
} commands[] = {
    {"validate", cmd_validate, "check traces against their format's rules"},
    {"dump", cmd_dump, "print a trace's canonical dump (JSON Lines)"},
    {"gen", cmd_gen, "synthesise a trace, valid or breaking one named rule"},
    {"rules", cmd_rules, "list the rule catalogue"},
    {"conformance", cmd_conformance, "run an implementation over the conformance cases"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fputs("usage: tracecheck COMMAND [OPTIONS] [ARGS]\n\n"
          "Validates LLVM XRay FDR traces, SiFive perf data (Nexus .rtd, text .itc),\n"
          "Intel DCFG and DCFG-trace, and ovni traces against a strict rule catalogue.\n\n"
          "Commands:\n", f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].what);
    fputs("\nRun 'tracecheck COMMAND --help' for a command's options.\n"
          "Exit status: 0 valid, 1 at least one error-severity finding, 2 usage or I/O error.\n",
          f);
}

tc_format cli_parse_format(const char *value, int allow_auto)
{
    tc_format f = tc_format_from_name(value);
    if (f == TC_FORMAT__COUNT || (!allow_auto && f == TC_FORMAT_AUTO)) {
        fprintf(stderr, "tracecheck: unknown format '%s' (known: %sxray, xray-basic, perf, "
                        "dcfg, dcfg-trace, ovni)\n", value, allow_auto ? "auto, " : "");
        return TC_FORMAT__COUNT;
    }
    return f;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "tracecheck %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nRun 'tracecheck %s --help' for usage.\n", cmd);
    return EXIT_TROUBLE;
}

int cli_parse_size(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (*end == 'i' && shift)
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end || (shift && v > (~0ULL >> shift)))
        return -1;
    *out = v << shift;
    return 0;
}

/* A merged ovni dump holds every stream open at once: let the program use
 * as many descriptors as the system allows it. */
static void raise_file_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int main(int argc, char **argv)
{
    raise_file_limit();
    if (argc < 2) {
        usage(stderr);
        return EXIT_TROUBLE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("tracecheck %s\n", TC_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "tracecheck: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_TROUBLE;
}
