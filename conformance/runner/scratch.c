/* Scratch copies of a case's input (scratch.h). */
#define _DEFAULT_SOURCE /* mkdtemp, lstat, DT_* */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conformance.h"
#include "scratch.h"

static int copy_file(const char *from, const char *to, tc_error *err)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        tc_error_set(err, "conformance", "%s: %s", from, strerror(errno));
        return -1;
    }
    /* Writable: the tools open stream.obs read-write and fail otherwise. */
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0) {
        tc_error_set(err, "conformance", "%s: %s", to, strerror(errno));
        close(in);
        return -1;
    }
    char buf[65536];
    ssize_t n;
    int rc = 0;
    while ((n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            tc_error_set(err, "conformance", "%s: %s", from, strerror(errno));
            rc = -1;
            break;
        }
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                tc_error_set(err, "conformance", "%s: %s", to, strerror(errno));
                rc = -1;
                break;
            }
            done += w;
        }
        if (rc)
            break;
    }
    close(in);
    if (close(out) != 0 && rc == 0) {
        tc_error_set(err, "conformance", "%s: %s", to, strerror(errno));
        rc = -1;
    }
    return rc;
}

int tc_scratch_copy_tree(const char *from, const char *to, tc_error *err)
{
    struct stat st;
    if (lstat(from, &st) != 0) {
        tc_error_set(err, "conformance", "%s: %s", from, strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode))
        return copy_file(from, to, err);
    if (!S_ISDIR(st.st_mode))
        return 0;
    if (mkdir(to, 0755) != 0) {
        tc_error_set(err, "conformance", "%s: %s", to, strerror(errno));
        return -1;
    }
    DIR *d = opendir(from);
    if (!d) {
        tc_error_set(err, "conformance", "%s: %s", from, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *a = tc_conf_printf("%s/%s", from, e->d_name);
        char *b = tc_conf_printf("%s/%s", to, e->d_name);
        rc = tc_scratch_copy_tree(a, b, err);
        free(a);
        free(b);
    }
    closedir(d);
    return rc;
}

void tc_scratch_remove(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    chmod(path, 0700); /* a tool may have left it unreadable or read-only */
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *sub = tc_conf_printf("%s/%s", path, e->d_name);
            tc_scratch_remove(sub);
            free(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

int tc_scratch_copy(const char *src, char **dir, char **copy, tc_error *err)
{
    const char *tmp = getenv("TMPDIR");
    char *tmpl = tc_conf_printf("%s/tracecheck-conformance.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpl)) {
        tc_error_set(err, "conformance", "cannot make a scratch directory %s: %s", tmpl,
                     strerror(errno));
        free(tmpl);
        return -1;
    }
    size_t n = strlen(src);
    while (n > 1 && src[n - 1] == '/')
        n--;
    const char *base = src + n;
    while (base > src && base[-1] != '/')
        base--;
    *copy = tc_conf_printf("%s/%.*s", tmpl, (int)(src + n - base), base);
    if (tc_scratch_copy_tree(src, *copy, err) != 0) {
        tc_scratch_remove(tmpl);
        free(tmpl);
        free(*copy);
        *copy = NULL;
        return -1;
    }
    *dir = tmpl;
    return 0;
}
