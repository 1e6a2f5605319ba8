"""The ovni conformance cases: conformance/cases/ovni/{y,n,i}_ovni_*/.

Every case is a trace directory. Expectations come from spec/ovni/ovni.md (its
rulings, cited as "ruling N") and the rule catalogue, decided before running
anything. Generated cases come from `tracecheck gen ovni`; hand-made ones
from the functions below, built with tools/ovni/ovnicase.py: corner cases the
rulings settle, mostly where libovni's own tools behave otherwise (those are
the expected failures of conformance/xfail/ovniemu.txt, ovnidump.txt and
ovnisort.txt), and the TC-JSON rules in a stream.json.

make-cases calls register(add) with its own add().
"""

from ovnicase import BASE_CLOCK as T0
from ovnicase import Stream, life, meta, put, stream_dir, thread

LOOM, PID = 'node1', 4100
ONE = stream_dir(LOOM, PID, PID)   # the stream of a one-thread trace
OBS, JSON = ONE + '/stream.obs', ONE + '/stream.json'
NOSV = {'ovni': '1.1.0', 'nosv': '2.3.0'}

HAND = []
GEN = []


def gen(name, args, desc, **expect):
    """A case from `tracecheck gen ovni ARGS -o NAME` (a trace directory)."""
    GEN.append((name, args, desc, {k: v for k, v in expect.items() if v is not None}))


# ---------------------------------------------------------------- generated: valid traces

gen('y_ovni_gen_two_looms', '--seed 1 --size 4K', 'a generated trace in libovni\'s layout: two '
    'looms of two processes of two threads (the generator\'s default shape)')
gen('y_ovni_gen_one_thread', '--seed 2 --size 2K --looms 1 --procs 1 --threads 1',
    'a generated trace of one loom, one process, one thread')
gen('y_ovni_gen_many_threads', '--seed 3 --size 8K --looms 1 --procs 3 --threads 4',
    'a generated trace of one loom with three processes of four threads')
gen('y_ovni_gen_big_endian', '--seed 4 --size 4K --big-endian',
    'a generated trace whose streams are big-endian (ruling 1)', ruling='ruling 1')

# ---------------------------------------------------------------- generated: one broken rule each

# Small traces of one process of two threads, so that a reviewer can read the
# whole expected dump; a few in the default shape (two looms), where the
# expected dump is a prefix of several merged streams.
SMALL = '--size 2K --looms 1 --procs 1 --threads 2'


def violate(name, rule, seed, desc, shape=SMALL, ruling=None, warning=False, **kw):
    args = '--violate %s --seed %d %s' % (rule, seed, shape)
    if warning:
        gen(name, args, desc, warnings=[rule], ruling=ruling, **kw)
    else:
        gen(name, args, desc, errors=[rule], ruling=ruling, **kw)


violate('n_ovni_stream_header_truncated', 'OVNI-STREAM-HEADER-TRUNCATED', 1,
        'a stream.obs cut inside its 8-byte header', ruling='ruling 1')
violate('n_ovni_stream_magic', 'OVNI-STREAM-MAGIC', 1, 'a stream whose magic is not "ovni"',
        ruling='ruling 1')
violate('n_ovni_stream_version', 'OVNI-STREAM-VERSION', 1,
        'a stream whose version is not 1 in either byte order', ruling='ruling 1')
violate('n_ovni_event_truncated', 'OVNI-EVENT-TRUNCATED', 1,
        'a stream that ends inside an event', ruling='ruling 3')
violate('n_ovni_event_truncated_two_looms', 'OVNI-EVENT-TRUNCATED', 5,
        'a stream of a two-loom trace that ends inside an event', shape='--size 4K',
        ruling='ruling 3')
violate('n_ovni_event_flags', 'OVNI-EVENT-FLAGS', 1,
        'an event with a flag bit other than jumbo', ruling='ruling 3')
violate('n_ovni_jumbo_size_code', 'OVNI-JUMBO-SIZE-CODE', 1,
        'a jumbo event whose payload-size code is not 3', ruling='ruling 3')
violate('n_ovni_jumbo_past_eof', 'OVNI-JUMBO-PAST-EOF', 1,
        'a jumbo event whose data runs past the end of its stream', ruling='ruling 3')
violate('n_ovni_mcv_printable', 'OVNI-MCV-PRINTABLE', 1,
        'an event whose category or value byte is not printable ASCII; being no event of its '
        'model, it is also an unknown event (a warning)', ruling='ruling 4',
        warnings=['OVNI-MODEL-UNKNOWN-EVENT'])
violate('n_ovni_mcv_printable_big_endian', 'OVNI-MCV-PRINTABLE', 2,
        'a big-endian stream with an event whose category or value byte is not printable ASCII '
        '(also an unknown event of its model: a warning)',
        shape=SMALL + ' --big-endian', ruling='ruling 4', warnings=['OVNI-MODEL-UNKNOWN-EVENT'])
violate('n_ovni_clock_decrease', 'OVNI-CLOCK-DECREASE', 1,
        'an event whose clock is below the one before it', ruling='ruling 2')
violate('n_ovni_clock_decrease_two_looms', 'OVNI-CLOCK-DECREASE', 5,
        'a clock that goes back in one stream of a two-loom trace', shape='--size 4K',
        ruling='ruling 2')
violate('n_ovni_clock_range', 'OVNI-CLOCK-RANGE', 1, 'an event whose clock is 2^63 or more',
        ruling='ruling 2')
violate('n_ovni_clock_unsorted', 'OVNI-CLOCK-UNSORTED', 1,
        'an event of an unsorted region (OU[ ... OU]) whose clock is below the one before it',
        ruling='ruling 11')
violate('n_ovni_require_version', 'OVNI-REQUIRE-VERSION', 1,
        'a stream that requires ovni\'s model at a version not compatible with 1.1.0',
        ruling='ruling 9')
violate('n_ovni_model_payload', 'OVNI-MODEL-PAYLOAD', 1,
        'an ovni-model event with a payload of the wrong size', ruling='ruling 8')
violate('n_ovni_model_not_required', 'OVNI-MODEL-NOT-REQUIRED', 1,
        'events of a model the stream does not require (openmp\'s PBb and PBB, a barrier entered '
        'and left)', ruling='ruling 8')
violate('n_ovni_thread_before_start', 'OVNI-THREAD-BEFORE-START', 1,
        'a thread event before the thread\'s first OHx', ruling='ruling 8')
violate('n_ovni_thread_after_end', 'OVNI-THREAD-AFTER-END', 1,
        'an event other than a flush after the thread\'s OHe', ruling='ruling 8')
violate('n_ovni_thread_running', 'OVNI-THREAD-RUNNING', 1, 'OHx while the thread runs',
        ruling='ruling 8')
violate('n_ovni_thread_state', 'OVNI-THREAD-STATE', 1,
        'a thread event its state does not allow', ruling='ruling 8')
violate('n_ovni_flush_balance', 'OVNI-FLUSH-BALANCE', 1,
        'flush markers OF[ and OF] that do not pair up', ruling='ruling 8')
violate('n_ovni_unsorted_balance', 'OVNI-UNSORTED-BALANCE', 1,
        'unsorted-region markers OU[ and OU] that do not pair up', ruling='ruling 8')
# Metadata, whole traces and the JSON of stream.json. OVNI-TRACE-EMPTY has
# only a hand-made case: the generator leaves empty directories, which git
# cannot hold.
violate('n_ovni_meta_scalar', 'OVNI-META-NOT-OBJECT', 4, 'a stream.json holding an integer',
        ruling='ruling 6')
violate('n_ovni_meta_version_4', 'OVNI-META-VERSION', 4, 'metadata version 4', ruling='ruling 6')
violate('n_ovni_meta_require_missing', 'OVNI-META-MISSING', 1, 'metadata without ovni.require',
        ruling='ruling 6')
violate('n_ovni_meta_part_missing', 'OVNI-META-MISSING', 2, 'metadata without ovni.part',
        ruling='ruling 6')
violate('n_ovni_meta_tid_null', 'OVNI-META-TYPE', 8, 'ovni.tid null', ruling='ruling 6')
violate('n_ovni_meta_finished_array', 'OVNI-META-FINISHED', 15, 'ovni.finished is an array',
        ruling='ruling 6')
violate('n_ovni_meta_tid_2_31', 'OVNI-META-ID', 21, 'ovni.tid 2^31, beyond the 32-bit ids',
        ruling='ruling 6')
violate('n_ovni_meta_tid_negative', 'OVNI-META-ID', 4, 'a negative ovni.tid', ruling='ruling 6')
violate('n_ovni_meta_loom_only_slash', 'OVNI-META-LOOM', 7, 'ovni.loom "/"', ruling='ruling 6')
violate('n_ovni_meta_nranks_without_rank', 'OVNI-META-RANK', 10,
        'ovni.nranks given without ovni.rank', ruling='ruling 6')
violate('n_ovni_meta_require_v_prefix', 'OVNI-META-REQUIRE', 5,
        'an ovni.require version written "v1.0.0"', ruling='ruling 6')
violate('n_ovni_meta_loom_cpus_entry_array', 'OVNI-META-LOOM-CPUS', 22,
        'an entry of ovni.loom_cpus that is an array, not {index, phyid}', ruling='ruling 7')
violate('n_ovni_trace_obs_missing', 'OVNI-TRACE-OBS-MISSING', 1,
        'a generated trace with a stream.json whose stream.obs is missing', ruling='ruling 7')
violate('n_ovni_trace_json_missing', 'OVNI-TRACE-JSON-MISSING', 1,
        'a generated trace with a stream.obs whose stream.json is missing', ruling='ruling 7')
violate('n_ovni_trace_nranks_disagree', 'OVNI-TRACE-PROCESS', 2,
        'two threads of a process giving different nranks', ruling='ruling 7')
violate('n_ovni_trace_tid_twice', 'OVNI-TRACE-TID-DUPLICATE', 2,
        'a thread with the tid of another thread of its process (directory thread.TID.1)',
        ruling='ruling 7')
violate('n_ovni_trace_loom_without_cpus', 'OVNI-TRACE-LOOM-NO-CPUS', 1,
        'a loom none of whose threads gives ovni.loom_cpus', ruling='ruling 7')
violate('n_ovni_trace_cpu_phyid', 'OVNI-TRACE-CPU-PHYID', 1,
        'a loom\'s CPU listed again with another index', ruling='ruling 7')
violate('n_ovni_trace_cpu_index', 'OVNI-TRACE-CPU-INDEX', 1,
        'a loom whose CPU indexes leave a gap', ruling='ruling 7')
violate('y_ovni_trace_dir_name', 'OVNI-TRACE-DIR-NAME', 1,
        'a generated trace with a loom directory renamed away from its metadata: a warning',
        ruling='ruling 7', warning=True)
violate('n_ovni_json_cut_in_string', 'TC-JSON-SYNTAX', 4,
        'a stream.json that ends inside a string', ruling='ruling 6')
violate('n_ovni_json_comment', 'TC-JSON-COMMENT', 2, 'a /* */ comment in a later section of '
        'stream.json', ruling='ruling 6')
violate('n_ovni_json_trailing', 'TC-JSON-TRAILING', 2, 'data after the object of a stream.json',
        ruling='ruling 6')
violate('n_ovni_json_duplicate_version', 'TC-JSON-DUPLICATE-KEY', 2,
        'a stream.json giving "version" twice', ruling='ruling 6')
violate('n_ovni_json_lone_surrogate', 'TC-JSON-ENCODING', 58,
        'a \\udc00 escape (a lone low surrogate) in a string of stream.json')
violate('n_ovni_json_utf8_surrogate', 'TC-JSON-ENCODING', 4,
        'a surrogate encoded in UTF-8 in a string of stream.json')
violate('n_ovni_json_depth', 'TC-JSON-DEPTH', 1, 'a later section of stream.json nested deeper '
        'than 512 levels')
violate('y_ovni_json_bom_gen', 'TC-JSON-BOM', 1,
        'a generated trace whose stream.json starts with a byte order mark: a warning',
        warning=True)
violate('y_ovni_stream_no_events', 'OVNI-STREAM-NO-EVENTS', 1,
        'a generated trace with a stream of just its header: valid, with a warning',
        ruling='ruling 5', warning=True)
violate('y_ovni_model_unknown_event_gen', 'OVNI-MODEL-UNKNOWN-EVENT', 1,
        'a generated trace with an O event ovni does not define: a warning', ruling='ruling 8',
        warning=True)
violate('y_ovni_thread_no_end_gen', 'OVNI-THREAD-NO-END', 1,
        'a generated trace with a thread that never reaches OHe: a warning', ruling='ruling 8',
        warning=True)
violate('y_ovni_clock_gate', 'OVNI-CLOCK-GATE', 1,
        'a generated trace with a stream that starts more than an hour from the first stream: '
        'a warning', ruling='ruling 10', warning=True)


def hand(name, desc, **expect):
    """Decorator: a hand-made case. The function returns the trace ({path:
    bytes}), or the trace and (file, offset) of the first error tracecheck
    must report."""
    def register_one(fn):
        HAND.append((name, fn, desc, expect))
        return fn
    return register_one


def one_thread(s, **kw):
    """A trace of one thread (loom node1, process 4100, 4 CPUs)."""
    kw.setdefault('cpus', 4)
    return thread({}, LOOM, PID, PID, s, **kw)


def started(big_endian=False, clock=T0):
    """A stream whose thread is running on CPU 0."""
    s = Stream(big_endian)
    s.ohx(clock)
    s.oas(clock + 100)
    return s


# ------------------------------------------------------------ y_: valid traces of several shapes


@hand('y_ovni_one_thread', 'one loom, one process, one thread going through every thread state')
def one_thread_case():
    s = Stream()
    life(s, T0)
    return one_thread(s)


def spec_example_bytes():
    """The binary stream printed in the specification (section "Design
    considerations"), byte for byte."""
    listing = '''
        6f 76 6e 69 01 00 00 00  0f 4f 48 78 08 ba 2e 5c
        b5 b0 00 00 00 00 00 00  ff ff ff ff 00 00 00 00
        00 00 00 00 13 56 59 63  3c c2 2e 5c b5 b0 00 00
        0e 00 00 00 01 00 00 00  74 65 73 74 74 79 70 65
        31 00 07 56 54 63 43 cc  2e 5c b5 b0 00 00 01 00
        00 00 01 00 00 00 03 56  54 78 03 cd 2e 5c b5 b0
        00 00 01 00 00 00 03 56  54 70 2b 7d 37 5c b5 b0
        00 00 01 00 00 00 03 56  54 72 c3 4d 40 5c b5 b0
        00 00 01 00 00 00 03 56  54 65 03 36 49 5c b5 b0
        00 00 01 00 00 00 00 4f  48 65 f5 36 49 5c b5 b0
        00 00'''
    return bytes(int(b, 16) for b in listing.split())


SPEC_JSON = '''{
    "version": 3,
    "ovni": {
        "lib": {
            "version": "1.10.0",
            "commit": "dirty"
        },
        "part": "thread",
        "tid": 89719,
        "pid": 89719,
        "loom": "mio.nosv-u1000",
        "app_id": 1,
        "require": {
            "ovni": "1.1.0",
            "nosv": "2.3.0"
        },
        "loom_cpus": [
            { "index": 0, "phyid": 0 },
            { "index": 1, "phyid": 1 },
            { "index": 2, "phyid": 2 },
            { "index": 3, "phyid": 3 }
        ],
        "finished": 1
    },
    "nosv": {
        "can_breakdown": false,
        "lib_version": "2.3.1"
    }
}
'''


@hand('n_ovni_spec_example', 'the example stream and metadata of the ovni specification, in '
      'libovni\'s layout: its nOS-V task events VTx, VTp, VTr and VTe carry the task id alone '
      '(4 bytes), as an older nOS-V wrote them; the stream requires nosv 2.3.0, which the nosv '
      'model of ovniemu 1.14.0 (2.7.0) serves, and that model lays them out as task id and body '
      'id (8 bytes), so does ovniemu ("missing body id in payload")',
      errors=['OVNI-MODEL-PAYLOAD'], ruling='ruling 15')
def spec_example():
    data = spec_example_bytes()
    rel = stream_dir('mio.nosv-u1000', 89719, 89719)
    return (put({}, rel, data, SPEC_JSON),
            (rel + '/stream.obs', data.index(b'VTx') - 1))


MARKS = {'1': {'title': 'Phase', 'chan_type': 'stack'},
         '2': {'title': 'Iteration', 'chan_type': 'single', 'labels': {'1': 'warm-up'}}}


@hand('y_ovni_every_ovni_event', 'every event of ovni\'s own model with its payload, in an order '
      'the thread states allow: marks of the two types ovni.mark declares (as libovni\'s '
      'ovni_mark_type writes them), an affinity change of the thread itself by tid (OAr), and '
      'the old OCn, which ovniemu ignores: a warning (ruling 17)',
      warnings=['OVNI-MODEL-OLD-EVENT'], ruling='ruling 17')
def every_ovni_event():
    s = Stream()
    c = T0
    s.ohx(c, cpu=1, tid=4099, tag=7)
    s.oas(c + 10, cpu=2)
    s.oar(c + 20, cpu=3, tid=PID)
    s.ohc(c + 30, cpu=2, tag=8)
    s.event('OCn', c + 40, s.i32(4))
    s.event('OB.', c + 50)
    s.event('OU[', c + 60)
    s.event('OU]', c + 70)
    s.mark('[', c + 80, -5, 1)
    s.mark('=', c + 90, 1 << 40, 2)
    s.mark(']', c + 100, -5, 1)
    for i, v in enumerate('pwrcprc'):  # paused, warming, running, cooling, paused, ...
        s.event('OH' + v, c + 110 + 10 * i)
    s.ohe(c + 200)
    s.event('OF[', c + 210)
    s.event('OF]', c + 220)
    return one_thread(s, ovni_extra={'mark': MARKS})


@hand('y_ovni_equal_clocks', 'events with equal clocks within a stream and across two streams '
      '(ruling 2: clocks never decrease, equal ones are valid)', ruling='ruling 2')
def equal_clocks():
    t = {}
    for tid in (PID, PID + 1):
        s = Stream()
        s.ohx(T0, cpu=tid - PID)
        s.oas(T0, cpu=tid - PID)
        s.event('OB.', T0)
        s.event('OB.', T0 + 5)
        s.ohe(T0 + 5)
        thread(t, LOOM, PID, tid, s, cpus=2 if tid == PID else None)
    return t


@hand('y_ovni_loom_path_order', 'looms "node" and "node-2" with equal clocks: streams and ties go '
      'in byte order of their paths, so loom.node-2/... (\'-\' is 0x2d) before loom.node/... '
      '(\'/\' is 0x2f)')
def loom_path_order():
    t = {}
    for loom in ('node', 'node-2'):
        s = Stream()
        s.ohx(T0)
        s.event('OB.', T0 + 1)
        s.ohe(T0 + 1)
        thread(t, loom, 1, 1, s, cpus=1)
    return t


@hand('y_ovni_jumbo_events', 'jumbo events of 14, 0, 1 and 17 bytes of a model tracecheck does '
      'not know (X, required as "xmodel"), whose layouts it cannot judge: the framing alone')
def jumbo_events():
    s = started()
    s.jumbo('XJc', T0 + 200, b'\x01\x00\x00\x00testtype1\x00')
    s.jumbo('XJc', T0 + 300, b'')
    s.jumbo('XJc', T0 + 400, b'\x7f')
    s.jumbo('XJc', T0 + 500, bytes(range(17)))
    s.ohe(T0 + 600)
    return one_thread(s, require={'ovni': '1.1.0', 'xmodel': '1.0.0'})


@hand('y_ovni_header_only_stream', 'a thread stream of just its 8-byte header: valid, with a '
      'warning (ruling 5)', warnings=['OVNI-STREAM-NO-EVENTS'], ruling='ruling 5')
def header_only_stream():
    return one_thread(Stream())


@hand('y_ovni_flush_after_end', 'a flush (OF[ OF]) after the thread\'s OHe: libovni flushes the '
      'buffer once the thread has ended (ruling 8)', ruling='ruling 8')
def flush_after_end():
    s = Stream()
    c = life(s, T0)
    s.event('OF[', c)
    s.event('OF]', c + 3000)
    return one_thread(s)


@hand('y_ovni_meta_unknown_keys', 'metadata with keys tracecheck does not know: ovni.lib, a key '
      'of a newer libovni, other models\' sections and a top-level key (ruling 6)',
      ruling='ruling 6')
def meta_unknown_keys():
    s = Stream()
    life(s, T0)
    return one_thread(s, ovni_extra={'clock_source': 'CLOCK_MONOTONIC', 'extra': [1, {'a': None}]},
                      extra={'nosv': {'can_breakdown': False, 'lib_version': '2.3.1'},
                             'nanos6': {'version': '4.0'}, 'x-site': 'bsc'})


@hand('y_ovni_meta_app_id_absent', 'two threads of a process, neither giving ovni.app_id: '
      'optional (ruling 6), though libovni writes it into every thread', ruling='ruling 6')
def meta_app_id_absent():
    t = {}
    for k in range(2):
        s = Stream()
        life(s, T0 + k, cpu=k)
        thread(t, LOOM, PID, PID + k, s, cpus=2 if k == 0 else None, app_id=None)
    return t


@hand('y_ovni_meta_lib_absent', 'a thread whose metadata has no ovni.lib (the version and commit '
      'of the libovni that wrote it): optional (ruling 6), though libovni writes it',
      ruling='ruling 6')
def meta_lib_absent():
    s = Stream()
    life(s, T0)
    return one_thread(s, lib=False)


@hand('y_ovni_looms_procs_threads', 'two looms, three processes, seven threads with '
      'interleaved clocks, each running on a CPU of its own; each loom\'s CPUs given by one of '
      'its threads, app_id by every thread')
def looms_procs_threads():
    t = {}
    layout = [('node1', 200, (200, 201, 202), 1), ('node1', 300, (300, 301), 2),
              ('node2', 200, (200, 210), 1)]
    n = 0
    for loom, pid, tids, app in layout:
        for tid in tids:
            s = Stream()
            life(s, T0 + 37 * n, cpu=n)    # a CPU of its own: their lives overlap
            cpus = 8 if tid == pid and pid in (200,) else None
            thread(t, loom, pid, tid, s, cpus=cpus, app_id=app)
            n += 1
    return t


@hand('y_ovni_big_endian', 'two threads whose streams are big-endian (version 00 00 00 01): '
      'both byte orders are read (ruling 1)', ruling='ruling 1')
def big_endian():
    t = {}
    for i, tid in enumerate((PID, PID + 1)):
        s = Stream(big_endian=True)
        c = T0 + i * 50
        s.ohx(c, cpu=i, tid=PID if i else 0, tag=0x0102030405060708)
        s.oas(c + 10, cpu=i)
        s.jumbo('VYc', c + 20, s.u32(1 + i) + b'big-endian\0')
        s.mark('=', c + 30, -2, 3)
        s.event('OHp', c + 40)
        s.event('OHr', c + 50)
        s.ohe(c + 60)
        thread(t, LOOM, PID, tid, s, cpus=2 if i == 0 else None, require=NOSV,
               ovni_extra={'mark': {'3': {'title': 'Step', 'chan_type': 'single'}}})
    return t


@hand('y_ovni_dir_names_disagree', 'libovni\'s layout with loom, process and thread directory '
      'names that disagree with the metadata: warnings (ruling 7)',
      warnings=['OVNI-TRACE-DIR-NAME'], ruling='ruling 7')
def dir_names_disagree():
    s = Stream()
    life(s, T0)
    return put({}, 'loom.node2/proc.17/thread.4101', s, meta(tid=PID, pid=PID, loom=LOOM, cpus=4))


@hand('y_ovni_json_bom', 'a stream.json that starts with a UTF-8 byte order mark: ignored, with '
      'a warning', warnings=['TC-JSON-BOM'])
def json_bom():
    s = Stream()
    life(s, T0)
    t = one_thread(s)
    t[JSON] = b'\xef\xbb\xbf' + t[JSON]
    return t


@hand('y_ovni_jumbo_large', 'a jumbo event of exactly 2 MiB (a task type registration, VYc, '
      'whose label fills it), which no libovni writes: valid, with '
      'a warning (ruling 3)', warnings=['OVNI-JUMBO-LARGE'], ruling='ruling 3')
def jumbo_large():
    s = started()
    # A task type (u32 id, then a label that fills the data up to its NUL).
    s.jumbo('VYc', T0 + 200, s.u32(1) + b'a' * ((2 << 20) - 5) + b'\0')
    s.ohe(T0 + 300)
    return one_thread(s, require=NOSV)


@hand('y_ovni_model_unknown_event', 'an event of ovni\'s model that ovni does not define (OZz): a '
      'warning, a newer libovni may define it (ruling 8)',
      warnings=['OVNI-MODEL-UNKNOWN-EVENT'], ruling='ruling 8')
def model_unknown_event():
    s = started()
    s.event('OZz', T0 + 200)
    s.ohe(T0 + 300)
    return one_thread(s)


def unknown_value(mcv):
    s = started()
    s.event(mcv, T0 + 200)
    s.ohe(T0 + 300)
    return one_thread(s)


for _mcv, _what, _name in (('OCz', 'CPU', 'cpu'), ('OAz', 'affinity', 'affinity'),
                           ('OFz', 'flush', 'flush'), ('OHz', 'thread', 'thread')):
    hand('y_ovni_model_unknown_%s_value' % _name,
         'an event of ovni\'s %s category with a value ovni does not define (%s): a warning, a '
         'newer libovni may define it (ruling 8)' % (_what, _mcv),
         warnings=['OVNI-MODEL-UNKNOWN-EVENT'], ruling='ruling 8')(
        lambda *_, m=_mcv: unknown_value(m))


@hand('n_ovni_burst_after_end', 'a burst (OB.) after the thread ended (OHe)',
      errors=['OVNI-THREAD-AFTER-END'], ruling='rulings 5 and 13')
def burst_after_end():
    s = Stream()
    life(s, T0)
    at = s.here()
    s.event('OB.', T0 + 900)
    return one_thread(s), (OBS, at)


@hand('n_ovni_model_not_required_other_stream', 'two threads: one requires nanos6 and emits its '
      'events, the other emits a nanos6 event without requiring the model',
      errors=['OVNI-MODEL-NOT-REQUIRED'], ruling='rulings 9 and 15: each stream requires what '
      'it writes')
def model_not_required_other_stream():
    t = {}
    at = None
    for i, tid in enumerate((PID, PID + 1)):
        s = Stream()
        c = T0 + i * 50
        s.ohx(c, cpu=i, tid=PID if i else 0)
        s.oas(c + 10, cpu=i)
        e = s.here()
        s.event('6Ma', c + 20)
        s.event('6MA', c + 30)
        s.ohe(c + 40)
        if i:
            at = (stream_dir(LOOM, PID, tid) + '/stream.obs', e)
        thread(t, LOOM, PID, tid, s, cpus=2 if i == 0 else None,
               require={'ovni': '1.1.0', 'nanos6': '1.0.0'} if i == 0 else {'ovni': '1.1.0'})
    return t, at


@hand('y_ovni_thread_no_end', 'a thread that runs, pauses and resumes but never ends (no OHe): a '
      'warning (ruling 8)', warnings=['OVNI-THREAD-NO-END'], ruling='ruling 8')
def thread_no_end():
    s = Stream()
    life(s, T0, end=False)
    return one_thread(s)


@hand('y_ovni_process_values', 'app_id, rank and nranks given by some threads of two MPI '
      'processes and left out by others: they agree wherever they appear (ruling 7)',
      ruling='ruling 7')
def process_values():
    t = {}
    for rank, pid in enumerate((500, 600)):
        for k, tid in enumerate((pid, pid + 1, pid + 2)):
            s = Stream()
            life(s, T0 + 10 * k + rank, cpu=3 * rank + k)
            given = k < 2
            thread(t, LOOM, pid, tid, s, cpus=6 if (rank, k) == (0, 0) else None,
                   app_id=rank + 1 if given else None, rank=rank if given else None,
                   nranks=2 if given else None, require={'ovni': '1.1.0', 'mpi': '1.0.0'})
    return t


@hand('y_ovni_loom_cpus_merged', 'a loom whose CPU list is spread over two threads, one phyid in '
      'both with the same index, phyids above the CPU count (ruling 7)', ruling='ruling 7')
def loom_cpus_merged():
    t = {}
    lists = [[(0, 0), (1, 8)], [(1, 8), (2, 17)], None]
    for k, cpus in enumerate(lists):
        s = Stream()
        life(s, T0 + k, cpu=k)
        thread(t, LOOM, PID, PID + k, s, cpus=cpus)
    return t


@hand('y_ovni_free_layout', 'streams in directories of no particular layout (the specification '
      'imposes none): no directory-name warning')
def free_layout():
    t = {}
    for k, rel in enumerate(('run-7/main', 'run-7/workers/w1')):
        s = Stream()
        life(s, T0 + k, cpu=k)
        put(t, rel, s, meta(tid=PID + k, pid=PID, loom=LOOM, cpus=2 if k == 0 else None))
    return t


@hand('y_ovni_stream_in_trace_root', 'a trace that is a single stream: stream.json and '
      'stream.obs directly in the trace directory (stream ".")')
def stream_in_trace_root():
    s = Stream()
    life(s, T0)
    return put({}, '', s, meta(tid=PID, pid=PID, loom=LOOM, cpus=1))


@hand('y_ovni_require_every_model', 'a stream that requires every model tracecheck knows and '
      'emits events of each (nanos6, nosv, kernel, openmp, tampi, mpi, nodes): a pair that '
      'enters and leaves a state of the model, as libovni\'s models define them (no payload)')
def require_every_model():
    s = started()
    pairs = [('6Ma', '6MA'), ('VMa', 'VMA'), ('KCO', 'KCI'), ('PBb', 'PBB'), ('TCi', 'TCI'),
             ('MUi', 'MUI'), ('DR[', 'DR]')]
    for k, (enter, leave) in enumerate(pairs):
        s.event(enter, T0 + 200 + 10 * k)
        s.event(leave, T0 + 205 + 10 * k)
    s.ohe(T0 + 300)
    req = {'ovni': '1.1.0', 'nanos6': '1.0.0', 'nosv': '2.3.0', 'kernel': '1.0.0',
           'openmp': '1.2.0', 'tampi': '1.0.0', 'mpi': '1.0.0', 'nodes': '1.0.0'}
    return one_thread(s, require=req)

# ---------------------------------------------------------------- i_: readers may disagree


@hand('i_ovni_meta_version_3_0', 'metadata "version": 3.0, a number equal to 3 but not the integer '
      '3', errors=['OVNI-META-VERSION'],
      ruling='ruling 6: version is the JSON integer literal 3; libovni reads 3.0 as 3')
def meta_version_3_0():
    s = Stream()
    life(s, T0)
    t = one_thread(s)
    text = t[JSON].decode()
    t[JSON] = text.replace('"version": 3,', '"version": 3.0,', 1).encode()
    return t, (JSON, text.index('3,'))


@hand('i_ovni_meta_finished_1_0', 'metadata "ovni.finished": 1.0, a number equal to 1 but not the '
      'integer 1', errors=['OVNI-META-FINISHED'],
      ruling='ruling 6: finished is the JSON integer 1; libovni reads 1.0 as 1')
def meta_finished_1_0():
    t, (name, at) = edit_json(with_meta(), '"finished": 1', '"finished": 1.0')
    return t, (name, at + len('"finished": '))


@hand('i_ovni_part_not_thread', 'a stream whose ovni.part is "process", without tid, pid or loom, '
      'beside a thread stream', ruling='ruling 6: only thread streams need tid, pid and loom; '
      'libovni ignores streams of other parts')
def part_not_thread():
    t = {}
    s = Stream()
    life(s, T0)
    thread(t, LOOM, PID, PID, s, cpus=1)
    p = Stream()
    p.event('OU[', T0 + 1)
    p.event('OB.', T0 + 2)
    p.event('OU]', T0 + 3)
    put(t, 'loom.%s/proc.%d/process' % (LOOM, PID), p, meta(part='process', app_id=None))
    return t


@hand('i_ovni_mixed_byte_orders', 'two threads of one process, one writing little-endian and one '
      'big-endian', ruling='ruling 1: each stream\'s byte order is read from its header; one '
      'libovni build reads one order only')
def mixed_byte_orders():
    t = {}
    for k, be in enumerate((False, True)):
        s = Stream(big_endian=be)
        life(s, T0 + k, cpu=k)
        thread(t, LOOM, PID, PID + k, s, cpus=2 if k == 0 else None)
    return t


@hand('i_ovni_require_unknown_model', 'a stream that requires a model tracecheck does not know '
      '("mymodel") and emits events of an unknown letter (Q)',
      ruling='ruling 8: events of unknown model letters are not judged when the stream requires '
      'an unknown model; a reader without the model refuses them')
def require_unknown_model():
    s = started()
    s.event('QAa', T0 + 200, s.i32(1))
    s.event('QAb', T0 + 210)
    s.ohe(T0 + 300)
    return one_thread(s, require={'ovni': '1.1.0', 'mymodel': '1.0.0'})

# ------------------------------------------------ n_: what the rulings settle against libovni


@hand('n_ovni_clock_decrease_interleaved', 'two threads with interleaved clocks; the second\'s '
      'fourth event goes back in time. The expected dump shows the merged prefix: every event of '
      'either stream merged before the second thread\'s third event',
      errors=['OVNI-CLOCK-DECREASE'],
      ruling='ruling 2')
def clock_decrease_interleaved():
    t = {}
    a = Stream()
    life(a, T0, cpu=0)                   # clocks T0 .. T0 + 700, every 100
    thread(t, LOOM, PID, PID, a, cpus=2)
    b = Stream()
    b.ohx(T0 + 50, cpu=1)
    b.oas(T0 + 150, cpu=1)
    b.event('OB.', T0 + 250)
    at = b.here()
    b.event('OB.', T0 + 240)             # below the 250 before it
    b.ohe(T0 + 650)
    thread(t, LOOM, PID, PID + 1, b)
    return t, (stream_dir(LOOM, PID, PID + 1) + '/stream.obs', at + 4)


def one_thread_text(**kw):
    """A valid one-thread trace and its stream.json as text."""
    s = Stream()
    life(s, T0)
    t = one_thread(s, **kw)
    return t, t[JSON].decode()


@hand('n_ovni_json_line_comment', 'a // comment in stream.json (libovni\'s JSON reader accepts '
      'comments; JSON has none, ruling 6)', errors=['TC-JSON-COMMENT'], ruling='ruling 6')
def json_line_comment():
    t, text = one_thread_text()
    at = text.index('"ovni"')
    text = text[:at] + '// written by hand\n    ' + text[at:]
    t[JSON] = text.encode()
    return t, (JSON, at)


@hand('n_ovni_json_block_comment', 'a /* */ comment in stream.json (ruling 6)',
      errors=['TC-JSON-COMMENT'], ruling='ruling 6')
def json_block_comment():
    t, text = one_thread_text()
    at = text.index('"tid"')
    text = text[:at] + '/* the main thread */ ' + text[at:]
    t[JSON] = text.encode()
    return t, (JSON, at)


@hand('n_ovni_json_trailing_garbage', 'bytes after the metadata object in stream.json (libovni\'s '
      'reader stops at the end of the first value and never looks, ruling 6)',
      errors=['TC-JSON-TRAILING'], ruling='ruling 6')
def json_trailing_garbage():
    t, text = one_thread_text()
    t[JSON] = (text + 'EOF\n').encode()
    return t, (JSON, len(text))


@hand('n_ovni_json_missing_comma', 'stream.json with a comma missing between two keys',
      errors=['TC-JSON-SYNTAX'])
def json_missing_comma():
    t, text = one_thread_text()
    at = text.index('"pid"')
    comma = text.rindex(',', 0, at)
    text = text[:comma] + text[comma + 1:]
    t[JSON] = text.encode()
    return t, (JSON, at - 1)


@hand('n_ovni_json_duplicate_key', 'stream.json giving ovni.tid twice, with the same value',
      errors=['TC-JSON-DUPLICATE-KEY'], ruling='ruling 6')
def json_duplicate_key():
    t, text = one_thread_text()
    at = text.index('"pid"')
    text = text[:at] + '"tid": %d,\n        ' % PID + text[at:]
    t[JSON] = text.encode()
    return t, (JSON, at)


@hand('n_ovni_json_invalid_utf8', 'stream.json with a Latin-1 byte (0xe9) in a string of another '
      'model\'s section: not UTF-8', errors=['TC-JSON-ENCODING'])
def json_invalid_utf8():
    t, text = one_thread_text(extra={'nosv': {'label': 'cafe'}})
    at = text.index('cafe"') + 3
    t[JSON] = text[:at].encode() + b'\xe9' + text[at + 1:].encode()
    return t, (JSON, at)


@hand('n_ovni_json_depth_513', 'stream.json nesting 513 levels deep (the metadata object and 512 '
      'arrays); tracecheck stops at 512', errors=['TC-JSON-DEPTH'])
def json_depth_513():
    t, text = one_thread_text()
    end = text.rindex('}')
    key = ',\n    "deep": '
    text = text[:end].rstrip('\n') + key + '[' * 512 + ']' * 512 + '\n}\n'
    t[JSON] = text.encode()
    return t, (JSON, text.index(key) + len(key) + 511)


def bogus_jumbo(size):
    """A running thread, then a jumbo event announcing `size` bytes of which
    16 are there: the thread's end is lost past it."""
    s = started()
    s.event('OB.', T0 + 150)
    at = s.here()
    s.jumbo('VYc', T0 + 200, bytes(range(16)), size=size)
    return one_thread(s, require=NOSV), (OBS, at + 12)


@hand('n_ovni_jumbo_size_fffffff0', 'a jumbo event announcing 0xFFFFFFF0 bytes (ovnidump and '
      'ovnisort loop forever on it, ovniemu plays it again)', errors=['OVNI-JUMBO-PAST-EOF'],
      warnings=['OVNI-JUMBO-LARGE', 'OVNI-THREAD-NO-END'], ruling='ruling 3')
def jumbo_size_fffffff0():
    return bogus_jumbo(0xFFFFFFF0)


@hand('n_ovni_jumbo_size_7fffffff', 'a jumbo event announcing 0x7FFFFFFF bytes (it overflows '
      'libovni\'s int event size)', errors=['OVNI-JUMBO-PAST-EOF'],
      warnings=['OVNI-JUMBO-LARGE', 'OVNI-THREAD-NO-END'], ruling='ruling 3')
def jumbo_size_7fffffff():
    return bogus_jumbo(0x7FFFFFFF)


@hand('n_ovni_jumbo_header_cut_page_aligned', 'a stream of exactly 4096 bytes that ends with the '
      '12-byte header of a jumbo event, its size cut off (libovni reads the size past the '
      'mapping)', errors=['OVNI-EVENT-TRUNCATED'], ruling='ruling 3')
def jumbo_header_cut_page_aligned():
    s = started()                        # 8 + 28 + 16 bytes
    s.event('OB.', T0 + 150)             # 12
    for k in range(167):                 # 24 each: values 1 to 167 of a declared mark type
        s.mark('=', T0 + 200 + k, k + 1, 1)
    s.ohe(T0 + 400)                      # 12: 4084 bytes so far
    at = s.here()
    s.raw(bytes([0x13]) + b'VYc' + s.u64(T0 + 500))
    assert len(s.bytes()) == 4096, len(s.bytes())
    marks = {'1': {'title': 'Step', 'chan_type': 'single'}}
    return one_thread(s, require=NOSV, ovni_extra={'mark': marks}), (OBS, at)


@hand('n_ovni_event_flags_0x20', 'an event with flag bit 0x20, which is not defined (libovni '
      'ignores it)', errors=['OVNI-EVENT-FLAGS'], ruling='ruling 3')
def event_flags_0x20():
    s = started()
    at = s.here()
    s.event('OB.', T0 + 200, flags=0x20)
    s.ohe(T0 + 300)
    return one_thread(s), (OBS, at)


@hand('n_ovni_event_flags_jumbo_0x80', 'a jumbo event that also has flag bit 0x80 (first byte '
      '0x93)', errors=['OVNI-EVENT-FLAGS'], ruling='ruling 3')
def event_flags_jumbo_0x80():
    s = started()
    at = s.here()
    s.jumbo('VYc', T0 + 200, b'\x01\x00\x00\x00testtype1\x00', flags=0x90)
    s.ohe(T0 + 300)
    return one_thread(s, require=NOSV), (OBS, at)


def jumbo_code(code):
    s = started()
    at = s.here()
    s.jumbo('VYc', T0 + 200, b'\x01\x00\x00\x00testtype1\x00', size_code=code)
    s.ohe(T0 + 300)
    return one_thread(s, require=NOSV), (OBS, at)


@hand('n_ovni_jumbo_size_code_0', 'a jumbo event whose payload-size code is 0, not 3 (first byte '
      '0x10; libovni reads the size all the same)', errors=['OVNI-JUMBO-SIZE-CODE'],
      ruling='ruling 3')
def jumbo_size_code_0():
    return jumbo_code(0)


@hand('n_ovni_jumbo_size_code_15', 'a jumbo event whose payload-size code is 15 (first byte 0x1f)',
      errors=['OVNI-JUMBO-SIZE-CODE'], ruling='ruling 3')
def jumbo_size_code_15():
    return jumbo_code(15)


def short_event(mcv):
    """A life whose event mcv has no payload (OHx: the first event)."""
    s = Stream()
    at = s.here()
    if mcv == 'OHx':
        s.event('OHx', T0)
    else:
        s.ohx(T0)
        at = s.here()
        s.event(mcv, T0 + 100)
    s.ohe(T0 + 200)
    return one_thread(s), (OBS, at)


@hand('n_ovni_ohx_without_payload', 'OHx without its 16-byte payload (ovnidump reads the payload '
      'all the same)', errors=['OVNI-MODEL-PAYLOAD'], ruling='ruling 8')
def ohx_without_payload():
    return short_event('OHx')


@hand('n_ovni_oas_without_payload', 'OAs without its 4-byte payload', errors=['OVNI-MODEL-PAYLOAD'],
      ruling='ruling 8')
def oas_without_payload():
    return short_event('OAs')


@hand('n_ovni_ohc_without_payload', 'OHC without its 12-byte payload',
      errors=['OVNI-MODEL-PAYLOAD'], ruling='ruling 8')
def ohc_without_payload():
    return short_event('OHC')


@hand('n_ovni_stream_json_missing', 'a thread directory with stream.obs and no stream.json beside '
      'a complete stream (libovni\'s readers skip it)', errors=['OVNI-TRACE-JSON-MISSING'],
      ruling='ruling 7')
def stream_json_missing():
    t = {}
    s = Stream()
    life(s, T0)
    thread(t, LOOM, PID, PID, s, cpus=2)
    lone = Stream()
    life(lone, T0 + 5, cpu=1)
    put(t, stream_dir(LOOM, PID, PID + 1), lone, None)
    return t


@hand('n_ovni_stream_obs_missing', 'a thread directory with stream.json and no stream.obs',
      errors=['OVNI-TRACE-OBS-MISSING'], ruling='ruling 7')
def stream_obs_missing():
    t = {}
    s = Stream()
    life(s, T0)
    thread(t, LOOM, PID, PID, s, cpus=2)
    put(t, stream_dir(LOOM, PID, PID + 1), None, meta(tid=PID + 1, pid=PID, loom=LOOM))
    return t


@hand('n_ovni_trace_no_streams', 'a trace directory left with ovniemu\'s outputs and no stream',
      errors=['OVNI-TRACE-EMPTY'])
def trace_no_streams():
    return {'cpu.prv': b'#Paraver (01/01/2024 at 00:00):1000:1(4):1:1(1:1)\n',
            'thread.row': b'LEVEL THREAD SIZE 1\nTH 4100.4100 of node1\n'}


# ------------------------------------------- rulings 9 to 12: what real libovni traces showed


def sort_test_stream(sorted_=False):
    """A thread as ovni's sort test (test/emu/ovni/sort.c) writes it: OU[, then
    bursts whose clocks start 10 us before the OU[ and rise, then OU]. With
    sorted_, the same events as ovnisort leaves them: the bursts moved before
    the OU[ (and after the OAs, whose clock is lower), the OU] in place.
    Returns the stream and the offset of the first burst."""
    s = started()                        # OHx T0, OAs T0 + 100
    bursts = [T0 + 10_000 + 33 * k for k in range(5)]
    at = None
    if sorted_:
        for c in bursts:
            s.event('OB.', c)
        s.event('OU[', T0 + 20_000)
    else:
        s.event('OU[', T0 + 20_000)
        at = s.here()
        for c in bursts:
            s.event('OB.', c)
    s.event('OU]', T0 + 23_000)
    s.ohe(T0 + 23_100)
    return s, at


@hand('n_ovni_clock_unsorted_sort_test', 'raw libovni output as ovni\'s sort test writes it: '
      'bursts between OU[ and OU] whose clocks start 10 us before the OU[; a decrease inside an '
      'unsorted region, which ovnisort sorts (ruling 11)', errors=['OVNI-CLOCK-UNSORTED'],
      ruling='ruling 11')
def clock_unsorted_sort_test():
    s, at = sort_test_stream()
    return one_thread(s), (OBS, at + 4)


@hand('y_ovni_clock_unsorted_sorted', 'the stream of n_ovni_clock_unsorted_sort_test as '
      'ovnisort leaves it: the bursts before the OU[, clocks in order (ruling 11)',
      ruling='ruling 11')
def clock_unsorted_sorted():
    s, _ = sort_test_stream(sorted_=True)
    return one_thread(s)


@hand('n_ovni_clock_decrease_at_region_end', 'an OU] whose clock is below the last event of its '
      'region: ovnisort leaves the OU] where it is, so this is no unsorted event (ruling 11)',
      errors=['OVNI-CLOCK-DECREASE'], ruling='ruling 11')
def clock_decrease_at_region_end():
    s = started()
    s.event('OU[', T0 + 200)
    s.event('OB.', T0 + 300)
    at = s.here()
    s.event('OU]', T0 + 250)
    s.ohe(T0 + 400)
    return one_thread(s), (OBS, at + 4)


@hand('n_ovni_clock_decrease_after_region', 'an event after an OU] whose clock goes back into '
      'the region before: ovnisort sorts only the region, so this stays a decrease (ruling 11)',
      errors=['OVNI-CLOCK-DECREASE'], ruling='ruling 11')
def clock_decrease_after_region():
    s = started()
    s.event('OU[', T0 + 200)
    s.event('OB.', T0 + 300)
    s.event('OU]', T0 + 400)
    at = s.here()
    s.event('OB.', T0 + 350)
    s.ohe(T0 + 500)
    return one_thread(s), (OBS, at + 4)


def gate_trace(offsets):
    """One thread per loom (node1, node2, ...), each starting offsets[k] ns
    after T0, as ovni's clockgate test writes them: each node's own clock."""
    t = {}
    for k, off in enumerate(offsets):
        s = Stream()
        life(s, T0 + off)
        thread(t, 'node%d' % (k + 1), 100 + k, 100 + k, s, cpus=1)
    return t


HOUR = 3600 * 10**9


@hand('y_ovni_clock_gate_three_looms', 'three looms whose first clocks are 0, 2 h and 30 min '
      'after the first loom\'s (clock offsets not applied): a warning for the stream 2 h after; '
      'ovniemu refuses the trace (ruling 10)', warnings=['OVNI-CLOCK-GATE'], ruling='ruling 10')
def clock_gate_three_looms():
    return gate_trace([0, 2 * HOUR, HOUR // 2])


@hand('y_ovni_clock_gate_one_hour', 'two looms whose first clocks are exactly one hour apart: '
      'not more than one hour, no warning (ruling 10)', ruling='ruling 10')
def clock_gate_one_hour():
    return gate_trace([0, HOUR])


@hand('n_ovni_require_version_major', 'ovni.require.ovni "2.0.0": another major than ovni\'s '
      'model 1.1.0 (ruling 9)', errors=['OVNI-REQUIRE-VERSION'], ruling='ruling 9')
def require_version_major():
    t = with_meta(require={'ovni': '2.0.0'})
    return t, (JSON, t[JSON].decode().index('"2.0.0"'))


@hand('n_ovni_require_version_minor', 'ovni.require.ovni "1.2.0": a higher minor than ovni\'s '
      'model 1.1.0 (ruling 9)', errors=['OVNI-REQUIRE-VERSION'], ruling='ruling 9')
def require_version_minor():
    t = with_meta(require={'ovni': '1.2.0', 'nosv': '2.3.0'})
    return t, (JSON, t[JSON].decode().index('"1.2.0"'))


@hand('y_ovni_require_version_compatible', 'ovni.require.ovni "1.0.7" and "01.001.0" in two '
      'threads: the major of 1.1.0 and a minor no higher, leading zeros read as libovni reads '
      'them (ruling 9)', ruling='ruling 9')
def require_version_compatible():
    t = {}
    for k, version in enumerate(('1.0.7', '01.001.0')):
        s = Stream()
        life(s, T0 + k, cpu=k)
        thread(t, LOOM, PID, PID + k, s, cpus=2 if k == 0 else None, require={'ovni': version})
    return t


@hand('n_ovni_require_version_unjudged', 'ovni.require.ovni "0.1.0" on a stream whose ovni '
      'events the model layer would refuse (OHe first, a burst with a payload, OZz, a lone OF]): '
      'the model is not judged, only the version is reported (ruling 9)',
      errors=['OVNI-REQUIRE-VERSION'], ruling='ruling 9')
def require_version_unjudged():
    s = Stream()
    s.ohe(T0)
    s.event('OB.', T0 + 100, bytes(16))
    s.event('OZz', T0 + 200)
    s.event('OF]', T0 + 300)
    t = one_thread(s, require={'ovni': '0.1.0'})
    return t, (JSON, t[JSON].decode().index('"0.1.0"'))


@hand('n_ovni_meta_require_suffix', 'ovni.require.ovni "1.1.0-rc1": libovni\'s version_parse '
      'reads it as 1.1.0, but a version is three numbers and nothing else (rulings 6 and 9)',
      errors=['OVNI-META-REQUIRE'], ruling='rulings 6 and 9')
def meta_require_suffix():
    t = with_meta(require={'ovni': '1.1.0-rc1'})
    return t, (JSON, t[JSON].decode().index('"1.1.0-rc1"'))


@hand('n_ovni_meta_require_above_int', 'ovni.require.nosv "2.2147483648.0": a number beyond '
      'libovni\'s int (rulings 6 and 9)', errors=['OVNI-META-REQUIRE'], ruling='rulings 6 and 9')
def meta_require_above_int():
    t = with_meta(require={'ovni': '1.1.0', 'nosv': '2.2147483648.0'})
    return t, (JSON, t[JSON].decode().index('"2.2147483648.0"'))


@hand('n_ovni_meta_require_2_32', 'ovni.require.ovni "4294967296.0.0": a number that does not '
      'fit 32 bits, which libovni reads as 0.0.0 through an int cast', errors=['OVNI-META-REQUIRE'],
      ruling='ruling 16')
def meta_require_2_32():
    t = with_meta(require={'ovni': '4294967296.0.0'})
    return t, (JSON, t[JSON].decode().index('"4294967296.0.0"'))


@hand('n_ovni_meta_require_2_32_nosv', 'ovni.require.nosv "2.4294967299.0": every model\'s '
      'version is read as ovni\'s is', errors=['OVNI-META-REQUIRE'], ruling='ruling 16')
def meta_require_2_32_nosv():
    t = with_meta(require={'ovni': '1.1.0', 'nosv': '2.4294967299.0'})
    return t, (JSON, t[JSON].decode().index('"2.4294967299.0"'))


@hand('y_ovni_unknown_ou_event', 'an OUj jumbo event inside an unsorted region, as ovni\'s sort '
      'test writes it: an unknown event of ovni\'s model, a warning (ruling 12; ovniemu ignores '
      'every OU event)', warnings=['OVNI-MODEL-UNKNOWN-EVENT'], ruling='ruling 12')
def unknown_ou_event():
    s = started()
    s.event('OU[', T0 + 200)
    s.event('OB.', T0 + 300)
    s.jumbo('OUj', T0 + 400, bytes(64))
    s.event('OU]', T0 + 500)
    s.ohe(T0 + 600)
    return one_thread(s)


@hand('n_ovni_burst_jumbo', 'a burst (OB.) written as a jumbo event of 64 bytes, as ovni\'s '
      'flush tests fill their buffers: OB. has no payload (ruling 12)',
      errors=['OVNI-MODEL-PAYLOAD'], ruling='ruling 12')
def burst_jumbo():
    s = started()
    at = s.here()
    s.jumbo('OB.', T0 + 200, bytes(64))
    s.ohe(T0 + 300)
    return one_thread(s), (OBS, at)


@hand('n_ovni_burst_payload', 'a burst (OB.) with a 16-byte payload, as ovni\'s '
      'sort-into-previous-region test writes it: OB. has no payload (ruling 12)',
      errors=['OVNI-MODEL-PAYLOAD'], ruling='ruling 12')
def burst_payload():
    s = started()
    at = s.here()
    s.event('OB.', T0 + 200, bytes(16))
    s.ohe(T0 + 300)
    return one_thread(s), (OBS, at)


# ------------------------------------------------------ n_: metadata values and whole traces


def with_meta(**kw):
    """A valid life in a one-thread trace whose metadata has kw."""
    s = Stream()
    life(s, T0)
    return one_thread(s, **kw)


def edit_json(t, old, new):
    """Replaces the first old in the one thread's stream.json; returns the
    trace and (file, offset of the replacement)."""
    text = t[JSON].decode()
    at = text.index(old)
    t[JSON] = (text[:at] + new + text[at + len(old):]).encode()
    return t, (JSON, at)


@hand('n_ovni_meta_not_object', 'a stream.json holding an array around the metadata object',
      errors=['OVNI-META-NOT-OBJECT'], ruling='ruling 6')
def meta_not_object():
    t = with_meta()
    t[JSON] = b'[' + t[JSON].rstrip(b'\n') + b']\n'
    return t, (JSON, 0)


@hand('n_ovni_meta_version_string', 'metadata "version": "3", a string',
      errors=['OVNI-META-VERSION'],
      ruling='ruling 6')
def meta_version_string():
    t, (f, at) = edit_json(with_meta(), '"version": 3,', '"version": "3",')
    return t, (f, at + len('"version": '))


@hand('n_ovni_meta_finished_0', 'ovni.finished 0: the program stopped before its stream was '
      'complete', errors=['OVNI-META-FINISHED'], ruling='ruling 6')
def meta_finished_0():
    t = with_meta(finished=0)
    return t, (JSON, t[JSON].decode().index('"finished": 0') + len('"finished": '))


@hand('n_ovni_meta_finished_missing', 'metadata without ovni.finished',
      errors=['OVNI-META-MISSING'],
      ruling='ruling 6')
def meta_finished_missing():
    return with_meta(finished=None)


@hand('n_ovni_meta_tid_string', 'ovni.tid given as the string "4100"', errors=['OVNI-META-TYPE'],
      ruling='ruling 6')
def meta_tid_string():
    t, (f, at) = edit_json(with_meta(), '"tid": %d' % PID, '"tid": "%d"' % PID)
    return t, (f, at + len('"tid": '))


@hand('n_ovni_meta_tid_0', 'ovni.tid 0, not a thread id', errors=['OVNI-META-ID'],
      ruling='ruling 6')
def meta_tid_0():
    s = Stream()
    life(s, T0)
    t = put({}, 'loom.%s/proc.%d/thread.0' % (LOOM, PID), s,
            meta(tid=0, pid=PID, loom=LOOM, cpus=4))
    rel = 'loom.%s/proc.%d/thread.0/stream.json' % (LOOM, PID)
    return t, (rel, t[rel].decode().index('"tid": 0') + len('"tid": '))


@hand('n_ovni_meta_loom_nul', 'ovni.loom "node1\\u0000x": a loom name cannot hold a NUL (it names a '
      'directory; a reader of C strings sees "node1")', errors=['OVNI-META-LOOM'], ruling='ruling 6')
def meta_loom_nul():
    t = with_meta()
    text = t[JSON].decode()
    old = '"loom": "%s"' % LOOM
    at = text.index(old) + len('"loom": ')
    t[JSON] = (text[:at] + '"%s\\u0000x"' % LOOM + text[at + len(LOOM) + 2:]).encode()
    return t, (JSON, at)


@hand('n_ovni_meta_loom_slash', 'ovni.loom "rack2/node7": a loom name cannot hold \'/\' (it names '
      'a directory)', errors=['OVNI-META-LOOM'], ruling='ruling 6')
def meta_loom_slash():
    s = Stream()
    life(s, T0)
    rel = 'loom.node7/proc.%d/thread.%d' % (PID, PID)
    t = put({}, rel, s, meta(tid=PID, pid=PID, loom='rack2/node7', cpus=4))
    text = t[rel + '/stream.json'].decode()
    return t, (rel + '/stream.json', text.index('"rack2/node7"'))


@hand('n_ovni_meta_rank_without_nranks', 'ovni.rank given without ovni.nranks',
      errors=['OVNI-META-RANK'], ruling='ruling 6')
def meta_rank_without_nranks():
    t = with_meta(rank=0, require={'ovni': '1.1.0', 'mpi': '1.0.0'})
    return t, (JSON, t[JSON].decode().index('"rank": 0') + len('"rank": '))


@hand('n_ovni_meta_rank_equal_nranks', 'ovni.rank 4 with ovni.nranks 4: ranks go from 0 to 3',
      errors=['OVNI-META-RANK'], ruling='ruling 6')
def meta_rank_equal_nranks():
    t = with_meta(rank=4, nranks=4, require={'ovni': '1.1.0', 'mpi': '1.0.0'})
    return t, (JSON, t[JSON].decode().index('"rank": 4') + len('"rank": '))


@hand('n_ovni_meta_require_two_parts', 'ovni.require gives nosv the version "2.3", not '
      'MAJOR.MINOR.PATCH', errors=['OVNI-META-REQUIRE'], ruling='ruling 6')
def meta_require_two_parts():
    t = with_meta(require={'ovni': '1.1.0', 'nosv': '2.3'})
    return t, (JSON, t[JSON].decode().index('"2.3"'))


@hand('n_ovni_meta_loom_cpus_empty', 'ovni.loom_cpus is an empty array',
      errors=['OVNI-META-LOOM-CPUS'], ruling='ruling 7')
def meta_loom_cpus_empty():
    t = with_meta(cpus=[])
    return t, (JSON, t[JSON].decode().index('"loom_cpus": []') + len('"loom_cpus": '))


@hand('n_ovni_trace_app_id_disagree', 'two threads of one process giving app_id 1 and 2',
      errors=['OVNI-TRACE-PROCESS'], ruling='ruling 7')
def trace_app_id_disagree():
    t = {}
    for k in range(2):
        s = Stream()
        life(s, T0 + k, cpu=k)
        thread(t, LOOM, PID, PID + k, s, cpus=2 if k == 0 else None, app_id=k + 1)
    return t


@hand('n_ovni_trace_tid_duplicate', 'a thread\'s stream and a copy of it (thread.4100.bak) in one '
      'process: the same tid twice', errors=['OVNI-TRACE-TID-DUPLICATE'], ruling='ruling 7')
def trace_tid_duplicate():
    t = {}
    s = Stream()
    life(s, T0)
    thread(t, LOOM, PID, PID, s, cpus=2)
    put(t, stream_dir(LOOM, PID, PID) + '.bak', s, meta(tid=PID, pid=PID, loom=LOOM))
    return t


@hand('n_ovni_trace_loom_no_cpus', 'two looms, the second without ovni.loom_cpus in any of its '
      'threads', errors=['OVNI-TRACE-LOOM-NO-CPUS'], ruling='ruling 7')
def trace_loom_no_cpus():
    t = {}
    for k, loom in enumerate(('node1', 'node1', 'node2', 'node2')):
        s = Stream()
        life(s, T0 + k, cpu=k % 2)
        thread(t, loom, 100, 100 + k, s, cpus=2 if k == 0 else None)
    return t


@hand('n_ovni_trace_cpu_phyid_two_indexes', 'two threads of a loom whose CPU lists give phyid 1 '
      'the indexes 1 and 2', errors=['OVNI-TRACE-CPU-PHYID'], ruling='ruling 7')
def trace_cpu_phyid_two_indexes():
    t = {}
    for k, cpus in enumerate(([(0, 0), (1, 1)], [(0, 0), (2, 1)])):
        s = Stream()
        life(s, T0 + k, cpu=0)
        thread(t, LOOM, PID, PID + k, s, cpus=cpus)
    return t


@hand('n_ovni_trace_cpu_index_gap', 'a loom of two CPUs with the indexes 0 and 2 (1 is missing)',
      errors=['OVNI-TRACE-CPU-INDEX'], ruling='ruling 7')
def trace_cpu_index_gap():
    return with_meta(cpus=[(0, 0), (2, 1)])


# ------------------------------------------- every model of ovniemu 1.14.0 (rulings 13 to 17)

# Generated traces of each model alone, and of all of them.
for _model, _seed in (('nosv', 31), ('nanos6', 32), ('nodes', 33), ('tampi', 34), ('mpi', 35),
                      ('openmp', 36), ('kernel', 37)):
    gen('y_ovni_%s_gen' % _model, '--seed %d --size 6K --looms 1 --procs 1 --threads 2 '
        '--models %s' % (_seed, _model),
        'a generated trace whose threads write the %s model\'s events besides ovni\'s own: '
        'states entered and left, values set, tasks and their bodies as the model keeps them '
        '(ruling 15)' % _model, ruling='ruling 15')
gen('y_ovni_ovni_only_gen', '--seed 38 --size 4K --looms 1 --procs 1 --threads 2 --models none',
    'a generated trace of ovni\'s own events alone')
gen('y_ovni_every_model_gen', '--seed 39 --size 12K --looms 2 --procs 2 --threads 2 --models all',
    'a generated trace of two looms whose processes write the events of every model ovniemu '
    '1.14.0 knows, judged in clock order across their threads (rulings 13 and 15)',
    ruling='rulings 13 and 15')

# One broken rule each (gen ovni --violate).
for _name, _rule, _desc in (
        ('n_ovni_nosv_event_while_paused', 'OVNI-THREAD-INACTIVE',
         'a nOS-V event (VSr) while its thread is paused'),
        ('n_ovni_kernel_event_out_of_cpu', 'OVNI-THREAD-OUT-OF-CPU',
         'an event of ovni\'s model between the kernel\'s KCO and KCI'),
        ('n_ovni_cpu_unknown', 'OVNI-CPU-UNKNOWN', 'OAs to a CPU index past the loom\'s CPUs'),
        ('n_ovni_cpu_shared', 'OVNI-CPU-SHARED',
         'two threads of a loom running on CPU 0 from the same clock'),
        ('n_ovni_oar_thread_unknown', 'OVNI-THREAD-UNKNOWN', 'OAr naming a tid no stream has'),
        ('n_ovni_oas_while_paused', 'OVNI-AFFINITY-STATE', 'OAs while the thread is paused'),
        ('n_ovni_kernel_ci_without_co', 'OVNI-STATE-POP',
         'the kernel\'s KCI with no KCO before it'),
        ('n_ovni_kernel_co_twice', 'OVNI-STATE-REPEAT', 'the kernel\'s KCO twice in a row'),
        ('n_ovni_mark_stack_depth', 'OVNI-STATE-DEPTH', '513 marks pushed at once'),
        ('n_ovni_nosv_subsystem_open_at_end', 'OVNI-STATE-OPEN-AT-END',
         'a nOS-V subsystem (VMa) entered just before the thread ends'),
        ('n_ovni_nosv_task_duplicate', 'OVNI-TASK-DUPLICATE', 'a nOS-V task made twice'),
        ('n_ovni_nosv_task_unknown', 'OVNI-TASK-UNKNOWN', 'a nOS-V task run but never made'),
        ('n_ovni_nosv_type_unknown', 'OVNI-TASK-TYPE-UNKNOWN',
         'a nOS-V task made of a type never made'),
        ('n_ovni_nosv_type_duplicate', 'OVNI-TASK-TYPE-DUPLICATE', 'a nOS-V task type made twice'),
        ('n_ovni_nosv_type_zero', 'OVNI-TASK-ID-ZERO', 'a nOS-V task type with id 0'),
        ('n_ovni_nosv_body_id', 'OVNI-TASK-BODY-ID',
         'a nOS-V task that is not parallel run with a body id other than 0'),
        ('n_ovni_nosv_end_never_ran', 'OVNI-TASK-STATE', 'a nOS-V task ended that never ran'),
        ('n_ovni_nosv_nesting', 'OVNI-TASK-NESTING', 'a nOS-V task run over a running one'),
        ('n_ovni_nosv_resume_not_innermost', 'OVNI-TASK-STACK',
         'a paused nOS-V task resumed under another running over it'),
        ('n_ovni_mark_undeclared', 'OVNI-MARK-UNDECLARED',
         'a mark of a type no stream\'s ovni.mark declares'),
        ('n_ovni_mark_value_zero', 'OVNI-MARK-VALUE-ZERO', 'a mark set to 0'),
        ('n_ovni_mark_kind', 'OVNI-MARK-KIND',
         'a stack mark type set, or a single one pushed'),
        ('n_ovni_nosv_hwc_undeclared', 'OVNI-HWC-UNDECLARED',
         'nOS-V hardware counter values (VWC) in a trace without nosv.hwc'),
        ('n_ovni_meta_mark_chan_type', 'OVNI-META-MARK',
         'an ovni.mark type whose chan_type is "queue"'),
        ('n_ovni_nosv_meta_hwc_no_name', 'OVNI-META-HWC',
         'a hardware counter of nosv.hwc without its name'),
        ('n_ovni_trace_mark_conflict', 'OVNI-TRACE-MARK-CONFLICT',
         'one mark type titled differently by two streams'),
        ('n_ovni_nosv_trace_hwc_conflict', 'OVNI-TRACE-HWC-CONFLICT',
         'one stream declaring one hardware counter and another two')):
    violate(_name, _rule, 1, _desc, ruling='ruling 13' if 'MARK' in _rule or 'CPU' in _rule or
            'THREAD' in _rule or 'AFFINITY' in _rule else 'ruling 15')
violate('y_ovni_old_event_ocn', 'OVNI-MODEL-OLD-EVENT', 1,
        'OCn as nOS-V writes it (8 bytes), which ovniemu ignores as old: a warning',
        ruling='ruling 17', warning=True)

NOSV27 = {'ovni': '1.1.0', 'nosv': '2.7.0'}


def req(*models):
    versions = {'nosv': '2.7.0', 'nanos6': '1.1.0', 'nodes': '1.0.0', 'tampi': '1.0.0',
                'mpi': '1.0.0', 'openmp': '1.2.1', 'kernel': '1.0.0'}
    return dict({'ovni': '1.1.0'}, **{m: versions[m] for m in models})


def u32s(s, *values):
    return b''.join(s.u32(v) for v in values)


def type_event(s, mcv, clock, type_id, label):
    """A task type made: jumbo u32 type id, label, NUL."""
    s.jumbo(mcv, clock, s.u32(type_id) + label + b'\0')


@hand('y_ovni_nosv_task_across_threads', 'a nOS-V task made by one thread (VTc) and run, paused, '
      'resumed and ended by another (VTx, VTp, VTr, VTe), later in clock order: tasks belong to '
      'their process (ruling 15)', ruling='ruling 15')
def nosv_task_across_threads():
    t = {}
    a = started()
    type_event(a, 'VYc', T0 + 200, 7, b'solver')
    a.event('VTc', T0 + 300, u32s(a, 70, 7))
    a.ohe(T0 + 2000)
    thread(t, LOOM, PID, PID, a, cpus=2, require=NOSV27)
    b = Stream()
    b.ohx(T0 + 100, cpu=1)
    for k, v in enumerate('xpre'):
        b.event('VT' + v, T0 + 400 + 100 * k, u32s(b, 70, 0))
    b.ohe(T0 + 1000)
    thread(t, LOOM, PID, PID + 1, b, require=NOSV27)
    return t


@hand('n_ovni_nosv_task_run_before_made', 'a nOS-V task run by one thread (VTx) before another '
      'thread makes it (VTc), by their clocks: across threads, tasks are judged in clock order '
      '(rulings 13 and 15)', errors=['OVNI-TASK-UNKNOWN'], ruling='rulings 13 and 15')
def nosv_task_run_before_made():
    t = {}
    a = started()
    type_event(a, 'VYc', T0 + 200, 7, b'solver')
    a.event('VTc', T0 + 500, u32s(a, 70, 7))
    a.ohe(T0 + 2000)
    thread(t, LOOM, PID, PID, a, cpus=2, require=NOSV27)
    b = Stream()
    b.ohx(T0 + 100, cpu=1)
    at = b.here()
    b.event('VTx', T0 + 400, u32s(b, 70, 0))
    b.ohe(T0 + 1000)
    thread(t, LOOM, PID, PID + 1, b, require=NOSV27)
    return t, (stream_dir(LOOM, PID, PID + 1) + '/stream.obs', at)


@hand('y_ovni_nosv_ocn_8_bytes', 'OCn with 8 bytes (count, maxcpu), as nOS-V 2026.06 writes it '
      'where ovni\'s table declares 4: ovniemu ignores it as an old event; a warning, the payload '
      'not checked (ruling 17)', warnings=['OVNI-MODEL-OLD-EVENT'], ruling='ruling 17')
def nosv_ocn_8_bytes():
    s = started()
    s.event('OCn', T0 + 200, s.i32(4) + s.i32(64))
    s.event('VPr', T0 + 300)
    s.ohe(T0 + 400)
    return one_thread(s, require=NOSV27)


@hand('n_ovni_nanos6_task_run_twice', 'a Nanos6 task body run again while it runs (6Tx twice), '
      'as ovni\'s test nested-tasks-bad writes it', errors=['OVNI-TASK-STATE'],
      ruling='ruling 15; ovniemu\'s body_execute')
def nanos6_task_run_twice():
    s = started()
    type_event(s, '6Yc', T0 + 200, 3, b'kernel')
    s.event('6Tc', T0 + 300, u32s(s, 1, 3))
    s.event('6Tx', T0 + 400, s.u32(1))
    at = s.here()
    s.event('6Tx', T0 + 500, s.u32(1))
    s.event('6Te', T0 + 600, s.u32(1))
    s.ohe(T0 + 700)
    return one_thread(s, require=req('nanos6')), (OBS, at)


@hand('n_ovni_nodes_subsystem_mismatch', 'a NODES subsystem left (DR]) while another entered '
      'within it (DC[) is the innermost', errors=['OVNI-STATE-POP'],
      ruling='ruling 15; ovniemu\'s chan_pop')
def nodes_subsystem_mismatch():
    s = started()
    s.event('DR[', T0 + 200)
    s.event('DC[', T0 + 300)
    at = s.here()
    s.event('DR]', T0 + 400)
    s.event('DC]', T0 + 500)
    s.event('DR]', T0 + 600)
    s.ohe(T0 + 700)
    return one_thread(s, require=req('nodes')), (OBS, at)


@hand('n_ovni_tampi_subsystem_open_at_end', 'a TAMPI subsystem (TLi, the library\'s API) still '
      'entered when the thread\'s stream ends', errors=['OVNI-STATE-OPEN-AT-END'],
      ruling='ruling 13; ovniemu -l, end_lint')
def tampi_subsystem_open_at_end():
    s = started()
    at = s.here()
    s.event('TLi', T0 + 200)
    s.ohe(T0 + 300)
    return one_thread(s, require=req('tampi')), (OBS, at)


@hand('n_ovni_mpi_function_repeat', 'MPI_Waitall entered over itself (MWa MWa): MPI\'s functions '
      'do not repeat', errors=['OVNI-STATE-REPEAT'], ruling='ruling 15; ovniemu\'s chan_push')
def mpi_function_repeat():
    s = started()
    s.event('MWa', T0 + 200)
    at = s.here()
    s.event('MWa', T0 + 300)
    s.event('MWA', T0 + 400)
    s.ohe(T0 + 500)
    return one_thread(s, require=req('mpi')), (OBS, at)


@hand('n_ovni_openmp_worksharing_type_unknown', 'an OpenMP worksharing (PQx) of a type its '
      'process never made (no POc)', errors=['OVNI-TASK-TYPE-UNKNOWN'],
      ruling='ruling 15; the openmp model\'s update_ws_state')
def openmp_worksharing_type_unknown():
    s = started()
    at = s.here()
    s.event('PQx', T0 + 200, s.u32(5))
    s.ohe(T0 + 300)
    return one_thread(s, require=req('openmp')), (OBS, at)


@hand('i_ovni_ovni_mark_declared_elsewhere', 'a mark of a type declared in the ovni.mark of '
      'another stream of the trace, not its own',
      ruling='ruling 13 speaks of the stream\'s ovni.mark; libovni lets one thread declare a '
      'type for all, and ovniemu merges every stream\'s declarations: tracecheck accepts')
def mark_declared_elsewhere():
    t = {}
    a = started()
    a.ohe(T0 + 300)
    thread(t, LOOM, PID, PID, a, cpus=2, ovni_extra={'mark': {'4': {'title': 'Step',
                                                                     'chan_type': 'single'}}})
    b = Stream()
    b.ohx(T0 + 50, cpu=1)
    b.mark('=', T0 + 100, 9, 4)
    b.ohe(T0 + 200)
    thread(t, LOOM, PID, PID + 1, b)
    return t


@hand('i_ovni_nosv_task_runs_again', 'a nOS-V task that runs a second time after its body ended',
      ruling='ruling 15: nOS-V\'s bodies may run again (ovniemu\'s TASK_FLAG_RESURRECT); a reader '
      'that keeps tasks once may refuse it')
def nosv_task_runs_again():
    s = started()
    type_event(s, 'VYc', T0 + 200, 2, b'loop')
    s.event('VTc', T0 + 300, u32s(s, 9, 2))
    for k in range(2):
        s.event('VTx', T0 + 400 + 200 * k, u32s(s, 9, 0))
        s.event('VTe', T0 + 500 + 200 * k, u32s(s, 9, 0))
    s.ohe(T0 + 900)
    return one_thread(s, require=NOSV27)


@hand('i_ovni_nanos6_inline_nesting', 'a Nanos6 task run inline over another that is running, '
      'inside a subsystem',
      ruling='ruling 15: ovniemu relaxes nesting for Nanos6, which runs inline tasks so, and '
      'warns that it is deprecated; tracecheck accepts it')
def nanos6_inline_nesting():
    s = started()
    type_event(s, '6Yc', T0 + 200, 3, b'kernel')
    s.event('6Tc', T0 + 300, u32s(s, 1, 3))
    s.event('6Tc', T0 + 310, u32s(s, 2, 3))
    s.event('6Tx', T0 + 400, s.u32(1))
    s.event('6U[', T0 + 450)
    s.event('6Tx', T0 + 500, s.u32(2))
    s.event('6Te', T0 + 600, s.u32(2))
    s.event('6U]', T0 + 650)
    s.event('6Te', T0 + 700, s.u32(1))
    s.ohe(T0 + 800)
    return one_thread(s, require=req('nanos6'))


@hand('i_ovni_nodes_required_without_events', 'a stream that requires the NODES model and writes '
      'none of its events',
      ruling='ruling 6: ovni.require names the models a stream may use; using none is allowed')
def nodes_required_without_events():
    s = Stream()
    life(s, T0)
    return one_thread(s, require=req('nodes'))


@hand('i_ovni_tampi_unknown_event', 'an event of the TAMPI model that TAMPI 1.0.0 does not define '
      '(TXx): a warning, a newer TAMPI may define it', warnings=['OVNI-MODEL-UNKNOWN-EVENT'],
      ruling='rulings 8 and 15: an unknown event of a known model is a warning; ovniemu refuses it')
def tampi_unknown_event():
    s = started()
    s.event('TXx', T0 + 200)
    s.ohe(T0 + 300)
    return one_thread(s, require=req('tampi'))


@hand('i_ovni_mpi_nested_functions', 'MPI_Wait entered inside MPI_Test and left before it',
      ruling='ruling 15: MPI functions are a stack; a nested call (an MPI library calling '
      'itself through the interposer) is allowed')
def mpi_nested_functions():
    s = started()
    s.event('MT[', T0 + 200)
    s.event('MW[', T0 + 300)
    s.event('MW]', T0 + 400)
    s.event('MT]', T0 + 500)
    s.ohe(T0 + 600)
    return one_thread(s, require=req('mpi'))


@hand('i_ovni_openmp_same_label_types', 'two OpenMP types with one label: a worksharing begun '
      'with one type id and ended with the other',
      ruling='ruling 15: ovniemu tells OpenMP types apart by their labels on the worksharing '
      'stack, so the two ids are one; tracecheck follows it')
def openmp_same_label_types():
    s = started()
    type_event(s, 'POc', T0 + 200, 1, b'for_loop')
    type_event(s, 'POc', T0 + 210, 2, b'for_loop')
    s.event('PQx', T0 + 300, s.u32(1))
    s.event('PQe', T0 + 400, s.u32(2))
    s.ohe(T0 + 500)
    return one_thread(s, require=req('openmp'))


@hand('i_ovni_kernel_switch_while_paused', 'the kernel\'s KCO and KCI while the thread is paused',
      ruling='ruling 15: the kernel model\'s events need no thread state; ovniemu takes them '
      'at any time')
def kernel_switch_while_paused():
    s = started()
    s.event('OHp', T0 + 200)
    s.event('KCO', T0 + 300)
    s.event('KCI', T0 + 400)
    s.event('OHr', T0 + 500)
    s.ohe(T0 + 600)
    return one_thread(s, require=req('kernel'))


def register(add):
    for name, args, desc, expect in GEN:
        add(name, lambda ctx, args=args: ctx.gen(args, 'ovni'),
            'tracecheck gen ovni %s -o %s' % (args, name), 'generated', group='ovni', fmt='ovni',
            ext=None, desc=desc, **expect)
    for name, fn, desc, expect in HAND:
        add(name, fn, 'conformance/tools/ovni/ovni_table.py: %s() with conformance/tools/ovni/ovnicase.py'
            % fn.__name__, 'hand-made', group='ovni', fmt='ovni', ext=None, desc=desc, **expect)

