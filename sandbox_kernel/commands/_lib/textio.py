"""Shared plumbing for the text coreutils: batched output, opening operands, line batches,
the locale's character widths."""
from __future__ import annotations


from ...streams import InputStream
from ...vfs import FSError
from ...vfs.errors import EISDIR
from ..registry import CommandContext
from .quoting import quote

FLUSH_AT = 65536


class BatchWriter:
    """Collects small writes and hands them to stdout in big chunks (per-line writes through
    the pipe machinery are the main cost of a text filter)."""

    def __init__(self, ctx: CommandContext, stream=None, limit: int = FLUSH_AT) -> None:
        self.ctx = ctx
        self.stream = stream if stream is not None else ctx.stdout
        self.parts: list[bytes] = []
        self.size = 0
        self.limit = limit

    async def write(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.limit:
            await self.flush()

    async def write_lines(self, lines: list[bytes]) -> None:
        self.ctx.check()  # batches come from input chunks: a cheap place to notice interrupts
        self.parts.extend(lines)
        self.size += sum(map(len, lines))
        if self.size >= self.limit:
            await self.flush()

    async def flush(self) -> None:
        if self.parts:
            data = b"".join(self.parts)
            self.parts = []
            self.size = 0
            await self.stream.write(data)
            await self.ctx.checkpoint()


def open_operand(ctx: CommandContext, path: str) -> InputStream:
    """``ctx.open_input`` that also refuses directories (GNU reports them on read)."""
    if path != "-" and ctx.fs.is_dir(path, cwd=ctx.cwd):
        raise FSError(EISDIR, path)
    return ctx.open_input(path)




class Fail(Exception):
    """A fatal message already formatted (``CMD: msg`` without Try line), with a status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def run_guarded(func):
    """Decorator: turn ``Fail`` into ``CMD: message`` on stderr and its status."""
    import functools

    @functools.wraps(func)
    async def wrapper(ctx: CommandContext) -> int:
        try:
            return await func(ctx)
        except Fail as e:
            await ctx.error(e.message)
            return e.status

    return wrapper


def std_output_for(ctx: CommandContext, path: str):
    """The command's own stdout/stderr when ``path`` names them (/dev/stdout, /dev/fd/2...)."""
    if path in ("/dev/stdout", "/dev/fd/1"):
        return ctx.stdout
    if path in ("/dev/stderr", "/dev/fd/2"):
        return ctx.stderr
    return None


async def each_input(ctx: CommandContext, files: list[str], fmt: str = "{fname}: {err}",
                     out: BatchWriter | None = None):
    """(name, stream) per operand ("-" when none), or (name, None) for one that cannot be read
    after reporting it with ``fmt``: ``{name}`` as given, ``{qname}`` quoted (gnulib quoteaf),
    ``{fname}`` quoted if needed (quotef). ``out`` is flushed first, to keep output in order."""
    for name in files or ["-"]:
        try:
            stream = open_operand(ctx, name)
        except FSError as e:
            if out is not None:
                await out.flush()
            await ctx.error(fmt.format(name=name, qname=quote(name), err=e.strerror,
                                       fname=quote(name, "shell-escape", colon=True)))
            yield name, None
            continue
        yield name, stream


async def line_batches(stream: InputStream, sep: bytes = b"\n", size: int = 1 << 20):
    """Lists of lines (each with its separator, the last line of the input maybe without),
    one list per chunk read: per-line awaits are the main cost of a Python text filter."""
    partial = b""
    while True:
        chunk = await stream.read_some(size)
        if not chunk:
            if partial:
                yield [partial]
            return
        lines = (partial + chunk).split(sep)
        partial = lines.pop()
        if lines:
            yield [line + sep for line in lines]


def char_width(ch: str) -> int:
    """Terminal columns of one character (wcwidth-like): 0 for controls and combining marks,
    2 for wide East Asian characters, else 1."""
    import unicodedata

    code = ord(ch)
    if code < 0x20 or 0x7F <= code < 0xA0 or 0xDC80 <= code <= 0xDCFF:
        return 0
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    if text.isascii():
        return len(text)
    return sum(char_width(c) for c in text)
