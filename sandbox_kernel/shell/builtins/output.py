"""Writing a builtin's output and its error messages."""
from __future__ import annotations

from ...streams import OutputStream


async def out(fds: dict, text: str | bytes) -> None:
    stream = fds.get(1)
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")
    if not isinstance(stream, OutputStream):
        raise OSError(9, "Bad file descriptor")
    await stream.write(data)


async def err(sh, fds: dict, name: str, message: str) -> None:
    await sh.report(fds, f"{name}: {message}")


async def write_or_fail(sh, fds: dict, name: str, text: str) -> int:
    try:
        await out(fds, text)
    except BrokenPipeError:
        raise
    except OSError as e:
        await sh.report(fds, f"{name}: write error: {e.strerror or e}")
        return 1
    return 0
