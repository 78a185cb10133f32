"""``Stat``, an lstat/stat result. In a module of its own, written without ``from __future__
import annotations``: typing.NamedTuple turns a field's annotation that is a string into a
ForwardRef, which compile()s it, ~1M instructions a field at every start (tests/test_startup.py)."""
import stat as st
from typing import NamedTuple


class Stat(NamedTuple):
    """An lstat/stat result. A NamedTuple: walks build one per entry, and a frozen
    dataclass costs four times as much to construct."""

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
