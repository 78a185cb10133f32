"""``Stat``, an lstat/stat result: a named tuple (walks build one per entry, and a frozen
dataclass costs four times as much to construct). The type checker sees a typing.NamedTuple;
at run time it is a collections.namedtuple: importing typing is ~2 ms of every start
(tests/test_startup.py)."""
from __future__ import annotations

import stat as st
from collections import namedtuple

from ..lazy import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import NamedTuple

    class _Fields(NamedTuple):
        st_mode: int
        st_ino: int
        st_nlink: int
        st_uid: int
        st_gid: int
        st_size: int
        st_atime: float
        st_mtime: float
        st_ctime: float
        st_dev: int = 1
        st_blksize: int = 4096
else:
    _Fields = namedtuple("Stat", "st_mode st_ino st_nlink st_uid st_gid st_size st_atime st_mtime st_ctime st_dev "
                         "st_blksize", defaults=(1, 4096))


class Stat(_Fields):
    """An lstat/stat result."""

    __slots__ = ()

    @property
    def st_blocks(self) -> int:
        # 512-byte units allocated in 4 KiB blocks, like ext4/tmpfs (so du and ls -s match them)
        if st.S_ISREG(self.st_mode):
            return (self.st_size + 4095) // 4096 * 8
        return 8 if st.S_ISDIR(self.st_mode) else 0

    @property
    def type(self) -> str:
        m = self.st_mode
        return ("dir" if st.S_ISDIR(m) else "file" if st.S_ISREG(m) else
                "symlink" if st.S_ISLNK(m) else "device" if st.S_ISCHR(m) else "other")
