"""Reading input as blocks of whole lines, for commands that search or edit many lines per
regex call (grep, sed, awk)."""
from __future__ import annotations

from typing import AsyncIterator, Callable

from ...locales import utf8_locale

#: The longest line we hold in memory (GNU tools grow without bound and end "memory exhausted").
MAX_LINE = 64 * 1024 * 1024
BLOCK = 1 << 20


class LineTooLong(Exception):
    """A line longer than MAX_LINE (e.g. /dev/zero, which has no newlines)."""


async def line_blocks(stream, eol: bytes = b"\n", check: Callable[[], None] | None = None,
                      size: int = BLOCK) -> AsyncIterator[bytes]:
    """Blocks of whole lines: each ends with ``eol`` except a last line that lacks one.
    ``check`` (ctx.check) runs once per chunk read, so endless input stays interruptible."""
    pending: list[bytes] = []
    pending_len = 0
    while True:
        chunk = await stream.read_some(size)
        if check is not None:
            check()
        if not chunk:
            if pending:
                yield b"".join(pending)
            return
        cut = chunk.rfind(eol) + 1
        if cut == 0:
            pending.append(chunk)
            pending_len += len(chunk)
            if pending_len > MAX_LINE:
                raise LineTooLong()
            continue
        if pending:
            pending.append(chunk[:cut])
            block = b"".join(pending)
        else:
            block = chunk if cut == len(chunk) else chunk[:cut]
        pending = [chunk[cut:]] if cut < len(chunk) else []
        pending_len = len(chunk) - cut
        yield block


class TextCodec:
    """How a command turns bytes into text, following the locale like GNU tools: in a UTF-8
    locale characters are UTF-8 (undecodable bytes still round-trip as surrogates); in the
    C/POSIX locale every byte is one character (``.`` matches a byte, ``length`` counts bytes,
    ``\\w`` and case folding are ASCII only)."""

    __slots__ = ("bytes_mode", "encoding", "errors")

    def __init__(self, bytes_mode: bool) -> None:
        self.bytes_mode = bytes_mode
        self.encoding = "latin-1" if bytes_mode else "utf-8"
        self.errors = "strict" if bytes_mode else "surrogateescape"

    @classmethod
    def for_env(cls, env: dict) -> "TextCodec":
        return cls(not utf8_locale(env))

    def decode(self, data: bytes) -> str:
        return data.decode(self.encoding, self.errors)

    def encode(self, text: str) -> bytes:
        if self.bytes_mode:
            try:
                return text.encode("latin-1")
            except UnicodeEncodeError:  # a character made by the program (e.g. toupper)
                return text.encode("utf-8", "surrogateescape")
        return text.encode("utf-8", "surrogateescape")

    def arg(self, text: str) -> str:
        """A command-line string (pattern, script) as text of this locale."""
        if self.bytes_mode:
            return text.encode("utf-8", "surrogateescape").decode("latin-1")
        return text

    def unarg(self, text: str) -> str:
        """Back from text of this locale to a str for the file system or a command line."""
        if self.bytes_mode:
            return self.encode(text).decode("utf-8", "surrogateescape")
        return text
