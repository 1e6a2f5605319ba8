/*
 * Prints the cJSON allow-list (json_cjson_allowlist.h) as the Markdown table
 * of docs/fuzzing.md, so that the documentation is generated from the table
 * the json_tokens harness uses: `make fuzz-docs` writes it, `make check`
 * fails when the page differs.
 */
#include <stdio.h>

#include "json_cjson_allowlist.h"

static const char *kind_text(unsigned kind)
{
    switch (kind) {
    case JDIV_TC_REJECTS: return "tracecheck rejects, cJSON accepts";
    case JDIV_CJSON_REJECTS: return "tracecheck accepts, cJSON rejects";
    case JDIV_DERIVED: return "comparison (not a divergence)";
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
    puts("| class | kind | tracecheck rules | then | reason |");
    puts("|---|---|---|---|---|");
#define JSON_CJSON_DIVERGENCE(name, kind, explains, then, reason)                             \
    printf("| `%s` | %s | ", #name, kind_text(kind));                                         \
    if ((explains)[0])                                                                        \
        printf("`%s`", explains);                                                             \
    printf(" | %s | ", then);                                                                 \
    cell(reason);                                                                             \
    puts(" |");
#include "json_cjson_allowlist.h"
#undef JSON_CJSON_DIVERGENCE
    return 0;
}
