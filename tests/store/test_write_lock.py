"""Two processes on one file: writers of every process queue on a file lock beside the database (store.WriteLock)
instead of sleeping in SQLite's busy handler; without one (Windows, a lock file that cannot be opened) the thread
lock alone, as before."""

from __future__ import annotations

import errno
import gc
import os
import select
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from referee import store

pytestmark = pytest.mark.timing  # times how long a write waits: on one worker, one after another

ROOT = Path(__file__).resolve().parents[2]

# Another process: takes the write lock, writes a session row, says so, and holds the transaction open.
HOLDER = """
import sys, time
from referee import store
db = store.connect(sys.argv[1])
with db.immediate():
    db.execute("INSERT INTO sessions (id, created, seen) VALUES ('holder', 'x', 'x')")
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def _holder(path: Path, seconds: float) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), str(seconds)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    waiting = select.poll()  # not select(): a long test run holds descriptors past 1024
    waiting.register(proc.stdout, select.POLLIN)
    line = proc.stdout.readline() if waiting.poll(30_000) else b""
    if line != b"holding\n":
        proc.kill()
        raise AssertionError(f"the holder did not take the lock: {line + proc.stdout.read()!r}")
    return proc


def _sessions(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM sessions")}
    finally:
        conn.close()


@pytest.mark.parametrize("ending", ["commits", "is killed"])
def test_a_write_waits_for_another_process_holding_the_lock_then_succeeds(tmp_path, ending):
    """The waiting process's busy handler would give up after 0.2 s ("database is locked"): it never meets it, it
    waits on the file lock for as long as the other process holds it — and a holder SIGKILLed mid-transaction
    lets go at once (the kernel drops its flock; its uncommitted row is gone)."""
    path = tmp_path / "two.sqlite"
    store.connect(path).conn.close()
    hold = 1.5 if ending == "commits" else 60.0
    holder = _holder(path, hold)
    db = store.connect(path, migrate_schema=False)
    db.execute("PRAGMA busy_timeout = 200")
    outcome: list[object] = []

    def write() -> None:
        t0 = time.monotonic()
        try:
            with db.immediate():
                db.execute("INSERT INTO sessions (id, created, seen) VALUES ('waiter', 'x', 'x')")
            outcome.append(time.monotonic() - t0)
        except sqlite3.OperationalError as exc:
            outcome.append(exc)

    try:
        writer = threading.Thread(target=write)
        writer.start()
        if ending == "is killed":
            time.sleep(1.0)
            assert writer.is_alive() and not outcome  # still waiting for the holder
            os.kill(holder.pid, signal.SIGKILL)
        writer.join(30)
        assert not writer.is_alive()
        assert len(outcome) == 1 and isinstance(outcome[0], float), outcome
        assert outcome[0] >= 0.8  # it waited for the other process
        holder.wait(30)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(10)
        db.conn.close()
    assert _sessions(path) == ({"holder", "waiter"} if ending == "commits" else {"waiter"})


def test_the_lock_file_is_made_beside_the_database_with_its_permissions(tmp_path, monkeypatch):
    """``<database>.write-lock``, with the database's mode (not the umask's) and, when Referee runs as root, its
    owner — as SQLite makes its -wal and -shm files; beside the file itself when the path is a symlink; none for
    an in-memory database."""
    real = tmp_path / "data" / "referee.sqlite"
    real.parent.mkdir()
    sqlite3.connect(real).close()
    os.chmod(real, 0o660)
    root = os.geteuid() == 0
    if root:
        os.chown(real, 4321, 4321)
    link = tmp_path / "link.sqlite"
    link.symlink_to(real)
    monkeypatch.chdir(tmp_path)
    old_umask = os.umask(0o077)
    try:
        db = store.connect(link)  # migrating is a write: it takes the lock
        memory = store.connect(":memory:")
        with memory.immediate():
            memory.execute("INSERT INTO sessions (id, created, seen) VALUES ('m', 'x', 'x')")
    finally:
        os.umask(old_umask)
    lock = real.parent / "referee.sqlite.write-lock"
    assert lock.is_file()
    assert not (tmp_path / "link.sqlite.write-lock").exists()
    assert not list(tmp_path.glob(":memory:*"))
    st = lock.stat()
    assert stat.S_IMODE(st.st_mode) == 0o660
    if root:
        assert (st.st_uid, st.st_gid) == (4321, 4321)
    db.conn.close()
    memory.conn.close()


def _refusing_flock(fd: int, operation: int) -> None:
    raise OSError(errno.ENOLCK, "No locks available")


@pytest.mark.parametrize("why", ["no fcntl (Windows)", "a lock file that cannot be opened", "flock refused"])
def test_without_a_file_lock_writes_go_on_with_the_thread_lock_alone(tmp_path, monkeypatch, why):
    path = tmp_path / "alone.sqlite"
    if why == "no fcntl (Windows)":
        monkeypatch.setattr(store.locks, "fcntl", None)
    elif why == "flock refused":  # e.g. a file system without flock
        monkeypatch.setattr(store.locks, "fcntl", types.SimpleNamespace(flock=_refusing_flock, LOCK_EX=2, LOCK_UN=8))
    else:  # a dangling symlink: neither created nor opened, whoever runs the test (root passes permissions)
        (tmp_path / "alone.sqlite.write-lock").symlink_to(tmp_path / "missing" / "lock")
    db = store.connect(path)
    try:
        lock = db.write_lock
        assert isinstance(lock, store.WriteLock)
        with lock.other_processes():  # nothing to take: it does not wait
            pass
        with db.immediate():
            db.execute("INSERT INTO sessions (id, created, seen) VALUES ('s', 'x', 'x')")
        assert db.write_grouped(1, lambda d, items: [n * 2 for n in items]) == 2
    finally:
        db.conn.close()
    assert _sessions(path) == {"s"}
    assert (tmp_path / "alone.sqlite.write-lock").is_file() == (why == "flock refused")


def test_one_lock_a_file_while_a_connection_holds_it_and_its_descriptor_goes_with_the_last(tmp_path):
    """Every connection to a file (by any path to it) shares its write lock; once none is left, the lock and its
    lock file's descriptor go too: a process that opens many files one after another keeps no descriptor of each."""
    path = tmp_path / "referee.sqlite"
    link = tmp_path / "link.sqlite"
    first = store.connect(path)
    link.symlink_to(path)
    second = store.connect(link)
    assert first.write_lock is second.write_lock  # type: ignore[attr-defined]
    with first.immediate():  # the lock file opened
        pass
    lock_file = str(path) + store.LOCK_SUFFIX

    def lock_file_open() -> bool:
        return any(os.path.realpath(f"/proc/self/fd/{fd}") == os.path.realpath(lock_file)
                   for fd in os.listdir("/proc/self/fd") if os.path.exists(f"/proc/self/fd/{fd}"))

    assert lock_file_open()
    first.conn.close()
    del first
    assert lock_file_open()  # the second connection still holds it
    second.conn.close()
    del second
    assert not lock_file_open()
    again = store.connect(path)  # a new lock for the file, its lock file opened again when a write takes it
    with again.immediate():
        again.execute("INSERT INTO sessions (id, created, seen) VALUES ('again', 'x', 'x')")
    assert lock_file_open()
    again.conn.close()


def test_a_lock_file_closed_by_hand_is_not_closed_again_when_its_lock_goes(tmp_path):
    """``close_write_lock`` (a test's end) and the lock's going (its last connection closed) both let go of the lock
    file: whichever comes second closes nothing — by then its descriptor's number may be another file's."""
    path = tmp_path / "referee.sqlite"
    db = store.connect(path)
    with db.immediate():  # the lock file opened
        pass
    store.close_write_lock(path)
    reused = os.open(os.devnull, os.O_RDONLY)  # most likely the number the lock file had
    try:
        db.conn.close()
        del db
        gc.collect()  # the lock goes with its last connection
        os.fstat(reused)  # still open: not closed in the lock file's name
    finally:
        os.close(reused)
