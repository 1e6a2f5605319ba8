// A real XRay producer: a multi-threaded program instrumented with
// -fxray-instrument that records a Flight Data Recorder trace through
// compiler-rt's runtime. Used by `make check` (the trace it writes must
// validate) and to make the clang-written conformance cases.
//
//   xray_fdr_app [--threads T] [--calls N] [--buffer-size B] [--buffers M]
//                [--custom] [--typed]
//
// Set XRAY_OPTIONS="xray_logfile_base=DIR/prefix-" to choose where the trace
// goes; the program prints the runtime's status codes on stderr.
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

// The typed-event sled clang 14 emits on x86-64 pushes each of %rdi, %rsi
// and %rdx whose value is not already in place before it calls
// __xray_TypedEvent, and that trampoline does not realign the stack: with
// three (an odd number of) pushes the runtime's handler runs on a stack
// misaligned by 8 and crashes on its first aligned SSE store (movaps). So the
// event goes through this wrapper, whose arguments already sit in %rdi, %rsi
// and %rdx (no push), and whose frame is 16-byte aligned because it makes a
// real, non-tail call afterwards. The bytes the runtime writes are the same.
[[clang::xray_never_instrument]] __attribute__((noinline)) void typed_event_done()
{
    __asm__ volatile("" ::: "memory");
}

[[clang::xray_never_instrument, clang::disable_tail_calls]] __attribute__((noinline)) void
typed_event(std::uint16_t type, const char *data, std::size_t size)
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

// Recursion gives nested entries and exits; the tail call gives Tail_Exit
// records when the compiler turns it into a jump.
[[clang::xray_always_instrument, clang::xray_log_args(1)]] __attribute__((noinline)) long
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

int main(int argc, char **argv)
{
    int threads = 4;
    long calls = 2000, buffer_size = 4096, buffers = 512;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&](long &v) {
            if (i + 1 < argc)
                v = std::atol(argv[++i]);
        };
        long t = threads;
        if (a == "--threads") {
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
            std::fprintf(stderr, "usage: %s [--threads T] [--calls N] [--buffer-size B] "
                                 "[--buffers M] [--custom] [--typed]\n", argv[0]);
            return 2;
        }
    }
    // FDR writes a file only when selected and initialised in the program
    // itself; the environment alone writes nothing.
    __xray_log_select_mode("xray-fdr");
    std::string config = "buffer_size=" + std::to_string(buffer_size) +
                         ":buffer_max=" + std::to_string(buffers) +
                         ":func_duration_threshold_us=0";
    int init = __xray_log_init_mode("xray-fdr", config.c_str());
    int patch = __xray_patch();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back([calls] { work(calls); });
    for (auto &th : pool)
        th.join();
    int fin = __xray_log_finalize();
    int flush = __xray_log_flushLog();
    std::fprintf(stderr, "xray: init %d patch %d finalize %d flush %d\n", init, patch, fin, flush);
    return init == XRAY_LOG_INITIALIZED && fin == XRAY_LOG_FINALIZED &&
                   flush == XRAY_LOG_FLUSHED ? 0 : 1;
}
