"""cut and paste."""
from __future__ import annotations

import re

from ..chars import isdigits
from ..vfs import FSError
from ._lib.quoting import quote
from ._lib.textio import BatchWriter, Fail, each_input, open_operand, run_guarded
from .options import UsageError, getopt
from .registry import CommandContext, command

CUT_HELP = """\
Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help              display this help and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field"""

PASTE_HELP = """\
Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help              display this help and exit"""

INF = 1 << 62


def parse_list(spec: str, fields: bool) -> list[tuple[int, int]]:
    """A cut LIST as sorted, merged, 1-based inclusive ranges."""
    ranges: list[tuple[int, int]] = []
    zero = "fields are numbered from 1" if fields else "byte/character positions are numbered from 1"
    for part in spec.replace(" ", ",").split(","):
        if part == "":
            raise UsageError(zero, 1)
        lo_text, dash, hi_text = part.partition("-")
        if dash and not lo_text and not hi_text:
            raise UsageError("invalid range with no endpoint: -", 1)
        for t in (lo_text, hi_text):
            if t and not isdigits(t):
                what = "field value" if fields else "byte/character position"
                raise UsageError(f"invalid {what} {quote(t, 'locale')}", 1)
        lo = int(lo_text) if lo_text else 1
        hi = (int(hi_text) if hi_text else INF) if dash else lo
        if lo == 0 or (dash and hi_text and hi == 0):
            raise UsageError(zero, 1)
        if hi < lo:
            raise UsageError("invalid decreasing range", 1)
        ranges.append((lo, hi))
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    nxt = 1
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt < INF:
        out.append((nxt, INF))
    return out


@command("cut", help=CUT_HELP)
@run_guarded
async def cut(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "b:c:d:f:nsz", {
        "bytes=": "b", "characters=": "c", "delimiter=": "d", "fields=": "f",
        "complement": None, "only-delimited": "s", "output-delimiter=": None,
        "zero-terminated": "z"}, status=1)
    mode = None
    spec = ""
    delim: bytes | None = None
    out_delim: bytes | None = None
    only_delimited = compl = False
    sep = b"\n"
    for opt, val in opts:
        if opt in "bcf":
            if mode is not None:
                raise UsageError("only one list may be specified", 1)
            mode, spec = opt, val
        elif opt == "d":
            raw = val.encode("utf-8", "surrogateescape")
            if len(raw) > 1:
                raise UsageError("the delimiter must be a single character", 1)
            delim = raw or b"\0"
        elif opt == "output-delimiter":
            out_delim = val.encode("utf-8", "surrogateescape")
        elif opt == "s":
            only_delimited = True
        elif opt == "complement":
            compl = True
        elif opt == "z":
            sep = b"\0"
    if mode is None:
        raise UsageError("you must specify a list of bytes, characters, or fields", 1)
    if delim is not None and mode != "f":
        raise UsageError("an input delimiter may be specified only when operating on fields", 1)
    if only_delimited and mode != "f":
        raise UsageError("suppressing non-delimited lines makes sense\n"
                         "\tonly when operating on fields", 1)
    ranges = parse_list(spec, mode == "f")
    if compl:
        ranges = complement(ranges)
    delim = delim if delim is not None else b"\t"
    out = BatchWriter(ctx)
    status = 0

    if mode == "f":
        joiner = out_delim if out_delim is not None else delim
        simple = [(lo - 1, None if hi >= INF else hi) for lo, hi in ranges]

        def process(body: bytes) -> bytes | None:
            if delim not in body:
                return None if only_delimited else body
            parts = body.split(delim)
            if len(simple) == 1:
                lo, hi = simple[0]
                return joiner.join(parts[lo:hi])
            picked = []
            for lo, hi in simple:
                if lo >= len(parts):
                    break
                picked.extend(parts[lo:hi])
            return joiner.join(picked)
    else:
        simple = []
        joiner = delim
        slices = [(lo - 1, None if hi >= INF else hi) for lo, hi in ranges]

        def process(body: bytes) -> bytes | None:
            pieces = [body[lo:hi] for lo, hi in slices if lo < len(body)]
            if out_delim is None:
                return b"".join(pieces)
            return out_delim.join(pieces)

    # one field range: a comprehension per block, no Python call per line; with "N-" and the
    # input delimiter kept, only the first N-1 fields are split off
    one_range = simple[0] if mode == "f" and len(simple) == 1 else None
    lo, hi = one_range or (0, None)
    maxsplit = hi if hi is not None else (lo if joiner == delim else -1)

    def cut_block(bodies: list[bytes]) -> list[bytes]:
        if one_range is None:
            return [r for r in map(process, bodies) if r is not None]
        if only_delimited:
            return [joiner.join(b.split(delim, maxsplit)[lo:hi]) for b in bodies if delim in b]
        return [joiner.join(b.split(delim, maxsplit)[lo:hi]) if delim in b else b for b in bodies]

    # Faster still: one regex scan over the block picks the range out of every line that has
    # the fields before it; used when that is every line (else lines lacking fields need cut_block)
    fields_re = None
    if one_range is not None and sep == b"\n" and delim != sep and (hi == lo + 1 or joiner == delim) \
            and (lo or not only_delimited):
        # run over '\n' + block: after the literal '\n' the search jumps from line to line, where
        # '^' would try every offset; the fields before the range written out (sre's {n} is slow)
        d = re.escape(delim)
        more = b"[^\\n]*" if hi is None else b"(?:%s[^%s\\n]*){0,%d}" % (d, d, hi - lo - 1)
        field = b"[^%s\\n]*%s" % (d, d)
        before = field * lo if lo <= 16 else b"(?:%s){%d}" % (field, lo)
        fields_re = re.compile(b"\\n%s([^%s\\n]*%s)" % (before, d, more))

    def cut_lines(block: bytes) -> list[bytes]:
        """``block``: whole lines without the last separator."""
        if fields_re is not None:
            rows = fields_re.findall(b"\n" + block)
            if len(rows) == block.count(sep) + 1:
                return rows
        return cut_block(block.split(sep))

    async for _name, stream in each_input(ctx, files, out=out):
        if stream is None:
            status = 1
            continue
        partial = b""
        while True:
            chunk = await stream.read_some(1 << 20)
            if chunk:
                chunk = partial + chunk if partial else chunk
                end = chunk.rfind(sep)
                block, partial = (chunk[:end], chunk[end + 1:]) if end >= 0 else (None, chunk)
            else:
                block, partial = (partial or None), b""
            rows = cut_lines(block) if block is not None else []
            if rows:
                rows.append(b"")
                await out.write_lines([sep.join(rows)])
            if not chunk:
                break
        await out.flush()
    return status


def parse_delimiters(spec: str) -> list[bytes]:
    raw = spec.encode("utf-8", "surrogateescape")
    out: list[bytes] = []
    i = 0
    escapes = {ord("n"): b"\n", ord("t"): b"\t", ord("\\"): b"\\", ord("0"): b"",
               ord("b"): b"\b", ord("f"): b"\f", ord("r"): b"\r", ord("v"): b"\v"}
    while i < len(raw):
        c = raw[i]
        if c == 0x5C:
            if i + 1 >= len(raw):
                raise Fail(f"delimiter list ends with an unescaped backslash: {spec}")
            nxt = raw[i + 1]
            out.append(escapes.get(nxt, bytes([nxt])))
            i += 2
        else:
            out.append(bytes([c]))
            i += 1
    return out


@command("paste", help=PASTE_HELP)
@run_guarded
async def paste(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "d:sz", {"delimiters=": "d", "serial": "s",
                                           "zero-terminated": "z"}, status=1)
    delims = [b"\t"]
    serial = False
    sep = b"\n"
    for opt, val in opts:
        if opt == "d":
            delims = parse_delimiters(val) or [b""]
        elif opt == "s":
            serial = True
        elif opt == "z":
            sep = b"\0"
    files = files or ["-"]
    streams = []
    for name in files:
        try:
            streams.append(open_operand(ctx, name))
        except FSError as e:
            raise Fail(f"{quote(name, 'shell-escape', colon=True)}: {e.strerror}")
    out = BatchWriter(ctx)
    if serial:
        for stream in streams:
            pieces = []
            i = 0
            first = True
            async for line in stream.lines(sep):
                if not first:
                    pieces.append(delims[i % len(delims)])
                    i += 1
                first = False
                pieces.append(line[:-1] if line.endswith(sep) else line)
                if len(pieces) > 4096:
                    await out.write(b"".join(pieces))
                    pieces = []
            pieces.append(sep)
            await out.write(b"".join(pieces))
        await out.flush()
        return 0
    shared = len({id(st) for st in streams}) != len(streams)
    if shared:
        # the same stream (stdin) given more than once: take lines from it in turn
        live = [True] * len(streams)
        while True:
            row = []
            any_line = False
            for k, stream in enumerate(streams):
                line = await stream.readline(sep) if live[k] else b""
                if not line:
                    live[k] = False
                else:
                    any_line = True
                row.append(line[:-1] if line.endswith(sep) else line)
            if not any_line:
                break
            await out.write(_paste_row(row, delims, sep))
        await out.flush()
        return 0
    buffers: list[list[bytes]] = [[] for _ in streams]
    partials = [b""] * len(streams)
    done = [False] * len(streams)
    while True:
        for k, stream in enumerate(streams):
            while not done[k] and not buffers[k]:
                chunk = await stream.read_some(1 << 20)
                if chunk:
                    lines = (partials[k] + chunk).split(sep)
                    partials[k] = lines.pop()
                    buffers[k] = lines
                else:
                    done[k] = True
                    if partials[k]:
                        buffers[k] = [partials[k]]
                        partials[k] = b""
        ready = [len(b) for k, b in enumerate(buffers) if not (done[k] and not b)]
        if not ready:
            break
        n = min(ready)
        rows = []
        for i in range(n):
            rows.append(_paste_row([b[i] if i < len(b) else b"" for b in buffers], delims, sep))
        for k in range(len(buffers)):
            del buffers[k][:n]
        await out.write_lines(rows)
    await out.flush()
    return 0


def _paste_row(row: list[bytes], delims: list[bytes], sep: bytes) -> bytes:
    if len(delims) == 1:
        return delims[0].join(row) + sep
    pieces = [row[0]]
    for k in range(1, len(row)):
        pieces.append(delims[(k - 1) % len(delims)])
        pieces.append(row[k])
    pieces.append(sep)
    return b"".join(pieces)
