/* tracecheck: command dispatch. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../parsers/common/formats.h"
#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *what;
} commands[] = {
    {"validate", cmd_validate, "check traces against their format's rules"},
    {"dump", cmd_dump, "print a trace's canonical dump (JSON Lines)"},
    {"show", cmd_show, "print the bytes around an offset or record, field by field"},
    {"gen", cmd_gen, "synthesise a trace, valid or breaking one named rule"},
    {"report", cmd_report, "merge: join the JSON reports of validate --shard K/N"},
    {"rules", cmd_rules, "list the rule catalogue"},
    {"conformance", cmd_conformance, "run an implementation over the conformance cases"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fputs("usage: tracecheck COMMAND [OPTIONS] [ARGS]\n\n"
          "Validates traces against a strict rule catalogue, in these formats:\n", f);
    for (size_t i = 0; tc_format_at(i); i++)
        fprintf(f, "  %-12s %s\n", tc_format_at(i)->name, tc_format_at(i)->description);
    fputs("\nCommands:\n", f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].what);
    fputs("\nRun 'tracecheck COMMAND --help' for a command's options.\n"
          "Exit status: 0 valid, 1 at least one error-severity finding, 2 usage or I/O error.\n",
          f);
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
