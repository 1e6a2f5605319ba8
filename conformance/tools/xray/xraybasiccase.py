"""Byte-level writer of XRay basic-mode logs for the hand-made conformance cases.

Written in Python with `struct`, on purpose apart from tracecheck's own C
writer (generators/xray/xray_basic_writer.c), for the reason xraycase.py gives:
a case checks the parser, so its bytes must not come from code that shares the
parser's reading of the format. Every field is spelled out here from the
record table of spec/xray/xray.md ("Basic mode"), itself from compiler-rt's
xray_records.h and LLVM's Trace.cpp.

A Log holds the header's choices; `function()` and `payload()` return the 32
bytes of one record; `add()` appends records and returns the file offset of
each, so that cases can state where the first error is.
"""

import struct

# Record types (the u16 that starts every record).
FUNCTION, ARG_PAYLOAD = 0, 1
# Function record types.
ENTER, EXIT, TAIL_EXIT, ENTER_ARG = 0, 1, 2, 3

HEADER_SIZE = 32
RECORD_SIZE = 32


class Log:
    def __init__(self, version=3, big_endian=False, type_=0, constant_tsc=True,
                 nonstop_tsc=True, reserved_bits=0, cycle_frequency=2_400_000_000,
                 union=bytes(16), pid=4200):
        self.version = version
        self.be = big_endian
        self.o = '>' if big_endian else '<'
        self.type = type_
        # As for FDR: constant TSC and non-stop TSC are bits 0 and 1, counted
        # from the least significant bit in little-endian logs and from the
        # most significant one in big-endian logs.
        bits = [constant_tsc, nonstop_tsc]
        if big_endian:
            self.bitfield = sum(1 << (31 - i) for i, b in enumerate(bits) if b) | reserved_bits
        else:
            self.bitfield = sum(1 << i for i, b in enumerate(bits) if b) | (reserved_bits << 2)
        self.cycle_frequency = cycle_frequency
        self.union = union  # 16 bytes after the frequency: a timespec in basic mode
        self.pid = pid if version >= 3 else 0
        self.data = bytearray(self.header())

    def pack(self, fmt, *values):
        return struct.pack(self.o + fmt, *values)

    def header(self):
        return (self.pack('HHIQ', self.version, self.type, self.bitfield, self.cycle_frequency)
                + self.union)

    # ---- records ----

    def function(self, type_, func, tsc, tid=7, cpu=3, pid=None, padding=bytes(8),
                 record_type=FUNCTION):
        """u16 record type, u8 cpu, u8 type, i32 function id, u64 TSC, u32 thread
        id, u32 process id (version 3; zero before), 8 bytes of padding."""
        pid = self.pid if pid is None else pid
        return (self.pack('HBBiQII', record_type, cpu, type_, func, tsc, tid, pid)
                + padding)

    def payload(self, func, arg, tid=7, pid=None, padding=bytes(8), padding2=bytes(2)):
        """u16 record type 1, 2 bytes of padding, i32 function id, u32 thread id,
        u32 process id, u64 argument, 8 bytes of padding."""
        pid = self.pid if pid is None else pid
        return (self.pack('H', ARG_PAYLOAD) + padding2 + self.pack('iIIQ', func, tid, pid, arg)
                + padding)

    # ---- the log ----

    def here(self):
        return len(self.data)

    def raw(self, data):
        self.data += data

    def add(self, *records):
        """Appends records; returns the file offset of each."""
        offsets = []
        for r in records:
            offsets.append(self.here())
            self.raw(r)
        return offsets

    def bytes(self):
        return bytes(self.data)
