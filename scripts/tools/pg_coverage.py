"""Check tests/conftest.py's BOTH_STORES and the tests marked both_stores: the tests run on PostgreSQL send it every
statement the whole suite would.

Starts a throwaway PostgreSQL cluster (scripts/setup.sh's pg_start), runs every test but the browser's on PostgreSQL
(REFEREE_TEST_BOTH_STORES=all), then the usual selection, each recording the statements the store sent PostgreSQL
(REFEREE_TEST_SQL_TRACE: SQLite's dialect, a list of placeholders folded into one); prints how many each heard and
every statement only the whole suite sent, with a test that sent it. Exits 1 when there is one: mark that test
``both_stores`` (or add its module to BOTH_STORES). Takes about four minutes on two cores.

    .venv/bin/python scripts/tools/pg_coverage.py
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def heard(folder: str) -> dict[str, set[str]]:
    statements: dict[str, set[str]] = {}
    for name in glob.glob(os.path.join(folder, "*.json")):
        with open(name) as f:
            for sql, tests in json.load(f).items():
                statements.setdefault(sql, set()).update(tests)
    return statements


def run(url: str, folder: str, every: bool) -> None:
    env = {**os.environ, "REFEREE_TEST_POSTGRES": url, "REFEREE_TEST_SQL_TRACE": folder}
    if every:
        env["REFEREE_TEST_BOTH_STORES"] = "all"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "auto", "--dist",
                    "loadgroup", "-m", "not browser", "-k", "postgres"], cwd=ROOT, env=env, check=True)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="referee-pg-coverage-") as tmp:
        os.chmod(tmp, 0o755)  # the server runs as postgres (pg_start, as root): it must reach its folder in here
        cluster = os.path.join(tmp, "cluster")
        os.mkdir(cluster)
        url = subprocess.run(["bash", "-c", f'. scripts/setup.sh && pg_start "{cluster}"'], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip().splitlines()[-1]
        try:
            run(url, os.path.join(tmp, "all"), every=True)
            run(url, os.path.join(tmp, "selected"), every=False)
        finally:
            subprocess.run(["bash", "-c", f'. scripts/setup.sh && pg_stop "{cluster}"'], cwd=ROOT, check=False)
        everything, selected = heard(os.path.join(tmp, "all")), heard(os.path.join(tmp, "selected"))
    missing = sorted(set(everything) - set(selected))
    print(f"statements sent to PostgreSQL: {len(everything)} by every test, {len(selected)} by the selection; "
          f"{len(missing)} missing")
    for sql in missing:
        print(f"  {sql[:150]}\n    e.g. {sorted(everything[sql])[0]}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
