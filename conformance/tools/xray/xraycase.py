"""Byte-level writer of XRay FDR traces for the hand-made conformance cases.

Written in Python with `struct`, on purpose apart from tracecheck's own C
writer (generators/xray/xray_writer.c): a case is a check of the parser, and
bytes produced by the code that shares the parser's reading of the format
would repeat its mistakes instead of catching them. Every field is spelled out
here from the record table of spec/xray/xray.md and the
FDR document, so a reviewer can check a case against them line by line.

A Trace holds the header's choices; record methods return the bytes of one
record; `buffer()` frames a list of records as the version does (BufferExtents
in front from version 2, EndOfBuffer and padding to buffer_size in version 1)
and returns the file offset of each record, so cases can state where the
first error is.
"""

import struct

# Metadata record kinds (first byte >> 1 in little-endian files).
NEW_BUFFER, END_OF_BUFFER, NEW_CPU, TSC_WRAP, WALL_TIME = 0, 1, 2, 3, 4
CUSTOM_EVENT, CALL_ARG, BUFFER_EXTENTS, TYPED_EVENT, PID = 5, 6, 7, 8, 9
# Function record actions.
ENTER, EXIT, TAIL_EXIT, ENTER_ARGS = 0, 1, 2, 3

HEADER_SIZE = 32
META_SIZE = 16
FUNCTION_SIZE = 8


class Trace:
    def __init__(self, version=5, big_endian=False, type_=1, constant_tsc=True,
                 nonstop_tsc=True, reserved_bits=0, cycle_frequency=2_400_000_000,
                 buffer_size=16384, header_reserved=bytes(8)):
        self.version = version
        self.be = big_endian
        self.o = '>' if big_endian else '<'
        self.type = type_
        # FDR doc: bit 0 constant TSC, bit 1 non-stop TSC, counted from the
        # least significant bit on little-endian and the most significant on
        # big-endian (MSB-first layout).
        bits = [constant_tsc, nonstop_tsc]
        if big_endian:
            self.bitfield = sum(1 << (31 - i) for i, b in enumerate(bits) if b) | reserved_bits
        else:
            self.bitfield = sum(1 << i for i, b in enumerate(bits) if b) | (reserved_bits << 2)
        self.cycle_frequency = cycle_frequency
        self.buffer_size = buffer_size
        self.header_reserved = header_reserved
        self.data = bytearray(self.header())

    def pack(self, fmt, *values):
        return struct.pack(self.o + fmt, *values)

    def header(self):
        return (self.pack('HHIQQ', self.version, self.type, self.bitfield,
                          self.cycle_frequency, self.buffer_size) + self.header_reserved)

    # ---- records ----

    def tag(self, kind):
        """First byte of a metadata record: discriminant bit and kind."""
        return bytes([0x80 | kind]) if self.be else bytes([kind << 1 | 1])

    def meta(self, kind, fields=b'', reserved=None):
        """A 16-byte metadata record: the tag, the fields, then reserved bytes
        (zero unless given, as garbage a runtime leaves there)."""
        rest = 15 - len(fields)
        fill = bytes(rest) if reserved is None else (reserved * rest)[:rest]
        return self.tag(kind) + fields + fill

    def new_buffer(self, tid, reserved=None):
        return self.meta(NEW_BUFFER, self.pack('i', tid), reserved)

    def end_of_buffer(self):
        return self.meta(END_OF_BUFFER)

    def new_cpu(self, cpu, tsc, reserved=None):
        return self.meta(NEW_CPU, self.pack('HQ', cpu, tsc), reserved)

    def tsc_wrap(self, tsc):
        return self.meta(TSC_WRAP, self.pack('Q', tsc))

    def wall_time(self, sec, usec, reserved=None):
        return self.meta(WALL_TIME, self.pack('qi', sec, usec), reserved)

    def pid(self, pid, reserved=None):
        return self.meta(PID, self.pack('i', pid), reserved)

    def call_arg(self, value, reserved=None):
        return self.meta(CALL_ARG, self.pack('Q', value), reserved)

    def extents(self, n):
        return self.meta(BUFFER_EXTENTS, self.pack('Q', n))

    def custom_event(self, payload, size=None, tsc=0, cpu=0, delta=0):
        """CustomEventMarker and payload: v1-3 size + absolute TSC, v4 adds the
        CPU, v5 size + a signed 32-bit TSC delta."""
        size = len(payload) if size is None else size
        if self.version >= 5:
            fields = self.pack('ii', size, delta)
        elif self.version == 4:
            fields = self.pack('iQH', size, tsc, cpu)
        else:
            fields = self.pack('iQ', size, tsc)
        return self.meta(CUSTOM_EVENT, fields) + payload

    def typed_event(self, payload, type_, size=None, delta=0):
        """TypedEventMarker (version 5): size, signed TSC delta, type; payload."""
        size = len(payload) if size is None else size
        return self.meta(TYPED_EVENT, self.pack('iiH', size, delta, type_)) + payload

    def function(self, action, func, delta):
        """An 8-byte function record: discriminant 0, 3-bit action, 28-bit id,
        then the 32-bit TSC delta."""
        if self.be:
            word = (action & 7) << 28 | (func & 0x0fffffff)
        else:
            word = (func & 0x0fffffff) << 4 | (action & 7) << 1
        return self.pack('II', word, delta & 0xffffffff)

    def preamble(self, tid=4242, pid=4200, sec=1700000000, usec=250000, cpu=3,
                 tsc=1_000_000):
        """NewBuffer, WallTimeMarker, PIDEntry (version 3+), NewCPUId."""
        recs = [self.new_buffer(tid), self.wall_time(sec, usec)]
        if self.version >= 3:
            recs.append(self.pid(pid))
        recs.append(self.new_cpu(cpu, tsc))
        return recs

    # ---- framing ----

    def here(self):
        return len(self.data)

    def raw(self, data):
        self.data += data

    def buffer(self, records, extents=None, end_of_buffer=True, padding=b'\0'):
        """Appends one thread buffer and returns the file offset of each record.

        Version 2+: BufferExtents(n) then the records; n is their size unless
        `extents` says otherwise. Version 1: the records, then (when
        end_of_buffer and there is room) EndOfBuffer, then `padding` repeated
        up to buffer_size."""
        body = b''.join(records)
        offsets = []
        if self.version >= 2:
            self.raw(self.extents(len(body) if extents is None else extents))
        pos = self.here()
        for r in records:
            offsets.append(pos)
            pos += len(r)
        self.raw(body)
        if self.version == 1:
            used = len(body)
            if end_of_buffer and used + META_SIZE <= self.buffer_size:
                self.raw(self.end_of_buffer())
                used += META_SIZE
            rest = self.buffer_size - used
            if rest > 0:
                self.raw((padding * rest)[:rest])
        return offsets

    def bytes(self):
        return bytes(self.data)
