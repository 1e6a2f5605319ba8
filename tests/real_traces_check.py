#!/usr/bin/env python3
"""Checks tracecheck's findings on real traces, read in place.

    tests/real_traces_check.py TRACECHECK TRACES_DIR TABLE

TABLE lists, one file a line, a path under TRACES_DIR and the findings
tracecheck must give it: each as SEVERITY:RULE-ID, or '-' for none. A file
must get exactly those rule ids (with --pedantic: notes included), at those
severities, and the exit status they imply (1 when one is an error). The
files are the formats' own projects' output; they are never copied into the
repository.
"""

import json
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tracecheck, root, table = sys.argv[1:]
    bad = checked = 0
    for n, line in enumerate(open(table, encoding='utf-8'), 1):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        path, want = os.path.join(root, line[0]), set(line[1:]) - {'-'}
        if not os.path.exists(path):
            print('%s:%d: %s: missing' % (table, n, path), file=sys.stderr)
            bad += 1
            continue
        run = subprocess.run([tracecheck, 'validate', '--pedantic', '--report', 'json', path],
                             stdout=subprocess.PIPE, check=False)
        report = json.loads(run.stdout)
        got = {'%s:%s' % (d['severity'], d['rule'])
               for i in report['inputs'] for d in i['diagnostics']
               if d['rule'] != 'TC-DIAG-SUPPRESSED'}
        status = 1 if any(w.startswith('error:') for w in want) else 0
        checked += 1
        if got != want or run.returncode != status:
            bad += 1
            print('%s: exit %d, expected %d; findings %s, expected %s'
                  % (line[0], run.returncode, status, ' '.join(sorted(got)) or '-',
                     ' '.join(sorted(want)) or '-'), file=sys.stderr)
    print('real traces: %d files checked, %d differ from %s' % (checked, bad, table))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
