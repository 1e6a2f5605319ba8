/* tc_result: the findings of one input kept after the check, for callers
 * (a producer's tests) that would rather iterate than write a callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diag_copy.h"

typedef struct result_diag {
    tc_diag d;
    void *block; /* everything d points to (tc_diag_copy) */
} result_diag;

struct tc_result {
    int status;
    tc_summary summary;
    char error[256];
    result_diag *diags;
    size_t count, cap;
    int out_of_memory;
    /* The caller's own callback, still called while the check runs. */
    void (*chain)(void *user, const tc_diag *d);
    void *chain_user;
};

static void collect(void *user, const tc_diag *d)
{
    tc_result *r = user;
    if (r->chain)
        r->chain(r->chain_user, d);
    if (r->out_of_memory)
        return;
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        result_diag *grown = realloc(r->diags, cap * sizeof *grown);
        if (!grown) {
            r->out_of_memory = 1;
            return;
        }
        r->diags = grown;
        r->cap = cap;
    }
    result_diag *rd = &r->diags[r->count];
    if (tc_diag_copy(&rd->d, d, &rd->block) < 0) {
        r->out_of_memory = 1;
        return;
    }
    r->count++;
}

static tc_result *result_new(const tc_options *opt, tc_options *copy)
{
    static const tc_options defaults = TC_OPTIONS_INIT;
    tc_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    *copy = opt ? *opt : defaults;
    r->chain = copy->on_diag;
    r->chain_user = copy->user;
    copy->on_diag = collect;
    copy->user = r;
    return r;
}

/* Why the check failed, as the text tc_result_error gives; err is freed. */
static void keep_error(tc_result *r, tc_error *err)
{
    tc_error_format(err, r->error, sizeof r->error);
    tc_error_free(err);
}

/* A finding that could not be kept must not pass unnoticed: the result
 * then says that the check failed, as the program does when out of memory. */
static tc_result *result_done(tc_result *r, int status)
{
    r->status = status;
    if (r->out_of_memory && status != 2) {
        r->status = 2;
        snprintf(r->error, sizeof r->error, "out of memory while keeping the findings");
    }
    return r;
}

tc_result *tc_check_buffer(const void *data, size_t size, const char *name,
                           const tc_options *opt)
{
    tc_options o;
    tc_result *r = result_new(opt, &o);
    if (!r)
        return NULL;
    tc_input *in = tc_input_open_memory(data, size, NULL);
    if (!in) {
        free(r);
        return NULL;
    }
    tc_check_opts c = {.options = &o};
    tc_error err = TC_ERROR_INIT;
    int status = tc_check_input(in, name ? name : "<memory>", &c, &r->summary, &err);
    keep_error(r, &err);
    tc_input_close(in);
    return result_done(r, status);
}

tc_result *tc_check_file(const char *path, const tc_options *opt)
{
    tc_options o;
    tc_result *r = result_new(opt, &o);
    if (!r)
        return NULL;
    tc_check_opts c = {.options = &o};
    tc_error err = TC_ERROR_INIT;
    int status = tc_check_path(path, &c, &r->summary, &err);
    keep_error(r, &err);
    return result_done(r, status);
}

int tc_result_status(const tc_result *r) { return r ? r->status : 2; }

const char *tc_result_error(const tc_result *r) { return r && r->status == 2 ? r->error : ""; }

const tc_summary *tc_result_summary(const tc_result *r) { return r ? &r->summary : NULL; }

size_t tc_result_count(const tc_result *r) { return r ? r->count : 0; }

const tc_diag *tc_result_diag(const tc_result *r, size_t i)
{
    return r && i < r->count ? &r->diags[i].d : NULL;
}

const tc_diag *tc_result_find(const tc_result *r, const char *rule_id)
{
    for (size_t i = 0; r && rule_id && i < r->count; i++)
        if (!strcmp(r->diags[i].d.rule->id, rule_id))
            return &r->diags[i].d;
    return NULL;
}

void tc_result_free(tc_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->count; i++)
        free(r->diags[i].block);
    free(r->diags);
    free(r);
}
