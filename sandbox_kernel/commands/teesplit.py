"""tee and split: commands that write files from a stream."""
from __future__ import annotations

import re

from .. import memory
from ..chars import isdigits
from ..vfs import FSError
from ._lib.quoting import quote
from ._lib.sizes import COREUTILS_SUFFIXES, parse_size
from ._lib.textio import Fail, run_guarded, std_output_for
from .options import UsageError, argmatch, getopt
from .registry import CommandContext, command

TEE_HELP = """\
Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        operate in a more appropriate MODE with pipes.
      --output-error[=MODE]   set behavior on write error.  See MODE below
      --help        display this help and exit

MODE determines behavior with write errors on the outputs:
  warn           diagnose errors writing to any output
  warn-nopipe    diagnose errors writing to any output not a pipe
  exit           exit on error writing to any output
  exit-nopipe    exit on error writing to any output not a pipe
The default MODE for the -p option is 'warn-nopipe'.
With no --output-error the command stops when standard output is a closed pipe."""

SPLIT_HELP = """\
Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\\0' (zero) specifies the NUL character
      --verbose           print a diagnostic just before each
                            output file is opened
      --help        display this help and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y,R,Q (powers of 1024) or KB,MB,... (powers of 1000).

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout"""


class _Sink:
    """One tee output."""

    def __init__(self, name: str, stream=None, handle=None) -> None:
        self.name = name
        self.stream = stream
        self.handle = handle
        self.ok = True


@command("tee", help=TEE_HELP)
async def tee(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "aip", {"append": "a", "ignore-interrupts": "i",
                                          "output-error==": None}, status=1)
    append = any(o == "a" for o, _ in opts)
    mode = None
    for opt, val in opts:
        if opt == "p":
            mode = "warn-nopipe"
        elif opt == "output-error":
            mode = "warn-nopipe" if val is None else argmatch(
                val, ["warn", "warn-nopipe", "exit", "exit-nopipe"], "--output-error")
    status = 0
    sinks = [_Sink("-", stream=ctx.stdout)]
    for name in files:
        std = std_output_for(ctx, name)
        if std is not None:
            sinks.append(_Sink(name, stream=std))
            continue
        try:
            handle = ctx.fs.open(name, "ab" if append else "wb", cwd=ctx.cwd)
        except FSError as e:
            await ctx.file_error(name, e)
            status = 1
            continue
        sinks.append(_Sink(name, handle=handle))
    try:
        while True:
            chunk = await ctx.stdin.read_some()
            if not chunk:
                break
            live = False
            for sink in sinks:
                if not sink.ok:
                    continue
                try:
                    if sink.handle is not None:
                        sink.handle.write(chunk)
                    else:
                        await sink.stream.write(chunk)
                    live = True
                except BrokenPipeError:
                    if mode is None:
                        raise
                    sink.ok = False
                    if mode in ("warn", "exit"):
                        await ctx.error("standard output: Broken pipe")
                        status = 1
                        if mode == "exit":
                            return 1
                except OSError as e:
                    sink.ok = False
                    await ctx.error(f"{sink.name}: {e.strerror or e}")
                    status = 1
                    if mode in ("exit", "exit-nopipe"):
                        return 1
            if not live:
                break
            await ctx.checkpoint()
    finally:
        for sink in sinks:
            if sink.handle is not None:
                sink.handle.close()
    return status


class _Suffixes:
    """GNU split's output names: PREFIX + suffix + additional suffix."""

    def __init__(self, prefix: str, alphabet: str, length: int | None, start: int,
                 additional: str) -> None:
        self.prefix = prefix
        self.alphabet = alphabet
        self.fixed = length is not None
        self.length = length if length is not None else 2
        self.index = start
        self.additional = additional
        base = len(alphabet)
        if self.fixed and start >= base ** self.length:
            raise Fail("numerical suffix start value is too large for the suffix length")

    def next(self) -> str:
        base = len(self.alphabet)
        if not self.fixed:
            # widen like GNU: the last first-digit is reserved as the widening marker
            widened = ""
            idx = self.index
            length = self.length
            capacity = (base - 1) * base ** (length - 1)
            while idx >= capacity:
                idx -= capacity
                widened += self.alphabet[-1]
                length += 1
                capacity = (base - 1) * base ** (length - 1)
            digits = self._digits(idx, length)
            name = widened + digits
        else:
            if self.index >= base ** self.length:
                raise Fail("output file suffixes exhausted")
            name = self._digits(self.index, self.length)
        self.index += 1
        return self.prefix + name + self.additional

    def _digits(self, value: int, length: int) -> str:
        base = len(self.alphabet)
        out = []
        for _ in range(length):
            out.append(self.alphabet[value % base])
            value //= base
        return "".join(reversed(out))


@command("split", help=SPLIT_HELP)
@run_guarded
async def split(ctx: CommandContext) -> int:
    args = []
    for a in ctx.args:
        args.append(f"-l{a[1:]}" if re.fullmatch(r"-[0-9]+", a) else a)
    opts, operands = getopt(args, "a:b:C:dxel:n:t:u", {
        "suffix-length=": "a", "additional-suffix=": None, "bytes=": "b", "line-bytes=": "C",
        "numeric-suffixes==": None, "hex-suffixes==": None, "elide-empty-files": "e",
        "lines=": "l", "number=": "n", "separator=": "t", "verbose": None, "unbuffered": "u",
        "filter=": None}, status=1)
    mode, amount = "l", 1000
    chunks: tuple[str, int | None, int] | None = None
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    suffix_len: int | None = None
    start = 0
    additional = ""
    elide = verbose = False
    sep = b"\n"
    for opt, val in opts:
        if opt == "a":
            if not isdigits(val) or int(val) == 0:
                raise Fail(f"invalid suffix length: {quote(val, 'locale')}")
            suffix_len = int(val)
        elif opt == "additional-suffix":
            if "/" in val:
                raise Fail(f"invalid suffix {quote(val, 'locale')}, contains directory separator")
            additional = val
        elif opt in ("b", "C", "l"):
            n = parse_size(val, COREUTILS_SUFFIXES if opt != "l" else "")
            if n is None or n == 0:
                what = {"b": "bytes", "C": "bytes", "l": "lines"}[opt]
                raise Fail(f"invalid number of {what}: {quote(val, 'locale')}")
            mode, amount = opt, n
        elif opt in ("d", "numeric-suffixes", "x", "hex-suffixes"):
            alphabet = "0123456789" if opt in ("d", "numeric-suffixes") else "0123456789abcdef"
            if val:
                if not isdigits(val):
                    raise Fail(f"invalid start value for numerical suffix: {quote(val, 'locale')}")
                start = int(val)
        elif opt == "e":
            elide = True
        elif opt == "n":
            m = re.fullmatch(r"(?:([lr])/)?(?:([0-9]+)/)?([0-9]+)", val)
            if not m or int(m.group(3)) == 0:
                raise Fail(f"invalid number of chunks: {quote(val, 'locale')}")
            k = int(m.group(2)) if m.group(2) else None
            if k is not None and (k == 0 or k > int(m.group(3))):
                raise Fail(f"invalid chunk number: {quote(m.group(2), 'locale')}")
            chunks = (m.group(1) or "", k, int(m.group(3)))
            mode = "n"
        elif opt == "t":
            raw = val.encode("utf-8", "surrogateescape")
            if raw == b"\\0":
                raw = b"\0"
            if len(raw) != 1:
                raise Fail(f"multi-character separator {quote(val, 'locale')}")
            sep = raw
        elif opt == "verbose":
            verbose = True
        elif opt == "filter":
            raise Fail("--filter is not supported in the sandbox")
    if len(operands) > 2:
        raise UsageError(f"extra operand {quote(operands[2], 'locale')}", 1)
    source = operands[0] if operands else "-"
    prefix = operands[1] if len(operands) > 1 else "x"
    if chunks is not None and suffix_len is None:
        # enough digits for every chunk
        n, length = chunks[2], 2
        while len(alphabet) ** length < n:
            length += 1
        suffix_len = length
    names = _Suffixes(prefix, alphabet, suffix_len, start, additional)
    try:
        if source != "-" and ctx.fs.is_dir(source, cwd=ctx.cwd):
            raise Fail(f"{source}: Is a directory")
        stream = ctx.open_input(source)
    except FSError as e:
        raise Fail(f"cannot open {quote(source)} for reading: {e.strerror}")

    async def open_next():
        name = names.next()
        if verbose:
            await ctx.out(f"creating file {quote(name)}\n")
        try:
            return ctx.fs.open(name, "wb", cwd=ctx.cwd)
        except FSError as e:
            raise Fail(f"{name}: {e.strerror}")

    if mode == "n":
        kind, k, n = chunks
        data = await stream.read_all(sep if kind == "r" else None)  # counts the lines it will keep
        size = len(data)
        if kind == "r":
            memory.charge(data.count(sep) * memory.LINE_COST + 2 * size)  # the buckets' copies, their joins
            lines = data.split(sep)
            if lines and lines[-1] == b"":
                lines.pop()
            buckets = [[] for _ in range(n)]
            for i, line in enumerate(lines):
                buckets[i % n].append(line + sep)
            parts = [b"".join(b) for b in buckets]
        elif kind == "l":
            parts = []
            pos = 0
            per = size // n
            for i in range(1, n + 1):
                if i == n:
                    end = size
                elif pos >= i * per:
                    end = pos
                else:
                    j = data.find(sep, max(pos, i * per - 1))
                    end = size if j < 0 else j + 1
                parts.append(data[pos:end])
                pos = end
        else:
            per = size // n
            if per == 0:  # more chunks than bytes: GNU gives one byte to each of the first ones
                parts = [data[i:i + 1] for i in range(n)]
            else:
                parts = [data[i * per:(i + 1) * per if i < n - 1 else size] for i in range(n)]
        if k is not None:
            await ctx.out(parts[k - 1])
            return 0
        for part in parts:
            if elide and not part:
                continue
            handle = await open_next()
            handle.write(part)
            handle.close()
            await ctx.checkpoint()
        return 0

    handle = None
    used = 0
    try:
        if mode == "b":
            while chunk := await stream.read_some():
                while chunk:
                    if handle is None or used >= amount:
                        if handle is not None:
                            handle.close()
                        handle, used = await open_next(), 0
                    take = chunk[:amount - used]
                    handle.write(take)
                    used += len(take)
                    chunk = chunk[len(take):]
                await ctx.checkpoint()
        elif mode == "l":
            async for line in stream.lines(sep):
                if handle is None or used >= amount:
                    if handle is not None:
                        handle.close()
                    handle, used = await open_next(), 0
                handle.write(line)
                used += 1
        else:  # -C: whole records up to SIZE bytes; longer records are split by bytes
            async for line in stream.lines(sep):
                while line:
                    if handle is not None and used + len(line) > amount and used > 0:
                        handle.close()
                        handle = None
                    if handle is None:
                        handle, used = await open_next(), 0
                    if len(line) > amount:
                        take = line[:amount]
                        handle.write(take)
                        used += len(take)
                        line = line[len(take):]
                        handle.close()
                        handle = None
                        continue
                    handle.write(line)
                    used += len(line)
                    line = b""
    finally:
        if handle is not None:
            handle.close()
    return 0
