#!/usr/bin/env python3
"""What a trace written by compiler-rt's XRay runtime holds, read here
independently of tracecheck (little-endian only, as the runtime writes it).

    tests/xray/producers/xray_log_facts.py [--json OUT] [--functions OUT] FILE

FDR mode (header type 1, version 2 to 5, the BufferExtents framing) and basic
mode (header type 0, 32-byte records) are walked as spec/xray/xray.md describes
them; the facts are the header's fields, how many records of each kind,
function records per function id and action, thread ids, and what the
runtime left in the bytes no field uses (reserved bytes, padding). Used by
tests/xray/producers/xray_clang.sh (the calls the program made must all be in the
log, whatever tracecheck makes of it) and conformance/make-clang-cases (what
a run shows). Prints one JSON object with --json, else a summary line.

This is a measuring tool, not a validator: it stops at the first thing it
cannot frame and says where (the facts then hold what came before).
"""

import argparse
import json
import struct
import sys

# Data bytes each FDR metadata kind uses in version 5 (the rest of its 15 data
# bytes are reserved).
FDR_USED = {0: 4, 1: 0, 2: 10, 3: 8, 4: 12, 5: 8, 6: 8, 7: 8, 8: 10, 9: 4}
FDR_KIND = {0: 'new_buffer', 1: 'end_of_buffer', 2: 'new_cpu', 3: 'tsc_wrap', 4: 'wall_time',
            5: 'custom_event', 6: 'call_arg', 7: 'buffer_extents', 8: 'typed_event', 9: 'pid'}
# Function record actions: FDR (3 bits) and basic mode (the record's type byte).
ACTION = {0: 'enter', 1: 'exit', 2: 'tail_exit', 3: 'enter_args'}


def classify(chunk):
    """How one record's unused bytes read."""
    if not any(chunk):
        return 'zero'
    return 'all 0xaa' if chunk == b'\xaa' * len(chunk) else 'other'


def by_kind(pairs):
    """{kind: {'zero': n, 'all 0xaa': n, 'other': n}} of (kind, unused bytes)."""
    table = {}
    for kind, chunk in pairs:
        row = table.setdefault(kind, {})
        count(row, classify(chunk))
    return table


def describe_bytes(chunks):
    """How the unused bytes read: 'zero', 'all 0xaa', or 'other' (stale data)."""
    data = b''.join(chunks)
    if not any(data):
        return 'zero'
    if data == b'\xaa' * len(data):
        return 'all 0xaa'
    return 'other'


def header(data, facts):
    version, kind, bits, freq = struct.unpack_from('<HHIQ', data, 0)
    facts['header'] = {
        'version': version, 'type': kind, 'bitfield': '0x%08x' % bits,
        'constant_tsc': bool(bits & 1), 'nonstop_tsc': bool(bits & 2),
        'cycle_frequency': freq, 'bytes_16_31': data[16:32].hex(),
    }
    if kind == 1:
        facts['header']['buffer_size'] = struct.unpack_from('<Q', data, 16)[0]


def count(table, key, n=1):
    table[key] = table.get(key, 0) + n


def fdr(data, facts):
    """Versions 2 to 5: BufferExtents(n), then n bytes of records."""
    kinds, functions, tids, cpus = {}, {}, set(), set()
    reserved = []
    crossing = []  # (offset, is_event) of records that cross their buffer's end
    pos = 32
    while pos < len(data):
        if data[pos] != 0x0f or pos + 16 > len(data):
            facts['stopped'] = 'no BufferExtents at offset %d' % pos
            break
        count(kinds, 'buffer_extents')
        reserved.append(('buffer_extents', data[pos + 9:pos + 16]))
        end = pos + 16 + struct.unpack_from('<Q', data, pos + 1)[0]
        pos += 16
        while pos < end:
            b = data[pos]
            size, event = 8, False
            if b & 1:
                kind = b >> 1
                size = 16
                if kind in (5, 8):
                    size += struct.unpack_from('<i', data, pos + 1)[0]
                    event = True
                if pos + 16 <= min(end, len(data)):
                    reserved.append((FDR_KIND.get(kind, 'kind_%d' % kind),
                                     data[pos + 1 + FDR_USED.get(kind, 15):pos + 16]))
                count(kinds, FDR_KIND.get(kind, 'kind_%d' % kind))
                if kind == 0 and pos + 5 <= len(data):
                    tids.add(struct.unpack_from('<i', data, pos + 1)[0])
                if kind == 2 and pos + 3 <= len(data):
                    cpus.add(struct.unpack_from('<H', data, pos + 1)[0])
            elif pos + 4 <= len(data):
                word = struct.unpack_from('<I', data, pos)[0]
                count(kinds, 'function')
                count(functions, '%d %s' % (word >> 4, ACTION.get((word >> 1) & 7, 'action_%d' %
                                                                  ((word >> 1) & 7))))
            if pos + size > end:
                crossing.append((pos, event))
                break
            pos += size
        pos = end
    facts.update(kinds=kinds, functions=functions, tids=sorted(tids), cpus=sorted(cpus),
                 reserved=describe_bytes([r for _, r in reserved]),
                 reserved_nonzero=sum(1 for _, r in reserved if any(r)),
                 reserved_by_kind=by_kind(reserved), crossing=crossing)


def basic(data, facts):
    """32-byte records: u16 record type (0 normal, 1 argument payload), then
    normal: u8 cpu, u8 type, i32 function, u64 tsc, u32 tid, u32 pid, 8 bytes
    padding; argument: 2 bytes padding, i32 function, u32 tid, u32 pid,
    u64 argument, 8 bytes padding."""
    kinds, functions, tids, pids, cpus = {}, {}, set(), set(), set()
    padding = []
    if (len(data) - 32) % 32:
        facts['stopped'] = '%d bytes after the header, not a multiple of 32' % (len(data) - 32)
    for pos in range(32, len(data) - 31, 32):
        rtype = struct.unpack_from('<H', data, pos)[0]
        if rtype == 0:
            cpu, action, fid, _tsc, tid, pid = struct.unpack_from('<BBiQII', data, pos + 2)
            count(kinds, 'function')
            count(functions, '%d %s' % (fid, ACTION.get(action, 'action_%d' % action)))
            cpus.add(cpu)
            padding.append(('function', data[pos + 24:pos + 32]))
        elif rtype == 1:
            _fid, tid, pid = struct.unpack_from('<iII', data, pos + 4)
            count(kinds, 'call_arg')
            padding.append(('call_arg', data[pos + 2:pos + 4] + data[pos + 24:pos + 32]))
        else:
            facts['stopped'] = 'record type %d at offset %d' % (rtype, pos)
            break
        tids.add(tid)
        pids.add(pid)
    facts.update(kinds=kinds, functions=functions, tids=sorted(tids), pids=sorted(pids),
                 cpus=sorted(cpus), reserved=describe_bytes([p for _, p in padding]),
                 reserved_nonzero=sum(1 for _, p in padding if any(p)),
                 reserved_by_kind=by_kind(padding), crossing=[])


def facts_of(data):
    facts = {'size': len(data)}
    if len(data) < 32:
        facts['stopped'] = 'a %d-byte file has no header' % len(data)
        return facts
    header(data, facts)
    facts['mode'] = {0: 'basic', 1: 'fdr'}.get(facts['header']['type'], 'unknown')
    if facts['mode'] == 'fdr' and 2 <= facts['header']['version'] <= 5:
        fdr(data, facts)
    elif facts['mode'] == 'basic':
        basic(data, facts)
    else:
        facts['stopped'] = 'header type %d version %d is not walked here' % (
            facts['header']['type'], facts['header']['version'])
    facts['records'] = sum(facts.get('kinds', {}).values())
    return facts


def summary(f):
    h = f.get('header', {})
    kinds = f.get('kinds', {})
    parts = ['%d bytes' % f['size']]
    if h:
        parts.append('header version %d type %d bitfield %s cycle_frequency %d%s' % (
            h['version'], h['type'], h['bitfield'], h['cycle_frequency'],
            ' buffer_size %d' % h['buffer_size'] if 'buffer_size' in h else ''))
        tail = bytes.fromhex(h['bytes_16_31'])
        parts.append('header bytes 16-31 %s' % describe_bytes([tail[8:] if 'buffer_size' in h
                                                                else tail]))
    parts.append('%d records (%s)' % (f.get('records', 0), ', '.join(
        '%s %d' % kv for kv in sorted(kinds.items()))))
    parts.append('%d threads' % len(f.get('tids', [])))
    if 'reserved' in f:
        parts.append('unused bytes %s (%d records with nonzero ones%s)' % (
            f['reserved'], f['reserved_nonzero'], ''.join(
                ', %s: %s' % (kind, ' '.join('%d %s' % (n, c) for c, n in sorted(row.items())))
                for kind, row in sorted(f['reserved_by_kind'].items()) if set(row) != {'zero'})))
    if f.get('stopped'):
        parts.append('STOPPED: ' + f['stopped'])
    return '; '.join(parts)


def function_lines(f):
    rows = []
    for key, n in f.get('functions', {}).items():
        fid, action = key.split()
        rows.append((fid, action, n))
    return ''.join('%7d %s %s\n' % (n, fid, action) for fid, action, n in sorted(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--json', metavar='OUT')
    ap.add_argument('--functions', metavar='OUT')
    ap.add_argument('file')
    a = ap.parse_args()
    with open(a.file, 'rb') as fh:
        f = facts_of(fh.read())
    if a.json:
        with open(a.json, 'w') as out:
            out.write(json.dumps(f, sort_keys=True) + '\n')
    if a.functions:
        with open(a.functions, 'w') as out:
            out.write(function_lines(f))
    print(summary(f))
    return 1 if f.get('stopped') else 0


if __name__ == '__main__':
    sys.exit(main())
