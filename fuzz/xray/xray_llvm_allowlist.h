/*
 * Known differences between tracecheck and LLVM 14's XRay reader
 * (llvm::xray::loadTrace), for the differential harness xray_differential.
 * Every difference the harness meets must belong to one of these classes,
 * or it aborts: an unlisted difference is a finding, in one reader or the
 * other (or in this table).
 *
 *   XRAY_LLVM_DIVERGENCE(NAME, KIND, EXPLAINS, LLVM_ERROR, REASON)
 *
 * NAME        C identifier; the harness has one condition per entry, which must
 *             hold on the input for the entry to apply (see `applies` in
 *             xray_differential.cc), and counts how often each applied.
 * KIND        DIV_TC_REJECTS  tracecheck reports errors, LLVM accepts: LLVM does
 *                             not check what the rules in EXPLAINS check;
 *             DIV_LLVM_REJECTS tracecheck accepts, LLVM fails with an error
 *                             containing LLVM_ERROR;
 *             DIV_RECORDS     both accept, the decoded records differ;
 *             DIV_ANY         any of the three (kinds combine with |);
 *             DIV_DERIVED     not a divergence: how LLVM's view of the records is
 *                             derived from tracecheck's events before comparing;
 *             DIV_NOT_COMPARED inputs LLVM's FDR reader is not run on.
 * EXPLAINS    for DIV_TC_REJECTS: the tracecheck rule ids LLVM does not check,
 *             space-separated. A tracecheck rejection that LLVM accepts is allowed
 *             when every error rule tracecheck reported is explained by an
 *             entry whose condition holds.
 * LLVM_ERROR  for DIV_LLVM_REJECTS: a substring of LLVM's error message, or ""
 *             for any message.
 * REASON      why the readers differ, for docs/fuzzing.md (generated from
 *             this table by `make fuzz-docs`, checked by `make check`).
 *
 * The kinds are defined once, below. The table has no include guard: each
 * user defines XRAY_LLVM_DIVERGENCE and includes this file again (without
 * the macro, only the kinds are declared).
 *
 * The facts about LLVM come from its sources (llvm/lib/XRay: Trace.cpp,
 * FDRRecordProducer.cpp, RecordInitializer.cpp, BlockIndexer.cpp,
 * BlockVerifier.cpp, FDRTraceExpander.cpp) and ../shared/notes/xray-fdr.md,
 * and were measured on Debian's llvm-xray 14 (spec/xray/xray.md, "LLVM's
 * basic-mode reader").
 */
#ifndef TC_XRAY_LLVM_ALLOWLIST_KINDS
#define TC_XRAY_LLVM_ALLOWLIST_KINDS
enum {
    DIV_TC_REJECTS = 1,
    DIV_LLVM_REJECTS = 2,
    DIV_RECORDS = 4,
    DIV_ANY = DIV_TC_REJECTS | DIV_LLVM_REJECTS | DIV_RECORDS,
    DIV_DERIVED = 8,
    DIV_NOT_COMPARED = 16
};
#endif

#ifdef XRAY_LLVM_DIVERGENCE
/* ---- tracecheck rejects, LLVM accepts: checks LLVM does not make ---- */
XRAY_LLVM_DIVERGENCE(LLVM_CALLARG_ANYWHERE, DIV_TC_REJECTS,
    "XRAY-CALLARG-PLACEMENT", "",
    "LLVM's block verifier allows a CallArgument after any function record (Exit and "
    "Tail_Exit included, and a plain Entry in version 5); ruling 7 allows it only after "
    "Entry_Args or another CallArgument (after a plain Entry in versions 1-4, as a warning).")
XRAY_LLVM_DIVERGENCE(LLVM_PID_OPTIONAL, DIV_TC_REJECTS,
    "XRAY-PREAMBLE-ORDER", "",
    "LLVM's block verifier lets WallTimeMarker go straight to NewCPUId in every version; "
    "from version 3 the preamble has a PIDEntry (ruling 6). Applies when each misplaced "
    "record tracecheck reports is a NewCPUId right after the WallTimeMarker.")
XRAY_LLVM_DIVERGENCE(LLVM_KIND_ANY_VERSION, DIV_TC_REJECTS,
    "XRAY-META-KIND-VERSION", "",
    "LLVM reads PIDEntry, BufferExtents and TypedEventMarker records in any version (only "
    "EndOfBuffer is tied to version 1); the record table gives each its versions. Applies "
    "when each record tracecheck reports is one of those three kinds.")
XRAY_LLVM_DIVERGENCE(LLVM_V1_UNFRAMED, DIV_TC_REJECTS,
    "XRAY-V1-FILE-SIZE XRAY-V1-BUFFER-SIZE XRAY-V1-RECORD-CROSSES-BUFFER "
    "XRAY-EVENT-PAYLOAD-OVERFLOW", "",
    "LLVM ignores buffer_size and reads version 1 records one after another; ruling 4 cuts "
    "the file into buffer_size buffers, which records and event payloads may not cross and "
    "the file must fill. Applies to version 1 traces.")
XRAY_LLVM_DIVERGENCE(LLVM_V2_UNFRAMED, DIV_TC_REJECTS,
    "XRAY-EXTENTS-EXPECTED XRAY-RECORD-PAST-EXTENTS XRAY-EXTENTS-PAST-EOF "
    "XRAY-EVENT-PAYLOAD-OVERFLOW XRAY-PREAMBLE-INCOMPLETE", "",
    "In version 2 LLVM reads records one after another and never uses a BufferExtents size "
    "(only from version 3 does it count a buffer's bytes); ruling 5 frames every buffer by "
    "its BufferExtents. Applies to version 2 traces.")
XRAY_LLVM_DIVERGENCE(LLVM_MISFRAMED_BUFFER, DIV_TC_REJECTS,
    "XRAY-PREAMBLE-ORDER XRAY-PREAMBLE-INCOMPLETE XRAY-BODY-PREAMBLE-RECORD "
    "XRAY-META-KIND-UNKNOWN XRAY-META-KIND-VERSION XRAY-FUNCTION-ACTION "
    "XRAY-CALLARG-PLACEMENT XRAY-EVENT-SIZE-NEGATIVE XRAY-EVENT-PAYLOAD-OVERFLOW "
    "XRAY-WALLTIME-USEC", "",
    "LLVM's blocks run from one NewBuffer record to the next, whatever buffer_size (version "
    "1) or BufferExtents (version 2+) say. Where tracecheck's framing starts a buffer at a "
    "byte where LLVM's reading has no NewBuffer, LLVM continues a block there and expects no "
    "preamble, and may read the records from another boundary; where tracecheck's buffer "
    "ends before its preamble does, LLVM's block goes on. Applies to findings in such a "
    "buffer (to XRAY-PREAMBLE-INCOMPLETE also when the next buffer starts so), when LLVM's "
    "reading of the whole file succeeded.")
XRAY_LLVM_DIVERGENCE(LLVM_READS_OTHER_RECORDS, DIV_TC_REJECTS,
    "XRAY-FUNCTION-ACTION XRAY-META-KIND-UNKNOWN XRAY-META-KIND-VERSION "
    "XRAY-CALLARG-PLACEMENT XRAY-BODY-PREAMBLE-RECORD XRAY-PREAMBLE-ORDER "
    "XRAY-EVENT-SIZE-NEGATIVE XRAY-EVENT-PAYLOAD-OVERFLOW XRAY-WALLTIME-USEC "
    "XRAY-RECORD-PAST-EXTENTS XRAY-V1-RECORD-CROSSES-BUFFER", "",
    "A finding about a record that LLVM, reading the same file, never read as a record: it "
    "skipped those bytes (from version 3 it skips to the next BufferExtents once a buffer's "
    "count of bytes runs out, and a misplaced BufferExtents changes that count), or they lie "
    "inside another of its records. The harness replays LLVM's reading to tell.")
XRAY_LLVM_DIVERGENCE(LLVM_SKIPS_TO_EXTENTS, DIV_TC_REJECTS,
    "XRAY-EXTENTS-EXPECTED", "",
    "From version 3, after a buffer's bytes LLVM skips whatever follows, byte by byte, up to "
    "the next byte that reads as a BufferExtents record; ruling 5 allows nothing between "
    "buffers. Applies from version 3.")
XRAY_LLVM_DIVERGENCE(LLVM_EXTENTS_IN_BODY, DIV_TC_REJECTS,
    "XRAY-BODY-PREAMBLE-RECORD XRAY-RECORD-PAST-EXTENTS XRAY-EXTENTS-EXPECTED "
    "XRAY-EVENT-PAYLOAD-OVERFLOW XRAY-EXTENTS-PAST-EOF XRAY-PREAMBLE-INCOMPLETE", "",
    "LLVM leaves BufferExtents records out of its blocks and out of its over-read check: "
    "one inside a buffer, or crossing its end, is ignored (version 2) or restarts the count "
    "of the buffer's bytes (version 3+), so the buffer ends elsewhere for LLVM; ruling 6 "
    "allows none in a buffer's body. Applies to the BufferExtents reported, and to framing "
    "findings after it.")
XRAY_LLVM_DIVERGENCE(LLVM_NEW_BUFFER_SPLITS, DIV_TC_REJECTS,
    "XRAY-BODY-PREAMBLE-RECORD", "",
    "LLVM's block indexer starts a new block at every NewBuffer record, wherever it is; from "
    "version 2 a buffer is what its BufferExtents frames, and in version 1 buffer_size bytes, "
    "so a NewBuffer in a buffer's body is an error (ruling 6). Applies when each record "
    "reported is such a NewBuffer, or the WallTimeMarker or PIDEntry after it (the preamble "
    "of LLVM's new block).")
XRAY_LLVM_DIVERGENCE(LLVM_WALLTIME_UNCHECKED, DIV_TC_REJECTS,
    "XRAY-WALLTIME-USEC", "",
    "LLVM does not look at the value of a WallTimeMarker's microseconds (it uses them only to "
    "sort blocks); ruling 9 requires 0 to 999999.")
XRAY_LLVM_DIVERGENCE(LLVM_BASIC_TAIL_EXIT, DIV_TC_REJECTS,
    "XRAY-BASIC-TAIL-EXIT-VERSION", "",
    "LLVM's basic-mode reader accepts a TailExit record in any version; tail exits came with "
    "version 2 of the basic-mode log (ruling 14). Applies to version 1 basic-mode logs.")
XRAY_LLVM_DIVERGENCE(LLVM_BASIC_PAYLOAD_AFTER, DIV_TC_REJECTS,
    "XRAY-BASIC-ARG-PLACEMENT", "",
    "LLVM's basic-mode reader attaches an argument payload to whatever record of its function "
    "and thread precedes it; compiler-rt writes one only after an EnterArg record or another "
    "payload of it (ruling 17). Applies to logs with a payload right after an Enter, Exit or "
    "TailExit record of its function and thread.")
XRAY_LLVM_DIVERGENCE(LLVM_EXTENTS_PAST_EOF, DIV_TC_REJECTS,
    "XRAY-EXTENTS-PAST-EOF", "",
    "LLVM stops reading at the end of the data without checking that the last buffer has as "
    "many bytes as its BufferExtents announced, and keeps only the low 32 bits of the size; "
    "ruling 5 requires the n bytes to be present. Applies from version 2.")

/* ---- tracecheck accepts, LLVM rejects ---- */
XRAY_LLVM_DIVERGENCE(LLVM_HEADER_ONLY, DIV_LLVM_REJECTS,
    "", "Invalid terminal condition Unknown",
    "A trace with no buffer is valid (ruling 12: what the runtime writes when nothing was "
    "logged). LLVM's block indexer always ends with a block, here an empty one, which its "
    "verifier rejects.")
XRAY_LLVM_DIVERGENCE(LLVM_BASIC_HEADER_ONLY, DIV_LLVM_REJECTS,
    "", "Invalid-sized XRay data",
    "A basic-mode log of no records is valid (ruling 13: what the runtime writes when nothing "
    "was logged); LLVM's basic-mode reader requires at least one record after the header.")
XRAY_LLVM_DIVERGENCE(LLVM_EVENT_SIZE_ZERO, DIV_LLVM_REJECTS,
    "", "event (size = 0)",
    "A custom or typed event with an empty payload is valid (ruling 8: size >= 0); LLVM "
    "requires size > 0.")
XRAY_LLVM_DIVERGENCE(LLVM_V1_PADDING, DIV_LLVM_REJECTS | DIV_RECORDS,
    "", "",
    "Version 1 buffers end with EndOfBuffer and padding up to buffer_size, never read "
    "(ruling 4). LLVM parses the padding as records: padding that is not zero, or not a "
    "multiple of 8 bytes, makes it fail or decode records that are not there. Applies when "
    "some padding is such.")

/* ---- both ways ---- */
XRAY_LLVM_DIVERGENCE(LLVM_BIG_ENDIAN, DIV_ANY,
    "", "",
    "Big-endian FDR traces use the FDR document's MSB-first layout (ruling 2). LLVM retries a "
    "file that fails as little-endian with a big-endian header reader but keeps the "
    "little-endian bit layout of records, so it can read no big-endian FDR trace: its verdict "
    "and records on such inputs mean nothing. (Basic-mode logs have no bit layout in their "
    "records, and LLVM reads big-endian ones: they are compared.)")
XRAY_LLVM_DIVERGENCE(LLVM_BASIC_BE_TSC_BITS, DIV_RECORDS,
    "", "",
    "In a big-endian basic-mode log tracecheck reads constant and non-stop TSC from the "
    "bitfield's two most significant bits, the MSB-first layout a big-endian compiler gives "
    "the runtime's C bit-fields (as for FDR, ruling 2); LLVM reads the two least significant "
    "bits in either byte order. Only these two header values may differ; the records must "
    "not.")

/* ---- how LLVM's records are derived from tracecheck's events ---- */
XRAY_LLVM_DIVERGENCE(LLVM_STALE_FIELDS, DIV_DERIVED,
    "", "",
    "LLVM's trace expander fills one record object and reuses it: custom and typed events "
    "keep the function id of the function record before them, and function records keep "
    "the type of the last typed event. Those fields mean nothing there and are not compared.")
XRAY_LLVM_DIVERGENCE(LLVM_ARGS_MAKE_ENTER_ARG, DIV_DERIVED,
    "", "",
    "LLVM attaches CallArguments to the record before them and marks that record Entry_Args "
    "(so a version 1-4 plain Entry with arguments is an Entry_Args to LLVM).")
XRAY_LLVM_DIVERGENCE(LLVM_PROCESS_ID, DIV_DERIVED,
    "", "",
    "LLVM's process id is the PIDEntry's from version 3, the thread id in version 2, and 0 "
    "in version 1.")
XRAY_LLVM_DIVERGENCE(LLVM_OLD_EVENT_CPU, DIV_DERIVED,
    "", "",
    "LLVM's record reader is built without the file's version and so assumes version 5's "
    "default (RecordInitializer::DefaultVersion): a version 1-3 custom event gets a CPU read "
    "from its reserved bytes 13-14, where version 4 has its CPU. tracecheck gives such events "
    "the buffer's CPU (canonical dump) and does not read reserved bytes.")
XRAY_LLVM_DIVERGENCE(LLVM_BLOCK_ORDER, DIV_DERIVED,
    "", "",
    "LLVM groups blocks by process and thread and sorts each group with a comparator that is "
    "not a strict weak order (seconds and microseconds both smaller), so records are "
    "compared as multisets, not sequences.")

/* ---- not compared ---- */
XRAY_LLVM_DIVERGENCE(LLVM_BASIC_PAYLOAD_FIRST, DIV_NOT_COMPARED,
    "", "",
    "A basic-mode log whose first record is an argument payload: LLVM 14's reader checks it "
    "against the last element of its empty vector of records and crashes (measured: a "
    "segmentation fault in llvm-xray convert). It is not run on such logs; tracecheck must "
    "reject them with XRAY-BASIC-ARG-PLACEMENT (ruling 14).")
XRAY_LLVM_DIVERGENCE(LLVM_YAML, DIV_NOT_COMPARED,
    "", "",
    "With a type field that is neither 0 nor 1 (in either byte order) LLVM parses the file "
    "as YAML. tracecheck reads only the binary format and must reject such inputs; LLVM's "
    "YAML reader is not exercised.")
#endif /* XRAY_LLVM_DIVERGENCE */
