/*
 * Plain main() for a fuzz harness: replays files, and every regular file
 * under directories, through LLVMFuzzerTestOneInput, in sorted order so that
 * runs are reproducible. Built with ASan and UBSan, it is how `make check`
 * replays corpus/ without a fuzzing engine. A harness check that fails
 * aborts and a sanitizer finding ends the process; either way the status is
 * non-zero and a last line names the input being replayed.
 *
 *   regression_driver [-v] PATH...
 */
#define _DEFAULT_SOURCE /* d_type, strdup */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fuzz_helpers.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define HAVE_SANITIZER_CALLBACK 1
#include <sanitizer/common_interface_defs.h>
#endif
#endif

/* The input being replayed, for the last words of a dying process. A driver
 * is a program, not library code, so a global is fine here. */
static const char *volatile current_input;

static void say_which(void)
{
    const char *p = current_input;
    if (!p)
        return;
    static const char pre[] = "regression_driver: the failing input is ";
    ssize_t ignored = write(STDERR_FILENO, pre, sizeof pre - 1);
    ignored = write(STDERR_FILENO, p, strlen(p));
    ignored = write(STDERR_FILENO, "\n", 1);
    (void)ignored;
}

static void on_abort(int sig)
{
    say_which();
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct names {
    char **v;
    size_t n, cap;
} names;

static void add_name(names *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        FUZZ_CHECK_ALLOC(l->v);
    }
    FUZZ_CHECK_ALLOC(l->v[l->n++] = strdup(s));
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects path, or the regular files below it. Hidden files (.gitkeep,
 * editor droppings) and *.note / *.md files (regression notes) are not
 * inputs. Returns -1 when path cannot be read. */
static int collect(names *out, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "regression_driver: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        add_name(out, path);
        return 0;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "regression_driver: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        if (n[0] == '.')
            continue;
        if ((len > 5 && strcmp(n + len - 5, ".note") == 0) ||
            (len > 3 && strcmp(n + len - 3, ".md") == 0))
            continue;
        size_t dlen = strlen(path);
        while (dlen > 1 && path[dlen - 1] == '/')
            dlen--;
        size_t plen = dlen + 1 + len + 1;
        char *child = malloc(plen);
        FUZZ_CHECK_ALLOC(child);
        snprintf(child, plen, "%.*s/%s", (int)dlen, path, n);
        rc |= collect(out, child);
        free(child);
    }
    closedir(d);
    return rc;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    FUZZ_CHECK_ALLOC(buf);
    for (;;) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
        FUZZ_CHECK_ALLOC(buf);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return NULL;
    }
    /* An exact-size copy, so ASan catches a harness reading one byte past. */
    unsigned char *exact = malloc(n ? n : 1);
    FUZZ_CHECK_ALLOC(exact);
    memcpy(exact, buf, n);
    free(buf);
    *size = n;
    return exact;
}

int main(int argc, char **argv)
{
    int verbose = 0, first = 1;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        verbose = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] FILE|DIR...\n", argv[0]);
        return 2;
    }
    signal(SIGABRT, on_abort);
#ifdef HAVE_SANITIZER_CALLBACK
    __sanitizer_set_death_callback(say_which);
#endif
    names files = {0};
    int rc = 0;
    for (int i = first; i < argc; i++)
        rc |= collect(&files, argv[i]);
    qsort(files.v, files.n, sizeof *files.v, by_name);

    size_t replayed = 0;
    for (size_t i = 0; i < files.n; i++) {
        size_t size = 0;
        unsigned char *data = read_file(files.v[i], &size);
        if (!data) {
            fprintf(stderr, "regression_driver: cannot read %s\n", files.v[i]);
            rc = 1;
            continue;
        }
        if (verbose)
            fprintf(stderr, "replaying %s (%zu bytes)\n", files.v[i], size);
        current_input = files.v[i];
        LLVMFuzzerTestOneInput(data, size);
        current_input = NULL;
        free(data);
        free(files.v[i]);
        replayed++;
    }
    free(files.v);
    fprintf(stderr, "%s: %zu inputs replayed%s\n", argv[0], replayed,
            rc ? ", some could not be read" : "");
    return rc ? 1 : 0;
}
