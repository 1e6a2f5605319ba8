"""Writer of hand-made SiFive perf conformance cases.

Written from spec/perf/perf.md (the project's profile of the SiFive Trace
Performance Library's "Performance Data Format") alone, apart from
tracecheck's C code on purpose: a case made by the code it tests would share
its mistakes. Nothing here checks anything; a case is whatever messages the
caller asks for, broken ones included.

Two layers, as in spec/perf/perf.md:

- a Trace is a list of ITC messages (IDTAG, value, timestamp or None), built
  with the perf helpers (header, record) or message by message (w32, w16, w8,
  msg for any IDTAG);
- it is written as a text message list (.itc) by text(), or as Nexus Data
  Acquisition messages (.rtd) by nexus(); raw Nexus bytes (a broken message,
  another TCODE, idle bytes) go in with Trace.nexus_bytes().

    t = Trace()
    t.header(RAW, [Counter(0, code=2, width=64)])
    t.record(MANUAL, [0x80001000], [1234])
    data = t.nexus()            # or t.text()

Nexus (spec/perf/perf.md, "Nexus"): each byte holds 6 bits of data, MDO = byte >> 2,
least significant first across a message's bytes, and 2 bits of MSEO = byte &
3: 0 normal, 1 the byte ends a variable field, 3 it ends the message. A Data
Acquisition message: TCODE 7 (6 bits), SRC (srcbits, fixed), then the
variable fields IDTAG, DQDATA and, optionally, TIMESTAMP; a variable field
starts at the bit after the previous field and ends with its byte whose MSEO
is not 0.
"""

MARKER = 0x70657266  # 'perf'
CHANNEL = 6
RAW, DELTA, XOR = 0, 1, 2
ENTRY, EXIT, MANUAL, ISR = 0, 1, 2, 3
DA = 7  # the Data Acquisition TCODE


def tag(width, channel=CHANNEL):
    """The IDTAG of a write of 32, 16 or 8 bits to a stimulus register."""
    return channel * 4 + {32: 0, 16: 2, 8: 3}[width]


class Counter:
    """A counter definition: its mask bit, OpenSBI type, code (types 0 and 1)
    or event_data (type 2, two words), CSR and width (counter_info bits 0-11
    and 12-17, the latter the index of the most significant bit)."""

    def __init__(self, index, opensbi=0, code=0, event=0, csr=None, width=64, info=None):
        self.index, self.opensbi, self.code, self.event = index, opensbi, code, event
        self.csr = (0xc00 + index if index != 1 else 0) if csr is None else csr
        self.width = width
        self.info = (self.csr | (width - 1) << 12) if info is None else info

    def words(self):
        """The definition's 32-bit words, as perfTraceOn() writes them."""
        w = [self.opensbi]
        if self.opensbi == 2:
            w += [self.event & 0xffffffff, self.event >> 32]
        else:
            w += [self.code]
        return w + [self.info]


class Trace:
    def __init__(self, channel=CHANNEL):
        self.channel = channel
        # (idtag, value, timestamp) or ('nexus', bytes) for raw Nexus bytes
        self.items = []
        self.counters = []

    # -- messages
    def msg(self, idtag, value, ts=None):
        self.items.append((idtag, value, ts))
        return self

    def w32(self, v, ts=None):
        return self.msg(tag(32, self.channel), v, ts)

    def w16(self, v, ts=None):
        return self.msg(tag(16, self.channel), v, ts)

    def w8(self, v, ts=None):
        return self.msg(tag(8, self.channel), v, ts)

    def nexus_bytes(self, b):
        """Bytes put as they are into the Nexus file (nothing in a text list)."""
        self.items.append(('nexus', bytes(b)))
        return self

    def comment(self, text):
        """A comment line of a text list (nothing in a Nexus file)."""
        self.items.append(('comment', text))
        return self

    def messages(self):
        return [i for i in self.items if i[0] not in ('nexus', 'comment')]

    # -- perf data (spec/perf/perf.md, "Perf data")
    def header(self, count_type, counters, ts=None, marker=MARKER, mask=None):
        """marker:32 count_type:8 mask:32, then each counter's definition in
        mask order. The counters become the ones records are written for."""
        self.counters = sorted(counters, key=lambda c: c.index)
        if mask is None:
            mask = 0
            for c in self.counters:
                mask |= 1 << c.index
        self.w32(marker, ts)
        self.w8(count_type)
        self.w32(mask)
        for c in self.counters:
            for w in c.words():
                self.w32(w)
        return self

    def address(self, a):
        """lo:32 [hi:32 when lo & 1]: an address over 32 bits sets bit 0 of
        its low word and adds a high word."""
        if a >> 32:
            self.w32((a & 0xffffffff) | 1)
            self.w32(a >> 32)
        else:
            self.w32(a)
        return self

    def value(self, v):
        """lo:32 [hi:16 when the value does not fit in 32 bits]."""
        self.w32(v & 0xffffffff)
        if v >> 32:
            self.w16(v >> 32)
        return self

    def record(self, rtype, addresses, values, ts=None):
        self.w8(rtype, ts)
        for a in addresses:
            self.address(a)
        for v in values:
            self.value(v)
        return self

    # -- containers
    def text(self, comments=True):
        """The text message list: IDTAG VALUE [TIMESTAMP], in hexadecimal."""
        out = []
        for item in self.items:
            if item[0] == 'nexus':
                continue
            if item[0] == 'comment':
                if comments:
                    out.append('# %s' % item[1])
                continue
            idtag, value, ts = item
            line = '0x%x 0x%x' % (idtag, value)
            if ts is not None:
                line += ' 0x%x' % ts
            out.append(line)
        return ('\n'.join(out) + '\n').encode() if out else b''

    def nexus(self, srcbits=0, src=0):
        """The Nexus bytes: each message a Data Acquisition message."""
        out = bytearray()
        for item in self.items:
            if item[0] == 'nexus':
                out += item[1]
            elif item[0] != 'comment':
                idtag, value, ts = item
                out += da_message(idtag, value, ts, srcbits, src)
        return bytes(out)

    def offsets(self, srcbits=0):
        """The Nexus byte offset of each message (in messages() order)."""
        at, offs = 0, []
        for item in self.items:
            if item[0] == 'nexus':
                at += len(item[1])
            elif item[0] != 'comment':
                offs.append(at)
                at += len(da_message(item[0], item[1], item[2], srcbits))
        return offs

    def text_offsets(self, comments=True):
        """The text list's byte offset of each message's line."""
        at, offs = 0, []
        for item in self.items:
            if item[0] == 'nexus':
                continue
            if item[0] == 'comment':
                if comments:
                    at += len('# %s\n' % item[1])
                continue
            idtag, value, ts = item
            line = '0x%x 0x%x' % (idtag, value) + ('' if ts is None else ' 0x%x' % ts)
            offs.append(at)
            at += len(line) + 1
        return offs


class Bits:
    """A message being written: MDO bits least significant first, and the
    MSEO of each byte."""

    def __init__(self):
        self.mdo = []   # one 6-bit value per byte
        self.mseo = []
        self.pos = 0    # bits written

    def fixed(self, value, nbits):
        for i in range(nbits):
            self._bit((value >> i) & 1)

    def variable(self, value, mseo, min_bytes=1):
        """A variable field from the next bit to the end of a byte, as few
        bytes as the value needs (at least min_bytes, counting a byte the
        field shares with the fixed part); that byte's MSEO is mseo."""
        room = 6 - self.pos % 6  # a new byte (6) or the rest of the current one
        nbytes = 1
        while room < value.bit_length() or nbytes < min_bytes:
            room += 6
            nbytes += 1
        for i in range(room):
            self._bit((value >> i) & 1)
        self.mseo[-1] = mseo

    def _open(self):
        self.mdo.append(0)
        self.mseo.append(0)

    def _bit(self, b):
        if self.pos % 6 == 0:
            self._open()
        self.mdo[-1] |= b << (self.pos % 6)
        self.pos += 1

    def bytes(self):
        return bytes(m << 2 | s for m, s in zip(self.mdo, self.mseo))


def da_message(idtag, value, ts=None, srcbits=0, src=0, pad=(1, 1, 1)):
    """A Data Acquisition message: TCODE 7, SRC, IDTAG, DQDATA [TIMESTAMP].
    pad: the least bytes each variable field takes (an encoder may pad a
    field with zero bits)."""
    b = Bits()
    b.fixed(DA, 6)
    b.fixed(src, srcbits)
    b.variable(idtag, 1, pad[0])
    if ts is None:
        b.variable(value, 3, pad[1])
    else:
        b.variable(value, 1, pad[1])
        b.variable(ts, 3, pad[2])
    return b.bytes()


def message(tcode, fields):
    """Any message: the 6-bit TCODE, then variable fields (the last ends the
    message). Other TCODEs than 7 are skipped by a perf reader."""
    b = Bits()
    b.fixed(tcode, 6)
    for i, v in enumerate(fields):
        b.variable(v, 3 if i == len(fields) - 1 else 1)
    return b.bytes()


# A small configuration used by most hand-made cases: the cycle counter
# (mask bit 0, 64 bits) and the time (mask bit 1, not CSR-mapped, 64 bits).
def two_counters():
    return [Counter(0, opensbi=0, code=1, width=64), Counter(1, opensbi=0, code=0, csr=0,
                                                            width=64)]
