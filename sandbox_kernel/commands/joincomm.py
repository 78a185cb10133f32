"""join and comm: merge two sorted files."""
from __future__ import annotations

import re

from ..chars import isdigits
from ..vfs import FSError
from ._lib.quoting import quote
from ._lib.textio import BatchWriter, Fail, run_guarded
from .options import UsageError, getopt
from .registry import CommandContext, command

JOIN_HELP = """\
Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM        also print unpairable lines from file FILENUM, where
                      FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING         replace missing (empty) input fields with STRING;
                      I.e., missing fields specified with '-12jo' options
  -i, --ignore-case  ignore differences in case when comparing fields
  -j FIELD          equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT         obey FORMAT while constructing output line
  -t CHAR           use CHAR as input and output field separator
  -v FILENUM        like -a FILENUM, but suppress joined output lines
  -1 FIELD          join on this FIELD of file 1
  -2 FIELD          join on this FIELD of file 2
      --check-order   check that the input is correctly sorted, even
                      if all input lines are pairable
      --nocheck-order  do not check that the input is correctly sorted
      --header          treat the first line in each file as field headers,
                          print them without trying to pair them
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.

Important: FILE1 and FILE2 must be sorted on the join fields (sort in the C locale)."""

COMM_HELP = """\
Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1              suppress column 1 (lines unique to FILE1)
  -2              suppress column 2 (lines unique to FILE2)
  -3              suppress column 3 (lines that appear in both files)

      --check-order     check that the input is correctly sorted, even
                          if all input lines are pairable
      --nocheck-order   do not check that the input is correctly sorted
      --output-delimiter=STR  separate columns with STR
      --total           output a summary
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit"""

_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_BLANK_RUN = re.compile(rb"[ \t]+")


class _Reader:
    """Lines of one input with their numbers, for order diagnostics."""

    def __init__(self, ctx: CommandContext, name: str, sep: bytes) -> None:
        self.name = name
        self.sep = sep
        if name != "-" and ctx.fs.is_dir(name, cwd=ctx.cwd):
            raise Fail(f"{quote(name, 'shell-escape', colon=True)}: Is a directory")
        try:
            self.stream = ctx.open_input(name)
        except FSError as e:
            raise Fail(f"{quote(name, 'shell-escape', colon=True)}: {e.strerror}")
        self.lineno = 0

    async def next(self) -> bytes | None:
        line = await self.stream.readline(self.sep)
        if not line:
            return None
        self.lineno += 1
        return line[:-1] if line.endswith(self.sep) else line


async def _open_pair(ctx: CommandContext, files: list[str], sep: bytes) -> tuple[_Reader, _Reader]:
    if len(files) < 2:
        raise UsageError("missing operand" if not files else f"missing operand after {quote(files[-1], 'locale')}", 1)
    if len(files) > 2:
        # join names the operand as a file, comm as any other argument
        style = "shell-escape-always" if ctx.name == "join" else "locale"
        raise UsageError(f"extra operand {quote(files[2], style)}", 1)
    if files[0] == "-" and files[1] == "-":
        raise Fail("both files cannot be standard input")
    return _Reader(ctx, files[0], sep), _Reader(ctx, files[1], sep)


def _field_number(text: str) -> int:
    if not isdigits(text) or int(text) == 0:
        raise Fail(f"invalid field number: {quote(text, 'locale')}")
    return int(text)


@command("join", help=JOIN_HELP)
@run_guarded
async def join(ctx: CommandContext) -> int:
    # GNU accepts the obsolete "-j1 N" and "-j2 N" spellings
    args = list(ctx.args)
    opts, files = getopt(args, "a:e:i1:2:j:o:t:v:z", {
        "ignore-case": "i", "check-order": None, "nocheck-order": None, "header": None,
        "zero-terminated": "z"}, status=1)
    unpaired = {1: False, 2: False}
    only_unpaired = False
    empty: bytes | None = None
    ignore_case = False
    field = {1: 1, 2: 1}
    fmt: list[tuple[int, int]] | None = None
    auto = False
    tab: bytes | None = None
    check: str | None = None
    header = False
    sep = b"\n"
    for opt, val in opts:
        if opt in "av":
            if val not in ("1", "2"):
                raise Fail(f"invalid field number: {quote(val, 'locale')}")
            unpaired[int(val)] = True
            if opt == "v":
                only_unpaired = True
        elif opt == "e":
            empty = val.encode("utf-8", "surrogateescape")
        elif opt == "i":
            ignore_case = True
        elif opt in "12":
            field[int(opt)] = _field_number(val)
        elif opt == "j":
            field[1] = field[2] = _field_number(val)
        elif opt == "o":
            if val == "auto":
                auto = True
                continue
            fmt = fmt or []
            for spec in re.split(r"[, \t]+", val.strip()):
                if spec == "0":
                    fmt.append((0, 0))
                    continue
                m = re.fullmatch(r"([12])\.([0-9]+)", spec)
                if not m:
                    if re.fullmatch(r"[0-9]+\.[0-9]*", spec) or "." not in spec:
                        raise Fail(f"invalid field specifier: {quote(spec, 'locale')}")
                    raise Fail(f"invalid file number in field spec: {quote(spec, 'locale')}")
                fmt.append((int(m.group(1)), _field_number(m.group(2))))
        elif opt == "t":
            raw = val.encode("utf-8", "surrogateescape")
            if len(raw) > 1:
                if raw == b"\\0":
                    raw = b"\0"
                else:
                    raise Fail(f"multi-character tab {quote(val, 'locale')}")
            tab = raw if raw else b"\n"
        elif opt in ("check-order", "nocheck-order"):
            check = opt
        elif opt == "header":
            header = True
        elif opt == "z":
            sep = b"\0"
    r1, r2 = await _open_pair(ctx, files, sep)
    out_sep = tab if tab is not None else b" "

    def fields_of(line: bytes) -> list[bytes]:
        if tab is not None:
            return line.split(tab) if line else []
        # GNU: leading blanks are skipped; trailing blanks leave one empty last field
        line = line.lstrip(b" \t")
        return _BLANK_RUN.split(line) if line else []

    def key_of(fields: list[bytes], n: int) -> bytes:
        k = fields[field[n] - 1] if len(fields) >= field[n] else b""
        return k.translate(_UPPER) if ignore_case else k

    out = BatchWriter(ctx)
    auto_counts = {1: 0, 2: 0}

    def render(f1: list[bytes] | None, f2: list[bytes] | None) -> bytes:
        fill = empty if empty is not None else b""
        if fmt is not None or auto:
            spec = fmt
            if spec is None:
                spec = [(0, 0)] + [(1, i) for i in range(1, auto_counts[1] + 1) if i != field[1]] + \
                    [(2, i) for i in range(1, auto_counts[2] + 1) if i != field[2]]
            parts = []
            for n, i in spec:
                if n == 0:
                    src, fn = (f1, 1) if f1 is not None else (f2, 2)
                    value = src[field[fn] - 1] if len(src) >= field[fn] else None
                else:
                    src = f1 if n == 1 else f2
                    value = src[i - 1] if src is not None and len(src) >= i else None
                parts.append(value if value else fill)  # GNU fills empty fields too
            return out_sep.join(parts) + sep
        src, fn = (f1, 1) if f1 is not None else (f2, 2)
        key = src[field[fn] - 1] if len(src) >= field[fn] else fill
        parts = [key]
        if f1 is not None:
            parts += [x for i, x in enumerate(f1, 1) if i != field[1]]
        if f2 is not None:
            parts += [x for i, x in enumerate(f2, 1) if i != field[2]]
        return out_sep.join(p if p else fill for p in parts) + sep

    status = 0
    warned = {1: False, 2: False}
    seen_unpairable = False

    async def check_order(n: int, prev: list[bytes] | None, cur: list[bytes], reader: _Reader,
                          line: bytes) -> None:
        nonlocal status
        if check == "nocheck-order" or prev is None or warned[n]:
            return
        if check != "check-order" and not seen_unpairable:
            return
        if key_of(prev, n) > key_of(cur, n):
            await out.flush()
            await ctx.error(f"{reader.name}:{reader.lineno}: is not sorted: "
                            f"{line.decode('utf-8', 'surrogateescape')}")
            warned[n] = True
            status = 1
            if check == "check-order":
                raise Fail_silent(1)

    async def next_fields(n: int, reader: _Reader, prev: list[bytes]) -> list[bytes] | None:
        """The next line's fields (None at the end), its order checked against ``prev``."""
        line = await reader.next()
        fields = fields_of(line) if line is not None else None
        if fields is not None:
            await check_order(n, prev, fields, reader, line)
        return fields

    async def key_group(n: int, reader: _Reader, first: list[bytes]):
        """``first`` and the lines after it with the same key; and the line after those."""
        group = [first]
        key = key_of(first, n)
        while True:
            fields = await next_fields(n, reader, group[-1])
            if fields is None or key_of(fields, n) != key:
                return group, fields
            group.append(fields)

    line1 = await r1.next()
    line2 = await r2.next()
    if auto:
        auto_counts[1] = len(fields_of(line1)) if line1 is not None else 0
        auto_counts[2] = len(fields_of(line2)) if line2 is not None else 0
    try:
        if header and (line1 is not None or line2 is not None):
            f1 = fields_of(line1) if line1 is not None else None
            f2 = fields_of(line2) if line2 is not None else None
            await out.write(render(f1 if f1 is not None else [], f2))
            line1 = await r1.next()
            line2 = await r2.next()
        f1 = fields_of(line1) if line1 is not None else None
        f2 = fields_of(line2) if line2 is not None else None
        while f1 is not None and f2 is not None:
            k1, k2 = key_of(f1, 1), key_of(f2, 2)
            # as in GNU, the next line is read (and its order checked) before the
            # unpairable line counts as seen
            if k1 < k2:
                if unpaired[1]:
                    await out.write(render(f1, None))
                f1 = await next_fields(1, r1, f1)
                seen_unpairable = True
                continue
            if k1 > k2:
                if unpaired[2]:
                    await out.write(render(None, f2))
                f2 = await next_fields(2, r2, f2)
                seen_unpairable = True
                continue
            group1, f1 = await key_group(1, r1, f1)
            group2, f2 = await key_group(2, r2, f2)
            if not only_unpaired:
                for a in group1:
                    for b in group2:
                        await out.write(render(a, b))
        while f1 is not None:
            if unpaired[1]:
                await out.write(render(f1, None))
            f1 = await next_fields(1, r1, f1)
        while f2 is not None:
            if unpaired[2]:
                await out.write(render(None, f2))
            f2 = await next_fields(2, r2, f2)
    except Fail_silent as e:
        await out.flush()
        return e.status
    await out.flush()
    if warned[1] or warned[2]:
        await ctx.error("input is not in sorted order")
    return status


class Fail_silent(Exception):  # noqa: N801 - message already printed
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@command("comm", help=COMM_HELP)
@run_guarded
async def comm(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "123z", {
        "check-order": None, "nocheck-order": None, "output-delimiter=": None, "total": None,
        "zero-terminated": "z"}, status=1)
    hide = {1: False, 2: False, 3: False}
    check = None
    delim = b"\t"
    total = False
    sep = b"\n"
    delim_set = None
    for opt, val in opts:
        if opt in "123":
            hide[int(opt)] = True
        elif opt in ("check-order", "nocheck-order"):
            check = opt
        elif opt == "output-delimiter":
            raw = val.encode("utf-8", "surrogateescape")
            if delim_set is not None and delim_set != raw:
                raise Fail("multiple output delimiters specified")
            delim_set = raw
            delim = raw if raw else b"\0"
        elif opt == "total":
            total = True
        elif opt == "z":
            sep = b"\0"
    r1, r2 = await _open_pair(ctx, files, sep)
    prefix = {1: b"", 2: b"" if hide[1] else delim,
              3: (b"" if hide[1] else delim) + (b"" if hide[2] else delim)}
    out = BatchWriter(ctx)
    counts = {1: 0, 2: 0, 3: 0}
    warned = {1: False, 2: False}
    seen_unpairable = False
    status = 0

    async def emit(col: int, line: bytes) -> None:
        counts[col] += 1
        if not hide[col]:
            await out.write(prefix[col] + line + sep)

    async def advance(n: int, reader: _Reader, prev: bytes) -> bytes | None:
        nonlocal status
        line = await reader.next()
        if line is not None and check != "nocheck-order" and not warned[n] \
                and (check == "check-order" or seen_unpairable) and prev > line:
            await out.flush()
            await ctx.error(f"file {n} is not in sorted order")
            warned[n] = True
            status = 1
            if check == "check-order":
                raise Fail_silent(1)
        return line

    a = await r1.next()
    b = await r2.next()
    try:
        while a is not None or b is not None:
            if b is None or (a is not None and a < b):
                seen_unpairable = True
                await emit(1, a)
                a = await advance(1, r1, a)
            elif a is None or b < a:
                seen_unpairable = True
                await emit(2, b)
                b = await advance(2, r2, b)
            else:
                await emit(3, a)
                a = await advance(1, r1, a)
                b = await advance(2, r2, b)
    except Fail_silent as e:
        await out.flush()
        return e.status
    if total:
        d = delim
        await out.write(b"%d" % counts[1] + d + b"%d" % counts[2] + d + b"%d" % counts[3] + d +
                        b"total" + sep)
    await out.flush()
    if warned[1] or warned[2]:
        await ctx.error("input is not in sorted order")
    return status
