"""What the command line writes: never over one of its inputs, never half-written.

An output file is checked before any work (a bad path is an argument error, exit 2, not a
traceback after the work) and written through a temporary file beside it that replaces it in one
rename. An output folder is assembled under a temporary name beside it and renamed into place
only when complete, so a failed export leaves nothing behind and a retry is not refused.
"""
import contextlib
import os
import shutil
import tempfile


class OutputError(ValueError):
    """An output path that cannot be written; the message names the option and the path."""


def _parent(path):
    return os.path.dirname(os.path.abspath(path))


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_file(path, option, inputs=()):
    """Raises OutputError unless `path` can be written as a file without replacing an input."""
    if not path:
        raise OutputError(f"{option}: empty path")
    if os.path.isdir(path):
        raise OutputError(f"{option}: {path} is a folder, expected a file")
    if not os.path.isdir(_parent(path)):
        raise OutputError(f"{option}: {path}: no folder {_parent(path)}")
    for given in inputs:
        if given and os.path.exists(path) and os.path.exists(given) and os.path.samefile(path, given):
            raise OutputError(f"{option}: {path} is also the input {given}; it would be overwritten")


def write_file(path, text, option, inputs=()):
    """Checks `path` (check_file), then writes `text` to it through a temporary file and a rename.
    An OSError names `path` (a full disk is the caller's to report)."""
    check_file(path, option, inputs)
    try:
        _write(path, text)
    except OSError as e:
        if e.filename is None:
            e.filename = path
        raise


def _write(path, text):
    if os.path.exists(path) and not os.path.isfile(path):   # a device or a pipe (/dev/stdout): as it is
        with open(path, "w") as f:
            f.write(text)
        return
    path = os.path.realpath(path)   # through a link, its target is replaced, not the link
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".partial",
                               dir=_parent(path))
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would stay on the output
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def check_folder(path, option):
    """Raises OutputError unless `path` can become a new folder (absent, or an empty folder)."""
    if not path:
        raise OutputError(f"{option}: empty path")
    if os.path.exists(path) and not os.path.isdir(path):
        raise OutputError(f"{option}: {path} is a file, expected a new folder")
    if os.path.isdir(path) and os.listdir(path):
        raise OutputError(f"{option}: {path} exists and is not empty")


@contextlib.contextmanager
def new_folder(path, option):
    """Yields a temporary folder beside `path` to fill; on success it becomes `path` (its missing
    parents are made), on any error it is removed and `path` is as it was."""
    check_folder(path, option)
    parent = _parent(path)
    try:
        os.makedirs(parent, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix="." + os.path.basename(os.path.abspath(path)) + ".",
                               suffix=".partial", dir=parent)
    except OSError as e:
        raise OutputError(f"{option}: cannot make {path}: {e.strerror or e}") from None
    try:
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp's 0700 would stay on the output
        yield tmp
        if os.path.isdir(path):
            os.rmdir(path)  # empty (check_folder)
        os.rename(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
