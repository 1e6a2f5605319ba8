/* --binary FILE, shared by the formats that read programs: see
 * binary_option.h. */
#include "binary_option.h"
#include "elf_symbols.h"

static int set_binary(tc_options *opt, const char *value)
{
    if (opt->n_binaries >= TC_MAX_BINARIES || !value[0])
        return -1;
    opt->binaries[opt->n_binaries++] = value;
    return 0;
}

#define COLUMN "                       "

const tc_format_option tc_binary_options[] = {
    {"binary", "FILE",
     "the ELF program the trace was recorded from. xray,\n" COLUMN
     "xray-basic: function ids are checked against its XRay\n" COLUMN
     "instrumentation map; repeat for shared objects, the\n" COLUMN
     "executable first (object 0), then each shared object\n" COLUMN
     "in the order the runtime registered them (1, 2, ...).\n" COLUMN
     "perf: entry and exit records' addresses are checked\n" COLUMN
     "against its function symbols (32- or 64-bit ELF).\n" COLUMN
     "Findings and dumps name the functions\n",
     "names at most 16 programs", set_binary, tc_elf_check},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};
