#!/usr/bin/env python3
"""The Kubernetes manifests in deploy/kubernetes/ against Kubernetes' own JSON schemas
(kubernetes-validate, strict: unknown fields are errors), and against the server they start: every
container's arguments must be options `mlxcel serve --help` lists, its probes must ask /health on
the container's port, and its grace period must exceed the server's default shutdown timeout.

With --model, a CPU container's arguments are also run: `mlxcel serve` with them (the model path,
the address and the port swapped for local ones) must get ready and answer /health with 200.

usage: validate_manifests.py --mlxcel build/mlxcel [--model MODEL] [--kubernetes-version 1.34] [DIR]
Prints one line per check and "N passed, M failed" last."""
import argparse
import glob
import os
import re
import subprocess
import sys

import kubernetes_validate
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from checks import check, expect, launch, summary  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--kubernetes-version", default="1.34")
    ap.add_argument("--model", help="run the CPU containers' arguments against this model")
    ap.add_argument("dir", nargs="?", default="deploy/kubernetes")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.dir, "*.yaml")))
    helptext = subprocess.run([a.mlxcel, "serve", "--help"], capture_output=True, text=True, check=True).stdout
    options = set(re.findall(r"(--[a-z][a-z0-9-]*)", helptext)) | {"-m"}

    @check(f"{len(files)} manifests found in {a.dir}")
    def _():
        expect(len(files) >= 2, files)

    @check("the validator is live: a Deployment with an unknown field, and one with a wrong type, are refused")
    def _():
        d = next(x for x in yaml.safe_load_all(open(files[0])) if x and x.get("kind") == "Deployment")
        for mutate in (lambda x: x["spec"].update(replicass=2), lambda x: x["spec"].update(replicas="two")):
            bad = yaml.safe_load(yaml.safe_dump(d))
            mutate(bad)
            try:
                kubernetes_validate.validate(bad, a.kubernetes_version, strict=True)
            except (kubernetes_validate.ValidationError, kubernetes_validate.InvalidSchemaError):
                continue
            raise AssertionError("a broken Deployment passed")

    for path in files:
        docs = [d for d in yaml.safe_load_all(open(path)) if d]

        @check(f"{path}: every object valid for Kubernetes {a.kubernetes_version} (strict)")
        def _():
            for d in docs:
                kubernetes_validate.validate(d, a.kubernetes_version, strict=True)

        for d in docs:
            if d.get("kind") != "Deployment":
                continue
            spec = d["spec"]["template"]["spec"]
            for c in spec["containers"]:
                @check(f"{path}: {d['metadata']['name']}/{c['name']}: arguments are mlxcel serve's options")
                def _():
                    flags = [x for x in c.get("args", []) if x.startswith("-")]
                    unknown = [f for f in flags if f not in options]
                    expect(flags and not unknown, f"unknown to `mlxcel serve --help`: {unknown}")
                    expect("--host" in c["args"] and c["args"][c["args"].index("--host") + 1] == "0.0.0.0",
                           "a container must bind 0.0.0.0 to be reachable")

                @check(f"{path}: {d['metadata']['name']}/{c['name']}: probes ask /health on the served port")
                def _():
                    port = c["args"][c["args"].index("--port") + 1]
                    names = {p["name"]: str(p["containerPort"]) for p in c["ports"]}
                    # startup too: a tcpSocket startup probe passes at once now that the port opens before
                    # the model is loaded, and the liveness probe would then kill a pod mid-compile.
                    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                        g = c[probe]["httpGet"]
                        expect(g["path"] == "/health", f"{probe} path {g['path']}")
                        expect(names.get(g["port"], str(g["port"])) == port, f"{probe} port {g['port']} != --port {port}")
                    expect(spec.get("terminationGracePeriodSeconds", 30) > 10,
                           "the grace period must exceed --shutdown-timeout (10 s by default)")

                if a.model and "--device" not in c["args"]:
                    @check(f"{path}: {d['metadata']['name']}/{c['name']}: the arguments start a server that answers /health")
                    def _():
                        args = list(c["args"])
                        for flag, value in (("-m", a.model), ("--host", "127.0.0.1"), ("--port", "0")):
                            args[args.index(flag) + 1] = value
                        env = dict(os.environ, MLXCEL_API_KEY="manifest-check")
                        proc, port, lines = launch([a.mlxcel, "serve"] + args, env=env)
                        try:
                            import http.client
                            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                            conn.request("GET", "/health")
                            r = conn.getresponse()
                            expect(r.status == 200, f"/health {r.status}: {r.read()[:200]!r}")
                        finally:
                            proc.terminate()
                            expect(proc.wait(60) == 0, f"exit status after SIGTERM: {lines[-3:]}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
