// tracecheck's XRay parser against LLVM's own reader: see xray_llvm_oracle.h.

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include <llvm/Support/DataExtractor.h>
#include <llvm/Support/Error.h>
#include <llvm/XRay/Trace.h>
#include <llvm/XRay/XRayRecord.h>

#include "../../parsers/common/bytes.h"
extern "C" {
#include "../../parsers/xray/xray.h"
}
#include "xray_llvm_oracle.h"
#include "xray_llvm_allowlist.h" // the DIV_* kinds; the table is included below

namespace {

// ---- the allow-list ----

enum Div {
#define XRAY_LLVM_DIVERGENCE(name, kind, explains, llvm_error, reason) name,
#include "xray_llvm_allowlist.h"
#undef XRAY_LLVM_DIVERGENCE
    DIV_COUNT
};

struct DivInfo {
    const char *name;
    unsigned kind;
    const char *explains;
    const char *llvm_error;
};

const DivInfo kDivs[DIV_COUNT] = {
#define XRAY_LLVM_DIVERGENCE(name, kind, explains, llvm_error, reason) \
    {#name, kind, explains, llvm_error},
#include "xray_llvm_allowlist.h"
#undef XRAY_LLVM_DIVERGENCE
};

// How often each class applied, and how often the readers agreed: for
// XRAY_DIFFERENTIAL_STATS; the classes of the current input, for
// XRAY_DIFFERENTIAL_VERBOSE. A harness is a program, so globals are fine here.
unsigned long g_count[DIV_COUNT];
unsigned long g_agree_accept, g_agree_reject, g_runs;
bool g_used[DIV_COUNT];
const char *g_trap; // XRAY_DIFFERENTIAL_TRAP: a class to abort on

void count(Div d)
{
    g_count[d]++;
    g_used[d] = true;
    // For finding small examples of a class: with the trap set, libFuzzer's
    // -minimize_crash shrinks an input while the class still applies.
    if (g_trap && std::strcmp(g_trap, kDivs[d].name) == 0)
        FUZZ_FAIL("the input falls in class %s (XRAY_DIFFERENTIAL_TRAP)", g_trap);
}

void print_stats()
{
    std::fprintf(stderr, "xray_differential: %lu inputs; agreed: %lu accepted, %lu rejected\n",
                 g_runs, g_agree_accept, g_agree_reject);
    for (int d = 0; d < DIV_COUNT; d++)
        if (g_count[d])
            std::fprintf(stderr, "  %-28s %lu\n", kDivs[d].name, g_count[d]);
}

// Whether `id` is one of the space-separated ids in `list`.
bool in_list(const char *list, const char *id)
{
    size_t n = std::strlen(id);
    for (const char *p = list; (p = std::strstr(p, id)) != nullptr; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

// ---- the two readers ----

struct Input {
    const uint8_t *p;
    size_t n;
};

uint16_t le16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint16_t be16(const uint8_t *p) { return static_cast<uint16_t>(p[1] | p[0] << 8); }

struct LlvmResult {
    bool tried = false; // false: LLVM would read it with its YAML reader, or crash
    bool payload_first = false; // a basic-mode log LLVM would crash on
    bool accepted = false;
    bool big_endian = false; // the attempt that produced this result
    std::string error;
    llvm::xray::XRayFileHeader header{};
    std::vector<llvm::xray::XRayRecord> records;
};

void load(LlvmResult &res, const Input &in, bool little_endian)
{
    llvm::StringRef bytes(reinterpret_cast<const char *>(in.p), in.n);
    llvm::DataExtractor de(bytes, little_endian, 8);
    auto trace = llvm::xray::loadTrace(de, /*Sort=*/false);
    res.tried = true;
    res.big_endian = !little_endian;
    if (!trace) {
        res.accepted = false;
        res.error = llvm::toString(trace.takeError());
        return;
    }
    res.accepted = true;
    res.error.clear();
    res.header = trace->getFileHeader();
    res.records.assign(trace->begin(), trace->end());
}

// Whether LLVM's basic-mode reader, reading in this byte order, gets to a
// first record that is an argument payload: it then takes the last element
// of its empty vector of records (Trace.cpp, loadNaiveFormatLog), and dies.
bool basic_payload_first(const Input &in, bool little_endian)
{
    auto rd16 = [&](size_t at) { return little_endian ? le16(in.p + at) : be16(in.p + at); };
    unsigned version = rd16(0);
    return rd16(2) == 0 && version >= 1 && version <= 3 && in.n >= 64 && in.n % 32 == 0 &&
           rd16(32) == 1;
}

// loadTraceFile's order (little-endian, then big-endian), restricted to the
// FDR (type 1) and basic-mode (type 0) readers: an attempt whose type field
// is neither would go to the YAML reader instead, and is not made; nor is
// one that would crash.
LlvmResult run_llvm(const Input &in)
{
    LlvmResult res;
    if (in.n < 4) { // LLVM: "too small for XRay"; tracecheck must reject too
        res.tried = true;
        res.error = "File too small for XRay.";
        return res;
    }
    unsigned le_type = le16(in.p + 2), be_type = be16(in.p + 2);
    if (le_type <= 1) {
        if (basic_payload_first(in, true)) {
            res.payload_first = true;
            return res;
        }
        load(res, in, true);
    }
    if (!res.accepted && be_type <= 1) {
        if (basic_payload_first(in, false)) {
            res = LlvmResult();
            res.payload_first = true;
            return res;
        }
        std::string first = res.error;
        load(res, in, false);
        if (!res.accepted && !first.empty())
            res.error = first + " / big-endian: " + res.error;
    }
    return res;
}

// tracecheck's side: a run of the parser (either mode, as the header says)
// with events kept, and its verdict.
struct TcResult {
    const xr_run &run;
    bool accepted;
};

// ---- facts the conditions look at ----

struct Ctx {
    Input in;
    const TcResult &tc;
    const LlvmResult &llvm;
    unsigned version;  // as tracecheck read it; 0 without a header
    bool big_endian;   // the header's version reads as 1..5 only big-endian
    bool basic;        // a basic-mode header (type 0, version 1..3, either byte order)
    // LLVM's record starts (llvm_record_starts), computed on first use.
    mutable std::vector<uint64_t> llvm_starts{};
    mutable bool have_llvm_starts = false;
};

const tc_xray_event *event_at(const Ctx &c, uint64_t offset, size_t *index)
{
    const xr_run &r = c.tc.run;
    for (size_t i = 0; i < r.nevents; i++)
        if (r.events[i].offset == offset) {
            if (index)
                *index = i;
            return &r.events[i];
        }
    return nullptr;
}

// A version 3+ preamble without its PIDEntry: the record tracecheck reports
// is a NewCPUId right after the buffer's WallTimeMarker.
bool cpu_right_after_wall_time(const Ctx &c, uint64_t offset)
{
    size_t i;
    const tc_xray_event *e = event_at(c, offset, &i);
    return c.version >= 3 && e && e->kind == TC_XRAY_NEW_CPU && i > 0 &&
           c.tc.run.events[i - 1].kind == TC_XRAY_WALL_TIME;
}

// A record of a kind LLVM reads in any version: PIDEntry, BufferExtents,
// TypedEventMarker (first bytes of little-endian records).
bool kind_llvm_reads_anywhere(const Ctx &c, uint64_t offset)
{
    if (offset >= c.in.n)
        return false;
    uint8_t b = c.in.p[offset];
    return b == 0x13 || b == 0x0f || b == 0x11;
}

// The first byte of the little-endian record at `offset` (0 outside the input).
uint8_t first_byte(const Ctx &c, uint64_t offset)
{
    return offset < c.in.n ? c.in.p[offset] : 0;
}

// Where LLVM's record reader (FDRRecordProducer.cpp) finds records, when
// it accepted the file (it is not run otherwise): from the header on,
// metadata 16 bytes plus an event's payload, function records 8. Versions 1
// and 2 are read one record after another. From version 3 LLVM counts a
// buffer's bytes down from its BufferExtents (in 32 bits), restarts the count
// at any BufferExtents, and when the count is out skips to the next byte that
// reads as a BufferExtents.
std::vector<uint64_t> llvm_record_starts(const Ctx &c)
{
    std::vector<uint64_t> starts;
    uint32_t left = 0; // CurrentBufferBytes
    for (uint64_t p = TC_XRAY_HEADER_SIZE; p < c.in.n;) {
        if (c.version >= 3 && left == 0) {
            while (p < c.in.n && c.in.p[p] != 0x0f)
                p++;
            if (p >= c.in.n)
                break;
        }
        starts.push_back(p);
        uint8_t b = c.in.p[p];
        uint64_t size = 8;
        if (b & 1) {
            size = 16;
            unsigned kind = b >> 1;
            if (p + 9 > c.in.n)
                break;
            if (kind == TC_XRAY_CUSTOM_EVENT || kind == TC_XRAY_TYPED_EVENT) {
                int32_t n;
                std::memcpy(&n, c.in.p + p + 1, 4);
                size += n > 0 ? static_cast<uint64_t>(n) : 0;
            }
            if (kind == TC_XRAY_BUFFER_EXTENTS) {
                uint64_t n;
                std::memcpy(&n, c.in.p + p + 1, 8);
                left = static_cast<uint32_t>(n);
                p += size;
                continue;
            }
        }
        left = size > left ? 0 : left - static_cast<uint32_t>(size);
        p += size;
    }
    return starts;
}

bool llvm_reads_record_at(const Ctx &c, uint64_t offset)
{
    if (!c.have_llvm_starts) {
        c.llvm_starts = llvm_record_starts(c);
        c.have_llvm_starts = true;
    }
    return std::binary_search(c.llvm_starts.begin(), c.llvm_starts.end(), offset);
}

// The first byte of the record a finding is about: most findings are located
// at their record; those about a field are located at the field (the size of
// an event at +1, a WallTimeMarker's microseconds at +9).
uint64_t record_of(const hx_finding *d)
{
    switch (d->rule) {
    case TC_RULE_XRAY_EVENT_SIZE_NEGATIVE:
    case TC_RULE_XRAY_EVENT_PAYLOAD_OVERFLOW: return d->offset - 1;
    case TC_RULE_XRAY_WALLTIME_USEC: return d->offset - 9;
    default: return d->offset;
    }
}

// Where tracecheck's framing puts the buffer holding `offset`: the offset of
// its NewBuffer (start) and of the next buffer's NewBuffer (next). False
// outside any buffer.
bool tc_buffer_at(const Ctx &c, uint64_t offset, uint64_t *start, uint64_t *next)
{
    if (c.version == 1) {
        uint64_t bs = c.tc.run.header.buffer_size;
        if (bs < TC_XRAY_MIN_V1_BUFFER || offset < TC_XRAY_HEADER_SIZE)
            return false;
        *start = TC_XRAY_HEADER_SIZE + (offset - TC_XRAY_HEADER_SIZE) / bs * bs;
        *next = *start + bs;
        return true;
    }
    const xr_run &r = c.tc.run;
    const tc_xray_event *ext = nullptr;
    for (size_t i = 0; i < r.nevents && r.events[i].offset <= offset; i++)
        if (r.events[i].kind == TC_XRAY_BUFFER_EXTENTS)
            ext = &r.events[i];
    if (!ext)
        return false;
    *start = ext->offset + TC_XRAY_METADATA_SIZE;
    // After the n bytes comes the next BufferExtents, then its NewBuffer.
    uint64_t end = ext->value > c.in.n ? c.in.n : *start + ext->value;
    *next = end + TC_XRAY_METADATA_SIZE;
    return true;
}

bool llvm_new_buffer_at(const Ctx &c, uint64_t offset)
{
    return llvm_reads_record_at(c, offset) && first_byte(c, offset) == 0x01;
}

// Whether tracecheck's buffer holding the finding starts where LLVM's reading
// has no NewBuffer, or, for a buffer cut short before its preamble was
// complete, whether the next buffer does (LLVM accepted: its blocks do not
// end there).
bool in_misframed_buffer(const Ctx &c, const hx_finding *d)
{
    if (c.version < 1 || c.big_endian || !c.llvm.accepted)
        return false;
    uint64_t start, next;
    if (!tc_buffer_at(c, d->offset, &start, &next))
        return false;
    if (!llvm_new_buffer_at(c, start))
        return true;
    return d->rule == TC_RULE_XRAY_PREAMBLE_INCOMPLETE && next < c.in.n &&
           !llvm_new_buffer_at(c, next);
}

// A finding about a BufferExtents record inside a buffer or crossing its end.
bool about_misplaced_extents(const Ctx &c, const hx_finding *d)
{
    return (d->rule == TC_RULE_XRAY_BODY_PREAMBLE_RECORD ||
            d->rule == TC_RULE_XRAY_RECORD_PAST_EXTENTS) &&
           first_byte(c, d->offset) == 0x0f;
}

// Such a BufferExtents at or before the finding `d`: from there on, LLVM
// counts the buffer's bytes from it.
bool extents_in_body_before(const Ctx &c, const hx_finding *d)
{
    const xr_run &r = c.tc.run;
    for (size_t i = 0; i < r.f.n; i++)
        if (about_misplaced_extents(c, &r.f.v[i]) && r.f.v[i].offset <= d->offset)
            return true;
    return false;
}

// A NewBuffer, or the WallTimeMarker and PIDEntry after one: the start of a
// block to LLVM, wherever it is.
bool starts_llvm_block(const Ctx &c, uint64_t offset)
{
    size_t i;
    const tc_xray_event *e = event_at(c, offset, &i);
    const tc_xray_event *ev = c.tc.run.events;
    if (!e)
        return false;
    switch (e->kind) {
    case TC_XRAY_NEW_BUFFER: return true;
    case TC_XRAY_WALL_TIME: return i >= 1 && ev[i - 1].kind == TC_XRAY_NEW_BUFFER;
    case TC_XRAY_PID:
        return i >= 2 && ev[i - 1].kind == TC_XRAY_WALL_TIME &&
               ev[i - 2].kind == TC_XRAY_NEW_BUFFER;
    default: return false;
    }
}

// Whether a basic-mode log has an argument payload right after an Enter, Exit
// or TailExit record of its function and thread (ruling 17), which LLVM's
// reader attaches to that record.
bool basic_payload_after_other(const Ctx &c)
{
    const uint8_t *p = c.in.p;
    const int be = c.big_endian;
    for (size_t at = 64; at + 32 <= c.in.n; at += 32) {
        const uint8_t *rec = p + at, *before = rec - 32;
        if (tc_rd16(rec, be) == 1 && tc_rd16(before, be) == 0 && before[3] <= 2 &&
            tc_rd32(rec + 4, be) == tc_rd32(before + 4, be) &&
            tc_rd32(rec + 8, be) == tc_rd32(before + 16, be))
            return true;
    }
    return false;
}

bool has_empty_event(const Ctx &c)
{
    const xr_run &r = c.tc.run;
    for (size_t i = 0; i < r.nevents; i++)
        if ((r.events[i].kind == TC_XRAY_CUSTOM_EVENT || r.events[i].kind == TC_XRAY_TYPED_EVENT) &&
            r.events[i].size == 0)
            return true;
    return false;
}

// Version 1 padding that LLVM's record-by-record reading trips on: bytes
// after an EndOfBuffer that are not zero, or not a whole number of 8-byte
// (zero) function records.
bool padding_llvm_misreads(const Ctx &c)
{
    const xr_run &r = c.tc.run;
    uint64_t bs = r.header.buffer_size;
    if (c.version != 1 || bs < TC_XRAY_MIN_V1_BUFFER)
        return false;
    for (size_t i = 0; i < r.nevents; i++) {
        const tc_xray_event &e = r.events[i];
        if (e.kind != TC_XRAY_END_OF_BUFFER)
            continue;
        uint64_t start = TC_XRAY_HEADER_SIZE + (e.offset - TC_XRAY_HEADER_SIZE) / bs * bs;
        uint64_t from = e.offset + TC_XRAY_METADATA_SIZE;
        uint64_t to = std::min<uint64_t>(start + bs, c.in.n);
        if (from > to)
            continue;
        if ((to - from) % 8 != 0)
            return true;
        for (uint64_t k = from; k < to; k++)
            if (c.in.p[k] != 0)
                return true;
    }
    return false;
}

// Whether a class applies to this input (and, for rule classes, to this
// diagnostic). Every entry of the table has its case: -Wswitch fails the
// build otherwise.
bool applies(Div d, const Ctx &c, const hx_finding *diag)
{
    switch (d) {
    case LLVM_CALLARG_ANYWHERE: return true;
    case LLVM_PID_OPTIONAL: return diag && cpu_right_after_wall_time(c, diag->offset);
    case LLVM_KIND_ANY_VERSION: return diag && kind_llvm_reads_anywhere(c, diag->offset);
    case LLVM_V1_UNFRAMED: return c.version == 1;
    case LLVM_V2_UNFRAMED: return c.version == 2;
    case LLVM_MISFRAMED_BUFFER: return diag && in_misframed_buffer(c, diag);
    case LLVM_READS_OTHER_RECORDS:
        return diag && c.llvm.accepted && !c.big_endian && c.version >= 1 &&
               !llvm_reads_record_at(c, record_of(diag));
    case LLVM_SKIPS_TO_EXTENTS: return c.version >= 3;
    case LLVM_EXTENTS_IN_BODY:
        return diag && (about_misplaced_extents(c, diag) || extents_in_body_before(c, diag));
    case LLVM_NEW_BUFFER_SPLITS: return diag && starts_llvm_block(c, diag->offset);
    case LLVM_WALLTIME_UNCHECKED: return true;
    case LLVM_EXTENTS_PAST_EOF: return c.version >= 2;
    case LLVM_HEADER_ONLY: return c.in.n == TC_XRAY_HEADER_SIZE;
    case LLVM_EVENT_SIZE_ZERO: return has_empty_event(c);
    case LLVM_V1_PADDING: return padding_llvm_misreads(c);
    case LLVM_BIG_ENDIAN: return c.big_endian && !c.basic;
    case LLVM_BASIC_TAIL_EXIT: return c.basic && c.version == 1;
    case LLVM_BASIC_PAYLOAD_AFTER: return c.basic && basic_payload_after_other(c);
    case LLVM_BASIC_HEADER_ONLY: return c.basic && c.in.n == TC_XRAY_HEADER_SIZE;
    case LLVM_BASIC_BE_TSC_BITS: return c.basic && c.big_endian;
    case LLVM_STALE_FIELDS:
    case LLVM_ARGS_MAKE_ENTER_ARG:
    case LLVM_PROCESS_ID:
    case LLVM_OLD_EVENT_CPU:
    case LLVM_BLOCK_ORDER:
    case LLVM_BASIC_PAYLOAD_FIRST:
    case LLVM_YAML:
    case DIV_COUNT:
        return false; // not allowances: derivations, or inputs not compared
    }
    return false;
}

// ---- LLVM's view of tracecheck's events ----

using llvm::xray::RecordTypes;

// What is compared of an XRayRecord (see LLVM_STALE_FIELDS).
using Key = std::tuple<uint32_t, uint32_t, int, uint16_t, int32_t, uint64_t, uint16_t,
                       std::vector<uint64_t>, std::string>;

bool is_function_type(RecordTypes t)
{
    return t == RecordTypes::ENTER || t == RecordTypes::EXIT || t == RecordTypes::TAIL_EXIT ||
           t == RecordTypes::ENTER_ARG;
}

Key key_of(const llvm::xray::XRayRecord &r)
{
    bool fn = is_function_type(r.Type);
    return Key(r.PId, r.TId, static_cast<int>(r.Type),
               r.Type == RecordTypes::TYPED_EVENT ? r.RecordType : 0, fn ? r.FuncId : 0, r.TSC,
               r.CPU, r.CallArgs, r.Data);
}

// The records LLVM's trace expander makes of an accepted little-endian
// trace, from tracecheck's events (FDRTraceExpander.cpp).
std::vector<llvm::xray::XRayRecord> expected_records(const Ctx &c)
{
    std::vector<llvm::xray::XRayRecord> out;
    const xr_run &r = c.tc.run;
    uint32_t tid = 0, pid = 0;
    uint16_t cpu = 0;
    bool args_allowed = false; // the last record made is a function record of this buffer
    for (size_t i = 0; i < r.nevents; i++) {
        const tc_xray_event &e = r.events[i];
        llvm::xray::XRayRecord x{};
        switch (e.kind) {
        case TC_XRAY_NEW_BUFFER:
            tid = static_cast<uint32_t>(e.id);
            pid = c.version == 2 ? tid : c.version == 1 ? 0 : pid;
            args_allowed = false;
            continue;
        case TC_XRAY_PID: pid = static_cast<uint32_t>(e.id); continue;
        case TC_XRAY_NEW_CPU:
            cpu = e.cpu;
            args_allowed = false;
            continue;
        case TC_XRAY_CALL_ARG:
            FUZZ_ASSERT_MSG(args_allowed && !out.empty(),
                            "accepted CallArgument at %" PRIu64 " follows no function record",
                            e.offset);
            out.back().CallArgs.push_back(e.value);
            out.back().Type = RecordTypes::ENTER_ARG;
            continue;
        case TC_XRAY_EV_FUNCTION:
            x.Type = static_cast<RecordTypes>(e.action);
            x.FuncId = static_cast<int32_t>(e.func_id);
            x.TSC = e.tsc;
            x.CPU = cpu;
            args_allowed = true;
            break;
        case TC_XRAY_CUSTOM_EVENT:
            x.Type = RecordTypes::CUSTOM_EVENT;
            x.TSC = c.version >= 5 ? e.tsc : e.value;
            // Versions 1-4: the u16 at bytes 13-14, reserved before version 4
            // (LLVM_OLD_EVENT_CPU).
            x.CPU = c.version >= 5 ? cpu : le16(c.in.p + e.offset + 13);
            x.Data.assign(reinterpret_cast<const char *>(e.data), e.data_len);
            args_allowed = false;
            break;
        case TC_XRAY_TYPED_EVENT:
            x.Type = RecordTypes::TYPED_EVENT;
            x.RecordType = e.event_type;
            x.TSC = e.tsc;
            x.CPU = cpu;
            x.Data.assign(reinterpret_cast<const char *>(e.data), e.data_len);
            args_allowed = false;
            break;
        default:
            args_allowed = false;
            continue;
        }
        x.TId = tid;
        x.PId = pid;
        out.push_back(std::move(x));
    }
    return out;
}

// The records LLVM's basic-mode reader makes of an accepted log, from
// tracecheck's events: one per function record, in file order, with the
// argument payloads after it attached.
std::vector<llvm::xray::XRayRecord> expected_basic_records(const Ctx &c)
{
    std::vector<llvm::xray::XRayRecord> out;
    const xr_run &r = c.tc.run;
    for (size_t i = 0; i < r.nevents; i++) {
        const tc_xray_event &e = r.events[i];
        if (e.kind == TC_XRAY_EV_BASIC_ARG) {
            FUZZ_ASSERT_MSG(!out.empty(), "accepted argument payload at %" PRIu64
                            " follows no function record", e.offset);
            out.back().CallArgs.push_back(e.value);
            continue;
        }
        if (e.kind != TC_XRAY_EV_BASIC_FUNCTION)
            continue;
        llvm::xray::XRayRecord x{};
        x.RecordType = 0;
        x.CPU = e.cpu;
        x.Type = static_cast<RecordTypes>(e.action);
        x.FuncId = static_cast<int32_t>(e.func_id);
        x.TSC = e.tsc;
        x.TId = static_cast<uint32_t>(e.tid);
        x.PId = static_cast<uint32_t>(e.pid);
        out.push_back(std::move(x));
    }
    return out;
}

void print_key(const char *label, const Key &k)
{
    std::fprintf(stderr, "  %s: pid %" PRIu32 " tid %" PRIu32 " type %d/%u func %" PRId32
                 " tsc %" PRIu64 " cpu %u args %zu data %zu bytes\n",
                 label, std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<3>(k),
                 std::get<4>(k), std::get<5>(k), std::get<6>(k), std::get<7>(k).size(),
                 std::get<8>(k).size());
}

// Whether the multisets are equal; when not and `print` is set, prints how.
bool same_records(const std::vector<llvm::xray::XRayRecord> &want,
                  const std::vector<llvm::xray::XRayRecord> &got, bool print)
{
    std::vector<Key> a, b;
    for (const auto &r : want)
        a.push_back(key_of(r));
    for (const auto &r : got)
        b.push_back(key_of(r));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a == b)
        return true;
    if (print) {
        std::vector<Key> only_a, only_b;
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
        std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
        std::fprintf(stderr, "records: tracecheck implies %zu, LLVM has %zu; %zu and %zu differ\n",
                     a.size(), b.size(), only_a.size(), only_b.size());
        for (size_t i = 0; i < only_a.size() && i < 4; i++)
            print_key("tracecheck", only_a[i]);
        for (size_t i = 0; i < only_b.size() && i < 4; i++)
            print_key("LLVM", only_b[i]);
    }
    return false;
}

bool same_header(const Ctx &c)
{
    const tc_xray_header &h = c.tc.run.header;
    const llvm::xray::XRayFileHeader &l = c.llvm.header;
    uint64_t buffer_size;
    std::memcpy(&buffer_size, l.FreeFormData, sizeof buffer_size); // little-endian hosts
    return l.Version == h.version && l.Type == h.type && l.ConstantTSC == (h.bitfield & 1) &&
           l.NonstopTSC == ((h.bitfield >> 1) & 1) && l.CycleFrequency == h.cycle_frequency &&
           buffer_size == h.buffer_size;
}

// ---- judging ----

[[noreturn]] void diverge(const Ctx &c, const char *what);
Div find_class(const Ctx &c, unsigned kind);

// Both accept a basic-mode log: the same header values and the same records,
// in the same order.
void judge_basic_both_accept(const Ctx &c)
{
    const tc_xray_header &h = c.tc.run.header;
    const llvm::xray::XRayFileHeader &l = c.llvm.header;
    if (l.Version != h.version || l.Type != h.type || l.CycleFrequency != h.cycle_frequency)
        diverge(c, "both accept a basic-mode log, the header values differ");
    auto want = expected_basic_records(c);
    const auto &got = c.llvm.records;
    size_t n = std::min(want.size(), got.size());
    for (size_t i = 0; i < n; i++)
        if (key_of(want[i]) != key_of(got[i])) {
            std::fprintf(stderr, "record %zu of %zu:\n", i, want.size());
            print_key("tracecheck", key_of(want[i]));
            print_key("LLVM", key_of(got[i]));
            diverge(c, "both accept a basic-mode log, the records differ");
        }
    if (want.size() != got.size()) {
        std::fprintf(stderr, "records: tracecheck implies %zu, LLVM has %zu\n", want.size(),
                     got.size());
        diverge(c, "both accept a basic-mode log, the records differ");
    }
    // Constant and non-stop TSC, as each reader reads the bitfield.
    bool be = h.big_endian;
    bool constant = be ? h.bitfield >> 31 & 1 : h.bitfield & 1;
    bool nonstop = be ? h.bitfield >> 30 & 1 : h.bitfield >> 1 & 1;
    if (l.ConstantTSC == constant && l.NonstopTSC == nonstop) {
        g_agree_accept++;
        return;
    }
    Div d = find_class(c, DIV_RECORDS);
    if (d == DIV_COUNT)
        diverge(c, "both accept a basic-mode log, constant or non-stop TSC differ");
    count(d);
}

[[noreturn]] void diverge(const Ctx &c, const char *what)
{
    std::fprintf(stderr, "tracecheck %s (%" PRIu64 " errors); LLVM %s%s%s\n",
                 c.tc.accepted ? "accepts" : "rejects", c.tc.run.f.errors,
                 c.llvm.accepted ? "accepts" : "rejects: ", c.llvm.accepted ? "" : c.llvm.error.c_str(),
                 c.llvm.big_endian ? " (as big-endian)" : "");
    for (size_t i = 0; i < c.tc.run.f.n && i < 8; i++)
        if (c.tc.run.f.v[i].severity == TC_ERROR)
            hx_print_finding(stderr, "tracecheck", &c.tc.run.f.v[i]);
    FUZZ_FAIL("unlisted divergence from LLVM's reader: %s (see fuzz/xray/xray_llvm_allowlist.h)",
              what);
}

// A class of `kind` whose condition holds (and whose LLVM error, if any, is
// in LLVM's message), or DIV_COUNT.
Div find_class(const Ctx &c, unsigned kind)
{
    for (int d = 0; d < DIV_COUNT; d++) {
        const DivInfo &info = kDivs[d];
        if (!(info.kind & kind) || info.kind & (DIV_DERIVED | DIV_NOT_COMPARED))
            continue;
        if (kind == DIV_LLVM_REJECTS && !c.llvm.error.empty() && info.llvm_error[0] &&
            c.llvm.error.find(info.llvm_error) == std::string::npos)
            continue;
        if (info.explains[0] && kind == DIV_TC_REJECTS)
            continue; // rule classes are judged per diagnostic
        if (applies(static_cast<Div>(d), c, nullptr))
            return static_cast<Div>(d);
    }
    return DIV_COUNT;
}

// tracecheck rejects, LLVM accepts: every error must be one LLVM does not check.
void judge_tc_rejects(const Ctx &c)
{
    Div whole = find_class(c, DIV_TC_REJECTS);
    if (whole != DIV_COUNT) {
        count(whole);
        return;
    }
    bool used[DIV_COUNT] = {};
    for (size_t i = 0; i < c.tc.run.f.n; i++) {
        const hx_finding *d = &c.tc.run.f.v[i];
        if (d->severity != TC_ERROR)
            continue;
        const char *id = tc_rules[d->rule].id;
        int found = -1;
        for (int k = 0; k < DIV_COUNT && found < 0; k++)
            if ((kDivs[k].kind & DIV_TC_REJECTS) && in_list(kDivs[k].explains, id) &&
                applies(static_cast<Div>(k), c, d))
                found = k;
        if (found < 0) {
            char what[160];
            std::snprintf(what, sizeof what, "LLVM accepts, and nothing explains %s at %" PRIu64,
                          id, d->offset);
            diverge(c, what);
        }
        used[found] = true;
    }
    for (int k = 0; k < DIV_COUNT; k++)
        if (used[k])
            count(static_cast<Div>(k));
}

void judge(const Ctx &c)
{
    g_runs++;
    if (!c.llvm.tried) {
        if (c.llvm.payload_first) {
            // LLVM would crash; tracecheck rejects, for that payload.
            count(LLVM_BASIC_PAYLOAD_FIRST);
            FUZZ_ASSERT_MSG(!c.tc.accepted &&
                                c.tc.run.f.count[TC_RULE_XRAY_BASIC_ARG_PLACEMENT] > 0,
                            "tracecheck does not report a basic-mode log whose first record is "
                            "an argument payload (%" PRIu64 " errors)", c.tc.run.f.errors);
            return;
        }
        // YAML inputs: LLVM's readers of binary logs are not run.
        count(LLVM_YAML);
        FUZZ_ASSERT_MSG(!c.tc.accepted, "tracecheck accepts an input whose type field is "
                        "neither 0 nor 1");
        return;
    }
    if (!c.tc.accepted && !c.llvm.accepted) {
        g_agree_reject++;
        return;
    }
    if (!c.tc.accepted) {
        judge_tc_rejects(c);
        return;
    }
    if (!c.llvm.accepted) {
        Div d = find_class(c, DIV_LLVM_REJECTS);
        if (d == DIV_COUNT)
            diverge(c, "tracecheck accepts what LLVM rejects");
        count(d);
        return;
    }
    if (c.basic) {
        judge_basic_both_accept(c);
        return;
    }
    // Both accept: the same header and records, unless a class explains why not.
    bool same = !c.big_endian && same_header(c);
    if (same) {
        auto want = expected_records(c);
        same = same_records(want, c.llvm.records, false);
        if (!same && find_class(c, DIV_RECORDS) == DIV_COUNT) {
            same_records(want, c.llvm.records, true);
            diverge(c, "both accept, the records differ");
        }
    }
    if (same) {
        g_agree_accept++;
        return;
    }
    Div d = find_class(c, DIV_RECORDS);
    if (d == DIV_COUNT)
        diverge(c, "both accept, the headers differ");
    count(d);
}

// One line per input: the verdicts and the classes that explained them.
void print_verdict(const Ctx &c)
{
    std::fprintf(stderr, "xray_differential: %zu bytes: tracecheck %s, LLVM %s:", c.in.n,
                 c.tc.accepted ? "accepts" : "rejects",
                 !c.llvm.tried ? "not run" : c.llvm.accepted ? "accepts" : "rejects");
    bool any = false;
    for (int d = 0; d < DIV_COUNT; d++)
        if (g_used[d]) {
            std::fprintf(stderr, " %s", kDivs[d].name);
            any = true;
        }
    std::fprintf(stderr, "%s\n", any ? "" : " agree");
}

} // namespace

void xl_judge(const uint8_t *data, size_t size, const xr_run *run)
{
    auto flag = [](const char *name) {
        const char *s = std::getenv(name);
        return s && *s && std::strcmp(s, "0") != 0;
    };
    static bool stats = flag("XRAY_DIFFERENTIAL_STATS") && std::atexit(print_stats) == 0;
    static bool verbose = flag("XRAY_DIFFERENTIAL_VERBOSE");
    (void)stats;
    g_trap = std::getenv("XRAY_DIFFERENTIAL_TRAP");
    std::fill(std::begin(g_used), std::end(g_used), false);

    Input in{data, size};
    TcResult tc{*run, run->f.errors == 0};
    LlvmResult llvm = run_llvm(in);
    bool be = size >= 2 && (le16(data) < 1 || le16(data) > 5) && be16(data) >= 1 &&
              be16(data) <= 5;
    unsigned version = run->have_header ? run->header.version : 0;
    Ctx c{in, tc, llvm, version, be, tc_xray_basic_sniff(data, size) != 0};
    judge(c);
    if (verbose)
        print_verdict(c);
}
