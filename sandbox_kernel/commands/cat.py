"""cat: concatenate files to standard output."""
from __future__ import annotations

import errno
import re

from ..vfs import FSError
from ._lib.quoting import quote, strerror
from .options import getopt
from .registry import CommandContext, command

CAT_HELP = """\
Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help               display this help and exit"""

LONG = {"show-all": "A", "number-nonblank": "b", "show-ends": "E", "number": "n",
        "squeeze-blank": "s", "show-tabs": "T", "show-nonprinting": "v"}


def _nonprinting_table(show_tabs: bool) -> list[bytes]:
    table = []
    for b in range(256):
        prefix = b""
        c = b
        if c >= 128:
            prefix, c = b"M-", c - 128
        if c == 9 and not prefix and not show_tabs:
            out = b"\t"
        elif c == 10 and not prefix:
            out = b"\n"
        elif c < 32:
            out = b"^" + bytes([c + 64])
        elif c == 127:
            out = b"^?"
        else:
            out = bytes([c])
        table.append(prefix + out)
    return table


class _Formatter:
    """Line-oriented transformation; state carries across files like GNU cat."""

    def __init__(self, number: bool, nonblank: bool, squeeze: bool, ends: bool,
                 tabs: bool, nonprinting: bool) -> None:
        self.number = number or nonblank
        self.nonblank = nonblank
        self.squeeze = squeeze
        self.end = b"$\n" if ends else b"\n"
        self.line_no = 0
        self.at_line_start = True
        self.blank_run = 0
        self.table = _nonprinting_table(tabs) if nonprinting else None
        self.special = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f-\xff]" if not tabs else
                                  rb"[\x00-\x09\x0b-\x1f\x7f-\xff]")
        self.tabs_only = tabs and not nonprinting

    def _visible(self, data: bytes) -> bytes:
        if self.table is not None:
            table = self.table
            return self.special.sub(lambda m: table[m.group()[0]], data)
        if self.tabs_only:
            return data.replace(b"\t", b"^I")
        return data

    def block(self, data: bytes) -> bytes:
        """Format complete lines (and, at the end of a file, a final partial line)."""
        lines = self._visible(data).split(b"\n")
        last = lines.pop()
        out: list[bytes] = []
        append = out.append
        end = self.end
        number, nonblank, squeeze = self.number, self.nonblank, self.squeeze
        n = self.line_no
        blank_run = self.blank_run
        starts = self.at_line_start
        for body in lines:
            if not starts:
                append(body + end)
                starts = True
                if body:
                    blank_run = 0
                continue
            if body:
                blank_run = 0
                if number:
                    n += 1
                    append(b"%6d\t%b%b" % (n, body, end))
                else:
                    append(body + end)
                continue
            blank_run += 1
            if squeeze and blank_run > 1:
                continue
            if number and not nonblank:
                n += 1
                append(b"%6d\t%b" % (n, end))
            else:
                append(end)
        if last:
            if starts:
                blank_run = 0
                if number:
                    n += 1
                    append(b"%6d\t" % n)
            append(last)
            starts = False
        self.line_no = n
        self.blank_run = blank_run
        self.at_line_start = starts
        return b"".join(out)


@command("cat", help=CAT_HELP)
async def cat(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "AbeEnstTuv", LONG, status=1)
    flags = {k for k, _ in opts}
    nonprinting = bool(flags & set("AetvA"))
    ends = bool(flags & set("AeE"))
    tabs = bool(flags & set("AtT"))
    formatter = None
    if flags & set("AbeEnstTv"):
        formatter = _Formatter("n" in flags, "b" in flags, "s" in flags, ends, tabs, nonprinting)
    status = 0
    out_node = getattr(getattr(ctx.stdout, "handle", None), "node", None)
    for path in files or ["-"]:
        try:
            inp = ctx.open_input(path)
        except FSError as e:
            await ctx.error(f"{quote(path, 'shell-escape', colon=True)}: {strerror(e)}")
            hint = e.errno == errno.ENOENT and getattr(ctx.sandbox, "host_hint", None)
            if hint and (text := hint(path, ctx.cwd)):
                await ctx.error(text)
            status = 1
            continue
        in_node = getattr(getattr(inp, "handle", None), "node", None)
        if in_node is not None and in_node is out_node and _would_loop(ctx.stdout.handle, inp.handle):
            # reading a file while appending it to itself never ends
            await ctx.error(f"{quote(path, 'shell-escape', colon=True)}: input file is output file")
            status = 1
            continue
        try:
            await _copy(ctx, inp, formatter)
        except _WriteError as e:
            await ctx.error(f"write error: {strerror(e.cause)}")
            return 1
        except BrokenPipeError:
            raise
        except OSError as e:
            await ctx.error(f"{quote(path, 'shell-escape', colon=True)}: {strerror(e)}")
            status = 1
    return status


class _WriteError(Exception):
    def __init__(self, cause: OSError) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _would_loop(out_handle, in_handle) -> bool:
    size = getattr(in_handle, "size", 0)
    if not size:
        return False
    return getattr(out_handle, "append", False) or out_handle.tell() < size


async def _write(ctx: CommandContext, data: bytes) -> None:
    try:
        await ctx.stdout.write(data)
    except BrokenPipeError:
        raise
    except OSError as e:
        raise _WriteError(e) from None


async def _copy(ctx: CommandContext, inp, formatter: "_Formatter | None") -> None:
    if formatter is None:
        while True:
            chunk = await inp.read_some()
            if not chunk:
                return
            await _write(ctx, chunk)
            # /dev/zero into /dev/null never waits on anything: let time-outs and interrupts in
            await ctx.checkpoint()
    carry = b""
    while True:
        chunk = await inp.read_some()
        if not chunk:
            break
        data = carry + chunk if carry else chunk
        cut = data.rfind(b"\n") + 1
        carry = data[cut:]
        if cut:
            await _write(ctx, formatter.block(data[:cut]))
            await ctx.checkpoint()
    if carry:
        await _write(ctx, formatter.block(carry))
