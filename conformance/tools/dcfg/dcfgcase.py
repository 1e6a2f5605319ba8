"""Writer of hand-made DCFG and DCFG-trace conformance cases.

Written from Intel's "Dynamic Control-Flow Graph (DCFG) and DCFG-Trace Format
Specifications" (format version 1.00, "Doc") and the rulings of spec/dcfg/dcfg.md
alone, apart from tracecheck's C code on purpose: a case made by the code it
tests would share its mistakes. Nothing here checks anything; a document is
whatever text the caller asks for, broken ones included.

Documents are built as Python values and written by `text()`:

- dict: a JSON object, keys in insertion order;
- Obj([(key, value), ...]): an object that may repeat a key (ruling 7);
- Raw('...'): JSON text written as it is (a number as 1.0, a bad token);
- list, str, int, bool, None as usual. Tables (Doc §1.2.2) are lists whose
  first element is the header; they are written one row a line.

`Program` is a small valid program (Doc §2.1's shape): one image with a
routine of four blocks and a loop, a second image without routines, the
ENTRY and EXIT edges, and the edge sequence one thread runs. It writes the
DCFG (`dcfg()`) and, with its transition table, the DCFG-trace (`trace()`)
as mutable values, so that a case breaks one thing and writes the text.

The edge-id sequence encoding (Doc §3.7.1) is done by `b64()` (6 bits a
character, most significant first, A-Z a-z 0-9 '+' '-' for 0..63, ruling 1)
and `encode()` (the bits of a path under a transition table, Doc §3.7.2).
"""

import json

B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-'


class Raw:
    def __init__(self, text):
        self.text = text


class Obj:
    def __init__(self, pairs):
        self.pairs = list(pairs)


def _is_table(v):
    return isinstance(v, list) and len(v) > 0 and all(isinstance(r, list) for r in v)


def text(v, indent=0):
    """JSON text of v: objects a key a line, tables a row a line, the rest
    on one line (what Intel's writer does, Doc §2.1)."""
    pad = ' ' * indent
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, (dict, Obj)):
        pairs = v.pairs if isinstance(v, Obj) else list(v.items())
        if not pairs:
            return '{}'
        inner = (',\n' + pad + ' ').join('%s: %s' % (json.dumps(k), text(x, indent + 1))
                                          for k, x in pairs)
        return '{' + inner + '}'
    if _is_table(v) and any(isinstance(x, (list, dict, Obj)) for r in v for x in r):
        return '[' + (',\n' + pad + ' ').join(text(r, indent + 1) for r in v) + ']'
    if _is_table(v):
        return '[' + (',\n' + pad + ' ').join(_flat(r) for r in v) + ']'
    if isinstance(v, list):
        return '[' + ', '.join(text(x, indent + 1) for x in v) + ']'
    return _flat(v)


def _flat(v):
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, list):
        return '[' + ', '.join(_flat(x) for x in v) + ']'
    if isinstance(v, (dict, Obj)):
        return text(v)
    return json.dumps(v)


def doc(v):
    return (text(v) + '\n').encode()


# ------------------------------------------------------------------ sequences


def b64(bits):
    """Characters of a bit string ('0'/'1'), zero-padded to 6 bits a character."""
    bits += '0' * (-len(bits) % 6)
    return ''.join(B64[int(bits[i:i + 6], 2)] for i in range(0, len(bits), 6))


def encode(table, path):
    """The bits that take path[0] through path[1:] under table, a dict
    {edge: [(code, [next edges...]), ...]} (Doc §3.5: a code selects the
    next edges after the current one)."""
    bits, i = '', 1
    while i < len(path):
        for code, nxt in table[path[i - 1]]:
            if path[i:i + len(nxt)] == nxt:
                bits += code
                i += len(nxt)
                break
        else:
            raise ValueError('no transition from %r to %r' % (path[i - 1], path[i]))
    return bits


def table_rows(table, form=int):
    rows = [['CURRENT_EDGE_ID', 'TRANSITION_CODE', 'NEXT_EDGE_IDS']]
    for edge in sorted(table):
        for code, nxt in table[edge]:
            rows.append([form(edge), code, [form(e) for e in nxt]])
    return rows


TRACE_HEADER = ['PRECEDING_INSTR_COUNT', 'INSTR_COUNT', 'EDGE_COUNT', 'FIRST_EDGE_ID',
                'EDGE_ID_SEQUENCE']


def trace_doc(processes, major=1, minor=0):
    """A DCFG-trace: processes is a list of (pid, dictionary, table rows,
    [(thread, [chunk rows])])."""
    rows = [['PROCESS_ID', 'STRING_DICTIONARY', 'TRANSITION_TABLE', 'THREAD_DATA']]
    for pid, dictionary, trows, threads in processes:
        tdata = [['THREAD_ID', 'TRACE_DATA']]
        for tid, chunks in threads:
            tdata.append([tid, [list(TRACE_HEADER)] + [list(c) for c in chunks]])
        rows.append([pid, dict(dictionary), trows, tdata])
    return {'MAJOR_VERSION': major, 'MINOR_VERSION': minor, 'PROCESSES': rows}


# ------------------------------------------------------------------ the program

# The union of the pre-defined edge types and the document's example (ruling 2).
EDGE_TYPES = ['ENTRY', 'EXIT', 'CALL', 'DIRECT_CALL', 'INDIRECT_CALL', 'RETURN', 'CALL_BYPASS',
              'BRANCH', 'CONDITIONAL_BRANCH', 'UNCONDITIONAL_BRANCH', 'DIRECT_BRANCH',
              'INDIRECT_BRANCH', 'DIRECT_CONDITIONAL_BRANCH', 'INDIRECT_CONDITIONAL_BRANCH',
              'DIRECT_UNCONDITIONAL_BRANCH', 'INDIRECT_UNCONDITIONAL_BRANCH', 'REP',
              'FALL_THROUGH', 'SYSTEM_CALL', 'SYSTEM_RETURN', 'SYSTEM_CALL_BYPASS', 'INTERRUPT',
              'INTERRUPT_RETURN', 'INTERRUPT_BYPASS', 'CONTEXT_CHANGE_BYPASS',
              'UNKNOWN_IMAGE_BYPASS', 'UNKNOWN', 'CONTEXT_CHANGE', 'CONTEXT_CHANGE_RETURN',
              'EXCLUDED_CODE_BYPASS']
ET = {name: i + 1 for i, name in enumerate(EDGE_TYPES)}   # EDGE_TYPE_ID of each type

START, END, UNKNOWN = 1, 2, 3
PID = 4242


class Program:
    """main() of image 1: block 10 (2 instructions) falls into the loop head
    11 (3), which branches to 12 (1); 12 goes back to 11 (the back edge) or
    on to 13 (4), which leaves. 12 also has a REP edge to itself, never
    taken (an inner loop of one block). Image 2 holds block 20, never run,
    and no routines. Each thread runs START 10 11 12 11 12 11 12 13 END."""

    # edge id: (source, target, type, executions per thread)
    EDGES = {1: (START, 10, 'ENTRY', 1), 2: (10, 11, 'FALL_THROUGH', 1),
             3: (11, 12, 'DIRECT_CONDITIONAL_BRANCH', 3), 4: (12, 11, 'DIRECT_BRANCH', 2),
             5: (12, 13, 'FALL_THROUGH', 1), 6: (13, END, 'EXIT', 1),
             7: (12, 12, 'REP', 0)}
    # node id: (image, ADDR_OFFSET, SIZE, NUM_INSTRS, LAST_INSTR_OFFSET)
    BLOCKS = {10: (1, 0x1000, 7, 2, 4), 11: (1, 0x1007, 11, 3, 8), 12: (1, 0x1012, 2, 1, 0),
              13: (1, 0x1014, 12, 4, 11), 20: (2, 0x400, 5, 1, 0)}
    PATH = [1, 2, 3, 4, 3, 4, 3, 5, 6]
    TABLE = {1: [('', [2])], 2: [('', [3])], 3: [('0', [4]), ('1', [5])], 4: [('', [3])],
             5: [('', [6])]}

    def __init__(self, threads=1, pid=PID):
        self.threads, self.pid = threads, pid

    def instrs(self, node):
        return self.BLOCKS[node][3] if node in self.BLOCKS else 0

    def chunk_instrs(self, edges):
        """Doc §3.7: the instructions of the source nodes of the edges."""
        return sum(self.instrs(self.EDGES[e][0]) for e in edges)

    def block_count(self, node):
        return sum(c for (s, t, _, c) in self.EDGES.values() if t == node) * self.threads

    def process_data(self):
        per_thread = self.chunk_instrs(self.PATH)
        img1 = {'FILE_NAME_ID': 1,
                'SYMBOLS': [['NAME', 'ADDR_OFFSET', 'SIZE'], ['main', '0x1000', 32]],
                'SOURCE_DATA': [['FILE_NAME_ID', 'LINE_NUM', 'ADDR_OFFSET', 'SIZE', 'NUM_INSTRS'],
                                [2, 5, '0x1000', 7, 2], [2, 6, '0x1007', 13, 4],
                                [2, 9, '0x1014', 12, 4]],
                'BASIC_BLOCKS': self.blocks(1),
                'ROUTINES': [['ENTRY_NODE_ID', 'EXIT_NODE_IDS', 'NODES', 'LOOPS'],
                             [10, [13],
                              [['NODE_ID', 'IDOM_NODE_ID'], [10, 10], [11, 10], [12, 11],
                               [13, 12]],
                              [['LOOP_HEAD_NODE_ID', 'LOOP_BACK_EDGE_SOURCE_NODE_IDS',
                                'LOOP_NODE_IDS', 'PARENT_LOOP_HEAD_NODE_ID'],
                               [11, [12], [11, 12], 0], [12, [12], [12], 11]]]]}
        img2 = {'FILE_NAME_ID': 3, 'BASIC_BLOCKS': self.blocks(2)}
        edges = [['EDGE_ID', 'SOURCE_NODE_ID', 'TARGET_NODE_ID', 'EDGE_TYPE_ID',
                  'COUNT_PER_THREAD']]
        for eid, (s, t, ty, c) in sorted(self.EDGES.items()):
            edges.append([eid, s, t, ET[ty], [c] * self.threads])
        return {'INSTR_COUNT': per_thread * self.threads,
                'INSTR_COUNT_PER_THREAD': [per_thread] * self.threads,
                'IMAGES': [['IMAGE_ID', 'LOAD_ADDR', 'SIZE', 'IMAGE_DATA'],
                           [1, '0x400000', 0x2000, img1],
                           [2, '0x7f0000000000', 0x1000, img2]],
                'EDGES': edges}

    def blocks(self, image):
        rows = [['NODE_ID', 'ADDR_OFFSET', 'SIZE', 'NUM_INSTRS', 'LAST_INSTR_OFFSET', 'COUNT']]
        for nid, (img, off, size, n, last) in sorted(self.BLOCKS.items()):
            if img == image:
                rows.append([nid, hex(off), size, n, last, self.block_count(nid)])
        return rows

    def dcfg(self):
        return {'MAJOR_VERSION': 1, 'MINOR_VERSION': 0,
                'FILE_NAMES': [['FILE_NAME_ID', 'FILE_NAME'], [1, '/home/user/loop'],
                               [2, '/home/user/loop.c'], [3, '/lib64/libc.so.6']],
                'EDGE_TYPES': [['EDGE_TYPE_ID', 'EDGE_TYPE']] +
                              [[ET[n], n] for n in EDGE_TYPES],
                'SPECIAL_NODES': [['NODE_ID', 'NODE_NAME'], [START, 'START'], [END, 'END'],
                                  [UNKNOWN, 'UNKNOWN']],
                'PROCESSES': [['PROCESS_ID', 'PROCESS_DATA'], [self.pid, self.process_data()]]}

    def chunks(self, split=4):
        """The thread's path as chunk rows: the first `split` edges, then the
        rest (split None: one chunk)."""
        parts = [self.PATH] if split is None else [self.PATH[:split], self.PATH[split:]]
        rows, before = [], 0
        for p in parts:
            n = self.chunk_instrs(p)
            rows.append([before, n, len(p), p[0], b64(encode(self.TABLE, p))])
            before += n
        return rows

    def trace(self, threads=None, split=4):
        tids = range(self.threads) if threads is None else threads
        return trace_doc([(self.pid, {}, table_rows(self.TABLE),
                           [(t, self.chunks(split)) for t in tids])])
