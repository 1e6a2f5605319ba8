// A real XRay producer: a multi-threaded program instrumented with
// -fxray-instrument that records a trace through compiler-rt's runtime, in
// Flight Data Recorder mode (the default) or in basic mode. Used by `make
// check` (the traces every Debian clang's runtime writes must validate) and
// to make the clang-written conformance cases.
//
//   xray_fdr_app [--mode fdr|basic] [--threads T] [--calls N]
//                [--buffer-size B] [--buffers M] [--custom] [--typed]
//
// Set XRAY_OPTIONS="xray_logfile_base=DIR/prefix-" to choose where the trace
// goes; the program prints the runtime's status codes on stderr.
//
// FDR mode writes a file only when the program selects and initialises it;
// the environment alone writes nothing. --buffer-size and --buffers are the
// FDR buffer size and count.
//
// Basic mode is what XRAY_OPTIONS="xray_mode=xray-basic" selects: the runtime
// then initialises it before main with the settings of XRAY_BASIC_OPTIONS
// (func_duration_threshold_us: calls shorter than that are erased from the
// log, 5 us unless set; thread_buffer_size: records per thread buffer) and the
// program only patches. Without it, --mode basic selects basic mode here
// with a threshold of 0 and B / 32 records per thread buffer. Basic mode has
// no custom or typed events.
//
// The calls this program makes are fixed by T and N (the test counts them in
// the trace): per thread one work(), N tail(), and for each i < N
// (i % 4) + 1 walk() and as many leaf() calls, and one event() every 64
// iterations. Every function is noinline, and walk() has tail calls disabled:
// clang 15 and later otherwise turn its recursion into a loop at -O1
// (accumulator tail-recursion elimination), and the recursive calls vanish.
//
// Build with -DXRAY_FDR_APP_TYPED_EVENTS=0 for a binary without typed-event
// sleds (--typed is then refused): llvm-xray's instrumentation-map reader
// (LLVM 14 and later) rejects a binary that has any typed-event sled
// ("Cannot extract instrumentation map ... Exec format error"), so only such
// a binary can be given to `llvm-xray convert --instr_map` for symbolisation.
#include <xray/xray_interface.h>
#include <xray/xray_log_interface.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#ifndef XRAY_FDR_APP_TYPED_EVENTS
#define XRAY_FDR_APP_TYPED_EVENTS 1
#endif

static bool g_custom = false;
static bool g_typed = false;

[[clang::xray_always_instrument, clang::xray_log_args(1)]] __attribute__((noinline)) long
leaf(long x)
{
    return x * 3 + 1;
}

// The typed-event sled clang emits on x86-64 pushes each of %rdi, %rsi and
// %rdx whose value is not already in place before it calls
// __xray_TypedEvent, and that trampoline does not realign the stack: with an
// odd number of pushes the runtime's handler runs on a stack misaligned by 8
// and crashes on its first aligned SSE store (movaps). So the event goes
// through this wrapper, whose arguments already sit in %rdi, %rsi and %rdx
// with the builtin's types (size_t, pointer, size_t: a narrower type makes
// clang 19 and later copy it to another register and push %rdi), and whose
// frame is 16-byte aligned because it makes a real, non-tail call afterwards.
// The bytes the runtime writes are the same.
//
// Clang 13, 15 and 16 crash (segmentation fault in the X86 assembly printer)
// compiling a typed-event site at -O1 or with optnone; at -O0 they compile it.
[[clang::xray_never_instrument]] __attribute__((noinline)) void typed_event_done()
{
    __asm__ volatile("" ::: "memory");
}

[[clang::xray_never_instrument, clang::disable_tail_calls]] __attribute__((noinline)) void
typed_event(std::size_t type, const char *data, std::size_t size)
{
#if XRAY_FDR_APP_TYPED_EVENTS
    __xray_typedevent(type, data, size);
#else
    (void)type, (void)data, (void)size;
#endif
    typed_event_done();
}

[[clang::xray_always_instrument]] __attribute__((noinline)) void
event(long i)
{
    char msg[48];
    int n = std::snprintf(msg, sizeof msg, "iteration %ld", i);
    if (g_custom)
        __xray_customevent(msg, static_cast<std::size_t>(n));
    if (g_typed)
        typed_event(7, msg, static_cast<std::size_t>(n));
}

// Recursion gives nested entries and exits (disable_tail_calls keeps the
// recursive calls, see the head of this file); the tail call in tail() gives
// Tail_Exit records when the compiler turns it into a jump (clang 15 and
// later do at -O1, clang 13 and 14 do not).
[[clang::xray_always_instrument, clang::xray_log_args(1), clang::disable_tail_calls]]
__attribute__((noinline)) long
walk(long depth)
{
    if (depth <= 0)
        return leaf(depth);
    long s = leaf(depth) + walk(depth - 1);
    return s;
}

[[clang::xray_always_instrument]] __attribute__((noinline)) long tail(long x)
{
    return walk(x % 4);
}

[[clang::xray_always_instrument]] __attribute__((noinline)) void work(long calls)
{
    volatile long sink = 0;
    for (long i = 0; i < calls; i++) {
        sink = sink + tail(i);
        if (i % 64 == 0)
            event(i);
    }
}

// Basic mode: selected and initialised by the runtime before main when
// XRAY_OPTIONS says xray_mode=xray-basic (its settings then come from
// XRAY_BASIC_OPTIONS), else here. Returns the runtime's init status.
static int init_basic(long buffer_size)
{
    const char *mode = __xray_log_get_current_mode();
    if (mode != nullptr && std::strcmp(mode, "xray-basic") == 0) {
        std::fprintf(stderr, "xray: basic mode initialised by XRAY_OPTIONS (xray_mode=xray-basic)\n");
        return XRAY_LOG_INITIALIZED;
    }
    __xray_log_select_mode("xray-basic");
    std::string config = "func_duration_threshold_us=0:max_stack_depth=64:thread_buffer_size=" +
                         std::to_string(buffer_size / 32);
    return __xray_log_init_mode("xray-basic", config.c_str());
}

static int init_fdr(long buffer_size, long buffers)
{
    __xray_log_select_mode("xray-fdr");
    std::string config = "buffer_size=" + std::to_string(buffer_size) +
                         ":buffer_max=" + std::to_string(buffers) +
                         ":func_duration_threshold_us=0";
    return __xray_log_init_mode("xray-fdr", config.c_str());
}

int main(int argc, char **argv)
{
    int threads = 4;
    long calls = 2000, buffer_size = 4096, buffers = 512;
    std::string mode = "fdr";
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&](long &v) {
            if (i + 1 < argc)
                v = std::atol(argv[++i]);
        };
        long t = threads;
        if (a == "--mode" && i + 1 < argc) {
            mode = argv[++i];
        } else if (a == "--threads") {
            next(t);
            threads = static_cast<int>(t);
        } else if (a == "--calls") {
            next(calls);
        } else if (a == "--buffer-size") {
            next(buffer_size);
        } else if (a == "--buffers") {
            next(buffers);
        } else if (a == "--custom") {
            g_custom = true;
        } else if (a == "--typed") {
            if (!XRAY_FDR_APP_TYPED_EVENTS) {
                std::fprintf(stderr, "%s: built with XRAY_FDR_APP_TYPED_EVENTS=0: no --typed\n",
                             argv[0]);
                return 2;
            }
            g_typed = true;
        } else {
            mode = "?";
            break;
        }
    }
    if (mode != "fdr" && mode != "basic") {
        std::fprintf(stderr, "usage: %s [--mode fdr|basic] [--threads T] [--calls N] "
                             "[--buffer-size B] [--buffers M] [--custom] [--typed]\n", argv[0]);
        return 2;
    }
    int init = mode == "fdr" ? init_fdr(buffer_size, buffers) : init_basic(buffer_size);
    int patch = __xray_patch();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back([calls] { work(calls); });
    for (auto &th : pool)
        th.join();
    // The order of xray_log_interface.h: finalize, unpatch, flush. Basic mode
    // keeps logging after finalize (its threads' buffers are written when
    // full and when the threads exit, the main thread's at exit); unpatching
    // keeps the calls made while main returns out of the log.
    int fin = __xray_log_finalize();
    int unpatch = __xray_unpatch();
    int flush = __xray_log_flushLog();
    std::fprintf(stderr, "xray: %s: init %d patch %d finalize %d unpatch %d flush %d\n", mode.c_str(),
                 init, patch, fin, unpatch, flush);
    return init == XRAY_LOG_INITIALIZED && patch == SUCCESS && fin == XRAY_LOG_FINALIZED &&
                   unpatch == SUCCESS && flush == XRAY_LOG_FLUSHED ? 0 : 1;
}
