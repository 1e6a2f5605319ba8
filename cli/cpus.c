/* The CPUs this process may run on: the default number of threads. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>
#include <unistd.h>

#include "cli.h"

unsigned cli_cpus(void)
{
    /* The affinity mask, not the machine's count: a container or taskset
     * may give the process fewer CPUs than the machine has. */
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                          : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}
