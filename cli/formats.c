/* The formats as the command line sees them (cli.h): their names and the
 * options they declare (parsers/common/formats.h), which validate and dump
 * take without knowing the format. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../parsers/common/formats.h"
#include "cli.h"

/* Help lines are wrapped before this column. */
#define HELP_WIDTH 79

void cli_help_wrapped(const char *column, const char *text)
{
    size_t indent = strlen(column), at = indent;
    fputs(column, stdout);
    while (*text) {
        size_t word = strcspn(text, " ");
        if (at > indent && at + 1 + word > HELP_WIDTH) {
            printf("\n%*s", (int)indent, "");
            at = indent;
        } else if (at > indent) {
            putchar(' ');
            at++;
        }
        fwrite(text, 1, word, stdout);
        at += word;
        text += word;
        text += strspn(text, " ");
    }
    putchar('\n');
}

void cli_help_formats(const char *column, const char *before, const char *after)
{
    char names[512], text[768];
    tc_format_names(names, sizeof names, ", ");
    snprintf(text, sizeof text, "%s%s%s", before, names, after);
    cli_help_wrapped(column, text);
}

tc_format cli_parse_format(const char *value, int allow_auto)
{
    tc_format f = tc_format_from_name(value);
    if (f == TC_FORMAT__COUNT || (!allow_auto && f == TC_FORMAT_AUTO)) {
        char names[512];
        tc_format_names(names, sizeof names, ", ");
        fprintf(stderr, "tracecheck: unknown format '%s' (known: %s%s)\n", value,
                allow_auto ? "auto, " : "", names);
        return TC_FORMAT__COUNT;
    }
    return f;
}

/* Whether a format before the i-th takes option o (the formats share one
 * table of options: xray, xray-basic and perf's --binary). */
static int taken_before(size_t i, const tc_format_option *o)
{
    const tc_format_option *p;
    for (size_t f = 0; f < i; f++)
        for (size_t j = 0; (p = tc_format_option_of(tc_format_at(f), j)) != NULL; j++)
            if (p == o)
                return 1;
    return 0;
}

/* The k-th option of the formats, counting each name once. */
static const tc_format_option *nth(size_t k)
{
    const tc_format_option *o;
    for (size_t i = 0; tc_format_at(i); i++)
        for (size_t j = 0; (o = tc_format_option_of(tc_format_at(i), j)) != NULL; j++)
            if (tc_format_option_find(o->name) == o && !taken_before(i, o) && k-- == 0)
                return o;
    return NULL;
}

size_t cli_format_longopts(struct option *longopts, size_t n, size_t cap)
{
    const tc_format_option *o;
    for (size_t k = 0; (o = nth(k)) != NULL && n + 1 < cap; k++)
        longopts[n++] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
                                        CLI_FORMAT_OPTION + (int)k};
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    return n;
}

int cli_format_option(const char *cmd, int c, const char *arg, tc_options *opt)
{
    const tc_format_option *o = c >= CLI_FORMAT_OPTION ? nth((size_t)(c - CLI_FORMAT_OPTION)) : NULL;
    if (!o)
        return cli_usage_error(cmd, "bad option");
    char why[256];
    if (o->check && o->check(o->arg ? arg : "1", why, sizeof why) != 0)
        return cli_usage_error(cmd, "--%s %s: %s", o->name, arg, why);
    if (o->set(opt, o->arg ? arg : "1") != 0)
        return cli_usage_error(cmd, "--%s %s, not '%s'", o->name, o->expects, arg);
    return 0;
}

void cli_format_options_help(void)
{
    const tc_format_option *o;
    for (size_t k = 0; (o = nth(k)) != NULL; k++) {
        char column[64];
        snprintf(column, sizeof column, "--%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        printf("      %-16s %s", column, o->help);
    }
}
