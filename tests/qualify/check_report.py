#!/usr/bin/env python3
"""Judges a report of `mlxcel qualify` by independent means: results.json against the documented
JSON schema (the jsonschema package), env.json's model checksum against hashlib's over the same
files, its CPU count against os.cpu_count(), every gate the run was expected to pass, the verdict,
findings.md and the SVG plots parsed as XML. Prints "N passed, N failed".

  check_report.py DIR --schema docs/qualification/results.schema.json --model M
                  [--expect-verdict V] [--expect-pass GATE ...] [--expect-status GATE=STATUS ...]
"""
import argparse
import hashlib
import json
import os
import pathlib
import sys
import xml.etree.ElementTree as ET

import jsonschema


def model_digest(path):
    p = pathlib.Path(path)
    files = [p] if p.is_file() else sorted(
        [f for f in p.iterdir() if f.name.endswith(".safetensors") or f.name == "config.json"], key=lambda f: f.name)
    h, n = hashlib.sha256(), 0
    for f in files:
        with open(f, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
                n += len(chunk)
    return h.hexdigest(), n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--schema", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--expect-verdict")
    ap.add_argument("--expect-pass", nargs="*", default=[])
    ap.add_argument("--expect-status", nargs="*", default=[])
    a = ap.parse_args()
    d = pathlib.Path(a.dir)
    passed = failed = 0

    def check(name, ok, why=""):
        nonlocal passed, failed
        print(("ok    " if ok else "FAIL  ") + name + ("" if ok else f": {why}"))
        passed += ok
        failed += not ok

    results = json.loads((d / "results.json").read_text())
    env = json.loads((d / "env.json").read_text())
    schema = json.loads(pathlib.Path(a.schema).read_text())
    try:
        jsonschema.validate(results, schema)
        check("results.json validates against the schema", True)
    except jsonschema.ValidationError as e:
        check("results.json validates against the schema", False, e.message)
    check("the run is complete", results["complete"] and not results["interrupted"])
    digest, size = model_digest(a.model)
    check("env.json's model sha256 equals hashlib's", env["model"].get("sha256") == digest,
          f'{env["model"].get("sha256")} != {digest}')
    check("env.json's model size equals the files'", env["model"].get("bytes") == size)
    check("env.json's CPU count equals os.cpu_count()", env["cpu"]["logical_cpus"] == os.cpu_count(),
          f'{env["cpu"]["logical_cpus"]} != {os.cpu_count()}')
    check("env.json records the IREE pin and the commit", bool(env["iree"]["pin"]) and env["mlxcel"]["commit"] != "unknown")
    gates = {g["id"]: g for g in results["gates"]}
    for g in a.expect_pass:
        check(f"gate {g} passed", gates.get(g, {}).get("status") == "pass", gates.get(g, {}).get("detail", "absent"))
    for gs in a.expect_status:
        g, st = gs.split("=", 1)
        check(f"gate {g} is {st}", gates.get(g, {}).get("status") == st, gates.get(g, {}).get("detail", "absent"))
    for g in results["gates"]:
        if g.get("log"):
            check(f"gate {g['id']}'s log exists", (d / g["log"]).is_file(), g["log"])
    dec = results["decision"]
    if a.expect_verdict:
        check(f"verdict is {a.expect_verdict}", dec["verdict"] == a.expect_verdict, f'{dec["verdict"]}: {dec["boundary"]}')
    md = (d / "findings.md").read_text()
    check("findings.md states the decision", f"**Decision: {dec['verdict']}.**" in md)
    check("findings.md lists the reproduction commands", "## Reproduce" in md and "mlxcel " in md)
    for svg in sorted(d.glob("*.svg")):
        try:
            root = ET.parse(svg).getroot()
            check(f"{svg.name} is well-formed SVG", root.tag.endswith("svg"))
        except ET.ParseError as e:
            check(f"{svg.name} is well-formed SVG", False, str(e))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
