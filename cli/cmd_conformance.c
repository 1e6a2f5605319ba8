#include "cli.h"
int cmd_conformance(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("conformance", "not built yet"); }
