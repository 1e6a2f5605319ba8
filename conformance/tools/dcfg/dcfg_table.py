"""The DCFG and DCFG-trace conformance cases:

    conformance/cases/dcfg/{y,n,i}_dcfg_*.dcfg.json[.bz2]       a DCFG
    conformance/cases/dcfg-trace/{y,n,i}_dtrc_*.trace.json[.bz2] a DCFG-trace alone
    conformance/cases/dcfg-pair/{y,n,i}_*/prog.{dcfg,trace}.json a DCFG-trace with its DCFG

Expectations come from the rulings of spec/dcfg/dcfg.md (rulings 1-13 are the
project's notes; cited as "ruling N") and the rule catalogue, decided before
running anything. Hand-made documents are built with tools/dcfg/dcfgcase.py from
its small valid Program, one thing broken per n_ case; generated ones come
from `tracecheck gen dcfg`.

make-cases calls register(add) with its own add().
"""

import bz2

import dcfgcase as D
from dcfgcase import END, ET, PID, START, UNKNOWN, Obj, Program, Raw

CASES = []   # (name, group, fmt, ext, make, how, kind, expect)
PAIR = 'prog'  # a pair case's files: prog.dcfg.json and prog.trace.json


def _add(name, group, fmt, ext, make, call, expect, kind='hand-made', how=None):
    if how is None:
        how = 'conformance/tools/dcfg/dcfg_table.py: %s with conformance/tools/dcfg/dcfgcase.py' % call
    CASES.append((name, group, fmt, ext, make, how, kind,
                  {k: v for k, v in expect.items() if v is not None}))


def _made(v, compress):
    """(bytes, offset of the first error) of what a case function returned:
    a document (a value for dcfgcase.doc(), or bytes), or the document and
    where the first error is: a text whose first occurrence starts there, or
    (before, text) for the text that follows `before`."""
    v, needle = v if isinstance(v, tuple) else (v, None)
    data = v if isinstance(v, bytes) else D.doc(v)
    if compress:
        return bz2.compress(data, 9)
    if needle is None:
        return data
    before, at = needle if isinstance(needle, tuple) else ('', needle)
    return data, data.index((before + at).encode()) + len(before.encode())


def dcfg(name, desc, compress=False, fmt='dcfg', **expect):
    """Decorator: a DCFG case; the function returns the document, or the
    document and where its first error is (_made)."""
    def register(fn):
        def make():
            return _made(fn(), compress)
        _add(name, 'dcfg', fmt, 'dcfg.json.bz2' if compress else 'dcfg.json', make,
             fn.__name__ + '()' + (', bzip2 (Python bz2, level 9)' if compress else ''),
             dict(expect, desc=desc))
        return fn
    return register


def trace(name, desc, compress=False, fmt='dcfg-trace', **expect):
    """Decorator: a DCFG-trace case, alone (no pairing checks)."""
    def register(fn):
        def make():
            return _made(fn(), compress)
        _add(name, 'dcfg-trace', fmt, 'trace.json.bz2' if compress else 'trace.json',
             make, fn.__name__ + '()' + (', bzip2 (Python bz2, level 9)' if compress else ''),
             dict(expect, desc=desc))
        return fn
    return register


def pair(name, desc, compress=False, **expect):
    """Decorator: a pair case, a directory of prog.dcfg.json and
    prog.trace.json; the function returns (dcfg, trace) values."""
    def register(fn):
        def make():
            a, b = fn()
            a, b = D.doc(a), D.doc(b)
            if compress:
                return {PAIR + '.dcfg.json.bz2': bz2.compress(a, 9),
                        PAIR + '.trace.json.bz2': bz2.compress(b, 9)}
            return {PAIR + '.dcfg.json': a, PAIR + '.trace.json': b}
        _add(name, 'dcfg-pair', 'dcfg-trace', None, make,
             fn.__name__ + '()' + (', bzip2 (Python bz2, level 9)' if compress else ''),
             dict(expect, desc=desc))
        return fn
    return register


def gen_pair(name, args, desc, **expect):
    """A pair from `tracecheck gen dcfg ARGS -o prog`."""
    def make(ctx):
        files = ctx.gen(args, 'dcfg')
        return {PAIR + '.dcfg.json': files['dcfg'], PAIR + '.trace.json': files['trace']}
    _add(name, 'dcfg-pair', 'dcfg-trace', None, make, None, dict(expect, desc=desc),
         kind='generated', how='tracecheck gen dcfg %s -o %s/%s' % (args, name, PAIR))


def gen_one(name, args, which, desc, **expect):
    """One file of `tracecheck gen dcfg ARGS` (which: 'dcfg' or 'trace')."""
    def make(ctx):
        return ctx.gen(args, 'dcfg')[which]
    group, fmt = ('dcfg', 'dcfg') if which == 'dcfg' else ('dcfg-trace', 'dcfg-trace')
    _add(name, group, fmt, which + '.json', make, None, dict(expect, desc=desc),
         kind='generated',
         how='tracecheck gen dcfg %s -o OUT; OUT.%s.json' % (args, which))


# The rules `tracecheck gen dcfg --violate` breaks, and the file it breaks
# (`tracecheck gen dcfg --list-mutators`): a broken DCFG is a case of dcfg/, a
# broken DCFG-trace one of dcfg-trace/ (read alone), a broken pairing one of
# dcfg-pair/. The hand-made cases below cover every rule whether or not it has
# a mutator.
MUTATED = [
    ('DCFG-INTEGER', 'dcfg'), ('DCFG-ID-RANGE', 'dcfg'), ('DCFG-TABLE-TAG', 'dcfg'),
    ('DCFG-VERSION-MAJOR', 'dcfg'), ('DCFG-VERSION-ZERO', 'dcfg'), ('DCFG-TOP-OBJECT', 'dcfg'),
    ('DCFG-VERSION-MISSING', 'dcfg'), ('DCFG-TYPE', 'dcfg'), ('DCFG-TABLE-SHAPE', 'dcfg'),
    ('DCFG-TABLE-HEADER', 'dcfg'), ('DCFG-COLUMN-MISSING', 'dcfg'),
    ('DCFG-COLUMN-DUPLICATE', 'dcfg'), ('DCFG-ROW-LONG', 'dcfg'), ('DCFG-ROW-SHORT', 'dcfg'),
    ('DCFG-ID-DUPLICATE', 'dcfg'), ('DCFG-EDGE-TYPE-NAME', 'dcfg'),
    ('DCFG-SPECIAL-NODE-NAME', 'dcfg'), ('DCFG-FILE-NAME-REF', 'dcfg'),
    ('DCFG-EDGE-TYPE-REF', 'dcfg'), ('DCFG-NODE-ID-SPECIAL', 'dcfg'),
    ('DCFG-INSTR-COUNT-SUM', 'dcfg'), ('DCFG-RANGE-IMAGE', 'dcfg'), ('DCFG-NODE-REF', 'dcfg'),
    ('DCFG-ENTRY-EDGE', 'dcfg'), ('DCFG-EXIT-EDGE', 'dcfg'), ('DCFG-EDGE-THREADS', 'dcfg'),
    ('DCFG-LAST-INSTR-OFFSET', 'dcfg'), ('DCFG-BLOCK-COUNT', 'dcfg'),
    ('DCFG-ROUTINE-IMAGE', 'dcfg'), ('DCFG-ROUTINE-COVER', 'dcfg'),
    ('DCFG-ROUTINE-OVERLAP', 'dcfg'), ('DCFG-ROUTINE-ENTRY', 'dcfg'),
    ('DCFG-ROUTINE-EXIT', 'dcfg'), ('DCFG-ROUTINE-UNREACHABLE', 'dcfg'),
    ('DCFG-ROUTINE-IDOM', 'dcfg'), ('DCFG-LOOP-ROUTINE', 'dcfg'), ('DCFG-LOOP-MEMBERS', 'dcfg'),
    ('DCFG-LOOP-BACK-EDGE', 'dcfg'), ('DCFG-LOOP-PARENT', 'dcfg'), ('DCFG-LOOP-NESTING', 'dcfg'),
    ('DTRC-TOP-OBJECT', 'trace'), ('DTRC-TOP-ORDER', 'trace'), ('DTRC-TOP-MISSING', 'trace'),
    ('DTRC-TYPE', 'trace'), ('DTRC-COLUMNS', 'trace'), ('DTRC-ROW-SHORT', 'trace'),
    ('DTRC-ROW-LONG', 'trace'), ('DTRC-PROCESS-DUPLICATE', 'trace'),
    ('DTRC-THREAD-DUPLICATE', 'trace'), ('DTRC-CHUNK-ORDER', 'trace'),
    ('DTRC-DICT-KEY', 'trace'), ('DTRC-CODE-SYNTAX', 'trace'), ('DTRC-CODE-DUPLICATE', 'trace'),
    ('DTRC-CODE-PREFIX', 'trace'), ('DTRC-CODE-EMPTY', 'trace'), ('DTRC-NEXT-EMPTY', 'trace'),
    ('DTRC-SEQ-CHAR', 'trace'), ('DTRC-SEQ-DOT', 'trace'), ('DTRC-SEQ-REPEAT', 'trace'),
    ('DTRC-SEQ-PAREN', 'trace'), ('DTRC-SEQ-COUNT', 'trace'), ('DTRC-SEQ-KEY', 'trace'),
    ('DTRC-SEQ-MISSING', 'trace'), ('DTRC-SEQ-CYCLE', 'trace'), ('DTRC-SEQ-NESTING', 'trace'),
    ('DTRC-SEQ-SHORT', 'trace'), ('DTRC-SEQ-LEFTOVER', 'trace'), ('DTRC-SEQ-NO-CODE', 'trace'),
    ('DTRC-SEQ-NO-ENTRY', 'trace'), ('DTRC-PAIR-PROCESS', 'trace'),
    ('DTRC-PAIR-THREAD', 'trace'), ('DTRC-PAIR-EDGE', 'trace'), ('DTRC-PAIR-JOIN', 'trace'),
    ('DTRC-PAIR-INSTR-COUNT', 'trace'),
]
# Warning rules: a generated trace breaking one is still valid (a y_ case).
WARNINGS = {'DCFG-VERSION-ZERO', 'DCFG-EDGE-TYPE-NAME', 'DCFG-SPECIAL-NODE-NAME',
            'DCFG-RANGE-IMAGE', 'DCFG-BLOCK-COUNT', 'DTRC-SEQ-DOT'}
# Small: a few routines and edges (--size 0), the generator's own shape.
MUTANT = '--seed 1 --size 0'

for _rule, _which in MUTATED:
    _args = '--violate %s %s' % (_rule, MUTANT)
    _warn = _rule in WARNINGS
    _exp = {'warnings': [_rule]} if _warn else {'errors': [_rule]}
    _stem = _rule.lower().replace('-', '_')
    _cls = 'y_' if _warn else 'n_'
    if _rule.startswith('DTRC-PAIR-'):
        gen_pair(_cls + 'dtrc_gen_' + _stem[len('dtrc_'):], _args,
                 'a generated pair whose DCFG-trace breaks %s against its DCFG' % _rule, **_exp)
    elif _which == 'dcfg':
        gen_one(_cls + 'dcfg_gen_' + _stem[len('dcfg_'):], _args, 'dcfg',
                'a generated DCFG that breaks %s' % _rule, **_exp)
    else:
        gen_one(_cls + 'dtrc_gen_' + _stem[len('dtrc_'):], _args, 'trace',
                'a generated DCFG-trace that breaks %s' % _rule, **_exp)


def prog(threads=1):
    return Program(threads).dcfg()


def proc(d, k=1):
    """PROCESS_DATA of the k-th process row."""
    return d['PROCESSES'][k][1]


def image(d, k=1):
    return proc(d)['IMAGES'][k][3]


def routine(d):
    return image(d)['ROUTINES'][1]


def edge_row(d, eid):
    return next(r for r in proc(d)['EDGES'][1:] if r[0] == eid)


def block_row(d, nid):
    for k in (1, 2):
        for r in image(d, k)['BASIC_BLOCKS'][1:]:
            if r[0] == nid:
                return r
    raise KeyError(nid)


# ================================================================== DCFG: valid

gen_one('y_dcfg_gen_seed_1', '--seed 1 --size 2K', 'dcfg',
        'a generated DCFG: processes of several threads, images, routines, loops and edges, '
        'integers as JSON numbers, hex and decimal strings')


@dcfg('y_dcfg_versions_only', 'a DCFG of just MAJOR_VERSION and MINOR_VERSION: every section '
      'is optional (Doc §2.2)')
def versions_only():
    return {'MAJOR_VERSION': 1, 'MINOR_VERSION': 0}


@dcfg('y_dcfg_program', 'a small program: two images (one without routines), a routine with '
      'nested loops, ENTRY and EXIT edges, every edge type of rulings 2')
def program():
    return prog()


@dcfg('y_dcfg_program_three_threads', 'the small program run by three threads: per-thread '
      'counts of instructions and edges')
def program_three_threads():
    return prog(3)


@dcfg('y_dcfg_program_bzip2', 'the small program compressed with bzip2, as Intel\'s tools '
      'write *.dcfg.json.bz2', compress=True)
def program_bzip2():
    return prog(2)


@dcfg('y_dcfg_columns_and_keys_reordered', 'columns found by header name, not position, and '
      'keys in any order (Doc §1.2.2, §2.2; ruling 6)')
def columns_reordered():
    d = prog()
    out = {}
    for k in reversed(list(d)):
        out[k] = d[k]

    def rev(table):
        return [list(reversed(r)) for r in table]
    img = image(out)
    img['BASIC_BLOCKS'] = rev(img['BASIC_BLOCKS'])
    p = proc(out)
    p['EDGES'] = rev(p['EDGES'])
    out['FILE_NAMES'] = rev(out['FILE_NAMES'])
    p['IMAGES'] = rev(p['IMAGES'])
    return out


@dcfg('y_dcfg_short_rows', 'rows shorter than their header that omit only trailing optional '
      'values: COUNT, PARENT_LOOP_HEAD_NODE_ID, LOOPS, COUNT_PER_THREAD (ruling 6)')
def short_rows():
    d = prog()
    for r in image(d)['BASIC_BLOCKS'][1:]:
        del r[5]
    loops = routine(d)[3]
    del loops[1][3]
    return d


@dcfg('y_dcfg_no_loops_column', 'a routine table without the LOOPS column: the routine has no '
      'loops (Doc §2.14)')
def no_loops_column():
    d = prog()
    img = image(d)
    img['ROUTINES'] = [r[:3] for r in img['ROUTINES']]
    return d


@dcfg('y_dcfg_integer_forms', 'Integers as JSON numbers, decimal strings and "0x"/"0X" hex of '
      'either case, up to 0xFFFFFFFFFFFFFFFF and 18446744073709551615 (ruling 4)',
      ruling='ruling 4')
def integer_forms():
    d = prog()
    src = image(d)['SOURCE_DATA']
    src[1][1] = '0xFFFFFFFFFFFFFFFF'
    src[2][1] = Raw('18446744073709551615')
    src[3][1] = '0Xabc'
    p = proc(d)
    p['INSTR_COUNT'] = '0x12'
    edge_row(d, 3)[0] = '0X3'
    edge_row(d, 4)[0] = '4'
    block_row(d, 13)[0] = '0xd'
    return d


@dcfg('y_dcfg_id_limits', 'ids at 0x7FFFFFFF and IMAGE_ID 0, which the document allows '
      '(Doc §1.2.3, §2.9; ruling 5)', ruling='ruling 5')
def id_limits():
    d = prog()
    d['FILE_NAMES'].append(['0x7fffffff', '/lib64/ld-linux-x86-64.so.2'])
    d['EDGE_TYPES'][-1][0] = 2147483647
    proc(d)['IMAGES'][2][0] = 0
    return d


@dcfg('y_dcfg_two_processes', 'two processes that reuse the same ids: ids are per process '
      '(Doc §2.13, ruling 5)')
def two_processes():
    d = prog()
    d['PROCESSES'].append([777, Program(2, 777).process_data()])
    return d


@dcfg('y_dcfg_escaped_strings', 'file and symbol names with JSON escapes: "\\/" as Intel\'s '
      'writer does, "\\u00e9", a tab')
def escaped_strings():
    d = prog()
    d['FILE_NAMES'][1][1] = Raw('"\\/home\\/user\\/loop"')
    d['FILE_NAMES'][2][1] = 'caf\u00e9\tloop.c'
    image(d)['SYMBOLS'][1][0] = Raw('"main\\u0000x"')
    return d


@dcfg('y_dcfg_edge_type_unknown_name', 'an edge type that is neither pre-defined nor in the '
      'example: a warning (ruling 2)', warnings=['DCFG-EDGE-TYPE-NAME'], ruling='ruling 2')
def edge_type_unknown_name():
    d = prog()
    d['EDGE_TYPES'].append([40, 'LONG_JUMP'])
    return d


@dcfg('y_dcfg_special_node_unknown_name', 'a special node named neither START, END nor '
      'UNKNOWN: a warning (ruling 16)', warnings=['DCFG-SPECIAL-NODE-NAME'], ruling='ruling 16')
def special_node_unknown_name():
    d = prog()
    d['SPECIAL_NODES'].append([4, 'SIGNAL'])
    return d


@dcfg('y_dcfg_version_zero', 'MAJOR_VERSION 0, as the document\'s own example of §2.2: read, '
      'with a warning (ruling 8)', warnings=['DCFG-VERSION-ZERO'], ruling='ruling 8')
def version_zero():
    d = prog()
    d['MAJOR_VERSION'], d['MINOR_VERSION'] = 0, 6
    return d


@dcfg('y_dcfg_range_beyond_image', 'a symbol that ends past its image\'s SIZE: a warning '
      '(ruling 12)', warnings=['DCFG-RANGE-IMAGE'], ruling='ruling 12')
def range_beyond_image():
    d = prog()
    image(d)['SYMBOLS'].append(['tail', '0x1ff0', 0x20])
    return d


@dcfg('y_dcfg_block_count_differs', 'a block COUNT one above the sum of its incoming edge '
      'counts: a warning (ruling 12)', warnings=['DCFG-BLOCK-COUNT'], ruling='ruling 12')
def block_count_differs():
    d = prog()
    block_row(d, 11)[5] = 4
    return d


@dcfg('y_dcfg_unknown_keys_pedantic', 'keys of a later minor version in the top-level, process '
      'and image objects: allowed, listed by --pedantic (ruling 6)',
      notes=['DCFG-UNKNOWN-KEY'], pedantic=True, ruling='ruling 6')
def unknown_keys_pedantic():
    return unknown_keys()


@dcfg('y_dcfg_unknown_column_pedantic', 'an extra column in the basic-block table: allowed, '
      'listed by --pedantic (ruling 6)', notes=['DCFG-UNKNOWN-COLUMN'], pedantic=True,
      ruling='ruling 6')
def unknown_column_pedantic():
    return unknown_column()


def unknown_keys():
    d = prog()
    d['TOOL'] = {'NAME': 'sde', 'ARGS': ['-dcfg', 1]}
    proc(d)['LIFETIME'] = [0, 100]
    image(d)['BUILD_ID'] = '0x1234'
    return d


def unknown_column():
    d = prog()
    bb = image(d)['BASIC_BLOCKS']
    bb[0].append('CYCLES')
    for r in bb[1:]:
        r.append(r[3] * 3)
    return d


@dcfg('y_dcfg_routine_bypass_edge', 'a routine block reached only through a CALL_BYPASS edge: '
      'bypass edges are intra-routine (ruling 12)', ruling='ruling 12')
def routine_bypass_edge():
    d = prog()
    image(d)['BASIC_BLOCKS'].append([14, '0x1020', 4, 1, 0, 0])
    proc(d)['EDGES'].append([8, 13, 20, ET['DIRECT_CALL'], [0]])
    proc(d)['EDGES'].append([9, 13, 14, ET['CALL_BYPASS'], [0]])
    routine(d)[2].append([14, 13])
    return d


@dcfg('i_dcfg_edge_type_unknown_intra_routine', 'a routine block reached only through an edge of '
      'an unknown type: a warning, and the edge counts as intra-routine (ruling 2)',
      warnings=['DCFG-EDGE-TYPE-NAME'], ruling='ruling 2')
def edge_type_unknown_intra():
    d = prog()
    d['EDGE_TYPES'].append([40, 'LONG_JUMP'])
    image(d)['BASIC_BLOCKS'].append([14, '0x1020', 4, 1, 0, 0])
    proc(d)['EDGES'].append([8, 13, 14, 40, [0]])
    routine(d)[2].append([14, 13])
    return d


@dcfg('y_dcfg_detect_auto', 'a DCFG run with --format auto: FILE_NAMES in its first 64 bytes '
      'says DCFG (spec/dcfg/dcfg.md, Detection)', fmt='auto')
def detect_auto():
    return prog()


# ================================================================== DCFG: implementation-defined

@dcfg('i_dcfg_unknown_keys', 'keys and a column tracecheck does not know, without --pedantic: '
      'accepted silently (forward compatibility, ruling 6)', ruling='ruling 6')
def i_unknown_keys():
    d = unknown_keys()
    bb = image(d)['BASIC_BLOCKS']
    bb[0].append('CYCLES')
    for r in bb[1:]:
        r.append(7)
    return d


@dcfg('i_dcfg_version_zero_example', 'the document\'s §2.2 top-level example: MAJOR_VERSION 0, '
      'MINOR_VERSION 6; read with a warning (ruling 8)', warnings=['DCFG-VERSION-ZERO'],
      ruling='ruling 8')
def i_version_zero_example():
    return {'MAJOR_VERSION': 0, 'MINOR_VERSION': 6}


@dcfg('i_dcfg_integer_leading_zeros', 'decimal strings with leading zeros ("007") and the '
      'document\'s "MINOR_VERSION" : 04 written as a string "04" (ruling 14)',
      ruling='ruling 14')
def i_leading_zeros():
    d = prog()
    d['MINOR_VERSION'] = '04'
    d['FILE_NAMES'][1][0] = '001'
    return d


@dcfg('i_dcfg_doc_edge_type_list', 'the edge types of the document\'s example that its '
      'pre-defined list lacks (INTERRUPT, INTERRUPT_RETURN, INTERRUPT_BYPASS, '
      'UNKNOWN_IMAGE_BYPASS) and those of the list the example lacks: all known (ruling 2)',
      ruling='ruling 2')
def i_doc_edge_types():
    d = prog()
    d['EDGE_TYPES'] = [['EDGE_TYPE_ID', 'EDGE_TYPE']] + [[ET[n], n] for n in (
        'ENTRY', 'EXIT', 'FALL_THROUGH', 'DIRECT_CONDITIONAL_BRANCH', 'DIRECT_BRANCH', 'REP',
        'INTERRUPT', 'INTERRUPT_RETURN', 'INTERRUPT_BYPASS', 'UNKNOWN_IMAGE_BYPASS',
        'CONTEXT_CHANGE', 'CONTEXT_CHANGE_RETURN', 'EXCLUDED_CODE_BYPASS')]
    return d


# ================================================================== DCFG: one defect each

@dcfg('n_dcfg_top_array', 'a top-level array holding the DCFG object (Doc §2.2)',
      errors=['DCFG-TOP-OBJECT'])
def top_array():
    return [prog()]


@dcfg('n_dcfg_version_missing', 'no MAJOR_VERSION (ruling 15)', errors=['DCFG-VERSION-MISSING'],
      ruling='ruling 15')
def version_missing():
    d = prog()
    del d['MAJOR_VERSION']
    return d


@dcfg('n_dcfg_version_major_2', 'MAJOR_VERSION 2: a major change breaks compatibility '
      '(ruling 8)', errors=['DCFG-VERSION-MAJOR'], ruling='ruling 8')
def version_major_2():
    d = prog()
    d['MAJOR_VERSION'] = 2
    return d


@dcfg('n_dcfg_duplicate_key', 'MINOR_VERSION twice in the top-level object (ruling 7)',
      errors=['TC-JSON-DUPLICATE-KEY'], ruling='ruling 7')
def duplicate_key():
    d = prog()
    return Obj([('MAJOR_VERSION', 1), ('MINOR_VERSION', 0)] + list(d.items())[1:])


@dcfg('n_dcfg_duplicate_key_process_data', 'INSTR_COUNT twice in a PROCESS_DATA object with '
      'the same value (ruling 7)', errors=['TC-JSON-DUPLICATE-KEY'], ruling='ruling 7')
def duplicate_key_process():
    d = prog()
    p = proc(d)
    d['PROCESSES'][1][1] = Obj([('INSTR_COUNT', p['INSTR_COUNT'])] + list(p.items()))
    return d


def integer_case(name, value, desc):
    @dcfg(name, 'a SIZE written as %s: not an Integer (%s)' % (desc, 'rulings 4 and 14'),
          errors=['DCFG-INTEGER'], ruling='rulings 4 and 14')
    def make():
        d = prog()
        image(d)['SYMBOLS'][1][2] = value
        return d, ('["main", "0x1000", ', D._flat(value))
    make.__name__ = name[2:]


integer_case('n_dcfg_integer_fraction', Raw('32.0'), 'the JSON number 32.0')
integer_case('n_dcfg_integer_exponent', Raw('3e1'), 'the JSON number 3e1')
integer_case('n_dcfg_integer_negative', Raw('-32'), 'the JSON number -32')
integer_case('n_dcfg_integer_hex_no_digits', '0x', 'the string "0x"')
integer_case('n_dcfg_integer_hex_bad_digit', '0x2g', 'the string "0x2g"')
integer_case('n_dcfg_integer_string_suffix', '32 ', 'the string "32 " (a trailing space)')
integer_case('n_dcfg_integer_string_sign', '+32', 'the string "+32"')
integer_case('n_dcfg_integer_string_empty', '', 'the empty string')
integer_case('n_dcfg_integer_above_u64', Raw('18446744073709551616'), 'the JSON number 2^64')
integer_case('n_dcfg_integer_hex_above_u64', '0x10000000000000000', 'the string '
             '"0x10000000000000000" (2^64)')
integer_case('n_dcfg_integer_octal_string', '0o40', 'the string "0o40"')


@dcfg('n_dcfg_id_zero', 'a FILE_NAME_ID of 0, in a row nothing refers to (ruling 5)',
      errors=['DCFG-ID-RANGE'], ruling='ruling 5')
def id_zero():
    d = prog()
    d['FILE_NAMES'].append([0, '/tmp/unused'])
    return d


@dcfg('n_dcfg_id_0x80000000', 'an EDGE_TYPE_ID of 0x80000000, one above the id range, in a row '
      'nothing refers to (ruling 5)', errors=['DCFG-ID-RANGE'], ruling='ruling 5')
def id_too_big():
    d = prog()
    d['EDGE_TYPES'].append(['0x80000000', 'UNKNOWN'])
    return d


@dcfg('n_dcfg_table_tag_size_space', 'the symbol table of the document\'s §2.11 example, whose '
      'header says "SIZE " (ruling 3): a bad tag, and SIZE is then missing (ruling 6)',
      errors=['DCFG-TABLE-TAG', 'DCFG-COLUMN-MISSING'], ruling='ruling 3')
def table_tag_size_space():
    d = prog()
    image(d)['SYMBOLS'] = [['NAME', 'ADDR_OFFSET', 'SIZE '], ['main', '0x1000', 32]]
    return d


@dcfg('n_dcfg_table_tag_lowercase', 'an extra column "comment" in the symbol table: tags '
      'are upper-case letters, digits and underscores (Doc §1.2.5, ruling 3)',
      errors=['DCFG-TABLE-TAG'], ruling='ruling 3')
def table_tag_lowercase():
    d = prog()
    image(d)['SYMBOLS'][0].append('comment')
    return d


@dcfg('n_dcfg_table_tag_number', 'a symbol-table header that holds the number 7 as a column tag '
      '(Doc §1.2.2, ruling 3)', errors=['DCFG-TABLE-TAG'], ruling='ruling 3')
def table_tag_number():
    d = prog()
    image(d)['SYMBOLS'][0].append(7)
    return d


@dcfg('n_dcfg_type_file_name_number', 'a FILE_NAME that is a number, not a string (Doc §2.4)',
      errors=['DCFG-TYPE'])
def type_file_name():
    d = prog()
    d['FILE_NAMES'][3][1] = 3
    return d


@dcfg('n_dcfg_type_image_data_array', 'an IMAGE_DATA that is an array, not an object '
      '(Doc §2.9)', errors=['DCFG-TYPE'])
def type_image_data():
    d = prog()
    proc(d)['IMAGES'][2][3] = []
    return d


@dcfg('n_dcfg_table_shape_row_not_array', 'a row of the file-name table that is a number, not '
      'an array (Doc §1.2.2)', errors=['DCFG-TABLE-SHAPE'])
def table_shape():
    d = prog()
    d['FILE_NAMES'].append(4)
    return d


@dcfg('n_dcfg_table_header_missing', 'an empty symbol table: no header row (Doc §1.2.2)',
      errors=['DCFG-TABLE-HEADER'], ruling='ruling 6')
def table_header_missing():
    d = prog()
    image(d)['SYMBOLS'] = []
    return d


@dcfg('n_dcfg_column_missing_addr_offset', 'a symbol table without the ADDR_OFFSET column '
      '(ruling 6)', errors=['DCFG-COLUMN-MISSING'], ruling='ruling 6')
def column_missing():
    d = prog()
    image(d)['SYMBOLS'] = [['NAME', 'SIZE'], ['main', 32]]
    return d


@dcfg('n_dcfg_column_duplicate', 'a file-name table header that names FILE_NAME twice '
      '(ruling 6)', errors=['DCFG-COLUMN-DUPLICATE'], ruling='ruling 6')
def column_duplicate():
    d = prog()
    d['FILE_NAMES'][0].append('FILE_NAME')
    return d


@dcfg('n_dcfg_row_long', 'a file-name row with three values under a header of two (ruling 6)',
      errors=['DCFG-ROW-LONG'], ruling='ruling 6')
def row_long():
    d = prog()
    d['FILE_NAMES'][2].append('extra')
    return d


@dcfg('n_dcfg_row_short_symbol_size', 'a symbol row that ends before its SIZE (ruling 6)',
      errors=['DCFG-ROW-SHORT'], ruling='ruling 6')
def row_short():
    d = prog()
    image(d)['SYMBOLS'].append(['_init', '0x800'])
    return d


@dcfg('n_dcfg_id_duplicate_file_name', 'two file-name rows with FILE_NAME_ID 2 (ruling 6)',
      errors=['DCFG-ID-DUPLICATE'], ruling='ruling 6')
def id_duplicate_file():
    d = prog()
    d['FILE_NAMES'].append([2, '/home/user/other.c'])
    return d


@dcfg('n_dcfg_id_duplicate_edge_type', 'two edge-type rows with the same EDGE_TYPE_ID and name '
      '(ruling 6)', errors=['DCFG-ID-DUPLICATE'], ruling='ruling 6')
def id_duplicate_edge_type():
    d = prog()
    d['EDGE_TYPES'].append([ET['UNKNOWN'], 'UNKNOWN'])
    return d


@dcfg('n_dcfg_file_name_ref', 'an image whose FILE_NAME_ID is in no FILE_NAMES row '
      '(ruling 12)', errors=['DCFG-FILE-NAME-REF'], ruling='ruling 12')
def file_name_ref():
    d = prog()
    image(d, 2)['FILE_NAME_ID'] = 99
    return d


@dcfg('n_dcfg_edge_type_ref', 'the EXIT edge\'s EDGE_TYPE_ID is in no EDGE_TYPES row '
      '(ruling 12)', errors=['DCFG-EDGE-TYPE-REF'], ruling='ruling 12')
def edge_type_ref():
    d = prog()
    edge_row(d, 6)[3] = 99
    return d


@dcfg('n_dcfg_node_ref', 'an edge, never taken, to node 99, which is neither a special node '
      'nor a block (ruling 12)', errors=['DCFG-NODE-REF'], ruling='ruling 12')
def node_ref():
    d = prog()
    proc(d)['EDGES'].append([8, 13, 99, ET['RETURN'], [0]])
    return d


@dcfg('n_dcfg_node_id_special', 'block 13 renumbered 3, the id of the special node UNKNOWN '
      '(Doc §2.13, ruling 5); the block is then not counted as one, so its COUNT is not '
      'checked against the edges into node 3 either way (a warning)',
      errors=['DCFG-NODE-ID-SPECIAL'], warnings=['DCFG-BLOCK-COUNT'], ruling='ruling 5')
def node_id_special():
    d = prog()
    block_row(d, 13)[0] = UNKNOWN
    edge_row(d, 5)[2] = UNKNOWN
    edge_row(d, 6)[1] = UNKNOWN
    r = routine(d)
    r[1] = [UNKNOWN]
    r[2][4][0] = UNKNOWN
    return d


@dcfg('n_dcfg_entry_edge_not_from_start', 'the ENTRY edge leaves END, not START (ruling 12)',
      errors=['DCFG-ENTRY-EDGE'], ruling='ruling 12')
def entry_edge():
    d = prog()
    edge_row(d, 1)[1] = END
    return d


@dcfg('n_dcfg_exit_edge_not_to_end', 'the EXIT edge enters START, not END (ruling 12)',
      errors=['DCFG-EXIT-EDGE'], ruling='ruling 12')
def exit_edge():
    d = prog()
    edge_row(d, 6)[2] = START
    return d


@dcfg('n_dcfg_instr_count_sum', 'INSTR_COUNT one above the sum of INSTR_COUNT_PER_THREAD '
      '(ruling 12)', errors=['DCFG-INSTR-COUNT-SUM'], ruling='ruling 12')
def instr_count_sum():
    d = prog(2)
    proc(d)['INSTR_COUNT'] += 1
    return d


@dcfg('n_dcfg_edge_threads', 'a COUNT_PER_THREAD of two values in a one-thread process '
      '(ruling 12)', errors=['DCFG-EDGE-THREADS'], ruling='ruling 12')
def edge_threads():
    d = prog()
    edge_row(d, 7)[4] = [0, 0]
    return d


@dcfg('n_dcfg_last_instr_offset', 'a block whose LAST_INSTR_OFFSET equals its SIZE '
      '(ruling 12)', errors=['DCFG-LAST-INSTR-OFFSET'], ruling='ruling 12')
def last_instr_offset():
    d = prog()
    r = block_row(d, 13)
    r[4] = r[2]
    return d


@dcfg('n_dcfg_routine_node_other_image', 'a routine whose NODES include block 20 of the other '
      'image, reached by an intra-routine edge never taken (ruling 12)',
      errors=['DCFG-ROUTINE-IMAGE'], ruling='ruling 12')
def routine_image():
    d = prog()
    proc(d)['EDGES'].append([8, 13, 20, ET['FALL_THROUGH'], [0]])
    routine(d)[2].append([20, 13])
    return d


@dcfg('n_dcfg_routine_cover', 'a block of image 1 that is in no routine (ruling 12)',
      errors=['DCFG-ROUTINE-COVER'], ruling='ruling 12')
def routine_cover():
    d = prog()
    image(d)['BASIC_BLOCKS'].append([14, '0x1020', 4, 1, 0, 0])
    return d


@dcfg('n_dcfg_routine_overlap', 'block 13 in two routines: the main one and a routine of its '
      'own (ruling 12)', errors=['DCFG-ROUTINE-OVERLAP'], ruling='ruling 12')
def routine_overlap():
    d = prog()
    image(d)['ROUTINES'].append([13, [13], [['NODE_ID', 'IDOM_NODE_ID'], [13, 13]]])
    return d


@dcfg('n_dcfg_routine_entry_idom', 'a routine whose entry 10 names 11 as its immediate '
      'dominator; the entry is its own (ruling 12)', errors=['DCFG-ROUTINE-ENTRY'],
      ruling='ruling 12')
def routine_entry():
    d = prog()
    routine(d)[2][1][1] = 11
    return d


@dcfg('n_dcfg_routine_exit', 'an EXIT_NODE_IDS entry, block 20, that is not among the routine\'s '
      'NODES (ruling 12)', errors=['DCFG-ROUTINE-EXIT'], ruling='ruling 12')
def routine_exit():
    d = prog()
    routine(d)[1] = [13, 20]
    return d


@dcfg('n_dcfg_routine_unreachable', 'a routine node, block 14, that only a CALL edge reaches '
      '(calls are not intra-routine, ruling 12)', errors=['DCFG-ROUTINE-UNREACHABLE'],
      ruling='ruling 12')
def routine_unreachable():
    d = prog()
    image(d)['BASIC_BLOCKS'].append([14, '0x1020', 4, 1, 0, 0])
    proc(d)['EDGES'].append([8, 13, 14, ET['CALL'], [0]])
    routine(d)[2].append([14, 13])
    return d


@dcfg('n_dcfg_routine_idom', 'block 13 names 11 as its immediate dominator; it is 12 '
      '(ruling 12)', errors=['DCFG-ROUTINE-IDOM'], ruling='ruling 12')
def routine_idom():
    d = prog()
    routine(d)[2][4][1] = 11
    return d


@dcfg('n_dcfg_loop_routine', 'a loop whose LOOP_NODE_IDS include block 20, which is not in the '
      'routine (ruling 12)', errors=['DCFG-LOOP-ROUTINE'], ruling='ruling 12')
def loop_routine():
    d = prog()
    routine(d)[3][1][2] = [11, 12, 20]
    return d


@dcfg('n_dcfg_loop_members', 'a loop whose back-edge source 12 is not among its LOOP_NODE_IDS '
      '(ruling 12)', errors=['DCFG-LOOP-MEMBERS'], ruling='ruling 12')
def loop_members():
    d = prog()
    loops = routine(d)[3]
    loops[1][2] = [11]
    del loops[2]   # the inner loop at 12 would no longer nest
    return d


@dcfg('n_dcfg_loop_back_edge', 'a loop that names 13 as a back-edge source; 13 has no edge to '
      'the head 11 (ruling 12)', errors=['DCFG-LOOP-BACK-EDGE'], ruling='ruling 12')
def loop_back_edge():
    d = prog()
    outer = routine(d)[3][1]
    outer[1], outer[2] = [12, 13], [11, 12, 13]
    return d


@dcfg('n_dcfg_loop_parent', 'an inner loop whose PARENT_LOOP_HEAD_NODE_ID is 13, which heads '
      'no loop (ruling 12)', errors=['DCFG-LOOP-PARENT'], ruling='ruling 12')
def loop_parent():
    d = prog()
    routine(d)[3][2][3] = 13
    return d


@dcfg('n_dcfg_loop_nesting', 'an inner loop holding block 13, which its parent loop does not '
      'hold (ruling 12)', errors=['DCFG-LOOP-NESTING'], ruling='ruling 12')
def loop_nesting():
    d = prog()
    routine(d)[3][2][2] = [12, 13]
    return d


@dcfg('n_dcfg_json_trailing_comma', 'a trailing comma after the last table row, as the '
      'document\'s examples write (§2.4): not JSON', errors=['TC-JSON-SYNTAX'])
def json_trailing_comma():
    t = D.doc(prog()).decode()
    t = t.replace('[3, "/lib64/libc.so.6"]]', '[3, "/lib64/libc.so.6"],]', 1)
    return t.encode()


def bzip2_truncated():
    data = bz2.compress(D.doc(prog()), 9)
    return data[:len(data) // 2]


_add('n_dcfg_bzip2_truncated', 'dcfg', 'dcfg', 'dcfg.json.bz2', bzip2_truncated,
     'bzip2_truncated(): the small program, bzip2 (Python bz2, level 9), cut to half its '
     'compressed length', {'errors': ['TC-INPUT-DECOMPRESS', 'TC-JSON-SYNTAX'],
                           'desc': 'a bzip2-compressed DCFG cut in half: its one block never '
                                   'ends, so no JSON comes out, and the stream ends early'})


# ================================================================== DCFG-trace alone

def ptrace(**kw):
    return Program().trace(**kw)


def tproc(t, k=1):
    return t['PROCESSES'][k]


def chunks(t, k=1, th=1):
    return tproc(t, k)[3][th][1]


gen_one('y_dtrc_gen_seed_1', '--seed 1 --size 2K', 'trace',
        'a generated DCFG-trace: dictionaries, repeats, transition tables of Huffman codes, '
        'integers as numbers and strings')


@trace('y_dtrc_program', 'the small program\'s trace: one thread in two chunks')
def trace_program():
    return ptrace()


@trace('y_dtrc_program_bzip2', 'the small program\'s trace compressed with bzip2, as Intel\'s '
       'tools write *.trace.json.bz2', compress=True)
def trace_bzip2():
    return Program(2).trace()


@trace('y_dtrc_threads_0_and_2', 'trace data of threads 0 and 2 only, thread 2 first (Doc §3.6: '
       'threads in any order, not all of them)')
def threads_0_2():
    return Program(3).trace(threads=[2, 0], split=None)


@trace('y_dtrc_no_processes', 'a DCFG-trace whose process table is just its header')
def no_processes():
    return D.trace_doc([])


@trace('y_dtrc_edge_count_zero_and_one', 'a chunk of EDGE_COUNT 0 (FIRST_EDGE_ID ignored) and '
       'one of EDGE_COUNT 1 (no sequence), Doc §3.7')
def edge_count_small():
    t = ptrace()
    chunks(t).extend([[18, 0, 0, 12345, ''], [18, 0, 1, 6, '']])
    return t


@trace('y_dtrc_chunks_with_gaps', 'chunks that skip part of the execution: PRECEDING_INSTR_COUNT '
       'above the end of the previous chunk (Doc §3.7)')
def chunks_with_gaps():
    t = ptrace()
    chunks(t)[2][0] = 100
    return t


@trace('y_dtrc_detect_by_name', 'a DCFG-trace run with --format auto: no key of its first 64 '
       'bytes tells it from a DCFG, its name *.trace.json does (spec/dcfg/dcfg.md, Detection)',
       fmt='auto')
def detect_by_name():
    return ptrace()


# A table on which every bit string decodes: from edge 1, bit 0 stays on 1
# and bit 1 goes to 2; edge 2 goes back to 1 with no bits.
LOOP_TABLE = {1: [('0', [1]), ('1', [2])], 2: [('', [1])]}


def loop_path(bits):
    """The edges LOOP_TABLE decodes from bits, stopping after the last bit."""
    path, cur = [1], 1
    for i, b in enumerate(bits):
        if cur == 2:
            path.append(1)
        cur = 1 if b == '0' else 2
        path.append(cur)
    return path


def seq_trace(seq, edge_count, dictionary=None, table=LOOP_TABLE, first=1):
    return D.trace_doc([(PID, dictionary or {}, D.table_rows(table),
                         [(0, [[0, 0, edge_count, first, seq]])])])


def count_for(chars):
    """EDGE_COUNT that uses every bit of the Base64 characters chars."""
    bits = ''.join(format(D.B64.index(c), '06b') for c in chars)
    return len(loop_path(bits))


@trace('y_dtrc_seq_repeat_and_dictionary', 'a sequence with nested repeats and dictionary '
       'references, one entry referring to another (Doc §3.7.1.2, §3.7.1.3; ruling 11)',
       ruling='ruling 11')
def seq_repeat_dict():
    dictionary = {'a': 'Ab(3*C)', 'B-2+': 'x<a>'}
    expanded = 'Z' + ('xAbCCC' * 2 + 'AbCCC') * 2 + 'Q9'
    return seq_trace('Z(2*(2*<B-2+>)<a>)Q9', count_for(expanded), dictionary)


@trace('y_dtrc_seq_dot', 'a sequence that writes value 63 as \'.\', which the document\'s text '
       'names: read as \'-\', with a warning (ruling 1)', warnings=['DTRC-SEQ-DOT'],
       ruling='ruling 1')
def seq_dot():
    return seq_trace('A.', count_for('A-'))


@trace('i_dtrc_seq_dash_and_dot', 'value 63 written both ways in one sequence, \'-\' (the '
       'listed set) and \'.\' (the text): both are 63, \'.\' with a warning (ruling 1)',
       warnings=['DTRC-SEQ-DOT'], ruling='ruling 1')
def seq_dash_dot():
    return seq_trace('-.-', count_for('---'))


@trace('i_dtrc_seq_repeat_zero', 'a repeat of count 0, "(0*AB)", which expands to nothing '
       '(Doc §3.7.1.2 asks for digits only; ruling 11)', ruling='ruling 11')
def seq_repeat_zero():
    return seq_trace('g(0*AB)g', count_for('gg'))


@trace('y_dtrc_seq_leftover_five_bits', 'the last character leaves 5 bits unused, the most '
       'the document allows (Doc §3.7.1.1, ruling 11)', ruling='ruling 11')
def seq_leftover_5():
    return seq_trace('gA', len(loop_path('1000000')))


@trace('y_dtrc_seq_huge_repeat_periodic', '"(4000000000*(4000000000*A))": 9.6e19 bits, more '
       'than 64 bits count, decoded by 6-bit codes to the last bit (ruling 11: in bounded '
       'time and memory); no dump: it would list every edge', ruling='ruling 11', dump=False)
def seq_huge_periodic():
    table = {1: [('000000', [1]), ('1', [2])], 2: [('', [1])]}
    return seq_trace('(4000000000*(4000000000*A))', 16000000000000000001, table=table)


@trace('y_dtrc_seq_budget', 'dictionary entries that double each other 40 times: 2^40 '
       'characters with no period to skip; decoding gives up with a warning (ruling 11); no '
       'dump: it would list every edge', warnings=['DTRC-SEQ-BUDGET'], ruling='ruling 11',
       dump=False)
def seq_budget():
    dictionary = {'k0': 'A'}
    for i in range(1, 41):
        dictionary['k%d' % i] = '<k%d><k%d>' % (i - 1, i - 1)
    # 6 zero bits a character, one 6-bit code an edge: every bit is used
    table = {1: [('000000', [1]), ('1', [1])]}
    return seq_trace('<k40>', 1 + 2 ** 40, dictionary, table)


@trace('y_dtrc_version_zero', 'a DCFG-trace of MAJOR_VERSION 0: read, with a warning (§3.2: '
       'the same as the DCFG\'s; ruling 8)', warnings=['DCFG-VERSION-ZERO'], ruling='ruling 8')
def trace_version_zero():
    t = ptrace()
    t['MAJOR_VERSION'] = 0
    return t


@trace('n_dtrc_version_major_2', 'a DCFG-trace of MAJOR_VERSION 2 (ruling 8)',
       errors=['DCFG-VERSION-MAJOR'], ruling='ruling 8')
def trace_version_2():
    t = ptrace()
    t['MAJOR_VERSION'] = 2
    return t


@trace('n_dtrc_top_array', 'a top-level array (Doc §3.1)', errors=['DTRC-TOP-OBJECT'])
def trace_top_array():
    return [ptrace()]


@trace('n_dtrc_top_order', 'MINOR_VERSION before MAJOR_VERSION (Doc §3.1 ordering, ruling 9)',
       errors=['DTRC-TOP-ORDER'], ruling='ruling 9')
def trace_top_order():
    t = ptrace()
    return {'MINOR_VERSION': 0, 'MAJOR_VERSION': 1, 'PROCESSES': t['PROCESSES']}


@trace('n_dtrc_top_missing_minor', 'no MINOR_VERSION (Doc §3.1, ruling 9)',
       errors=['DTRC-TOP-MISSING'], ruling='ruling 9')
def trace_top_missing():
    t = ptrace()
    del t['MINOR_VERSION']
    return t


@trace('n_dtrc_duplicate_key', 'a STRING_DICTIONARY with the key "a" twice (ruling 7)',
       errors=['TC-JSON-DUPLICATE-KEY'], ruling='ruling 7')
def trace_duplicate_key():
    t = ptrace()
    tproc(t)[1] = Obj([('a', 'A'), ('a', 'B')])
    return t


@trace('n_dtrc_type_sequence_number', 'an EDGE_ID_SEQUENCE that is a number (Doc §3.7)',
       errors=['DTRC-TYPE'])
def trace_type():
    t = ptrace()
    chunks(t)[1][4] = 16
    return t


@trace('n_dtrc_type_dictionary_array', 'a STRING_DICTIONARY that is an array (Doc §3.4)',
       errors=['DTRC-TYPE'])
def trace_type_dict():
    t = ptrace()
    tproc(t)[1] = []
    return t


@trace('n_dtrc_columns_process_order', 'the process table with STRING_DICTIONARY and '
       'TRANSITION_TABLE swapped, rows too (Doc §3.3 ordering, ruling 9)',
       errors=['DTRC-COLUMNS'], ruling='ruling 9')
def columns_process():
    t = ptrace()
    p = t['PROCESSES']
    for r in p:
        r[1], r[2] = r[2], r[1]
    return t


@trace('n_dtrc_columns_thread_order', 'the thread table as TRACE_DATA, THREAD_ID, rows too '
       '(Doc §3.6 ordering, ruling 9)', errors=['DTRC-COLUMNS'], ruling='ruling 9')
def columns_thread():
    t = ptrace()
    for r in tproc(t)[3]:
        r.reverse()
    return t


@trace('n_dtrc_columns_trace_missing', 'a trace-data table without EDGE_COUNT, rows too '
       '(Doc §3.7, rulings 6 and 9)', errors=['DTRC-COLUMNS'], ruling='ruling 9')
def columns_trace():
    t = ptrace()
    for r in chunks(t):
        del r[2]
    return t


@trace('n_dtrc_row_short', 'a chunk row without its EDGE_ID_SEQUENCE (ruling 6)',
       errors=['DTRC-ROW-SHORT'], ruling='ruling 6')
def trace_row_short():
    t = ptrace()
    chunks(t)[1].pop()
    return t


@trace('n_dtrc_row_long', 'a chunk row of six values under a header of five (ruling 6)',
       errors=['DTRC-ROW-LONG'], ruling='ruling 6')
def trace_row_long():
    t = ptrace()
    chunks(t)[1].append('')
    return t


@trace('n_dtrc_process_duplicate', 'two process rows with the same PROCESS_ID (ruling 6)',
       errors=['DTRC-PROCESS-DUPLICATE'], ruling='ruling 6')
def process_duplicate():
    t = ptrace()
    t['PROCESSES'].append(t['PROCESSES'][1])
    return t


@trace('n_dtrc_thread_duplicate', 'two thread rows with THREAD_ID 0 (ruling 6)',
       errors=['DTRC-THREAD-DUPLICATE'], ruling='ruling 6')
def thread_duplicate():
    t = ptrace()
    tproc(t)[3].append(tproc(t)[3][1])
    return t


@trace('n_dtrc_chunk_order', 'a chunk that starts one instruction before the previous one ends '
       '(Doc §3.7 ordering, ruling 9)', errors=['DTRC-CHUNK-ORDER'], ruling='ruling 9')
def chunk_order():
    t = ptrace()
    chunks(t)[2][0] = 5
    return t


@trace('n_dtrc_dict_key_underscore', 'a dictionary key with \'_\', which the key set of §3.4 '
       'lacks', errors=['DTRC-DICT-KEY'])
def dict_key():
    t = ptrace()
    tproc(t)[1] = {'a_b': 'A'}
    return t


def code_case(name, codes, desc, errors):
    @trace(name, desc + ' (Doc §3.5, ruling 10)', errors=errors, ruling='ruling 10')
    def make():
        t = ptrace()
        rows = tproc(t)[2]
        rows[:] = [r for r in rows if r[0] != 5]
        for k, c in enumerate(codes):
            rows.append([5, c, [6 + k]])
        return t
    make.__name__ = name[2:]


code_case('n_dtrc_code_syntax_digit', ['0', '2'], 'a TRANSITION_CODE "2"', ['DTRC-CODE-SYNTAX'])
code_case('n_dtrc_code_syntax_33_bits', ['0', '1' * 33], 'a TRANSITION_CODE of 33 bits',
          ['DTRC-CODE-SYNTAX'])
code_case('n_dtrc_code_duplicate', ['0', '1', '1'], 'the code "1" twice for one edge',
          ['DTRC-CODE-DUPLICATE'])
code_case('n_dtrc_code_padding_collision', ['0', '1', '10'], 'the codes "1" and "10" of one '
          'edge, equal once padded to 32 bits: the document\'s uniqueness rule, reported once '
          'as that (that "1" is a prefix of "10" follows from it)', ['DTRC-CODE-DUPLICATE'])
code_case('n_dtrc_code_prefix', ['0', '1', '11'], 'the code "1" is a proper prefix of "11": '
          'under the minimum-bits rule "11" is never read', ['DTRC-CODE-PREFIX'])
code_case('n_dtrc_code_empty_and_other', ['', '1'], 'an edge with the empty code and the code '
          '"1"', ['DTRC-CODE-EMPTY'])


@trace('n_dtrc_next_empty', 'a transition with an empty NEXT_EDGE_IDS (ruling 10)',
       errors=['DTRC-NEXT-EMPTY'], ruling='ruling 10')
def next_empty():
    t = ptrace()
    tproc(t)[2].append([6, '', []])
    return t


def seq_case(name, seq, desc, errors, edge_count=None, dictionary=None, ruling='ruling 11',
             table=LOOP_TABLE, first=1, located=True):
    """located: the first error is at the chunk's EDGE_ID_SEQUENCE (not so
    for a cycle, which is the dictionary's and may be found there)."""
    @trace(name, desc, errors=errors, ruling=ruling)
    def make():
        t = seq_trace(seq, 3 if edge_count is None else edge_count, dictionary, table, first)
        return (t, D._flat(seq)) if located else t
    make.__name__ = name[2:]


seq_case('n_dtrc_seq_char_solidus', 'A/', 'standard Base64\'s \'/\' in a sequence: neither '
         '\'-\' nor \'.\' (ruling 1)', ['DTRC-SEQ-CHAR'], ruling='ruling 1')
seq_case('n_dtrc_seq_char_padding', 'AA==', 'Base64 padding \'=\' in a sequence (Doc §3.7.1)',
         ['DTRC-SEQ-CHAR'])
seq_case('n_dtrc_seq_char_space', 'A A', 'a space in a sequence (the document\'s examples '
         'show spaces around repeats; §3.7.1 gives them no meaning)', ['DTRC-SEQ-CHAR'])
seq_case('n_dtrc_seq_repeat_no_star', '(3A)', 'a repeat "(3A)" without \'*\' (Doc §3.7.1.2)',
         ['DTRC-SEQ-REPEAT'])
seq_case('n_dtrc_seq_repeat_no_digits', '(*A)', 'a repeat "(*A)" without a count '
         '(Doc §3.7.1.2)', ['DTRC-SEQ-REPEAT'])
seq_case('n_dtrc_seq_paren_unclosed', 'A(2*A', 'a repeat never closed (ruling 11)',
         ['DTRC-SEQ-PAREN'])
seq_case('n_dtrc_seq_paren_stray_close', 'AA)', 'a \')\' that closes nothing (ruling 11)',
         ['DTRC-SEQ-PAREN'])
seq_case('n_dtrc_seq_count_above_u64', '(18446744073709551616*A)', 'a repeat count of 2^64 '
         '(ruling 11)', ['DTRC-SEQ-COUNT'])
seq_case('n_dtrc_seq_key_unclosed', 'A<a', 'a \'<\' reference never closed by \'>\' '
         '(Doc §3.7.1.3)', ['DTRC-SEQ-KEY'], dictionary={'a': 'A'})
seq_case('n_dtrc_seq_key_empty', 'A<>', 'the empty reference "<>" (Doc §3.4: keys have '
         'characters)', ['DTRC-SEQ-KEY'], dictionary={'a': 'A'})
seq_case('n_dtrc_seq_key_bad_char', 'A<a.b>', 'a reference "<a.b>" whose key has a character '
         'outside the key set (Doc §3.4)', ['DTRC-SEQ-KEY'], dictionary={'a': 'A'})
seq_case('n_dtrc_seq_missing', 'A<b>', 'a reference to "b", which the dictionary lacks '
         '(Doc §3.7.1.3, ruling 11)', ['DTRC-SEQ-MISSING'], dictionary={'a': 'A'})
seq_case('n_dtrc_seq_cycle', 'A<a>', 'dictionary entries "a" and "b" that refer to each other '
         '(ruling 11)', ['DTRC-SEQ-CYCLE'], dictionary={'a': 'A<b>', 'b': 'B<a>'},
         located=False)
seq_case('n_dtrc_seq_cycle_self', '<a>', 'a dictionary entry that refers to itself '
         '(ruling 11)', ['DTRC-SEQ-CYCLE'], dictionary={'a': 'A<a>'},
         located=False)
seq_case('n_dtrc_seq_nesting_257', '(1*' * 257 + 'A' + ')' * 257, '257 nested repeats '
         '"(1*(1*...A...))": deeper than 256 (ruling 11, bounded decoding)',
         ['DTRC-SEQ-NESTING'], edge_count=7)
seq_case('n_dtrc_seq_short', 'g', 'EDGE_COUNT one above what the bits of "g" decode '
         '(ruling 11)', ['DTRC-SEQ-SHORT'], edge_count=count_for('g') + 1)
seq_case('n_dtrc_seq_leftover_six_bits', 'gA', 'EDGE_COUNT decoded with 6 bits left: a whole '
         'character too many (ruling 11)', ['DTRC-SEQ-LEFTOVER'],
         edge_count=len(loop_path('1')))
seq_case('n_dtrc_seq_leftover_huge_repeat', '(4000000000*(4000000000*A))',
         '"(4000000000*(4000000000*A))" (9.6e19 bits) for a chunk of 3 edges: the leftover is '
         'counted, never expanded (ruling 11)', ['DTRC-SEQ-LEFTOVER'], edge_count=3)
seq_case('n_dtrc_seq_no_code', 'g', 'bits "10" where the current edge\'s codes are "00" and '
         '"01" (ruling 11)', ['DTRC-SEQ-NO-CODE'],
         table={1: [('00', [1]), ('01', [2])], 2: [('', [1])]})
seq_case('n_dtrc_seq_no_entry', 'A', 'a FIRST_EDGE_ID with no row in the transition table '
         '(ruling 11)', ['DTRC-SEQ-NO-ENTRY'], first=9)


# ================================================================== pairs

@pair('y_dcfg_pair_program', 'the small program and its trace, one thread in two chunks: '
      'every edge exists, consecutive edges join, instruction counts agree (ruling 13)',
      ruling='ruling 13')
def pair_program():
    p = Program()
    return p.dcfg(), p.trace()


@pair('y_dcfg_pair_bzip2', 'the pair of two threads, both files compressed with bzip2',
      compress=True)
def pair_bzip2():
    p = Program(2)
    return p.dcfg(), p.trace()


@pair('y_dcfg_pair_thread_subset', 'a DCFG of three threads and a trace of thread 2 alone in '
      'one chunk (Doc §3.6)')
def pair_subset():
    p = Program(3)
    return p.dcfg(), p.trace(threads=[2], split=None)


@pair('y_dcfg_pair_versions_differ', 'a DCFG of version 1.00 and a trace of version 1.03 '
      '(Doc §3.2: usually the same, not required)')
def pair_versions():
    p = Program()
    t = p.trace()
    t['MINOR_VERSION'] = 3
    return p.dcfg(), t


gen_pair('y_dcfg_pair_gen_seed_1', '--seed 1 --size 2K', 'a generated pair: several processes '
         'and threads, dictionaries, repeats and Huffman-coded transitions (ruling 13)')
gen_pair('y_dcfg_pair_gen_seed_2', '--seed 2 --size 8K --procs 2 --threads 3',
         'a generated pair of two processes of three threads')


@pair('n_dtrc_pair_process', 'a trace process 4243 that the DCFG does not have (ruling 13)',
      errors=['DTRC-PAIR-PROCESS'], ruling='ruling 13')
def pair_process():
    p = Program()
    t = p.trace()
    tproc(t)[0] = PID + 1
    return p.dcfg(), t


@pair('n_dtrc_pair_thread', 'THREAD_ID 1 in a process of one thread (ruling 13)',
      errors=['DTRC-PAIR-THREAD'], ruling='ruling 13')
def pair_thread():
    p = Program()
    return p.dcfg(), p.trace(threads=[1])


@pair('n_dtrc_pair_edge', 'a chunk of one edge, 99, which the DCFG\'s process lacks '
      '(ruling 13)', errors=['DTRC-PAIR-EDGE'], ruling='ruling 13')
def pair_edge():
    p = Program()
    t = p.trace()
    chunks(t).append([18, 0, 1, 99, ''])
    return p.dcfg(), t


@pair('n_dtrc_pair_join', 'a chunk EXIT then ENTRY: END is not START (ruling 13)',
      errors=['DTRC-PAIR-JOIN'], ruling='ruling 13')
def pair_join():
    p = Program()
    t = p.trace()
    tproc(t)[2].append([6, '', [1]])
    chunks(t).append([18, p.instrs(13), 2, 6, ''])
    return p.dcfg(), t


@pair('n_dtrc_pair_instr_count', 'the second chunk says 13 instructions; its edges\' source '
      'blocks have 12 (ruling 13)', errors=['DTRC-PAIR-INSTR-COUNT'], ruling='ruling 13')
def pair_instr_count():
    p = Program()
    t = p.trace()
    chunks(t)[2][1] += 1
    return p.dcfg(), t


@pair('n_dtrc_pair_dcfg_broken', 'a DCFG with an edge to an unknown node and a valid trace: '
      'the DCFG\'s findings are reported (ruling 12)', errors=['DCFG-NODE-REF'],
      ruling='ruling 12')
def pair_dcfg_broken():
    p = Program()
    d = p.dcfg()
    proc(d)['EDGES'].append([8, 13, 99, ET['RETURN'], [0]])
    return d, p.trace()


def register(add):
    for name, group, fmt, ext, make, how, kind, expect in CASES:
        add(name, make, how, kind, group=group, fmt=fmt, ext=ext, **expect)
