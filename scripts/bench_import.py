"""Import of hostile files: ~700k empty match objects (2 MiB), then 4 MiB and 8 MiB of them.

Each import runs in a fresh subprocess (through the test client, POST /api/import) under an address-space
limit (RLIMIT_AS, default 3 GiB); prints the status, the seconds the request took, the peak resident memory
(MiB), the number of errors and the last error.
Usage: .venv/bin/python scripts/bench_import.py [limit in MiB]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import resource, sys, time
limit = int(sys.argv[2]) * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from referee import create_app
app = create_app({"DATABASE": sys.argv[3], "SECRET_KEY": "x", "PASSPHRASE": None, "TESTING": True})
body = open(sys.argv[1], "rb").read()
client = app.test_client()
started = time.monotonic()
r = client.post("/api/import", data=body, content_type="application/json")
took = time.monotonic() - started
# VmHWM: this process's own peak (ru_maxrss would count the parent's memory at fork time too)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM")) / 1024
errors = (r.get_json() or {}).get("errors", [])
print(r.status_code, f"{took:.2f}", f"{peak:.0f}", len(errors), errors[-1]["message"] if errors else "")
"""


def hostile(size: int) -> bytes:
    head = b'{"format": "referee-export", "version": 1, "matches": ['
    count = (size - len(head) - 2) // 3
    return head + b",".join([b"{}"] * count) + b"]}"


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 3072
    with tempfile.TemporaryDirectory() as tmp:
        for mib in (2, 4, 8):
            path = Path(tmp) / f"hostile-{mib}.json"
            path.write_bytes(hostile(mib * 1024 * 1024))
            count = path.read_bytes().count(b"{}")  # not json.loads: a child's peak memory starts from its parent's
            started = time.monotonic()
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(path), str(limit), str(Path(tmp) / f"db{mib}.sqlite")],
                capture_output=True,
                text=True,
                timeout=600,
            )
            wall = time.monotonic() - started
            line = (
                out.stdout.strip().splitlines()[-1]
                if out.stdout.strip()
                else f"died (exit {out.returncode}): {out.stderr.strip().splitlines()[-1:]}"
            )
            print(f"{mib} MiB, {count:,} empty matches, limit {limit} MiB: {line}  [process {wall:.1f} s]", flush=True)


if __name__ == "__main__":
    main()
