"""What more than one archive format's module uses."""
from __future__ import annotations


def sync_write(write):
    """``write`` as a coroutine function, for the member copies of tar and unzip."""
    async def call(data: bytes) -> None:
        write(data)
    return call
