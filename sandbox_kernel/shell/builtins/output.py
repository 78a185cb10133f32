"""Writing a builtin's output and its error messages."""
from __future__ import annotations

from ...lazy import TYPE_CHECKING
from ...streams import OutputStream

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI


async def out(fds: Fds, text: str | bytes) -> None:
    stream = fds.get(1)
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")
    if not isinstance(stream, OutputStream):
        raise OSError(9, "Bad file descriptor")
    await stream.write(data)


async def err(sh: ShellAPI, fds: Fds, name: str, message: str) -> None:
    await sh.report(fds, f"{name}: {message}")


def write_now_or_later(sh: ShellAPI, fds: Fds, name: str, text: str):
    """``write_or_fail`` without a coroutine when the stream takes the text at once (the
    compiled commands' path): 0, else the awaitable of ``write_or_fail``."""
    stream = fds.get(1)
    if isinstance(stream, OutputStream):
        try:
            if stream.write_now(text.encode("utf-8", "surrogateescape")):
                return 0
        except BrokenPipeError:
            raise
        except OSError:
            pass  # write_or_fail writes again and reports it
    return write_or_fail(sh, fds, name, text)


async def write_or_fail(sh: ShellAPI, fds: Fds, name: str, text: str) -> int:
    try:
        await out(fds, text)
    except BrokenPipeError:
        raise
    except OSError as e:
        await sh.report(fds, f"{name}: write error: {e.strerror or e}")
        return 1
    return 0
