/* The grammar of a buffer (rulings 6, 7, 8): the preamble per version,
 * preamble records in the body, a buffer ending right after NewCPUId,
 * CallArgument placement, function actions and metadata kinds. */
#include <stdio.h>
#include <string.h>

#include "../suites.h"
#include "../tu.h"
#include "xb.h"

/* A buffer whose records come from fn; framing per version (v1: EndOfBuffer
 * and padding to 256 bytes). */
static void one_buffer(xb *x, unsigned v, int be, void (*fn)(xb *))
{
    xb_init(x, v, be);
    xb_header(x, 256);
    xb_begin(x);
    fn(x);
    xb_end(x, 0);
}

static size_t mark; /* an offset a builder notes for the test to check */

static void missing_pid(xb *x)
{
    xb_new_buffer(x, 1);
    xb_wall(x, 1, 1);
    mark = xb_len(x);
    xb_new_cpu(x, 0, 10);
    xb_fn(x, XB_ENTER, 1, 1);
}

static void wall_first(xb *x)
{
    mark = xb_len(x);
    xb_wall(x, 1, 1);
    xb_new_buffer(x, 1);
    if (x->version >= 3)
        xb_pid(x, 1);
    xb_new_cpu(x, 0, 10);
    xb_fn(x, XB_ENTER, 1, 1);
}

static void no_new_buffer(xb *x)
{
    mark = xb_len(x);
    xb_wall(x, 1, 1);
    if (x->version >= 3)
        xb_pid(x, 1);
    xb_new_cpu(x, 0, 10);
}

static void no_wall(xb *x)
{
    xb_new_buffer(x, 1);
    mark = xb_len(x);
    if (x->version >= 3)
        xb_pid(x, 1);
    else
        xb_new_cpu(x, 0, 10);
    if (x->version >= 3)
        xb_new_cpu(x, 0, 10);
}

static void no_cpu(xb *x)
{
    xb_new_buffer(x, 1);
    xb_wall(x, 1, 1);
    if (x->version >= 3)
        xb_pid(x, 1);
    mark = xb_len(x);
    xb_fn(x, XB_ENTER, 1, 1);
}

static void pid_twice(xb *x)
{
    xb_new_buffer(x, 1);
    xb_wall(x, 1, 1);
    xb_pid(x, 1);
    mark = xb_len(x);
    xb_pid(x, 1);
    xb_new_cpu(x, 0, 10);
}

static void expect_order(void (*fn)(xb *), unsigned from, const char *needle)
{
    for (unsigned v = from; v <= 5; v++)
        for (int be = 0; be <= 1; be++) {
            xb x;
            one_buffer(&x, v, be, fn);
            tu_result r = {0};
            xb_check(&x, 0, &r);
            CHECK(r.n == 1 && !strcmp(r.d[0].rule->id, "XRAY-PREAMBLE-ORDER") &&
                      r.d[0].offset == mark && strstr(r.d[0].message, needle),
                  "v%u %s: expected one XRAY-PREAMBLE-ORDER at %zu (\"%s\"), got %s \"%s\"", v,
                  be ? "big" : "little", mark, needle, tu_describe(&r),
                  r.n ? r.d[0].message : "");
            tu_result_free(&r);
            xb_free(&x);
        }
}

static void test_preamble_order(void)
{
    expect_order(missing_pid, 3, "expected PIDEntry at this point of the buffer's preamble, found NewCPUId");
    expect_order(wall_first, 1, "expected NewBuffer at this point of the buffer's preamble, found WallTimeMarker");
    expect_order(no_new_buffer, 1, "expected NewBuffer");
    expect_order(no_wall, 1, "expected WallTimeMarker");
    expect_order(no_cpu, 1, "expected NewCPUId at this point of the buffer's preamble, found a function record");
    expect_order(pid_twice, 3, "expected NewCPUId at this point of the buffer's preamble, found PIDEntry");
}

/* Reported once per buffer: the next buffer is judged afresh. */
static void test_preamble_order_per_buffer(void)
{
    xb x;
    xb_init(&x, 4, 0);
    xb_header(&x, 4096);
    for (int i = 0; i < 3; i++) {
        xb_begin(&x);
        missing_pid(&x);
        xb_fn(&x, XB_EXIT, 1, 1);
        xb_end(&x, 0);
    }
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-PREAMBLE-ORDER XRAY-PREAMBLE-ORDER XRAY-PREAMBLE-ORDER");
    tu_result_free(&r);
    xb_free(&x);
}

static void pid_before_v3(xb *x)
{
    xb_new_buffer(x, 1);
    xb_wall(x, 1, 1);
    mark = xb_len(x);
    xb_pid(x, 1);
    xb_new_cpu(x, 0, 10);
    xb_fn(x, XB_ENTER, 1, 1);
}

static void test_pid_before_v3(void)
{
    for (unsigned v = 1; v <= 2; v++) {
        xb x;
        one_buffer(&x, v, 0, pid_before_v3);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-META-KIND-VERSION");
        EXPECT_OFFSET(&r, "XRAY-META-KIND-VERSION", mark);
        EXPECT_MESSAGE(&r, "XRAY-META-KIND-VERSION", "PIDEntry");
        /* Skipped, not decoded. */
        CU_ASSERT(r.dump && strstr(r.dump, "\"pid\"") == NULL);
        tu_result_free(&r);
        xb_free(&x);
    }
}

static void only_preamble(xb *x) { xb_preamble(x, 5, 6, 7, 8); }

static void test_ends_after_new_cpu(void)
{
    for (unsigned v = 1; v <= 5; v++)
        for (int be = 0; be <= 1; be++) {
            xb x;
            one_buffer(&x, v, be, only_preamble);
            xb_begin(&x); /* and a buffer right after */
            only_preamble(&x);
            xb_end(&x, 0);
            tu_result r = {0};
            xb_check(&x, 1, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u %s: %s", v, be ? "big" : "little",
                  tu_describe(&r));
            tu_result_free(&r);
            xb_free(&x);
        }
}

static void cut_after_wall(xb *x)
{
    xb_new_buffer(x, 1);
    xb_wall(x, 1, 1);
}

static void cut_after_pid(xb *x)
{
    cut_after_wall(x);
    if (x->version >= 3)
        xb_pid(x, 1);
}

static void cut_after_new_buffer(xb *x) { xb_new_buffer(x, 1); }

static void test_preamble_incomplete(void)
{
    static void (*const cuts[])(xb *) = {cut_after_new_buffer, cut_after_wall, cut_after_pid};
    for (unsigned v = 1; v <= 5; v++)
        for (size_t c = 0; c < 3; c++) {
            xb x;
            one_buffer(&x, v, (int)c & 1, cuts[c]);
            size_t start = x.start;
            xb_simple_buffer(&x, 2, 0, 5);
            tu_result r = {0};
            xb_check(&x, 0, &r);
            EXPECT_RULES(&r, "XRAY-PREAMBLE-INCOMPLETE");
            EXPECT_OFFSET(&r, "XRAY-PREAMBLE-INCOMPLETE", start);
            const char *next = c == 0 ? "WallTimeMarker" : c == 1 && v >= 3 ? "PIDEntry" : "NewCPUId";
            char needle[80];
            snprintf(needle, sizeof needle, "%s was expected next", next);
            EXPECT_MESSAGE(&r, "XRAY-PREAMBLE-INCOMPLETE", needle);
            tu_result_free(&r);
            xb_free(&x);
        }
}

static unsigned body_kind;

static void preamble_in_body(xb *x)
{
    xb_preamble(x, 1, 2, 0, 10);
    xb_fn(x, XB_ENTER, 1, 1);
    mark = xb_len(x);
    switch (body_kind) {
    case XB_NEW_BUFFER: xb_new_buffer(x, 9); break;
    case XB_WALL_TIME: xb_wall(x, 9, 9); break;
    case XB_PID: xb_pid(x, 9); break;
    default: xb_extents(x, 16); break;
    }
    xb_fn(x, 6, 1, 1); /* a finding whose context names the buffer's thread */
    xb_fn(x, XB_EXIT, 1, 1);
}

static void test_preamble_record_in_body(void)
{
    static const unsigned kinds[] = {XB_NEW_BUFFER, XB_WALL_TIME, XB_PID, XB_BUFFER_EXTENTS};
    for (unsigned v = 1; v <= 5; v++)
        for (size_t k = 0; k < 4; k++) {
            body_kind = kinds[k];
            xb x;
            one_buffer(&x, v, v & 1, preamble_in_body);
            tu_result r = {0};
            xb_check(&x, 0, &r);
            /* PIDEntry before version 3 and BufferExtents in version 1 do not
             * exist at all. */
            int other = (kinds[k] == XB_PID && v < 3) || (kinds[k] == XB_BUFFER_EXTENTS && v == 1);
            const char *rule = other ? "XRAY-META-KIND-VERSION" : "XRAY-BODY-PREAMBLE-RECORD";
            char expect[100];
            snprintf(expect, sizeof expect, "%s XRAY-FUNCTION-ACTION", rule);
            EXPECT_RULES(&r, expect);
            EXPECT_OFFSET(&r, rule, mark);
            /* The buffer's identity does not change. */
            const tu_diag *d = tu_find(&r, "XRAY-FUNCTION-ACTION");
            const char *who = v >= 3 ? "(thread 1, process 2)" : "(thread 1)";
            CHECK(d && d->context && strstr(d->context, who), "v%u kind %u: context %s", v,
                  kinds[k], d && d->context ? d->context : "(none)");
            tu_result_free(&r);
            xb_free(&x);
        }
}

/* ---- CallArgument placement (ruling 7) ---- */

static int arg_case;

static void arg_builder(xb *x)
{
    xb_preamble(x, 1, 2, 0, 10);
    xb_fn(x, XB_ENTER, 100, 1); /* an open frame below, so exits match */
    switch (arg_case) {
    case 0: /* after Entry_Args: fine */
        xb_fn(x, XB_ENTER_ARGS, 1, 1);
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    case 1: /* after another CallArgument: fine */
        xb_fn(x, XB_ENTER_ARGS, 1, 1);
        xb_arg(x, 1);
        xb_arg(x, 2);
        mark = xb_len(x);
        xb_arg(x, 3);
        break;
    case 2: /* after a plain Entry */
        xb_fn(x, XB_ENTER, 1, 1);
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    case 3: /* after a plain Entry, two of them: one finding */
        xb_fn(x, XB_ENTER, 1, 1);
        mark = xb_len(x);
        xb_arg(x, 1);
        xb_arg(x, 2);
        break;
    case 4: /* after Exit */
        xb_fn(x, XB_ENTER_ARGS, 1, 1);
        xb_arg(x, 1);
        xb_fn(x, XB_EXIT, 1, 1);
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    case 5: /* after Tail_Exit */
        xb_fn(x, XB_ENTER, 1, 1);
        xb_fn(x, XB_TAIL_EXIT, 1, 1);
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    case 6: /* after NewCPUId, between Entry_Args and its argument */
        xb_fn(x, XB_ENTER_ARGS, 1, 1);
        xb_new_cpu(x, 1, 100);
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    case 7: /* after a custom event */
        xb_fn(x, XB_ENTER_ARGS, 1, 1);
        xb_custom(x, 2, 20, 0, "ab", 2);
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    case 8: /* after TSCWrap */
        xb_fn(x, XB_ENTER_ARGS, 1, 1);
        xb_tsc_wrap(x, 1000);
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    default: /* first in the body: after the preamble's NewCPUId */
        x->b.len -= 8; /* drop the Entry(100) */
        mark = xb_len(x);
        xb_arg(x, 1);
        break;
    }
}

static void test_callarg_placement(void)
{
    for (unsigned v = 1; v <= 5; v++)
        for (int c = 0; c <= 9; c++)
            for (int be = 0; be <= 1; be++) {
                arg_case = c;
                xb x;
                one_buffer(&x, v, be, arg_builder);
                tu_result r = {0};
                xb_check(&x, 0, &r);
                const char *expect;
                if (c <= 1)
                    expect = "";
                else if (c <= 3)
                    expect = v < 5 ? "XRAY-CALLARG-AFTER-ENTER" : "XRAY-CALLARG-PLACEMENT";
                else
                    expect = "XRAY-CALLARG-PLACEMENT";
                const char *got = r.n == 1 ? r.d[0].rule->id : r.n == 0 ? "" : "(several)";
                CHECK(strcmp(got, expect) == 0 && (r.n == 0 || r.d[0].offset == mark),
                      "v%u %s case %d: expected [%s] at %zu, got %s", v, be ? "big" : "little", c,
                      expect, mark, tu_describe(&r));
                int status = !strcmp(expect, "XRAY-CALLARG-PLACEMENT");
                CHECK(r.status == status, "v%u case %d: status %d", v, c, r.status);
                tu_result_free(&r);
                xb_free(&x);
            }
}

/* The chain does not reach across buffers. */
static void test_callarg_next_buffer(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 4096);
    xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 10);
    xb_fn(&x, XB_ENTER_ARGS, 1, 1);
    xb_end(&x, 0);
    xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 20);
    size_t at = xb_len(&x);
    xb_arg(&x, 5);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-CALLARG-PLACEMENT");
    EXPECT_OFFSET(&r, "XRAY-CALLARG-PLACEMENT", at);
    tu_result_free(&r);
    xb_free(&x);
}

static void test_function_action(void)
{
    for (int be = 0; be <= 1; be++)
        for (unsigned a = 4; a <= 7; a++) {
            xb x;
            xb_init(&x, 3, be);
            xb_header(&x, 4096);
            xb_begin(&x);
            xb_preamble(&x, 1, 2, 0, 10);
            size_t at = xb_len(&x);
            xb_fn(&x, a, 0x0ABCDEF, 3);
            xb_fn(&x, XB_ENTER, 1, 1);
            xb_end(&x, 0);
            tu_result r = {0};
            xb_check(&x, 0, &r);
            EXPECT_RULES(&r, "XRAY-FUNCTION-ACTION");
            EXPECT_OFFSET(&r, "XRAY-FUNCTION-ACTION", at);
            char needle[64], line[200];
            snprintf(needle, sizeof needle, "(function id 11259375) has action %u", a);
            EXPECT_MESSAGE(&r, "XRAY-FUNCTION-ACTION", needle);
            snprintf(line, sizeof line, "{\"t\":\"function\",\"action\":\"action_%u\",\"func\":"
                     "11259375,\"delta\":3,\"cpu\":0,\"tsc\":\"13\"}", a);
            EXPECT_DUMP_LINE(&r, 6, line);
            EXPECT_DUMP_LINE(&r, 7, "{\"t\":\"function\",\"action\":\"enter\",\"func\":1,"
                                    "\"delta\":1,\"cpu\":0,\"tsc\":\"14\"}");
            tu_result_free(&r);
            xb_free(&x);
        }
}

static void test_meta_kind_unknown(void)
{
    static const unsigned kinds[] = {10, 11, 63, 64, 127};
    for (int be = 0; be <= 1; be++)
        for (unsigned v = 1; v <= 5; v += 4) {
            xb x;
            xb_init(&x, v, be);
            xb_header(&x, 4096);
            xb_begin(&x);
            xb_preamble(&x, 1, 2, 0, 10);
            size_t at[5];
            for (size_t k = 0; k < 5; k++) {
                at[k] = xb_len(&x);
                xb_meta(&x, kinds[k], NULL);
                xb_fn(&x, XB_ENTER, (uint32_t)k + 1, 1);
            }
            xb_end(&x, 0);
            tu_result r = {0};
            xb_check(&x, 0, &r);
            EXPECT_RULES(&r, "XRAY-META-KIND-UNKNOWN XRAY-META-KIND-UNKNOWN XRAY-META-KIND-UNKNOWN "
                             "XRAY-META-KIND-UNKNOWN XRAY-META-KIND-UNKNOWN");
            for (size_t k = 0; k < 5 && k < r.n; k++) {
                CU_ASSERT_EQUAL(r.d[k].offset, at[k]);
                char needle[32];
                snprintf(needle, sizeof needle, "kind %u", kinds[k]);
                CHECK(strstr(r.d[k].message, needle) != NULL, "%s", r.d[k].message);
            }
            /* Each skipped as 16 bytes: the functions after them are read. */
            CU_ASSERT_EQUAL(tu_count(&r, "XRAY-PREAMBLE-ORDER"), 0);
            CHECK(r.dump && strstr(r.dump, "\"func\":5,\"delta\":1"), "dump:\n%s", r.dump);
            tu_result_free(&r);
            xb_free(&x);
        }
}

/* A TypedEventMarker before version 5 is skipped with its payload. */
static void test_typed_event_before_v5(void)
{
    for (unsigned v = 1; v <= 4; v++) {
        xb x;
        xb_init(&x, v, 0);
        xb_header(&x, 4096);
        xb_begin(&x);
        xb_preamble(&x, 1, 2, 0, 10);
        size_t at = xb_len(&x);
        /* A payload that would read as a NewBuffer record if it were parsed. */
        uint8_t payload[16] = {xb_tag(&x, XB_NEW_BUFFER), 9};
        xb_typed(&x, 16, 1, 3, payload, sizeof payload);
        xb_fn(&x, XB_ENTER, 1, 1);
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-META-KIND-VERSION");
        EXPECT_OFFSET(&r, "XRAY-META-KIND-VERSION", at);
        EXPECT_MESSAGE(&r, "XRAY-META-KIND-VERSION", "TypedEventMarker");
        CU_ASSERT(r.dump && !strstr(r.dump, "typed_event") && strstr(r.dump, "\"func\":1"));
        tu_result_free(&r);
        xb_free(&x);
    }
}

static const tu_test tests[] = {
    {"preamble order per version", test_preamble_order},
    {"preamble order once per buffer", test_preamble_order_per_buffer},
    {"PIDEntry before version 3", test_pid_before_v3},
    {"buffer ending right after NewCPUId", test_ends_after_new_cpu},
    {"buffer ending inside its preamble", test_preamble_incomplete},
    {"preamble records in the body", test_preamble_record_in_body},
    {"CallArgument placement", test_callarg_placement},
    {"CallArgument at the start of the next buffer", test_callarg_next_buffer},
    {"function action 4..7", test_function_action},
    {"unknown metadata kinds", test_meta_kind_unknown},
    {"TypedEventMarker before version 5", test_typed_event_before_v5},
    {NULL, NULL},
};

void register_xray_grammar_suite(void) { tu_add_suite("xray_grammar", tests); }
