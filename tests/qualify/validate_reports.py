#!/usr/bin/env python3
"""Every committed qualification report (docs/qualification/*/results.json) against the documented
schema, with the jsonschema package, and its decision against the verdict its README states.
Prints "N passed, N failed".

  validate_reports.py docs/qualification
"""
import json
import pathlib
import sys

import jsonschema


def main():
    root = pathlib.Path(sys.argv[1])
    schema = json.loads((root / "results.schema.json").read_text())
    passed = failed = 0
    for res in sorted(root.glob("*/results.json")):
        name = res.parent.name
        r = json.loads(res.read_text())
        try:
            jsonschema.validate(r, schema)
            ok, why = True, ""
        except jsonschema.ValidationError as e:
            ok, why = False, e.message
        readme = res.parent / "README.md"
        verdict = r["decision"]["verdict"]
        if ok and readme.is_file() and f"**Verdict: {verdict}" not in readme.read_text():
            ok, why = False, f"README.md does not state the verdict '{verdict}'"
        print(("ok    " if ok else "FAIL  ") + f"{name}: {verdict}" + (f": {why}" if why else ""))
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
