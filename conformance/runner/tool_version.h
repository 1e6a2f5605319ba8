/* The version of a third-party tool, as the tool itself reports it. */
#ifndef TC_CONF_TOOL_VERSION_H
#define TC_CONF_TOOL_VERSION_H

#include "conformance.h"

/* Runs command (a /bin/sh command line, such as "'/usr/bin/llvm-xray'
 * --version") with a short timeout and returns the version it printed on
 * stdout or stderr ("14.0.6"), or NULL. */
char *tc_conf_tool_version(const char *command);

/* The first dotted number after "version" or "build" (an optional 'v'
 * before it) in text: "Debian LLVM version 14.0.6" -> "14.0.6"; NULL if none. */
char *tc_conf_version_parse(const char *text);

#endif
