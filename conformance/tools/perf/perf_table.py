"""The SiFive perf conformance cases: conformance/cases/perf/{y,n,i}_perf_*.

Each case is one file: a Nexus trace (.rtd) or a text message list (.itc);
the container follows the name (spec/perf/perf.md, "Containers"), and every case
is run with the format perf and the default options (SRC of 0 bits, channel
6, the marker 0x70657266). Expectations come from spec/perf/perf.md (its rulings,
cited as "ruling N") and the rule catalogue (spec/perf/rules.def), decided
before running anything. Generated cases come from `tracecheck gen perf`;
hand-made ones from the functions below, built with tools/perf/perfcase.py:
corner cases the rulings settle, several where SiFive's decoder behaves
otherwise (conformance/xfail/dqr.txt, docs/dqr.md).

make-cases calls register(add) with its own add().
"""

import perfcase as P
from perfcase import DELTA, ENTRY, EXIT, ISR, MANUAL, MARKER, RAW, XOR, Counter, Trace

GROUP = 'perf'
CASES = []  # (name, ext, make, how, kind, expect)


def _expect(expect):
    return {k: v for k, v in expect.items() if v is not None}


# ---------------------------------------------------------------- generated

SMALL = '--size 300'


def gen(name, args, desc, container='rtd', **expect):
    """A case from `tracecheck gen perf ARGS --container C`."""
    full = '%s --container %s' % (args, 'text' if container == 'itc' else 'rtd')
    CASES.append((name, container, lambda ctx, a=full: ctx.gen(a, 'perf'),
                  'tracecheck gen perf %s -o %s.%s' % (full, name, container), 'generated',
                  _expect(dict(expect, desc=desc))))


def violate(name, rule, seed, desc, container='rtd', warning=False, note=False, args='',
            ruling=None):
    a = '--violate %s --seed %d %s%s' % (rule, seed, SMALL, ' ' + args if args else '')
    if note:
        gen(name, a, desc, container, notes=[rule], pedantic=True, ruling=ruling)
    elif warning:
        gen(name, a, desc, container, warnings=[rule], ruling=ruling)
    else:
        gen(name, a, desc, container, errors=[rule], ruling=ruling)


# Valid traces: each count type in both containers, and the shapes the
# generator draws from its seed (seed 9: mask 0; seed 27: addresses and
# counter values over 32 bits; seed 7: function entry and exit records).
for ct, seed in (('raw', 2), ('delta', 3), ('xor', 1)):
    for container in ('rtd', 'itc'):
        gen('y_perf_gen_%s_%s' % (ct, container), '--count-type %s --seed %d %s'
            % (ct, seed, SMALL),
            'a generated %s trace, count type %s: a header and a few records'
            % ('Nexus' if container == 'rtd' else 'text-list', ct), container,
            ruling='rulings 1, 7')
gen('y_perf_gen_mask_zero', '--seed 9 %s' % SMALL, 'a generated trace whose counter mask is 0: '
    'entry and exit records of addresses only, some over 32 bits', ruling='ruling 3')
gen('y_perf_gen_mask_zero_itc', '--seed 13 %s' % SMALL, 'a generated text list whose counter '
    'mask is 0: timer ISR records of one address', 'itc', ruling='ruling 3')
gen('y_perf_gen_wide_values', '--seed 27 %s' % SMALL, 'a generated trace with 64-bit addresses '
    '(low word bit 0 set, a high word) and counter values over 32 bits (a 16-bit high part)')
gen('y_perf_gen_entry_exit', '--seed 7 %s' % SMALL,
    'a generated trace of function entry and exit records, count type delta XOR, the calls '
    'written as the writers write them', ruling='rulings 6, 15')

violate('y_perf_gen_mid_start', 'PERF-NEXUS-MID-START', 1, 'a generated trace that starts '
        'inside a message, as a wrapped buffer does: a warning', warning=True,
        ruling='ruling 12')
violate('y_perf_gen_second_header', 'PERF-SECOND-HEADER', 1, 'a generated trace with a second '
        'header in the middle (a second perfTraceOn()): valid, a pedantic note', note=True,
        ruling='ruling 4')
violate('y_perf_gen_second_header_itc', 'PERF-SECOND-HEADER', 2, 'a generated text list with a '
        'second header in the middle: valid, a pedantic note', 'itc', note=True,
        ruling='ruling 4')
violate('y_perf_gen_no_data', 'PERF-NO-DATA', 1, 'a generated Nexus trace of other traffic '
        'only: no perf-channel message, a warning', warning=True, ruling='ruling 11')
violate('y_perf_gen_no_data_itc', 'PERF-NO-DATA', 1, 'a generated text list without a '
        'perf-channel message: a warning', 'itc', warning=True, ruling='ruling 11')
violate('y_perf_gen_no_header_itc', 'PERF-NO-HEADER', 2, 'a generated text list of records '
        'without a header: a warning, the records are not judged', 'itc', warning=True,
        ruling='ruling 14')
gen('y_perf_gen_before_header_wrapped', '--violate PERF-BEFORE-HEADER-WRAPPED --seed 1 %s'
    % SMALL, 'a generated wrapped buffer (it starts inside a message) with a record before its '
    'first header: two warnings', warnings=['PERF-NEXUS-MID-START',
                                           'PERF-BEFORE-HEADER-WRAPPED'], ruling='rulings 12, 14')
for rule, seed, what, ruling in (
        ('PERF-ADDRESS-HIGH-ZERO', 1, 'a 32-bit address written with a high word of 0', None),
        ('PERF-COUNTER-HIGH-ZERO', 2, 'a counter value followed by a 16-bit high part of 0',
         'ruling 8'),
        ('PERF-RECORD-TRUNCATED', 1, 'a trace that ends inside its last record', 'ruling 5'),
        ('PERF-MIXED-RECORDS', 1, 'a record of another kind than the others', 'ruling 6'),
        ('PERF-RAW-BACKWARDS', 2, 'a raw counter value below the one before', 'ruling 6'),
        ('PERF-CALL-STACK', 7, 'an exit record whose call site is not its entry\'s',
         'ruling 6'),
        ('PERF-NEXUS-TRUNCATED', 1, 'a file that ends inside a message (a capture stopped '
         'there)', 'ruling 13'),
        ('PERF-NO-HEADER', 1, 'records but no header anywhere', 'ruling 14')):
    violate('y_perf_gen_' + rule[5:].lower().replace('-', '_'), rule, seed,
            'a generated trace with %s: a warning' % what, warning=True, ruling=ruling)

for rule, seed, what, container, ruling in (
        ('PERF-NEXUS-MESSAGE-LONG', 1, 'a 65-byte message', 'rtd', 'ruling 1'),
        ('PERF-NEXUS-DA-FIELDS', 1, 'another channel\'s Data Acquisition message without its '
         'DQDATA', 'rtd', 'ruling 12'),
        ('PERF-NEXUS-FIELD-WIDTH', 1, 'a DQDATA field of over 64 bits', 'rtd', None),
        ('PERF-TEXT-SYNTAX', 1, 'a line that is not IDTAG VALUE [TIMESTAMP]', 'itc', 'ruling 1'),
        ('PERF-ITC-WIDTH-CODE', 1, 'a perf-channel IDTAG of width code 1', 'rtd', 'ruling 2'),
        ('PERF-ITC-VALUE-WIDTH', 1, 'an 8-bit write of a value over 0xff', 'rtd', None),
        ('PERF-BEFORE-HEADER', 1, 'a record before the first header', 'rtd', 'ruling 4'),
        ('PERF-BEFORE-HEADER', 2, 'a record before the first header', 'itc', 'ruling 4'),
        ('PERF-HEADER-WIDTH', 1, 'a count type written as a 32-bit write', 'rtd', 'ruling 2'),
        ('PERF-HEADER-WIDTH', 3, 'the marker written as a 16-bit write', 'itc', 'ruling 16'),
        ('PERF-HEADER-INTERLEAVED', 1, 'a record\'s type and address written inside a header',
         'rtd', 'ruling 18'),
        ('PERF-HEADER-INTERLEAVED', 2, 'a record\'s type and address written inside a header',
         'itc', 'ruling 18'),
        ('PERF-COUNT-TYPE', 1, 'a count type over 2', 'rtd', 'ruling 3'),
        ('PERF-COUNT-TYPE', 2, 'a count type over 2', 'itc', 'ruling 3'),
        ('PERF-OPENSBI-TYPE', 1, 'an OpenSBI type over 2', 'rtd', 'ruling 3'),
        ('PERF-HEADER-TRUNCATED', 1, 'a trace that ends inside a header', 'rtd', 'ruling 5'),
        ('PERF-RECORD-START', 1, 'a 32-bit write where a record starts', 'rtd', 'ruling 9'),
        ('PERF-RECORD-TYPE', 1, 'a record of type 4 or more', 'rtd', 'ruling 3'),
        ('PERF-RECORD-TYPE', 2, 'a record of type 4 or more', 'itc', 'ruling 3'),
        ('PERF-WIDTH-16', 1, 'a 16-bit write after an address word', 'rtd', 'ruling 2'),
        ('PERF-RECORD-CUT', 1, 'a record short of its last word', 'rtd', 'ruling 10'),
        ('PERF-RECORD-CUT', 2, 'a record short of its last word', 'itc', 'ruling 10'),
        ('PERF-ADDRESS-WIDTH', 1, 'an address high word written as a 16-bit write', 'rtd',
         'ruling 2'),
        ('PERF-COUNTER-WIDTH', 1, 'a counter value of 2^width', 'rtd', 'rulings 3, 8'),
        ('PERF-COUNTER-WIDTH', 2, 'a counter value of 2^width', 'itc', 'rulings 3, 8')):
    name = 'n_perf_gen_' + rule[5:].lower().replace('-', '_') + ('_itc' if container == 'itc'
                                                                  else '')
    violate(name, rule, seed, 'a generated trace with %s' % what, container, ruling=ruling)


# ---------------------------------------------------------------- hand-made

def hand(name, desc, containers=('rtd',), **expect):
    """Decorator: a hand-made case in each container (a name gets _itc for
    the text list when both are made). The function returns the Trace, or
    the Trace and the index in Trace.messages() of the message the first
    error is at."""
    def register_one(fn):
        for c in containers:
            n = name + ('_itc' if c == 'itc' and len(containers) > 1 else '')
            CASES.append((n, c, _maker(fn, c),
                          'conformance/tools/perf/perf_table.py: %s() with '
                          'conformance/tools/perf/perfcase.py, %s' % (fn.__name__,
                                                                 'Nexus' if c == 'rtd'
                                                                 else 'text list'),
                          'hand-made', _expect(dict(expect, desc=desc))))
        return fn
    return register_one


def _maker(fn, container):
    """make() of a hand-made case (no argument: make-cases passes none)."""
    def make():
        return _write(fn(), container)
    return make


def _write(made, container):
    t, at = made if isinstance(made, tuple) else (made, None)
    if isinstance(t, bytes):  # raw bytes: a file as it is
        return t if at is None else (t, at)
    data = t.nexus() if container == 'rtd' else t.text()
    if at is None:
        return data
    offs = t.offsets() if container == 'rtd' else t.text_offsets()
    return data, offs[at]


def base(count_type=RAW, counters=None):
    """A header of two 64-bit counters (cycles at mask bit 0, time at bit 1)
    and one manual record."""
    t = Trace()
    t.comment('header: count type %d, counters 0 and 1' % count_type)
    t.header(count_type, P.two_counters() if counters is None else counters, ts=0x1000)
    t.comment('a manual record at 0x80001000')
    t.record(MANUAL, [0x80001000], [1000, 2000][:len(t.counters)], ts=0x10)
    return t


def here(t):
    """The index in messages() of the next message."""
    return len(t.messages())


# -- y_: valid traces of several shapes

@hand('y_perf_manual_raw', 'a header of two counters and three manual records, raw values',
      ('rtd', 'itc'), ruling='ruling 7')
def manual_raw():
    t = base()
    t.record(MANUAL, [0x80001010], [1500, 2600])
    t.record(MANUAL, [0x80001020], [1900, 3100])
    return t


@hand('y_perf_delta_running_sum', 'delta records: the dump decodes running sums from 0, modulo '
      'a 40-bit counter\'s width', ('rtd', 'itc'), ruling='rulings 7 and 19: running values are '
      'relative to the counts at perfTraceOn()')
def delta_running_sum():
    t = Trace()
    t.header(DELTA, [Counter(0, code=1, width=64), Counter(3, opensbi=2, event=0x100000001,
                                                           width=40)])
    t.record(MANUAL, [0x80001000], [5, (1 << 40) - 2])
    t.record(MANUAL, [0x80001000], [7, 5])   # counter 3 wraps: (2^40 - 2 + 5) mod 2^40 = 3
    return t


@hand('y_perf_xor_running', 'delta XOR records: the dump decodes the running XOR; addresses are '
      'judged as written (plain), as the writers send them', ('rtd', 'itc'), ruling='ruling 7')
def xor_running():
    t = Trace()
    t.header(XOR, P.two_counters())
    t.record(MANUAL, [0x80001000], [0x10, 0x100])
    t.record(MANUAL, [0x123480002000], [0x11, 0x300])
    t.record(MANUAL, [0x80001000], [0x1, 0x300])
    return t


@hand('y_perf_mask_zero', 'a header with a counter mask of 0: records of addresses only',
      ('rtd', 'itc'), ruling='ruling 3')
def mask_zero():
    t = Trace()
    t.header(RAW, [])
    t.record(ISR, [0x80001000], [])
    t.record(ISR, [0x80001004], [])
    return t


@hand('y_perf_entry_exit', 'function entry and exit records that nest as calls and returns, '
      'as the writers write them (the function, then the call site in its caller; an exit '
      'repeats its entry\'s addresses), with an address over 32 bits', ('rtd', 'itc'),
      ruling='rulings 6, 15')
def entry_exit():
    t = Trace()
    t.header(RAW, [Counter(0, code=1, width=64)])
    f, g = 0x80000200, 0x100000300
    in_main, in_f = 0x8000011c, 0x80000246   # call sites: in main, in f
    t.record(ENTRY, [f, in_main], [10])
    t.record(ENTRY, [g, in_f], [20])
    t.record(EXIT, [g, in_f], [30])
    t.record(EXIT, [f, in_main], [40])
    return t


@hand('y_perf_exit_without_entry', 'exit records before any entry (the trace began inside those '
      'functions), then a call: valid', ('rtd', 'itc'), ruling='rulings 6, 15')
def exit_without_entry():
    t = Trace()
    t.header(RAW, [Counter(0, code=1, width=64)])
    t.record(EXIT, [0x80000300, 0x8000022a], [10])
    t.record(EXIT, [0x80000200, 0x80000112], [20])
    t.record(ENTRY, [0x80000400, 0x80000130], [30])
    t.record(EXIT, [0x80000400, 0x80000130], [40])
    return t


@hand('y_perf_opensbi_types', 'counters of OpenSBI types 0, 1 and 2 (two event_data words), '
      'widths 1, 48 and 64, CSR 0 for the time', ('rtd', 'itc'))
def opensbi_types():
    t = Trace()
    t.header(RAW, [Counter(0, opensbi=0, code=1, width=64),
                   Counter(1, opensbi=1, code=0, csr=0, width=1),
                   Counter(31, opensbi=2, event=0xffffffff00000001, width=48)])
    t.record(MANUAL, [0x80001000], [1, 1, (1 << 48) - 1])
    return t


@hand('y_perf_marker_as_counter_value', 'a counter value equal to the marker 0x70657266 inside '
      'a record is a value, not a header', ('rtd', 'itc'), ruling='ruling 9')
def marker_as_counter_value():
    t = base()
    t.record(MANUAL, [0x80001010], [MARKER, MARKER])
    t.record(MANUAL, [0x80001020], [MARKER + 1, MARKER + 2])
    return t


@hand('y_perf_marker_as_address', 'an address equal to the marker 0x70657266 (bit 0 clear: one '
      'word) is an address, not a header', ruling='ruling 9')
def marker_as_address():
    t = base()
    t.record(MANUAL, [MARKER], [1100, 2100])
    return t


@hand('y_perf_end_after_low_word', 'a trace that ends right after the last counter\'s low word: '
      'the record is whole (no 16-bit part follows)', ruling='ruling 5')
def end_after_low_word():
    return base()


@hand('y_perf_end_inside_record', 'a trace that ends inside a record, after its address: a '
      'warning, the record is dropped', ('rtd', 'itc'), warnings=['PERF-RECORD-TRUNCATED'],
      ruling='ruling 5')
def end_inside_record():
    t = base()
    t.w8(MANUAL)
    t.address(0x80001010)
    return t


@hand('y_perf_two_headers', 'a second header with another count type restarts the '
      'configuration and the running values: valid, with the pedantic note',
      ('rtd', 'itc'), notes=['PERF-SECOND-HEADER'], pedantic=True, ruling='ruling 4')
def two_headers():
    t = base()
    t.header(DELTA, [Counter(2, code=2, width=64)])
    t.record(MANUAL, [0x80001010], [5])
    t.record(MANUAL, [0x80001020], [6])
    return t


@hand('y_perf_two_headers_not_pedantic', 'a second header without --pedantic: no finding',
      ruling='ruling 4')
def two_headers_not_pedantic():
    return two_headers()


@hand('y_perf_counter_high_zero', 'a counter value under 2^32 followed by a 16-bit high part of '
      '0 (a value over 48 bits the writer truncated): a warning',
      warnings=['PERF-COUNTER-HIGH-ZERO'], ruling='ruling 8')
def counter_high_zero():
    t = base()
    t.w8(MANUAL)
    t.address(0x80001010)
    t.w32(1100)
    t.w16(0)
    t.w32(2100)
    return t


@hand('y_perf_address_high_zero', 'an address written as a low word with bit 0 set and a high '
      'word of 0: a warning', warnings=['PERF-ADDRESS-HIGH-ZERO'])
def address_high_zero():
    t = base()
    t.w8(MANUAL)
    t.w32(0x80001011)
    t.w32(0)
    t.value(1100)
    t.value(2100)
    return t


@hand('y_perf_mixed_records', 'a manual record among timer ISR records: a warning',
      warnings=['PERF-MIXED-RECORDS'], ruling='ruling 6')
def mixed_records():
    t = base()
    t.record(ISR, [0x80001010], [1100, 2100])
    return t


@hand('y_perf_raw_backwards', 'a raw counter value below the one before: a warning',
      warnings=['PERF-RAW-BACKWARDS'], ruling='ruling 6')
def raw_backwards():
    t = base()
    t.record(MANUAL, [0x80001010], [999, 2100])
    return t


@hand('y_perf_entry_never_exited', 'entries never exited (the trace stops inside those '
      'functions): valid, no finding', ('rtd', 'itc'), ruling='ruling 17')
def entry_never_exited():
    t = Trace()
    t.header(RAW, [Counter(0, code=1, width=64)])
    t.record(ENTRY, [0x80000200, 0x8000011c], [10])
    t.record(ENTRY, [0x80000300, 0x8000021a], [20])
    t.record(EXIT, [0x80000300, 0x8000021a], [30])
    t.record(ENTRY, [0x80000400, 0x80000232], [40])
    return t


@hand('y_perf_call_stack_exit_unopened', 'an exit record of a function never entered, while '
      'a call of another is open: a warning', warnings=['PERF-CALL-STACK'], ruling='ruling 6')
def call_stack_exit_unopened():
    t = Trace()
    t.header(RAW, [Counter(0, code=1, width=64)])
    t.record(ENTRY, [0x80000200, 0x8000011c], [10])
    t.record(EXIT, [0x80000300, 0x8000020e], [20])
    return t


@hand('y_perf_call_stack_wrong_call_site', 'an exit record of the function entered, for another '
      'call site than its entry\'s: a warning', ('rtd', 'itc'), warnings=['PERF-CALL-STACK'],
      ruling='rulings 6 and 17')
def call_stack_wrong_call_site():
    t = Trace()
    t.header(RAW, [Counter(0, code=1, width=64)])
    t.record(ENTRY, [0x80000200, 0x8000011c], [10])
    t.record(ENTRY, [0x80000300, 0x8000021a], [20])
    t.record(EXIT, [0x80000300, 0x8000021e], [30])
    t.record(EXIT, [0x80000200, 0x8000011c], [40])
    return t


@hand('y_perf_call_stack_doc_order', 'entry and exit records written as the Doc describes them '
      '(the current function, then the function control moves to), which is not what the '
      'writers write: the exits do not match, a warning', ('rtd', 'itc'),
      warnings=['PERF-CALL-STACK'], ruling='rulings 6, 15')
def call_stack_doc_order():
    t = Trace()
    t.header(RAW, [Counter(0, code=1, width=64)])
    main, f = 0x80000100, 0x80000200
    t.record(ENTRY, [main, f], [10])
    t.record(EXIT, [f, main], [20])
    return t


@hand('y_perf_empty', 'an empty file: no perf-channel message, a warning', ('rtd', 'itc'),
      warnings=['PERF-NO-DATA'], ruling='ruling 11')
def empty():
    return b''


@hand('y_perf_other_channel_only', 'a complete header and record written on ITC channel 5, not '
      'the perf channel 6: a warning', ('rtd', 'itc'), warnings=['PERF-NO-DATA'],
      ruling='ruling 11')
def other_channel_only():
    t = Trace(channel=5)
    t.header(RAW, P.two_counters())
    t.record(MANUAL, [0x80001000], [1, 2])
    return t


@hand('y_perf_other_channels_interleaved', 'messages of channels 0 and 5 and an IDTAG of 128 '
      '(no stimulus register) between the perf channel\'s: skipped', ('rtd', 'itc'),
      ruling='ruling 1')
def other_channels_interleaved():
    t = Trace()
    t.msg(P.tag(32, 0), 0x41424344)
    t.header(RAW, P.two_counters())
    t.msg(P.tag(8, 5), 0x7)
    t.w8(MANUAL)
    t.msg(0x80, 0x123456789)
    t.address(0x80001000)
    t.msg(P.tag(16, 0), 0xffff)
    t.value(1000)
    t.value(2000)
    return t


# -- y_: the Nexus container

@hand('y_perf_nexus_idle_and_other_tcodes', 'idle 0xFF bytes between messages and messages of '
      'other TCODEs (ownership, sync) are skipped', ruling='ruling 1')
def nexus_idle_and_other_tcodes():
    t = Trace()
    t.nexus_bytes(P.message(2, [0x1234]))            # ownership
    t.header(RAW, P.two_counters())
    t.nexus_bytes(b'\xff\xff\xff')
    t.nexus_bytes(P.message(9, [0, 0x80001000, 0xabcdef]))  # a sync with three fields
    t.record(MANUAL, [0x80001000], [1000, 2000])
    return t


@hand('y_perf_nexus_padded_fields', 'Data Acquisition fields padded with zero bytes (an encoder '
      'may pad): read as their values', ruling='spec/perf/perf.md, Nexus')
def nexus_padded_fields():
    t = Trace()
    t.header(RAW, P.two_counters())
    data = t.nexus()
    data += P.da_message(P.tag(8), MANUAL, pad=(3, 4, 1))
    data += P.da_message(P.tag(32), 0x80001000, ts=5, pad=(2, 11, 3))
    data += P.da_message(P.tag(32), 1000, pad=(1, 1, 1))
    data += P.da_message(P.tag(32), 2000, pad=(4, 4, 1))
    return data


@hand('y_perf_nexus_mid_start', 'a file that starts with the last bytes of a message (0x00, a '
      'field end, a message end), as a wrapped buffer does: a warning',
      warnings=['PERF-NEXUS-MID-START'], ruling='ruling 12')
def nexus_mid_start():
    t = base()
    return b'\x00\x61\x03' + t.nexus()


@hand('y_perf_before_header_wrapped', 'a wrapped buffer (it starts inside a message) whose first '
      'perf-channel messages are a record\'s tail and a whole record before the first header: '
      'warnings, no error', warnings=['PERF-NEXUS-MID-START', 'PERF-BEFORE-HEADER-WRAPPED'],
      ruling='rulings 12, 14')
def before_header_wrapped():
    t = Trace()
    t.w32(1234)                       # the last counter of a record whose start was overwritten
    t.record(MANUAL, [0x80001000], [1100, 2100])
    t.header(RAW, P.two_counters())
    t.record(MANUAL, [0x80001010], [1200, 2200])
    return b'\x00\x61\x03' + t.nexus()


@hand('y_perf_nexus_truncated', 'a file that ends inside a message (no byte with MSEO 3), after '
      'a whole record: the capture stopped there, a warning; the incomplete message is not '
      'decoded', warnings=['PERF-NEXUS-TRUNCATED'], ruling='ruling 13')
def nexus_truncated():
    t = base()
    t.nexus_bytes(P.da_message(P.tag(8), MANUAL)[:-1])
    return t.nexus()


@hand('y_perf_nexus_truncated_in_record', 'a capture that stopped inside the message of a '
      'record\'s counter value: the message and the record are both cut short, two warnings',
      warnings=['PERF-NEXUS-TRUNCATED', 'PERF-RECORD-TRUNCATED'], ruling='rulings 5, 13')
def nexus_truncated_in_record():
    t = base()
    t.w8(MANUAL)
    t.address(0x80001010)
    t.w32(1100)
    t.nexus_bytes(P.da_message(P.tag(32), 2100)[:3])
    return t.nexus()


@hand('y_perf_nexus_truncated_other_tcode', 'a capture that stopped inside an instruction-trace '
      'message (TCODE 3), as SiFive\'s 4 KiB decoder-test captures do: a warning',
      warnings=['PERF-NEXUS-TRUNCATED'], ruling='ruling 13')
def nexus_truncated_other_tcode():
    t = base()
    t.nexus_bytes(P.message(3, [0x12, 0x3456])[:2])
    return t.nexus()


# -- n_: the Nexus container

@hand('n_perf_nexus_da_without_dqdata_other_channel', 'a Data Acquisition message of ITC channel '
      '3 that ends after its IDTAG: a framing error whatever the channel',
      errors=['PERF-NEXUS-DA-FIELDS'], ruling='ruling 12')
def nexus_da_without_dqdata_other_channel():
    t = base()
    at = len(t.nexus())
    t.nexus_bytes(bytes([P.DA << 2, (3 * 4) << 2 | 3]))
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t.nexus(), at


@hand('n_perf_nexus_da_tcode_only', 'a one-byte Data Acquisition message (its TCODE byte ends '
      'the message): IDTAG and DQDATA are missing', errors=['PERF-NEXUS-DA-FIELDS'],
      ruling='ruling 12')
def nexus_da_tcode_only():
    t = base()
    at = len(t.nexus())
    t.nexus_bytes(bytes([P.DA << 2 | 3]))
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t.nexus(), at


@hand('n_perf_nexus_da_four_fields', 'a perf-channel Data Acquisition message with a fourth '
      'variable field after its TIMESTAMP', errors=['PERF-NEXUS-DA-FIELDS'], ruling='ruling 12')
def nexus_da_four_fields():
    t = base()
    at = len(t.nexus())
    # TCODE, then IDTAG 0x1b, DQDATA 2, TIMESTAMP 5 and a fourth field 1.
    t.nexus_bytes(bytes([P.DA << 2, 0x1b << 2 | 1, 2 << 2 | 1, 5 << 2 | 1, 1 << 2 | 3]))
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t.nexus(), at


@hand('n_perf_nexus_field_65_bits', 'a DQDATA field with bit 64 set', errors=[
      'PERF-NEXUS-FIELD-WIDTH'], ruling='spec/perf/perf.md, Nexus')
def nexus_field_65_bits():
    t = base()
    at = len(t.nexus())
    t.nexus_bytes(P.da_message(P.tag(32), 1 << 64))
    return t.nexus(), at


@hand('n_perf_nexus_message_65_bytes', 'a message of 65 bytes: 64 bytes with MSEO 0, then its '
      'end', errors=['PERF-NEXUS-MESSAGE-LONG'], ruling='ruling 1')
def nexus_message_65_bytes():
    t = base()
    at = len(t.nexus())
    t.nexus_bytes(bytes([9 << 2]) + bytes([0x04] * 63) + b'\x07')
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t.nexus(), at


@hand('n_perf_nexus_truncated_in_header', 'a capture that stopped inside a header\'s message: '
      'the cut message is a warning (ruling 13), the header cut by the end an error (ruling 5)',
      errors=['PERF-HEADER-TRUNCATED'], warnings=['PERF-NEXUS-TRUNCATED'],
      ruling='rulings 5, 13')
def nexus_truncated_in_header():
    t = Trace()
    t.w32(MARKER)
    t.w8(RAW)
    t.nexus_bytes(P.da_message(P.tag(32), 3)[:2])
    return t.nexus(), 0


# -- n_: ITC writes

@hand('n_perf_idtag_width_code_1', 'a perf-channel message with IDTAG 0x19 (width code 1)',
      ('rtd', 'itc'), errors=['PERF-ITC-WIDTH-CODE'], ruling='ruling 2')
def idtag_width_code_1():
    t = base()
    at = here(t)
    t.msg(0x19, 2)
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t, at


@hand('n_perf_value_over_write_width', 'a 16-bit write of 0x10000, a value over its width',
      ('rtd', 'itc'), errors=['PERF-ITC-VALUE-WIDTH'])
def value_over_write_width():
    t = base()
    t.w8(MANUAL)
    t.address(0x80001010)
    t.w32(1100)
    at = here(t)
    t.w16(0x10000)
    t.w32(2100)
    return t, at


@hand('n_perf_width_code_1_before_header', 'a perf-channel message with IDTAG 0x19 (width code '
      '1) before the first header: judged when the header comes', ('rtd', 'itc'),
      errors=['PERF-ITC-WIDTH-CODE'], ruling='rulings 2, 14')
def width_code_1_before_header():
    t = Trace()
    t.msg(0x19, 2)
    t.header(RAW, P.two_counters())
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t, 0


# -- n_ and y_: headers

@hand('n_perf_record_before_header', 'a manual record before the first header',
      ('rtd', 'itc'), errors=['PERF-BEFORE-HEADER'], ruling='rulings 4, 14')
def record_before_header():
    t = Trace()
    t.record(MANUAL, [0x80001000], [])
    t.header(RAW, P.two_counters())
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t, 0


@hand('y_perf_no_header', 'manual records and no header anywhere: not perf data as far as can '
      'be told, a warning, the records are not judged', ('rtd', 'itc'),
      warnings=['PERF-NO-HEADER'], ruling='ruling 14')
def no_header():
    t = Trace()
    t.record(MANUAL, [0x80001000], [1000, 2000])
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t


@hand('y_perf_no_header_printf', 'ITC channel 6 used for printf-style output (text in 32-bit '
      'and 8-bit writes, a 16-bit write, IDTAG 0x19 of width code 1, a value wider than its '
      'write), as in SiFive\'s decoder tests, and no header: one warning, no error of any kind',
      ('rtd', 'itc'), warnings=['PERF-NO-HEADER'], ruling='ruling 14')
def no_header_printf():
    t = Trace()
    text = b'Hello, world!\n'
    for i in range(0, len(text) - len(text) % 4, 4):
        t.w32(int.from_bytes(text[i:i + 4], 'little'))
    for c in text[len(text) - len(text) % 4:]:
        t.w8(c)
    t.w16(0x0a0d)
    t.msg(0x19, 0x41)
    t.w8(0x1234)
    return t


@hand('n_perf_count_type_3', 'a count type of 3', ('rtd', 'itc'), errors=['PERF-COUNT-TYPE'],
      ruling='ruling 3')
def count_type_3():
    t = Trace()
    t.header(3, P.two_counters())
    return t, 1


@hand('n_perf_count_type_32bit', 'a count type of 0 written as a 32-bit write',
      errors=['PERF-HEADER-WIDTH'], ruling='ruling 2')
def count_type_32bit():
    t = Trace()
    t.w32(MARKER)
    t.w32(RAW)
    return t, 1


@hand('n_perf_mask_8bit', 'a counter mask of 0x13 written as an 8-bit write',
      errors=['PERF-HEADER-WIDTH'], ruling='ruling 2')
def mask_8bit():
    t = Trace()
    t.w32(MARKER)
    t.w8(RAW)
    t.w8(0x13)   # not 0 to 3, which would be a record's type (ruling 18)
    return t, 2


@hand('n_perf_marker_16bit', 'the marker 0x70657266 written as a 16-bit write before a valid '
      'header: a header appearing whose marker has the wrong width, not an ITC value width',
      ('rtd', 'itc'), errors=['PERF-HEADER-WIDTH'], ruling='rulings 2 and 16')
def marker_16bit():
    t = Trace()
    t.w16(MARKER)
    t.header(RAW, P.two_counters())
    t.record(MANUAL, [0x80001000], [1000, 2000])
    return t, 0


@hand('n_perf_marker_8bit_only', 'records after the marker written as an 8-bit write, and no '
      'other header: the channel carries perf data (no PERF-NO-HEADER), the header is abandoned '
      'and the records wait', ('rtd', 'itc'), errors=['PERF-HEADER-WIDTH'],
      ruling='rulings 2 and 16')
def marker_8bit_only():
    t = Trace()
    t.w8(MARKER)
    t.w8(RAW)
    t.w32(3)
    t.record(MANUAL, [0x80001000], [1000, 2000])
    return t, 0


@hand('n_perf_marker_16bit_after_record', 'the marker as a 16-bit write where a record or '
      'header is due, after a complete record: a header appearing with the wrong width',
      errors=['PERF-HEADER-WIDTH'], ruling='rulings 2 and 16')
def marker_16bit_after_record():
    t = base()
    at = here(t)
    t.w16(MARKER)
    t.record(MANUAL, [0x80001010], [1100, 2100])
    return t, at


@hand('n_perf_header_interleaved_isr', 'a timer ISR record written inside a header, after its '
      'counter mask (the timer ISR\'s race): the message names the record', ('rtd', 'itc'),
      errors=['PERF-HEADER-INTERLEAVED'], ruling='ruling 18')
def header_interleaved_isr():
    t = Trace()
    counters = P.two_counters()
    t.w32(MARKER)
    t.w8(RAW)
    t.w32(3)
    at = here(t)
    t.record(ISR, [0x80001000], [])
    for c in sorted(counters, key=lambda c: c.index):
        for w in c.words():
            t.w32(w)
    t.record(ISR, [0x80001004], [1000, 2000])
    return t, at


@hand('n_perf_header_interleaved_entry', 'a function entry record written between two counter '
      'definitions of a header', errors=['PERF-HEADER-INTERLEAVED'], ruling='ruling 18')
def header_interleaved_entry():
    t = Trace()
    counters = sorted(P.two_counters(), key=lambda c: c.index)
    t.w32(MARKER)
    t.w8(RAW)
    t.w32(3)
    for w in counters[0].words():
        t.w32(w)
    at = here(t)
    t.record(ENTRY, [0x80000200, 0x8000011c], [])
    for w in counters[1].words():
        t.w32(w)
    return t, at


@hand('n_perf_opensbi_type_3', 'a counter definition of OpenSBI type 3', ('rtd', 'itc'),
      errors=['PERF-OPENSBI-TYPE'], ruling='ruling 3')
def opensbi_type_3():
    t = Trace()
    t.header(RAW, [Counter(0, opensbi=3, code=1)])
    return t, 3


@hand('n_perf_end_inside_header', 'a trace that ends inside a header, after the count type and '
      'mask', ('rtd', 'itc'), errors=['PERF-HEADER-TRUNCATED'], ruling='ruling 5')
def end_inside_header():
    t = Trace()
    t.w32(MARKER)
    t.w8(RAW)
    t.w32(3)
    return t


# -- n_: records

@hand('n_perf_record_type_4', 'a record of type 4 (SiFive\'s decoder never checks it)',
      ('rtd', 'itc'), errors=['PERF-RECORD-TYPE'], ruling='ruling 3')
def record_type_4():
    t = base()
    at = here(t)
    t.record(4, [0x80001010], [1100, 2100])
    return t, at


@hand('n_perf_record_type_32bit', 'a record type written as a 32-bit write (not the marker)',
      errors=['PERF-RECORD-START'], ruling='rulings 2, 9')
def record_type_32bit():
    t = base()
    at = here(t)
    t.w32(MANUAL)
    return t, at


@hand('n_perf_width16_after_type', 'a 16-bit write right after a record type',
      ('rtd', 'itc'), errors=['PERF-WIDTH-16'], ruling='ruling 2')
def width16_after_type():
    t = base()
    t.w8(MANUAL)
    at = here(t)
    t.w16(1)
    t.address(0x80001010)
    t.value(1100)
    t.value(2100)
    return t, at


@hand('n_perf_width16_twice', 'two 16-bit writes after a counter\'s low word', errors=[
      'PERF-WIDTH-16'], ruling='ruling 2')
def width16_twice():
    t = base()
    t.w8(MANUAL)
    t.address(0x80001010)
    t.w32(1100)
    t.w16(1)
    at = here(t)
    t.w16(1)
    t.value(2100)
    return t, at


@hand('n_perf_address_high_16bit', 'an address\'s high word written as a 16-bit write',
      errors=['PERF-ADDRESS-WIDTH'], ruling='ruling 2')
def address_high_16bit():
    t = base()
    t.w8(MANUAL)
    t.w32(0x80001011)
    at = here(t)
    t.w16(0x1234)
    t.value(1100)
    t.value(2100)
    return t, at


@hand('n_perf_record_cut_by_type', 'a record cut short by the next record\'s 8-bit type while '
      'a counter word is still expected', ('rtd', 'itc'), errors=['PERF-RECORD-CUT'],
      ruling='ruling 10')
def record_cut_by_type():
    t = base()
    t.w8(MANUAL)
    t.address(0x80001010)
    t.value(1100)
    t.record(MANUAL, [0x80001020], [1200, 2200])
    return t


@hand('n_perf_counter_width_1bit', 'a counter of width 1 holding 2', errors=[
      'PERF-COUNTER-WIDTH'], ruling='ruling 3')
def counter_width_1bit():
    t = Trace()
    t.header(RAW, [Counter(1, code=0, csr=0, width=1)])
    t.record(MANUAL, [0x80001000], [1])
    t.record(MANUAL, [0x80001000], [2])
    return t


@hand('n_perf_linux_delta_2_pow_width', 'delta mode: a 40-bit counter whose delta is 2^40 (the '
      'Linux writer\'s encoding of an unchanged counter)', ('rtd', 'itc'),
      errors=['PERF-COUNTER-WIDTH'], ruling='ruling 8')
def linux_delta_2_pow_width():
    t = Trace()
    t.header(DELTA, [Counter(3, opensbi=2, event=0x42, width=40)])
    t.record(MANUAL, [0x80001000], [100])
    t.record(MANUAL, [0x80001010], [1 << 40])
    return t


@hand('n_perf_xor_delta_above_width', 'delta XOR mode: a 32-bit counter whose XOR delta has bit '
      '32 set (the writers\' wrap handling)', errors=['PERF-COUNTER-WIDTH'], ruling='ruling 8')
def xor_delta_above_width():
    t = Trace()
    t.header(XOR, [Counter(4, opensbi=0, code=4, width=32)])
    t.record(MANUAL, [0x80001000], [0xfffffff0])
    t.record(MANUAL, [0x80001010], [0x1fffffff0])
    return t


# -- n_: the text message list

def text_case(lines, bad_line, column):
    """A text list of a valid header and record, with lines inserted after
    the record's address; returns the bytes and the offset of the first
    error: bad_line (an index into the whole list of lines) and the column
    (from 0) of the offending field or character in it. A syntax error is
    located where the line goes wrong (spec/perf/perf.md: the line and column of
    the offending field), not at its line's start."""
    t = Trace()
    t.header(RAW, P.two_counters())
    t.w8(MANUAL)
    t.address(0x80001000)
    head = t.text().decode().splitlines(True)
    rest = ['0x18 1000\n', '0x18 2000\n']
    all_lines = head + lines + rest
    return (''.join(all_lines).encode(), sum(len(x) for x in all_lines[:bad_line]) + column)


@hand('n_perf_text_extra_field', 'a line of four numbers', ('itc',),
      errors=['PERF-TEXT-SYNTAX'], ruling='spec/perf/perf.md, Text message list')
def text_extra_field():
    return text_case(['0x14 1 2 3\n'], 11, 9)  # the fourth field


@hand('n_perf_text_number_over_64_bits', 'a value of 2^64 (18446744073709551616)', ('itc',),
      errors=['PERF-TEXT-SYNTAX'], ruling='spec/perf/perf.md, Text message list')
def text_number_over_64_bits():
    return text_case(['0x14 18446744073709551616\n'], 11, 5)  # the number


@hand('n_perf_text_nul', 'a NUL byte in a line', ('itc',), errors=['PERF-TEXT-SYNTAX'],
      ruling='spec/perf/perf.md, Text message list')
def text_nul():
    return text_case(['0x14 1\x00\n'], 11, 6)  # the NUL


@hand('n_perf_text_stray_character', 'a number followed by a stray character, "0x14 12z"',
      ('itc',), errors=['PERF-TEXT-SYNTAX'], ruling='spec/perf/perf.md, Text message list')
def text_stray_character():
    return text_case(['0x14 12z\n'], 11, 7)  # the 'z'


@hand('n_perf_text_last_line_one_number', 'a list whose last line, without its line feed, holds '
      'one number (a line cut by the end of the file: the text list has no framing to tell)',
      ('itc',), errors=['PERF-TEXT-SYNTAX'], ruling='ruling 13; spec/perf/perf.md, Text message list')
def text_last_line_one_number():
    t = Trace()
    t.header(RAW, [])
    t.record(MANUAL, [0x80001000], [])
    data = t.text()
    return data + b'0x1b', len(data)


@hand('y_perf_text_forms', 'the forms a text list allows: decimal and 0X numbers in either '
      'case, tabs, comments, blank lines, CR LF, a last line without LF', ('itc',),
      ruling='spec/perf/perf.md, Text message list')
def text_forms():
    return (b'# header\r\n'
            b'24\t0X70657266   # the marker, decimal IDTAG\r\n'
            b'\r\n'
            b'0x1B 0\r\n'
            b'0x18 0x1\n'
            b'  0x18 0 7\n'
            b'0x18 1\n'
            b'0x18 0x3F000\n'
            b'0x1b 2 0xAbC\n'
            b'0x18 2147487744\n'
            b'0x18 0xffffffff\n'
            b'0x1a 0xFFFF')


def register(add):
    for name, ext, make, how, kind, expect in CASES:
        add(name, make, how, kind, group=GROUP, fmt='perf', ext=ext, **expect)
