/*
 * Prints the differential allow-list (xray_llvm_allowlist.h) as the Markdown
 * table of docs/fuzzing.md, so that the documentation is generated from the
 * table the harness uses and the two cannot drift: `make fuzz-docs` writes
 * it, `make check` fails when the page differs.
 */
#include <stdio.h>

#include "xray_llvm_allowlist.h"

static const char *kind_text(unsigned kind)
{
    switch (kind) {
    case DIV_TC_REJECTS: return "tracecheck rejects, LLVM accepts";
    case DIV_LLVM_REJECTS: return "tracecheck accepts, LLVM rejects";
    case DIV_LLVM_REJECTS | DIV_RECORDS: return "LLVM rejects, or decodes other records";
    case DIV_RECORDS: return "both accept, records differ";
    case DIV_ANY: return "any";
    case DIV_DERIVED: return "derivation (not a divergence)";
    case DIV_NOT_COMPARED: return "not compared";
    default: return "?";
    }
}

/* Table cells cannot hold a bare '|'. */
static void cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", stdout);
        else
            putchar(*s);
    }
}

int main(void)
{
    puts("| class | kind | tracecheck rules / LLVM error | reason |");
    puts("|---|---|---|---|");
#define XRAY_LLVM_DIVERGENCE(name, kind, explains, llvm_error, reason)                        \
    printf("| `%s` | %s | ", #name, kind_text(kind));                                         \
    if ((explains)[0])                                                                        \
        printf("`%s`", explains);                                                             \
    if ((explains)[0] && (llvm_error)[0])                                                     \
        fputs("; ", stdout);                                                                  \
    if ((llvm_error)[0])                                                                      \
        printf("\"%s\"", llvm_error);                                                         \
    fputs(" | ", stdout);                                                                     \
    cell(reason);                                                                             \
    puts(" |");
#include "xray_llvm_allowlist.h"
#undef XRAY_LLVM_DIVERGENCE
    return 0;
}
