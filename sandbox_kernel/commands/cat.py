"""cat: concatenate files to standard output."""
from __future__ import annotations

from ..vfs import FSError
from ._fsutil import quote_if_needed, strerror
from .options import UsageError, getopt
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
        self.ends = ends
        self.line_no = 0
        self.at_line_start = True
        self.blank_run = 0
        self.table = _nonprinting_table(tabs) if nonprinting else None
        self.tabs_only = tabs and not nonprinting

    def _body(self, data: bytes) -> bytes:
        if self.table is not None:
            t = self.table
            return b"".join(t[b] for b in data)
        if self.tabs_only:
            return data.replace(b"\t", b"^I")
        return data

    def line(self, line: bytes) -> bytes:
        """Format one line (with or without its final newline)."""
        has_nl = line.endswith(b"\n")
        body = line[:-1] if has_nl else line
        starts = self.at_line_start
        out = []
        if starts and has_nl and not body:
            self.blank_run += 1
            if self.squeeze and self.blank_run > 1:
                return b""
            if self.number and not self.nonblank:
                self.line_no += 1
                out.append(b"%6d\t" % self.line_no)
        else:
            if starts:
                self.blank_run = 0
                if self.number:
                    self.line_no += 1
                    out.append(b"%6d\t" % self.line_no)
            out.append(self._body(body))
        if has_nl:
            if self.ends:
                out.append(b"$")
            out.append(b"\n")
        self.at_line_start = has_nl
        return b"".join(out)


@command("cat", help=CAT_HELP)
async def cat(ctx: CommandContext) -> int:
    try:
        opts, files = getopt(ctx.args, "AbeEnstTuv", LONG)
    except UsageError as e:
        e.status = 1
        raise
    flags = {k for k, _ in opts}
    nonprinting = bool(flags & set("AetvA"))
    ends = bool(flags & set("AeE"))
    tabs = bool(flags & set("AtT"))
    formatter = None
    if flags & set("AbeEnstTv"):
        formatter = _Formatter("n" in flags, "b" in flags, "s" in flags, ends, tabs, nonprinting)
    status = 0
    for path in files or ["-"]:
        try:
            inp = ctx.open_input(path)
        except FSError as e:
            await ctx.error(f"{quote_if_needed(path)}: {strerror(e)}")
            status = 1
            continue
        try:
            if formatter is None:
                while True:
                    chunk = await inp.read_some()
                    if not chunk:
                        break
                    await ctx.stdout.write(chunk)
            else:
                pending = []
                async for line in inp.lines():
                    out = formatter.line(line)
                    if out:
                        pending.append(out)
                    if len(pending) >= 256:
                        await ctx.stdout.write(b"".join(pending))
                        pending.clear()
                        await ctx.checkpoint()
                if pending:
                    await ctx.stdout.write(b"".join(pending))
        except FSError as e:
            await ctx.error(f"{quote_if_needed(path)}: {strerror(e)}")
            status = 1
        except OSError as e:
            if isinstance(e, BrokenPipeError):
                raise
            await ctx.error(f"{quote_if_needed(path)}: {strerror(e)}")
            status = 1
    return status
