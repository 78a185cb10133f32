"""errno-style filesystem errors."""
from __future__ import annotations

import errno as _errno
import os


class FSError(OSError):
    """An OSError with errno, strerror and filename set, e.g. ``FSError(ENOENT, "/x")``.

    ``str(e.strerror)`` is the C library text (``No such file or directory``) that GNU tools
    print, so commands format ``f"{name}: {path}: {e.strerror}"``.
    """

    def __init__(self, code: int, path: str = "") -> None:
        super().__init__(code, os.strerror(code), path)

    @property
    def code(self) -> str:
        """Symbolic name such as ``"ENOENT"``."""
        return _errno.errorcode.get(self.errno or 0, "EIO")


ENOENT = _errno.ENOENT
EEXIST = _errno.EEXIST
ENOTDIR = _errno.ENOTDIR
EISDIR = _errno.EISDIR
ENOTEMPTY = _errno.ENOTEMPTY
EACCES = _errno.EACCES
EPERM = _errno.EPERM
ELOOP = _errno.ELOOP
ENOSPC = _errno.ENOSPC
EINVAL = _errno.EINVAL
EXDEV = _errno.EXDEV
EBADF = _errno.EBADF
ENAMETOOLONG = _errno.ENAMETOOLONG
EBUSY = _errno.EBUSY
EAGAIN = _errno.EAGAIN
ESPIPE = _errno.ESPIPE
