"""A full disk (or file-size limit) as one error with the path that could not be written.

The run cannot go on when the database or the work directory can no longer be written: ENOSPC
(no space), EDQUOT (quota), EFBIG (a file-size limit, RLIMIT_FSIZE), and, from SQLite, SQLITE_FULL
("database or disk is full") and SQLITE_IOERR ("disk I/O error": SQLite reports a failed write of
the database or its -wal file this way, EFBIG included). The evaluator raises ``DiskFull`` for its
own writes and for a tool step whose error says it could not write (cake-translate's "IO failure
on output stream: No space left on device", ptxas's temporary files, a SIGXFSZ); the command line
turns it into one line and exit code 6. The database stays consistent because every record is one
transaction (db.py): the failed transaction is rolled back, committed ones are intact, and
``cake evolve --resume`` continues once there is space again.
"""
import errno
import re
import signal
import sqlite3

DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
UNWRITABLE_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}
_TOOL_TEXT = re.compile(r"No space left on device|File too large|Disk quota exceeded|"
                        r"database or disk is full")

# SQLite primary result codes (the low byte of an extended code).
SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 8, 10, 11, 13, 14, 26


class DiskFull(RuntimeError):
    """``path`` could not be written because the disk (or a size limit) is full."""

    def __init__(self, path, reason):
        self.path, self.reason = path, reason
        super().__init__(f"{path}: {reason}")


def is_disk_error(e):
    """Whether an exception is a full disk: an OSError with a disk errno, or SQLite FULL/IOERR."""
    if isinstance(e, DiskFull):
        return True
    if isinstance(e, OSError):
        return e.errno in DISK_ERRNOS
    if isinstance(e, sqlite3.Error):
        return sqlite_code(e) in (SQLITE_FULL, SQLITE_IOERR)
    return False


def from_os_error(e, path=None):
    """A DiskFull for an OSError with a disk errno (the path it names, else ``path``)."""
    return DiskFull(e.filename or path or "?", e.strerror or str(e))


def sqlite_code(e):
    """The primary SQLite result code of an sqlite3.Error (from the message on Pythons < 3.11)."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF
    msg = str(e)
    for text, code in (("database or disk is full", SQLITE_FULL), ("disk I/O error", SQLITE_IOERR),
                       ("readonly database", SQLITE_READONLY), ("unable to open database", SQLITE_CANTOPEN),
                       ("malformed", SQLITE_CORRUPT), ("file is not a database", SQLITE_NOTADB)):
        if text in msg:
            return code
    return None


def describe_sqlite(e):
    """A short reason for an SQLite error, naming the likely cause."""
    code, name = sqlite_code(e), getattr(e, "sqlite_errorname", None)
    tag = f" ({name})" if name else ""
    if code == SQLITE_FULL:
        return f"database or disk is full{tag}"
    if code == SQLITE_IOERR:
        return f"disk I/O error{tag}: the disk is full, a file-size limit was reached, or the device failed"
    if code == SQLITE_READONLY:
        return f"the database is read-only{tag}"
    if code == SQLITE_CANTOPEN:
        return f"cannot open or create the database{tag} (no space, or the folder is not writable)"
    return f"{e}{tag}"


def check_step(res, path):
    """Raises DiskFull when a tool step failed because it could not write (``path``: where it wrote)."""
    if res.ok:
        return
    if res.returncode == -signal.SIGXFSZ:
        raise DiskFull(path, f"{res.step}: killed by SIGXFSZ (file-size limit reached)")
    m = _TOOL_TEXT.search(res.stderr or "")
    if m:
        line = next((l.strip() for l in (res.stderr or "").splitlines() if m.group(0) in l), m.group(0))
        raise DiskFull(path, f"{res.step}: {line[:200]}")
