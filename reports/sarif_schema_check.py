#!/usr/bin/env python3
"""Validates SARIF files against the official SARIF 2.1.0 JSON schema.

usage: sarif_schema_check.py SCHEMA FILE...

Each FILE must validate (Draft 4, as the schema declares, with format
checks) and hold at least one result: the inputs given to `tracecheck
validate` by `make check-reports` always include invalid cases.
"""
import json
import sys

import jsonschema


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    failed = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = list(validator.iter_errors(doc))
        for e in errors[:10]:
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{path}: {where}: {e.message[:300]}", file=sys.stderr)
        results = doc.get("runs", [{}])[0].get("results", [])
        if not results:
            print(f"{path}: no results", file=sys.stderr)
        failed += bool(errors) or not results
        print(f"  SARIF  {path}: {len(results)} results, "
              f"{'valid' if not errors else 'INVALID'} against the 2.1.0 schema")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
