"""What the decompression-bomb tests build their archives from, and how they run one."""
from __future__ import annotations

import io
import subprocess
import sys
import textwrap

#: what a bomb expands to: well past any quota the tests set
BOMB_SIZE = 200 * 1024 * 1024


class Zeros(io.RawIOBase):
    """``n`` zero bytes, produced as they are read (the bomb's content is never held)."""

    def __init__(self, n: int) -> None:
        self.left = n

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        n = min(len(buf), self.left)
        buf[:n] = bytes(n)
        self.left -= n
        return n


def run_in_child(archive_path: str, script: str) -> tuple[str, str, int]:
    """(stdout, stderr, KiB the child's peak RSS grew by) of ``script`` with the file at
    ``archive_path`` on stdin, in a fresh process (so the peak is the script's own) with a
    32 MiB VFS."""
    code = textwrap.dedent(f"""
        import resource
        from sandbox_kernel.cli import run_script
        from sandbox_kernel.limits import Limits
        data = open({archive_path!r}, 'rb').read()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out, err, status = run_script({script!r}, stdin=data, limits=Limits(vfs_bytes=32 * 1024 * 1024))
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print(out.decode(), err.decode()[-300:], grown, sep="|")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    out, err, grown = done.stdout.strip().rsplit("|", 2)
    return out, err + done.stderr[-500:], int(grown)
