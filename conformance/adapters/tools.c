/* The third-party tools the runner knows by name: see tools.h. */
#include "tools.h"

#include <string.h>

#include "perf/dqr.h"

static const tc_known_tool known_tools[] = {
    /* llvm-xray has no fdr-dump for basic-mode logs: convert reads them
     * (spec/xray/xray.md, ruling 16). */
    {"llvm-xray", "llvm-xray", "fdr-dump --verify {file}", TC_FORMAT_XRAY,
     "not an XRay case: llvm-xray reads XRay FDR traces and basic-mode logs only", 0,
     "Debian: apt-get install llvm", "{program} --version", TC_FORMAT_XRAY_BASIC,
     "convert --output-format=yaml --output=/dev/null {file}", NULL, NULL, NULL,
     "'llvm-xray fdr-dump --verify {file}' (XRay FDR cases; 'llvm-xray convert' for "
     "basic-mode logs)"},
    /* libovni 1.14's tools (docs/ovni-tools.md): exit 0 accepts, 1 refuses
     * (their main()s return 1 after saying why); any other status and every
     * signal, SIGABRT from die() included, are crashes. All three open each
     * stream.obs read-write, ovniemu writes its outputs into the trace and
     * ovnisort sorts the streams in place: a scratch copy. ovnidump and
     * ovnisort print no version; libovni's ovniver, installed beside them,
     * does. */
    {"ovniemu", "ovniemu", "-l {file}", TC_FORMAT_OVNI,
     "not an ovni case: ovniemu reads ovni traces only", 1,
     "libovni is not packaged in Debian; see docs/ovni-tools.md", "{program} -h",
     TC_FORMAT_AUTO, NULL, NULL, NULL, NULL,
     "'ovniemu -l DIR' (ovni cases, on a scratch copy; docs/ovni-tools.md)"},
    {"ovnidump", "ovnidump", "{file} >/dev/null", TC_FORMAT_OVNI,
     "not an ovni case: ovnidump reads ovni traces only", 1,
     "libovni is not packaged in Debian; see docs/ovni-tools.md", "{dir}/ovniver",
     TC_FORMAT_AUTO, NULL, NULL, NULL, NULL, "'ovnidump DIR' (the same)"},
    {"ovnisort", "ovnisort", "{file}", TC_FORMAT_OVNI,
     "not an ovni case: ovnisort reads ovni traces only", 1,
     "libovni is not packaged in Debian; see docs/ovni-tools.md", "{dir}/ovniver",
     TC_FORMAT_AUTO, NULL, NULL, NULL, NULL, "'ovnisort DIR' (the same)"},
    /* From a properties file in a scratch directory (dqr.h): Nexus .rtd
     * traces only. */
    {"dqr", "dqr", TC_DQR_ARGS, TC_FORMAT_PERF, "not a perf case: dqr reads SiFive perf data only",
     1, "SiFive's trace-decoder is not packaged in Debian; see docs/dqr.md", "{program} -v",
     TC_FORMAT_AUTO, NULL, &tc_dqr_adapter, ".rtd",
     "a text message list: dqr reads Nexus .rtd traces only",
     "SiFive's decoder on each perf .rtd case from a settings file in a scratch directory "
     "(docs/dqr.md)"},
};

#define NTOOLS (sizeof known_tools / sizeof known_tools[0])

/* Versions of a known tool installed side by side, each as its program with
 * "-N" appended (Debian's llvm-N packages install llvm-xray-N): each is a
 * known tool of its own, --impl NAME-N, run with the tool's arguments (for
 * its second format too) as PROGRAM-N, with its own expected-failure list
 * (xfail/NAME-N.txt) and its own column in the matrix. NAME alone stays the
 * unversioned program: Debian 12's llvm-xray is LLVM 14's (docs/llvm-xray.md). */
typedef struct tool_versions {
    const char *name;
    const char *package;       /* PACKAGE-N holds version N */
    const char *versions[8];   /* the names NAME-N, in the matrix's order */
    const char *help;          /* conformance --help, after "NAME-N: the same, run as NAME-N" */
} tool_versions;

static const tool_versions versioned_tools[] = {
    {"llvm-xray", "llvm",
     {"llvm-xray-13", "llvm-xray-15", "llvm-xray-16", "llvm-xray-19", "llvm-xray-22", NULL},
     "(Debian's llvm-N; Debian 12's llvm-xray is LLVM 14's)"},
};

#define NVERSIONED (sizeof versioned_tools / sizeof versioned_tools[0])

const tc_known_tool *tc_known_tool_find(const char *name, const char **suffix)
{
    for (size_t i = 0; i < NTOOLS; i++)
        if (!strcmp(known_tools[i].name, name)) {
            *suffix = "";
            return &known_tools[i];
        }
    for (size_t i = 0; i < NVERSIONED; i++)
        for (const char *const *v = versioned_tools[i].versions; *v; v++)
            if (!strcmp(*v, name)) {
                const char *none;
                *suffix = *v + strlen(versioned_tools[i].name);
                return tc_known_tool_find(versioned_tools[i].name, &none);
            }
    return NULL;
}

char *tc_known_tool_install(const tc_known_tool *tool, const char *suffix)
{
    for (size_t i = 0; *suffix && i < NVERSIONED; i++)
        if (!strcmp(versioned_tools[i].name, tool->name))
            return tc_conf_printf("Debian: apt-get install %s%s", versioned_tools[i].package,
                                  suffix);
    return tc_conf_strdup(tool->install);
}

char *tc_known_tool_help(size_t i)
{
    for (size_t t = 0; t < NTOOLS; t++) {
        if (i-- == 0)
            return tc_conf_printf("%s: %s;", known_tools[t].name, known_tools[t].help);
        for (size_t j = 0; j < NVERSIONED; j++) {
            const tool_versions *v = &versioned_tools[j];
            if (strcmp(v->name, known_tools[t].name) != 0 || i-- != 0)
                continue;
            size_t len = strlen(v->name);
            char names[256] = "";
            for (const char *const *n = v->versions; *n; n++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         n == v->versions ? *n : ", ", n == v->versions ? "" : *n + len);
            return tc_conf_printf("%s: the same, run as %s-N %s;", names, v->name, v->help);
        }
    }
    return NULL;
}

size_t tc_known_tool_names(const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < NTOOLS; i++) {
        if (n < max)
            names[n++] = known_tools[i].name;
        for (size_t j = 0; j < NVERSIONED; j++)
            for (const char *const *v = versioned_tools[j].versions;
                 *v && !strcmp(versioned_tools[j].name, known_tools[i].name); v++)
                if (n < max)
                    names[n++] = *v;
    }
    return n;
}
