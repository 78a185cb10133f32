"""What the decompression-bomb tests build their archives from."""
from __future__ import annotations

import io

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
