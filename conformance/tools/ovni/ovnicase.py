"""Byte-level writer of hand-made ovni conformance cases.

Written from spec/ovni/ovni.md and ovni's trace specification v3 alone, apart from
tracecheck's C code on purpose: a case made by the code it tests would share
its mistakes. Nothing here checks anything; a case is whatever bytes the
caller asks for, broken ones included.

A trace is a dict {relative path: bytes}; a case that is a trace is written as
a directory holding exactly those files. A stream is a directory with
stream.json (metadata) and stream.obs (events):

    t = {}
    s = Stream()                       # little-endian, header "ovni" + u32 1
    s.ohx(CLOCK, cpu=0, tid=0)         # ovni-model helpers; s.event() for any
    s.ohe(CLOCK + 10)
    put(t, 'loom.node1/proc.100/thread.100', s, meta(tid=100, pid=100, loom='node1'))

Binary stream (spec/ovni/ovni.md, "Binary stream"): an 8-byte header, the magic
"ovni" and a u32 version in the writer's byte order; then events of a 12-byte
header (byte 0: flags in the high nibble, payload-size code in the low one;
bytes 1-3 model, category, value; bytes 4-11 the u64 clock) and a payload of
0 bytes (code 0) or code + 1 bytes. Jumbo events have flag 0x10 and code 3:
their 4-byte payload is a u32 size, and that many bytes of data follow.
"""

import json
import struct

JUMBO = 0x10
BASE_CLOCK = 5_000_000_000_000  # nanoseconds of CLOCK_MONOTONIC, as a node up for ~1.4 h


class Stream:
    """A stream.obs being built. Every event's offset is kept in `offsets`
    (in write order) so that a case can say where its first error is."""

    def __init__(self, big_endian=False, magic=b'ovni', version=1, header=None):
        self.be = big_endian
        self.order = '>' if big_endian else '<'
        self.data = bytearray(header if header is not None else
                              magic + struct.pack(self.order + 'I', version))
        self.offsets = []

    # -- payload fields in the stream's byte order
    def i32(self, v):
        return struct.pack(self.order + 'i', v)

    def u32(self, v):
        return struct.pack(self.order + 'I', v)

    def i64(self, v):
        return struct.pack(self.order + 'q', v)

    def u64(self, v):
        return struct.pack(self.order + 'Q', v)

    # -- events
    def here(self):
        return len(self.data)

    def raw(self, b):
        self.data += b
        return self

    def event(self, mcv, clock, payload=b'', flags=0, size_code=None):
        """A normal event. The size code follows the payload (0 for none, n - 1
        for n bytes) unless given; a 1-byte payload cannot be written."""
        if size_code is None:
            if len(payload) == 1 or len(payload) > 16:
                raise ValueError('a normal payload has 0 or 2 to 16 bytes')
            size_code = len(payload) - 1 if payload else 0
        m = mcv.encode('latin-1') if isinstance(mcv, str) else mcv
        assert len(m) == 3
        self.offsets.append(self.here())
        self.data += bytes([(flags & 0xf0) | (size_code & 0x0f)]) + m
        self.data += self.u64(clock) + payload
        return self

    def jumbo(self, mcv, clock, data, size=None, size_code=3, flags=JUMBO):
        """A jumbo event: header, u32 size (len(data) unless given), data."""
        m = mcv.encode('latin-1') if isinstance(mcv, str) else mcv
        self.offsets.append(self.here())
        self.data += bytes([(flags & 0xf0) | (size_code & 0x0f)]) + m + self.u64(clock)
        self.data += self.u32(len(data) if size is None else size) + data
        return self

    # -- ovni's own model (spec/ovni/ovni.md, "The ovni model's events")
    def ohx(self, clock, cpu=0, tid=0, tag=0):
        return self.event('OHx', clock, self.i32(cpu) + self.i32(tid) + self.u64(tag))

    def ohc(self, clock, cpu=0, tag=0):
        return self.event('OHC', clock, self.i32(cpu) + self.u64(tag))

    def ohe(self, clock):
        return self.event('OHe', clock)

    def oas(self, clock, cpu=0):
        return self.event('OAs', clock, self.i32(cpu))

    def oar(self, clock, cpu=0, tid=0):
        return self.event('OAr', clock, self.i32(cpu) + self.i32(tid))

    def mark(self, which, clock, value, type_):
        """OM[, OM] or OM=: i64 value, i32 type."""
        return self.event('OM' + which, clock, self.i64(value) + self.i32(type_))

    def bytes(self):
        return bytes(self.data)


def life(s, clock, cpu=0, end=True):
    """A short, valid thread life on s from clock: runs, pauses, warms, resumes,
    cools and (with end) ends. Returns the clock after the last event."""
    s.ohx(clock, cpu=cpu)
    s.oas(clock + 100, cpu=cpu)
    s.event('OHp', clock + 200)
    s.event('OHw', clock + 300)
    s.event('OHr', clock + 400)
    s.event('OB.', clock + 500)
    s.event('OHc', clock + 600)
    if end:
        s.ohe(clock + 700)
    return clock + 800


def meta(tid=None, pid=None, loom=None, cpus=None, require=None, part='thread', finished=1,
         version=3, app_id=1, rank=None, nranks=None, lib=True, ovni_extra=None,
         extra=None, order=None):
    """stream.json text as libovni writes it (4-space indentation, "version"
    first): ovni.lib and ovni.app_id included, as libovni writes them into
    every thread's metadata (its emulator refuses a process without app_id
    and a thread without lib). None leaves a key out; cpus is a number of
    CPUs (index = phyid) or a list of (index, phyid)."""
    ovni = {}
    if lib:
        ovni['lib'] = {'version': '1.14.0', 'commit': 'unknown'}
    ovni['part'] = part
    for key, value in (('tid', tid), ('pid', pid), ('loom', loom), ('app_id', app_id),
                       ('rank', rank), ('nranks', nranks)):
        if value is not None:
            ovni[key] = value
    ovni['require'] = {'ovni': '1.1.0'} if require is None else require
    if cpus is not None:
        pairs = [(i, i) for i in range(cpus)] if isinstance(cpus, int) else cpus
        ovni['loom_cpus'] = [{'index': i, 'phyid': p} for i, p in pairs]
    if finished is not None:
        ovni['finished'] = finished
    for k, v in (ovni_extra or {}).items():
        ovni[k] = v
    if order:
        ovni = {k: ovni[k] for k in order if k in ovni} | {k: v for k, v in ovni.items()
                                                         if k not in order}
    doc = {}
    if version is not None:
        doc['version'] = version
    doc['ovni'] = ovni
    for k, v in (extra or {}).items():
        doc[k] = v
    return json.dumps(doc, indent=4) + '\n'


def stream_dir(loom, pid, tid):
    """libovni's layout of a thread's stream."""
    return 'loom.%s/proc.%d/thread.%d' % (loom, pid, tid)


def put(trace, rel, stream=None, metadata=None):
    """Adds a stream's files under rel ('' for the trace directory itself);
    either may be left out (a broken stream)."""
    prefix = rel + '/' if rel else ''
    if metadata is not None:
        trace[prefix + 'stream.json'] = metadata.encode() if isinstance(metadata, str) else metadata
    if stream is not None:
        trace[prefix + 'stream.obs'] = stream.bytes() if isinstance(stream, Stream) else stream
    return trace


def thread(trace, loom, pid, tid, stream, cpus=None, **kw):
    """A thread stream in libovni's layout, with matching metadata."""
    return put(trace, stream_dir(loom, pid, tid), stream,
               meta(tid=tid, pid=pid, loom=loom, cpus=cpus, **kw))
