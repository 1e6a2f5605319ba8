"""The XRay basic-mode conformance cases: conformance/cases/xray-basic/{y,n,i}_xray_basic_*.

Each case is one basic-mode log (.xray), run with the format xray-basic.
Expectations come from spec/xray/xray.md (rulings 13 to 16, and the header's
rulings 1, 3 and 9) and the rule catalogue (spec/xray/rules.def), decided
before running anything. Generated cases come from `tracecheck gen xray
--mode basic`; hand-made ones from the functions below, built with
tools/xray/xraybasiccase.py: corner cases the rulings settle, several where LLVM's
reader behaves otherwise (conformance/xfail/llvm-xray.txt, docs/llvm-xray.md).

make-cases calls register(add) with its own add().
"""

from xraybasiccase import ENTER, ENTER_ARG, EXIT, TAIL_EXIT, Log

GROUP = 'xray-basic'
CASES = []  # (name, make, how, kind, expect)

# Small logs: blocks of 8 records from three threads, about 60 records, so
# that a reviewer can read the whole expected dump.
SMALL = '--size 2000 --buffer-size 256 --threads 3'


def gen(name, args, desc, **expect):
    """A case from `tracecheck gen xray --mode basic ARGS`."""
    full = '--mode basic %s' % args
    CASES.append((name, lambda ctx, a=full: ctx.gen(a, 'xray'),
                  'tracecheck gen xray %s -o %s.xray' % (full, name), 'generated',
                  dict(expect, desc=desc)))


def violate(name, rule, desc, args='', warning=False, note=False, ruling=None, seed=1):
    a = '--violate %s --seed %d %s%s' % (rule, seed, SMALL, ' ' + args if args else '')
    kind = 'notes' if note else 'warnings' if warning else 'errors'
    expect = {kind: [rule], 'ruling': ruling}
    if note:
        expect['pedantic'] = True
    gen(name, a, desc, **{k: v for k, v in expect.items() if v is not None})


def hand(name, desc, **expect):
    """Decorator: a hand-made case. The function returns the bytes, or the
    bytes and the offset of the first error."""
    def register_one(fn):
        CASES.append((name, fn, 'conformance/tools/xray/xray_basic_table.py: %s() with '
                      'conformance/tools/xray/xraybasiccase.py' % fn.__name__, 'hand-made',
                      dict(expect, desc=desc)))
        return fn
    return register_one


# ---------------------------------------------------------------- y_: every version, both byte orders

for v in (1, 2, 3):
    for be in (False, True):
        gen('y_xray_basic_v%d_%s' % (v, 'be' if be else 'le'),
            '--version %d%s --seed %d %s' % (v, ' --big-endian' if be else '', v, SMALL),
            'a valid version %d basic-mode log, %s-endian: blocks of three threads in turn, '
            'argument payloads%s' % (v, 'big' if be else 'little',
                                     ', tail exits' if v >= 2 else ''),
            ruling='ruling 13 (versions 1 to 3, both byte orders)')


@hand('y_xray_basic_v3_header_only', 'a version 3 basic-mode log of just its header (the '
      'runtime writes this when nothing was logged)', ruling='ruling 13')
def header_only():
    return Log().bytes()


@hand('y_xray_basic_v3_argument_chain', 'an EnterArg record followed by two argument payloads '
      'of its function and thread', ruling='ruling 14')
def argument_chain():
    log = Log()
    log.add(log.function(ENTER_ARG, 9, 1000), log.payload(9, 1), log.payload(9, 2**64 - 1),
            log.function(EXIT, 9, 1010))
    return log.bytes()


@hand('y_xray_basic_v2_tail_exit', 'version 2: a tail exit (tail exits came with version 2)',
      ruling='ruling 14')
def v2_tail_exit():
    log = Log(version=2)
    log.add(log.function(ENTER, 1, 100), log.function(ENTER, 2, 110),
            log.function(TAIL_EXIT, 2, 120), log.function(ENTER, 3, 121),
            log.function(EXIT, 3, 130), log.function(EXIT, 1, 140))
    return log.bytes()


@hand('y_xray_basic_v3_blocks_interleaved', 'blocks of two threads in turn: a thread\'s call '
      'stack and TSC carry over to its next block, and the other thread is far behind in time',
      ruling='ruling 15')
def blocks_interleaved():
    log = Log()
    log.add(log.function(ENTER, 1, 5_000_000, tid=7), log.function(ENTER, 2, 5_000_100, tid=7))
    log.add(log.function(ENTER, 3, 1_000, tid=8), log.function(EXIT, 3, 1_050, tid=8))
    log.add(log.function(EXIT, 2, 5_000_200, tid=7), log.function(EXIT, 1, 5_000_300, tid=7))
    log.add(log.function(ENTER_ARG, 4, 2_000, tid=8), log.payload(4, 77, tid=8),
            log.function(EXIT, 4, 2_010, tid=8))
    return log.bytes()


@hand('y_xray_basic_v3_be_arguments', 'a big-endian log with argument payloads, built apart '
      'from the generator', ruling='ruling 13 (both byte orders)')
def be_arguments():
    log = Log(big_endian=True)
    log.add(log.function(ENTER_ARG, 0x01020304, 0x1112131415161718, tid=0x21222324, cpu=9),
            log.payload(0x01020304, 0x3132333435363738, tid=0x21222324),
            log.function(EXIT, 0x01020304, 0x1112131415161790, tid=0x21222324, cpu=9))
    return log.bytes()


@hand('y_xray_basic_v3_be_tsc_bits', 'a big-endian log whose header sets constant TSC and '
      'leaves non-stop TSC clear in the top two bits of its bitfield, where a big-endian '
      'runtime puts them (LLVM reads the bottom two)', ruling='ruling 19: no finding for either '
      'reading; the dump reads the top bits')
def be_tsc_bits():
    log = Log(big_endian=True, nonstop_tsc=False)
    log.add(log.function(ENTER, 1, 100), log.function(EXIT, 1, 110))
    return log.bytes()


def runtime_garbage():
    """What LLVM 19 and 22's runtimes write: the header's bitfield 0xAAAAAAAB
    and its union 0xAA; here also stale bytes in a payload's padding."""
    log = Log(reserved_bits=0xAAAAAAAB >> 2, union=b'\xaa' * 16)
    log.add(log.function(ENTER_ARG, 5, 100), log.payload(5, 3, padding2=b'\xaa\xaa',
                                                         padding=b'\xaa' * 8),
            log.function(EXIT, 5, 200))
    return log.bytes()


CASES.append(('y_xray_basic_v3_runtime_garbage', runtime_garbage,
              'conformance/tools/xray/xray_basic_table.py: runtime_garbage() with '
              'conformance/tools/xray/xraybasiccase.py', 'hand-made',
              dict(ruling='rulings 3 and 14',
                   desc='garbage in the header\'s reserved bits and union and in padding, as '
                        'recent runtimes leave it: no finding')))
CASES.append(('y_xray_basic_v3_runtime_garbage_pedantic', runtime_garbage,
              'conformance/tools/xray/xray_basic_table.py: runtime_garbage() with '
              'conformance/tools/xray/xraybasiccase.py', 'hand-made',
              dict(ruling='rulings 3 and 14', pedantic=True,
                   notes=['XRAY-HEADER-RESERVED-NONZERO', 'XRAY-BASIC-PADDING-NONZERO'],
                   desc='the same log validated with --pedantic: notes only (the union is '
                        'never checked)')))

# ---------------------------------------------------------------- y_: warnings and notes

violate('y_xray_basic_v3_cycle_frequency_zero', 'XRAY-HEADER-CYCLE-FREQUENCY-ZERO',
        'cycle_frequency 0 in a basic-mode header: a warning, the log is valid', warning=True,
        ruling='rulings 9 and 20')
violate('y_xray_basic_v3_tsc_backwards', 'XRAY-BASIC-TSC-BACKWARDS',
        'a thread\'s TSC goes down from one record to the next: a warning', warning=True,
        ruling='ruling 15')
violate('y_xray_basic_v2_callstack_mismatch', 'XRAY-BASIC-CALLSTACK-MISMATCH',
        'an exit that does not match the thread\'s innermost open entry: a warning',
        args='--version 2', warning=True, ruling='ruling 15')
violate('y_xray_basic_v3_padding_nonzero', 'XRAY-BASIC-PADDING-NONZERO',
        'a record\'s padding filled, validated with --pedantic: a note', note=True,
        ruling='ruling 14')
violate('y_xray_basic_v2_pid_before_v3', 'XRAY-BASIC-PID-BEFORE-V3',
        'a version 2 record with a process id, validated with --pedantic: a note', note=True,
        ruling='ruling 14')
violate('y_xray_basic_v3_be_header_reserved_nonzero', 'XRAY-HEADER-RESERVED-NONZERO',
        'big-endian, a reserved bit of the header\'s bitfield set, validated with --pedantic: '
        'a note', args='--big-endian', note=True, ruling='ruling 3')


@hand('y_xray_basic_v3_tsc_backwards_one_thread', 'thread 7\'s TSC goes back 10 ticks between '
      'two of its blocks (a migration can do that): a warning', ruling='ruling 15',
      warnings=['XRAY-BASIC-TSC-BACKWARDS'])
def tsc_backwards_one_thread():
    log = Log()
    log.add(log.function(ENTER, 1, 1000, tid=7), log.function(ENTER, 2, 900, tid=8))
    log.add(log.function(EXIT, 1, 990, tid=7), log.function(EXIT, 2, 950, tid=8))
    return log.bytes()


# ---------------------------------------------------------------- i_: verdicts settled by a ruling


@hand('i_xray_basic_v2_payload_other_process', 'version 2: a payload whose process id is not its '
      'record\'s', ruling='ruling 14: the process id is compared from version 3; before, a '
      'nonzero one is a pedantic note')
def v2_payload_other_process():
    log = Log(version=2)
    log.add(log.function(ENTER_ARG, 6, 10), log.payload(6, 1, pid=5), log.function(EXIT, 6, 20))
    return log.bytes()


@hand('i_xray_basic_v3_same_thread_id_other_process', 'thread 7 of process 100 and thread 7 of '
      'process 200, the second behind in time', ruling='ruling 15: in version 3 a thread is its '
      'thread id and process id')
def same_tid_other_process():
    log = Log()
    log.add(log.function(ENTER, 1, 5000, tid=7, pid=100), log.function(ENTER, 2, 10, tid=7, pid=200),
            log.function(EXIT, 2, 20, tid=7, pid=200), log.function(EXIT, 1, 5010, tid=7, pid=100))
    return log.bytes()


@hand('i_xray_basic_v3_exit_at_start', 'exits of functions never entered, at the start of a '
      'thread\'s records', ruling='ruling 15 (as ruling 10): logging may start mid-stack')
def exit_at_start():
    log = Log()
    log.add(log.function(EXIT, 8, 3), log.function(EXIT, 9, 4), log.function(ENTER, 1, 5),
            log.function(EXIT, 1, 6))
    return log.bytes()


# ---------------------------------------------------------------- n_: generated

violate('n_xray_basic_v3_file_size', 'XRAY-BASIC-FILE-SIZE',
        'the log does not end on a record boundary', ruling='ruling 13')
violate('n_xray_basic_v2_be_record_type', 'XRAY-BASIC-RECORD-TYPE',
        'big-endian version 2: a record of an unknown record type', args='--version 2 --big-endian',
        ruling='ruling 14')
violate('n_xray_basic_v3_function_type', 'XRAY-BASIC-FUNCTION-TYPE',
        'a function record of an unknown type', ruling='ruling 14')
violate('n_xray_basic_v1_tail_exit', 'XRAY-BASIC-TAIL-EXIT-VERSION',
        'version 1: a tail exit', ruling='ruling 14')
violate('n_xray_basic_v3_arg_placement', 'XRAY-BASIC-ARG-PLACEMENT',
        'an argument payload that does not follow a record of its function and thread',
        ruling='ruling 14')
violate('n_xray_basic_v3_header_truncated', 'XRAY-HEADER-TRUNCATED',
        'a basic-mode log cut inside its header')
violate('n_xray_basic_header_version_4', 'XRAY-HEADER-BASIC-MODE',
        'a basic-mode header (type 0) of version 4, which does not exist', seed=3,
        ruling='rulings 1 and 13')
violate('n_xray_basic_v3_header_type', 'XRAY-HEADER-TYPE',
        'a basic-mode log whose header type is neither 0 nor 1', ruling='rulings 1 and 13')

# ---------------------------------------------------------------- n_: hand-made


@hand('n_xray_basic_v3_payload_first', 'an argument payload as the first record of the log '
      '(LLVM 14 crashes on it)', ruling='ruling 14', errors=['XRAY-BASIC-ARG-PLACEMENT'])
def payload_first():
    log = Log()
    at = log.add(log.payload(5, 1), log.function(ENTER, 5, 10), log.function(EXIT, 5, 20))
    return log.bytes(), at[0]


@hand('n_xray_basic_v3_payload_after_exit', 'an argument payload after the Exit record of its '
      'function and thread (LLVM\'s reader takes it)', ruling='ruling 17: a payload follows an '
      'EnterArg record (type 3) or another payload of it', errors=['XRAY-BASIC-ARG-PLACEMENT'])
def payload_after_exit():
    log = Log()
    at = log.add(log.function(ENTER, 6, 10), log.function(EXIT, 6, 20), log.payload(6, 99))
    return log.bytes(), at[2]


@hand('n_xray_basic_v3_payload_after_enter', 'two argument payloads after an Enter record (type '
      '0) of their function and thread: one finding, at the first',
      ruling='ruling 17', errors=['XRAY-BASIC-ARG-PLACEMENT'])
def payload_after_enter():
    log = Log()
    at = log.add(log.function(ENTER, 6, 10), log.payload(6, 1), log.payload(6, 2),
                 log.function(EXIT, 6, 20))
    return log.bytes(), at[1]


@hand('n_xray_basic_v2_be_payload_after_tail_exit', 'big-endian version 2: an argument payload '
      'after a TailExit record of its function', ruling='ruling 17',
      errors=['XRAY-BASIC-ARG-PLACEMENT'])
def be_payload_after_tail_exit():
    log = Log(version=2, big_endian=True)
    at = log.add(log.function(ENTER_ARG, 6, 10), log.payload(6, 1), log.function(TAIL_EXIT, 6, 20),
                 log.payload(6, 2))
    return log.bytes(), at[3]


@hand('n_xray_basic_v3_payload_other_function', 'an argument payload of function 21 after the '
      'EnterArg record of function 20', ruling='ruling 14', errors=['XRAY-BASIC-ARG-PLACEMENT'])
def payload_other_function():
    log = Log()
    at = log.add(log.function(ENTER_ARG, 20, 10), log.payload(21, 1), log.function(EXIT, 20, 20))
    return log.bytes(), at[1]


@hand('n_xray_basic_v3_payload_other_thread', 'an argument payload of thread 8 after an EnterArg '
      'record of thread 7', ruling='ruling 14', errors=['XRAY-BASIC-ARG-PLACEMENT'])
def payload_other_thread():
    log = Log()
    at = log.add(log.function(ENTER_ARG, 20, 10, tid=7), log.payload(20, 1, tid=8),
                 log.function(EXIT, 20, 20, tid=7))
    return log.bytes(), at[1]


@hand('n_xray_basic_v3_payload_other_process', 'version 3: an argument payload of another process '
      'than its EnterArg record', ruling='ruling 14', errors=['XRAY-BASIC-ARG-PLACEMENT'])
def payload_other_process():
    log = Log()
    at = log.add(log.function(ENTER_ARG, 20, 10), log.payload(20, 1, pid=4201),
                 log.function(EXIT, 20, 20))
    return log.bytes(), at[1]


@hand('n_xray_basic_v2_be_payload_after_other_payload', 'big-endian version 2: the second of two '
      'payloads is of another function than the first', ruling='ruling 14',
      errors=['XRAY-BASIC-ARG-PLACEMENT'])
def be_payload_after_other_payload():
    log = Log(version=2, big_endian=True)
    at = log.add(log.function(ENTER_ARG, 3, 10), log.payload(3, 1), log.payload(4, 2),
                 log.function(EXIT, 3, 20))
    return log.bytes(), at[2]


@hand('n_xray_basic_v3_file_size_8_bytes_more', '8 bytes after the last whole record',
      ruling='ruling 13', errors=['XRAY-BASIC-FILE-SIZE'])
def file_size_more():
    log = Log()
    log.add(log.function(ENTER, 1, 10), log.function(EXIT, 1, 20))
    at = log.here()
    log.raw(bytes(8))
    return log.bytes(), at


@hand('n_xray_basic_v1_file_size_cut_record', 'version 1: the log ends 20 bytes into its last '
      'record', ruling='ruling 13', errors=['XRAY-BASIC-FILE-SIZE'])
def file_size_cut():
    log = Log(version=1)
    at = log.add(log.function(ENTER, 1, 10), log.function(EXIT, 1, 20))
    return log.bytes()[:at[1] + 20], at[1]


@hand('n_xray_basic_v3_record_type_2', 'a record of record type 2', ruling='ruling 14',
      errors=['XRAY-BASIC-RECORD-TYPE'])
def record_type_2():
    log = Log()
    at = log.add(log.function(ENTER, 1, 10), log.function(ENTER, 2, 11, record_type=2),
                 log.function(EXIT, 1, 20))
    return log.bytes(), at[1]


@hand('n_xray_basic_v3_function_type_4', 'a function record of type 4 (compiler-rt\'s '
      'CUSTOM_EVENT, which basic mode never writes)', ruling='ruling 14',
      errors=['XRAY-BASIC-FUNCTION-TYPE'])
def function_type_4():
    log = Log()
    at = log.add(log.function(ENTER, 1, 10), log.function(4, 2, 11), log.function(EXIT, 1, 20))
    return log.bytes(), at[1] + 3


@hand('n_xray_basic_v1_tail_exit_hand', 'version 1: Enter then TailExit of one function',
      ruling='ruling 14', errors=['XRAY-BASIC-TAIL-EXIT-VERSION'])
def v1_tail_exit():
    log = Log(version=1)
    at = log.add(log.function(ENTER, 1, 10), log.function(TAIL_EXIT, 1, 20))
    return log.bytes(), at[1] + 3


@hand('n_xray_basic_header_20_bytes', 'the first 20 bytes of a basic-mode header',
      errors=['XRAY-HEADER-TRUNCATED'])
def header_20_bytes():
    return Log().bytes()[:20], 0


@hand('n_xray_basic_header_version_5', 'a basic-mode header (type 0) of version 5',
      ruling='rulings 1 and 13', errors=['XRAY-HEADER-BASIC-MODE'])
def header_version_5():
    log = Log(version=5)
    log.version = 3
    log.add(log.function(ENTER, 1, 10), log.function(EXIT, 1, 20))
    return log.bytes(), 2


def register(add):
    for name, make, how, kind, expect in CASES:
        add(name, make, how, kind, group=GROUP, fmt='xray-basic', ext='xray', **expect)
