"""Line filters: uniq, rev, tac, nl."""
from __future__ import annotations

import re

from .. import memory
from ..locales import utf8_locale
from ..streams import CHUNK, FileOutput
from ..vfs import FSError
from ._lib.posix_regex import RegexError, compile_posix, translate
from ._lib.quoting import quote
from ._lib.sizes import parse_size
from ._lib.textio import BatchWriter, Fail, each_input, line_batches, open_operand, run_guarded
from .options import UsageError, argmatch, getopt
from .registry import CommandContext, command

UNIQ_HELP = """\
Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help            display this help and exit

A field is a run of blanks (usually spaces and/or TABs), then non-blank
characters.  Fields are skipped before chars."""

REV_HELP = """\
Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -0, --zero     zero termination, use NUL as line delimiter
 -h, --help     display this help"""

TAC_HELP = """\
Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help               display this help and exit"""

NL_HELP = """\
Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help                      display this help and exit

Default options are: -bt -d'\\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

STYLE is one of:
  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:
  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros"""

_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SKIP_FIELD = re.compile(rb"[ \t]*[^ \t]*")


def _count_arg(val: str, what: str) -> int:
    n = parse_size(val, "")
    if n is None:
        raise Fail(f"{val}: invalid number of {what}")
    return n


@command("uniq", help=UNIQ_HELP)
@run_guarded
async def uniq(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "cdDf:is:uw:z", {
        "count": "c", "repeated": "d", "all-repeated==": None, "skip-fields=": "f",
        "group==": None, "ignore-case": "i", "skip-chars=": "s", "unique": "u",
        "zero-terminated": "z", "check-chars=": "w"}, status=1)
    count = repeated = unique = ignore_case = False
    all_repeated: str | None = None
    group: str | None = None
    skip_fields = skip_chars = 0
    check_chars: int | None = None
    sep = b"\n"
    for opt, val in opts:
        if opt == "c":
            count = True
        elif opt == "d":
            repeated = True
        elif opt == "D":
            all_repeated = "none"
        elif opt == "all-repeated":
            all_repeated = argmatch(val, ["none", "prepend", "separate"], "--all-repeated") if val else "none"
        elif opt == "group":
            group = argmatch(val, ["prepend", "append", "separate", "both"], "--group") if val else "separate"
        elif opt == "f":
            skip_fields = _count_arg(val, "fields to skip")
        elif opt == "s":
            skip_chars = _count_arg(val, "bytes to skip")
        elif opt == "w":
            check_chars = _count_arg(val, "bytes to compare")
        elif opt == "i":
            ignore_case = True
        elif opt == "u":
            unique = True
        elif opt == "z":
            sep = b"\0"
    if len(operands) > 2:
        raise UsageError(f"extra operand {quote(operands[2], 'locale')}", 1)
    if count and all_repeated is not None:
        raise UsageError("printing all duplicated lines and repeat counts is meaningless", 1)
    if group is not None and (count or repeated or unique or all_repeated is not None):
        raise UsageError("--group is mutually exclusive with -c/-d/-D/-u", 1)
    source = operands[0] if operands else "-"
    try:
        if source != "-" and ctx.fs.is_dir(source, cwd=ctx.cwd):
            raise Fail(f"{quote(source, 'shell-escape', colon=True)}: Is a directory")
        stream = ctx.open_input(source)
    except FSError as e:
        raise Fail(f"{quote(source, 'shell-escape', colon=True)}: {e.strerror}")
    dest = ctx.stdout
    handle = None
    if len(operands) == 2 and operands[1] != "-":
        try:
            handle = ctx.fs.open(operands[1], "wb", cwd=ctx.cwd)
        except FSError as e:
            raise Fail(f"{operands[1]}: {e.strerror}")
        dest = FileOutput(handle)
    out = BatchWriter(ctx, dest)

    plain = not (skip_fields or skip_chars or ignore_case or check_chars is not None)

    def key(body: bytes) -> bytes:
        pos = 0
        for _ in range(skip_fields):
            pos = _SKIP_FIELD.match(body, pos).end()
        body = body[pos + skip_chars:] if pos + skip_chars <= len(body) else b""
        if check_chars is not None:
            body = body[:check_chars]
        return body.translate(_UPPER) if ignore_case else body

    groups_seen = 0
    pending: list[bytes] = []  # output waiting to be written

    def emit(first: bytes, members: list[bytes], n: int) -> None:
        """Output for one group of equal lines (line bodies, without separators)."""
        nonlocal groups_seen
        if group is not None:
            if group in ("prepend", "both") or (groups_seen and group in ("separate", "append")):
                pending.append(sep)
            groups_seen += 1
            pending.extend(x + sep for x in members)
            return
        if all_repeated is not None:
            if n > 1:
                if all_repeated == "prepend" or (all_repeated == "separate" and groups_seen):
                    pending.append(sep)
                groups_seen += 1
                pending.extend(x + sep for x in members)
            return
        if (repeated and n < 2) or (unique and n > 1):
            return
        pending.append(b"%7d %s%s" % (n, first, sep) if count else first + sep)

    keep_all = all_repeated is not None or group is not None
    simple = not (count or repeated or unique or keep_all)
    prev: bytes | None = None
    prev_key = b""
    members: list[bytes] = []
    n = 0
    partial = b""
    try:
        while True:
            chunk = await stream.read_some()
            if chunk:
                bodies = (partial + chunk).split(sep)
                partial = bodies.pop()
            else:
                bodies = [partial] if partial else []
            for body in bodies:
                k = body if plain else key(body)
                if k == prev_key and prev is not None:
                    n += 1
                    if keep_all:
                        members.append(body)
                    continue
                if prev is not None:
                    if simple:
                        pending.append(prev + sep)
                    else:
                        emit(prev, members, n)
                prev, prev_key, n = body, k, 1
                if keep_all:
                    members = [body]
            if pending:
                await out.write_lines(pending)
                pending.clear()
            if not chunk:
                break
        if prev is not None:
            emit(prev, members, n)
        if group in ("append", "both") and groups_seen:
            pending.append(sep)
        await out.write_lines(pending)
        await out.flush()
    finally:
        if handle is not None:
            handle.close()
    return 0


@command("rev", help=REV_HELP)
async def rev(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "0", {"zero": "0"}, status=1)
    sep = b"\0" if opts else b"\n"
    utf8 = utf8_locale(ctx.env)  # util-linux rev reverses characters, not bytes
    status = 0
    out = BatchWriter(ctx)
    for name in files or ["-"]:
        try:
            stream = open_operand(ctx, name)
        except FSError as e:
            await ctx.error(f"cannot open {name}: {e.strerror}")
            status = 1
            continue
        # util-linux reads a line with fgetws as a C string: it ends at a NUL, the rest of
        # that line is lost, and the next line is read on after it (ab\0cd\nef\n is feba)
        pending = b""
        async for lines in line_batches(stream, sep):
            if sep == b"\n" and (pending or any(b"\0" in line for line in lines)):
                joined = []
                for line in lines:
                    cut = line.find(b"\0")
                    if cut >= 0:
                        pending += line[:cut]
                        continue
                    joined.append(pending + line)
                    pending = b""
                lines = joined
            await out.write_lines([_reverse_line(line, sep, utf8) for line in lines])
        if pending:
            await out.write_lines([_reverse_line(pending, sep, utf8)])
        await out.flush()
    return status


def _reverse_line(line: bytes, sep: bytes, utf8: bool) -> bytes:
    if utf8:
        return _reverse_chars(line, sep)
    return line[-2::-1] + sep if line.endswith(sep) else line[::-1]


def emacs_to_ere(pattern: str) -> str:
    """GNU tac compiles -r separators with the regex library's default (Emacs) syntax:
    \\( \\) \\| \\{ \\} are operators and ( ) | { } literal; + ? * are operators."""
    out = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "[":
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                if pattern.startswith("[:", j) or pattern.startswith("[=", j) or pattern.startswith("[.", j):
                    k = pattern.find(pattern[j + 1] + "]", j + 2)
                    j = k + 2 if k >= 0 else j + 1
                else:
                    j += 1
            out.append(pattern[i:j + 1])
            i = j + 1
            continue
        if c == "\\" and i + 1 < n:
            d = pattern[i + 1]
            out.append(d if d in "(){}|" else "\\" + d)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|" else c)
        i += 1
    return "".join(out)


def _reverse_chars(line: bytes, sep: bytes) -> bytes:
    body, end = (line[:-1], sep) if line.endswith(sep) else (line, b"")
    if body.isascii():
        return body[::-1] + end
    return body.decode("utf-8", "surrogateescape")[::-1].encode("utf-8", "surrogateescape") + end


@command("tac", help=TAC_HELP)
async def tac(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "brs:", {"before": "b", "regex": "r", "separator=": "s"}, status=1)
    before = any(o == "b" for o, _ in opts)
    use_regex = any(o == "r" for o, _ in opts)
    sep_text = "\n"
    for o, v in opts:
        if o == "s":
            sep_text = v
    if sep_text == "":
        await ctx.error("separator cannot be empty")
        return 1
    sep = sep_text.encode("utf-8", "surrogateescape")
    rx = None
    if use_regex:
        try:
            source = translate(emacs_to_ere(sep_text), extended=True)
            rx = re.compile(source.encode("utf-8", "surrogateescape"), re.S)
            starts = re.compile(b"(?=" + rx.pattern + b")", re.S)
        except (RegexError, re.error) as e:
            await ctx.error(f"{e}")
            return 1
    status = 0
    for name in files or ["-"]:
        try:
            data = await open_operand(ctx, name).read_all()  # held: counted as it comes
        except FSError as e:
            await ctx.error(f"failed to open {quote(name)} for reading: {e.strerror}")
            status = 1
            continue
        if not data:
            continue
        if not use_regex and not before and len(sep) == 1:
            await _tac_blocks(ctx, data, sep)
            continue
        if rx is None:
            def find_before(limit: int, data=data):
                i = data.rfind(sep, 0, limit)
                return None if i < 0 else (i, i + len(sep))
        else:
            candidates = [m.start() for m in starts.finditer(data)]
            memory.charge(len(candidates) * memory.LINE_COST)

            def find_before(limit: int, data=data, candidates=candidates):
                while candidates:
                    s = candidates.pop()
                    if s >= limit:
                        continue
                    m = rx.match(data, s, limit)
                    if m and m.end() > s:
                        return (s, m.end())
                return None
        await _tac_records(ctx, data, find_before, before)
    return status


#: tac reverses its input a block of about this many bytes at a time: splitting and joining a
#: block of empty lines costs ~90 bytes a line (a list slot, and join's buffer per part).
TAC_BLOCK = 1 << 14


async def _tac_blocks(ctx: CommandContext, data: bytes, sep: bytes) -> None:
    """The records of ``data`` last first, a block of about TAC_BLOCK bytes at a time (blocks
    start where a record starts): only the input is held, never a list of all its lines."""
    pos = len(data)
    while pos > 0:
        start = data.rfind(sep, 0, pos - TAC_BLOCK) + 1 if pos > TAC_BLOCK else 0
        block = data[start:pos]
        if len(block) > TAC_BLOCK:
            memory.need(3 * len(block))  # one long record: its copy, its parts, the output
        parts = block.split(sep)
        last = parts.pop()  # text after the block's final separator (empty but at the very end)
        parts.reverse()
        await ctx.out(last + sep.join(parts) + (sep if parts else b""))
        await ctx.checkpoint()
        pos = start


async def _tac_records(ctx: CommandContext, data: bytes, find_before, before: bool) -> None:
    """The records of ``data`` last first, separators found the way GNU tac finds them
    (searching backward, each search limited to the text before the previous separator), written
    in batches of about CHUNK bytes."""
    batch: list[bytes] = []
    size = 0
    end = limit = len(data)
    while limit > 0:
        span = find_before(limit)
        if span is None:
            break
        cut = span[0] if before else span[1]
        if 0 < cut < end:
            batch.append(data[cut:end])
            size += end - cut
            end = cut
        limit = span[0]
        if size >= CHUNK:
            await ctx.out(b"".join(batch))
            await ctx.checkpoint()
            batch, size = [], 0
    if end > 0:
        batch.append(data[:end])
    await ctx.out(b"".join(batch))
    await ctx.checkpoint()


@command("nl", help=NL_HELP)
@run_guarded
async def nl(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "b:d:f:h:i:l:n:ps:v:w:", {
        "body-numbering=": "b", "section-delimiter=": "d", "footer-numbering=": "f",
        "header-numbering=": "h", "line-increment=": "i", "join-blank-lines=": "l",
        "number-format=": "n", "no-renumber": "p", "number-separator=": "s",
        "starting-line-number=": "v", "number-width=": "w"}, status=1)
    styles = {"header": "n", "body": "t", "footer": "n"}
    delim = b"\\:"
    incr, join_blank, start, width = 1, 1, 1, 6
    fmt = "rn"
    renumber = True
    number_sep = b"\t"
    regexes: dict[str, re.Pattern] = {}

    def int_arg(val: str, what: str, minimum: int) -> int:
        try:
            n = int(val)
        except ValueError:
            n = None
        if n is None or n < minimum:
            raise Fail(f"invalid {what}: {quote(val, 'locale')}")
        return n

    for opt, val in opts:
        if opt in "bfh":
            section = {"b": "body", "f": "footer", "h": "header"}[opt]
            if val in ("a", "t", "n"):
                styles[section] = val
            elif val.startswith("p"):
                try:
                    regexes[section] = compile_posix(val[1:])
                except RegexError as e:
                    raise Fail(str(e))
                styles[section] = "p"
            else:
                what = {"b": "body", "f": "footer", "h": "header"}[opt]
                raise Fail(f"invalid {what} numbering style: {quote(val, 'locale')}")
        elif opt == "d":
            raw = val.encode("utf-8", "surrogateescape")
            delim = raw if len(raw) != 1 else raw + b":"
        elif opt == "i":
            incr = int_arg(val, "line number increment", -(1 << 62))
        elif opt == "l":
            join_blank = int_arg(val, "line number of blank lines", 1)
        elif opt == "n":
            if val not in ("ln", "rn", "rz"):
                raise Fail(f"invalid line numbering format: {quote(val, 'locale')}")
            fmt = val
        elif opt == "p":
            renumber = False
        elif opt == "s":
            number_sep = val.encode("utf-8", "surrogateescape")
        elif opt == "v":
            start = int_arg(val, "starting line number", -(1 << 62))
        elif opt == "w":
            width = int_arg(val, "line number field width", 1)

    def render(n: int) -> bytes:
        if fmt == "ln":
            text = str(n).ljust(width)
        elif fmt == "rz":
            text = ("-" + str(-n).rjust(width - 1, "0")) if n < 0 else str(n).rjust(width, "0")
        else:
            text = str(n).rjust(width)
        return text.encode()

    # GNU pads an unnumbered line by the width plus the separator's length
    blank_prefix = b" " * (width + len(number_sep))
    out = BatchWriter(ctx)
    number = start
    section = "body"
    blank_run = 0
    status = 0
    markers = {delim * 3: "header", delim * 2: "body", delim: "footer"} if delim else {}
    async for _name, stream in each_input(ctx, files, out=out):
        if stream is None:
            status = 1
            continue
        async for batch in line_batches(stream):
            for line in batch:
                body = line[:-1] if line.endswith(b"\n") else line
                if body in markers:
                    section = markers[body]
                    if renumber:
                        number = start
                    await out.write(b"\n")
                    blank_run = 0
                    continue
                style = styles[section]
                numbered = False
                if style == "a":
                    if body:
                        numbered = True
                        blank_run = 0
                    else:
                        blank_run += 1
                        if blank_run >= join_blank:
                            numbered = True
                            blank_run = 0
                elif style == "t":
                    numbered = bool(body)
                elif style == "p":
                    numbered = regexes[section].search(body.decode("utf-8", "surrogateescape")) is not None
                if numbered:
                    await out.write(render(number) + number_sep + body + b"\n")
                    number += incr
                else:
                    await out.write(blank_prefix + body + b"\n")
        await out.flush()
    await out.flush()
    return status

