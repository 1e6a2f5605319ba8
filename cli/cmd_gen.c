#include "cli.h"
int cmd_gen(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("gen", "not built yet"); }
