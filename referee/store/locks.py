"""Who writes to a database next, in this process and across processes (``WriteLock``)."""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: writers of one process queue on the thread lock, other processes on SQLite's lock
    fcntl = None  # type: ignore[assignment]

# One write lock per database file in this process, taken before BEGIN IMMEDIATE: writers of one process queue
# on it instead of sleeping in SQLite's busy handler (steps of 1-100 ms), which made p99 latency grow under load.
# Writers of other processes on the same file queue on a file lock beside it (see WriteLock).
LOCK_SUFFIX = ".write-lock"


class WriteLock:
    """Who writes to one database file next: the threads of this process queue on a thread lock, then — holding
    it, so one thread per process at a time — the processes queue on ``fcntl.flock`` of the lock file beside the
    database (``<database>.write-lock``). The kernel wakes a process waiting for a flock as soon as the holder lets
    go; SQLite's busy handler, which other processes met before, polls in sleeps of up to 100 ms, and a process
    whose threads kept taking the file in turn left the other's writers sleeping for seconds.

    The file lock only orders writers: SQLite's own lock still guards the file (busy_timeout waits for writers
    that do not take this lock: an older Referee, the sqlite3 shell). So where it cannot be had — no fcntl
    (Windows), a lock file that cannot be opened (a read-only folder), a file system refusing flock, ":memory:"
    — the thread lock alone is taken and nothing else changes. A process that dies holding it, even by SIGKILL,
    lets go with its last file descriptor: the kernel releases the flock. The lock file is never removed (a
    removed lock file would let two processes lock two different files).

    A file of its own rather than the database or its -shm: SQLite holds POSIX locks on those, which any close()
    of another descriptor to the same file in this process would drop; NFS emulates flock with POSIX locks, which
    would then meet SQLite's own; and the -shm is deleted when the last connection closes. Not ``<database>.lock``:
    SQLite's unix-dotfile VFS uses that name.

    ``with lock:`` takes both; ``write_grouped`` takes ``thread`` and then ``other_processes()`` itself."""

    def __init__(self, lock_file: str | None) -> None:
        self.thread = threading.Lock()
        self.lock_file = lock_file
        self._file: _LockFile | None = None  # the lock file, opened once per process
        self._pid = 0
        self._held = ExitStack()  # what ``with lock:`` took of other_processes()

    def __enter__(self) -> WriteLock:
        self.thread.acquire()
        try:
            self._held.enter_context(self.other_processes())
        except BaseException:
            self.thread.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._held.close()
        finally:
            self.thread.release()

    @contextmanager
    def other_processes(self) -> Iterator[None]:
        """The file lock, waited for by a thread that holds ``thread`` (for as long as another process writes)."""
        fd = self._descriptor()
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:  # ENOLCK, a file system without flock: SQLite's lock alone, as before
                fd = None
        try:
            yield
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Let go of the lock file's descriptor (after a write of this process in progress); the next write opens
        it again. For a process done with a database: a server keeps its one file's open while it runs, but a test
        run makes hundreds of databases, one descriptor each."""
        with self.thread:
            if self._file is not None:
                self._file.close()
            self._file = None

    def _descriptor(self) -> int | None:
        """The lock file's descriptor (opened once per process; tried again at the next write when it could not
        be); None when there is none to take."""
        if self.lock_file is None or fcntl is None:
            return None
        if self._file is None or self._pid != os.getpid():  # a forked child would share its parent's flock
            fd, self._pid = open_lock_file(self.lock_file), os.getpid()
            self._file = _LockFile(fd) if fd is not None else None
            if self._file is not None:  # closed with the lock, once no connection to its file is left (write_lock)
                weakref.finalize(self, self._file.close)
        return self._file.fd if self._file is not None else None


class _LockFile:
    """A lock file's descriptor, closed once: by ``WriteLock.close`` or when its lock goes, whichever comes first —
    never a second time (the number may by then be another file's)."""

    __slots__ = ("fd",)

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd

    def close(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)


def open_lock_file(lock_file: str) -> int | None:
    """The lock file beside a database, opened for flock (created, with the database's permissions and, for
    root, its owner — as SQLite makes its -wal and -shm files); None when it cannot be opened."""
    database = lock_file.removesuffix(LOCK_SUFFIX)
    try:
        fd = os.open(lock_file, os.O_RDONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    except FileExistsError:
        try:
            return os.open(lock_file, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
    except OSError:  # a read-only folder or file system, no permission: the thread lock alone
        return None
    try:
        st = os.stat(database)
        os.fchmod(fd, st.st_mode & 0o666)
        if os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
            os.fchown(fd, st.st_uid, st.st_gid)
    except OSError:  # no database yet, or a file system without owners: the umask's permissions
        pass
    return fd


_write_locks: weakref.WeakValueDictionary[str, WriteLock] = weakref.WeakValueDictionary()
_write_locks_guard = threading.Lock()


def write_lock(path: str | Path) -> WriteLock:
    """The write lock of a database file in this process (one per file, whatever the path to it). Each connection
    holds its file's (``connect``); the lock, and its lock file's descriptor, go with the last of them, so a process
    that opens many files one after another (the tests) does not keep a descriptor for each."""
    key = str(path) if str(path) == ":memory:" else os.path.realpath(path)
    with _write_locks_guard:
        lock = _write_locks.get(key)
        if lock is None:
            lock = _write_locks[key] = WriteLock(None if key == ":memory:" else key + LOCK_SUFFIX)
        return lock


def close_write_lock(path: str | Path) -> None:
    """Close the lock file of ``path``'s write lock in this process, if it has one (``WriteLock.close``)."""
    key = str(path) if str(path) == ":memory:" else os.path.realpath(path)
    with _write_locks_guard:
        lock = _write_locks.get(key)
    if lock is not None:
        lock.close()

