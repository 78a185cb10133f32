"""Shell builtins. Each is ``async def name(sh, argv, fds) -> int``; output goes to ``fds[1]``.

Registered in ``BUILTINS``; ``HELP`` holds each one's synopsis and description, used by
``help NAME`` and ``NAME --help``.
"""
from __future__ import annotations

import asyncio
import re
import stat as st
import time

from ..chars import isdigits, parse_int
from ..commands import registry
from ..streams import BytesInput, EmptyInput, FileInput, InputStream, OutputStream
from ..vfs import FSError, normpath
from .eval import pattern as pat
from .eval.arith import ArithError, evaluate as arith_evaluate
from .syntax.ast import Assign
from .eval.word import backslash_quote, shell_quote
from .syntax.parser import RESERVED, byte_char, decode_escapes, is_name
from .syntax.printer import format_function
from .state import (
    BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction, ShellError, Var, ordered_keys,
)

BUILTINS: dict = {}
HELP: dict[str, tuple[str, str]] = {}
SPECIAL_BUILTINS = frozenset({":", ".", "break", "continue", "eval", "exec", "exit", "export",
                              "readonly", "return", "set", "shift", "source", "times", "trap", "unset"})
NO_HELP_OPTION = frozenset({"echo", "true", "false", ":", "test", "[", "bash", "sh"})


def builtin(*names: str, usage: str = "", text: str = ""):
    def register(fn):
        for name in names:
            BUILTINS[name] = _with_help(name, fn)
            HELP[name] = (usage or name, text.strip())
        return fn
    return register


def _with_help(name: str, fn):
    if name in NO_HELP_OPTION:
        return fn

    async def wrapper(sh, argv, fds):
        if len(argv) > 1 and argv[1] == "--help":
            await out(fds, help_text(name) + "\n")
            return 0
        return await fn(sh, argv, fds)
    wrapper.__name__ = fn.__name__
    return wrapper


def help_text(name: str) -> str | None:
    entry = HELP.get(name)
    if entry is None:
        return None
    usage, text = entry
    body = "\n".join("    " + line if line else "" for line in text.splitlines())
    return f"{name}: {usage}\n{body}" if body else f"{name}: {usage}"


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


# ============================================================================ trivial
@builtin(":", usage=":", text="Null command: no effect; the exit status is 0.")
async def b_colon(sh, argv, fds):
    return 0


@builtin("true", usage="true", text="Return a successful result.")
async def b_true(sh, argv, fds):
    return 0


@builtin("false", usage="false", text="Return an unsuccessful result.")
async def b_false(sh, argv, fds):
    return 1


# ============================================================================ echo / printf
@builtin("echo", usage="echo [-neE] [arg ...]", text="""
Write arguments to the standard output, separated by single spaces and followed by a newline.
  -n  do not append a newline
  -e  enable interpretation of backslash escapes (\\n \\t \\\\ \\0NNN \\xHH \\c ...)
  -E  disable interpretation of backslash escapes (default)""")
async def b_echo(sh, argv, fds):
    newline = True
    escapes = sh.shopts.get("xpg_echo", False)
    i = 1
    while i < len(argv):
        a = argv[i]
        if len(a) > 1 and a[0] == "-" and all(c in "neE" for c in a[1:]):
            for c in a[1:]:
                if c == "n":
                    newline = False
                elif c == "e":
                    escapes = True
                else:
                    escapes = False
            i += 1
        else:
            break
    text = " ".join(argv[i:])
    if escapes:
        text, stop = decode_escapes(text, echo=True)
        if stop:
            newline = False
    if newline:
        text += "\n"
    return await write_or_fail(sh, fds, "echo", text)


class _PrintfError(Exception):
    pass


def _bash_int(text: str) -> int:
    """int() as bash reads a builtin's number (ValueError otherwise)."""
    n = parse_int(text)
    if n is None:
        raise ValueError(text)
    return n


def _printf_number(sh, arg: str, errors: list, floating: bool = False):
    s = arg.strip()
    if not s:
        return 0.0 if floating else 0
    if s[0] in "'\"" and len(s) >= 2:
        return float(ord(s[1])) if floating else ord(s[1])
    if s[0] in "'\"":
        return 0
    if floating:
        try:
            if not s.isascii() or "_" in s:  # float() also reads '٣' and '1_0'
                raise ValueError(s)
            return float(s)
        except ValueError:
            m = re.match(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?", s)
            errors.append(f"{arg}: invalid number")
            return float(m.group(0)) if m else 0.0
    m = re.fullmatch(r"([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)", s)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        body = m.group(2)
        if body.lower().startswith("0x"):
            v = int(body, 16)
        elif body.startswith("0") and len(body) > 1:
            v = int(body, 8)
        else:
            v = int(body)
        v *= sign
        if v >= 1 << 63 or v < -(1 << 63):
            errors.append(f"{arg}: Numerical result out of range")
            v = (1 << 63) - 1 if v > 0 else -(1 << 63)
        return v
    m = re.match(r"[-+]?[0-9]+", s)
    errors.append(f"{arg}: invalid number")
    return int(m.group(0)) if m else 0


_TIME_SPEC = re.compile(r"%([-+ #0]*)([0-9]+)?\(([^)]*)\)T")
_FMT_SPEC = re.compile(r"%([-+ #0]*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?(hh|h|ll|l|L|q|j|z|t)?([diouxXeEfFgGaAcsbqQ%])")


def printf_format(sh, fmt: str, args: list[str], errors: list, start: int = 0) -> tuple[str, bool, int]:
    """Format once through ``fmt``; returns (text, stop requested by \\c, args consumed)."""
    res = []
    i, n = 0, len(fmt)
    argi = start
    consumed = 0

    def next_arg():
        nonlocal argi, consumed
        if argi < len(args):
            a = args[argi]
            argi += 1
            consumed += 1
            return a
        return None

    while i < n:
        c = fmt[i]
        if c == "\\":
            j = i + 1
            if j < n and fmt[j] in "01234567":
                k = j
                while k < n and k < j + 3 and fmt[k] in "01234567":
                    k += 1
                res.append(byte_char(int(fmt[j:k], 8) & 0xFF))
                i = k
                continue
            if j < n and fmt[j] == "c":
                return "".join(res), True, consumed
            if j < n and fmt[j] in "\"'?":
                res.append(fmt[j])
                i = j + 1
                continue
            consumed_len = _escape_len(fmt, i)
            text, _ = decode_escapes(fmt[i:i + consumed_len], echo=True)
            res.append(text)
            i += consumed_len
            continue
        if c != "%":
            j = i
            while j < n and fmt[j] not in "%\\":
                j += 1
            res.append(fmt[i:j])
            i = j
            continue
        tm = _TIME_SPEC.match(fmt, i)
        if tm:
            i = tm.end()
            arg = next_arg()
            try:
                when = time.time() if arg in (None, "", "-1") else (sh.rt.start_time_epoch if arg == "-2" else int(arg))
            except ValueError:
                errors.append(f"{arg}: invalid number")
                when = 0
            stamp = time.strftime(tm.group(3) or "%X", time.gmtime(when))  # the sandbox runs on UTC
            res.append(_bytes_format("%" + tm.group(1) + (tm.group(2) or ""), stamp))
            continue
        m = _FMT_SPEC.match(fmt, i)
        if not m:
            errors.append(f"`{fmt[i + 1:i + 2] or '%'}': invalid format character" if i + 1 < n else "`%': missing format character")
            raise _PrintfError()
        i = m.end()
        flags, width, prec, _, conv = m.groups()
        if conv == "%":
            if m.end() - m.start() > 2:
                # "%5%" and the like: bash rejects flags or a width on %%
                errors.append("`%': invalid format character")
                raise _PrintfError()
            res.append("%")
            continue
        if width == "*":
            a = next_arg()
            width = str(_printf_number(sh, a or "0", errors))
            if width.startswith("-"):
                flags += "-"
                width = width[1:]
        if prec == "*":
            a = next_arg()
            prec = str(_printf_number(sh, a or "0", errors))
        arg = next_arg()
        for number in (width, prec):
            if number and isdigits(number) and int(number) > sh.rt.limits.string_bytes:
                from .state import LimitExceeded
                raise LimitExceeded(f"printf: field width {number} exceeds the string limit (limit string_bytes)",
                                    "string_bytes")
        spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
        if conv == "s":
            res.append(_bytes_format(spec, arg if arg is not None else ""))
        elif conv == "b":
            text, stop = decode_escapes(arg or "", echo=True)
            res.append(_bytes_format(spec, text))
            if stop:
                return "".join(res), True, consumed
        elif conv in "qQ":
            res.append(_bytes_format(spec, backslash_quote(arg if arg is not None else "")))
        elif conv == "c":
            res.append(_bytes_format(spec, (arg or "")[:1] if arg else ("\0" if arg == "" else "")))
        elif conv in "di":
            v = _printf_number(sh, arg or "", errors)
            res.append((spec + "d") % v)
        elif conv in "ouxX":
            v = _printf_number(sh, arg or "", errors)
            if v < 0:
                v &= (1 << 64) - 1
            if conv == "o" and "#" in flags:
                # C's %#o prefixes 0 (Python's would write 0o)
                spec = spec.replace("#", "")
                digits = ("%" + ("." + prec if prec is not None else "") + "o") % v
                if not digits.startswith("0"):
                    digits = "0" + digits
                res.append((spec + "s") % digits)
            else:
                res.append((spec + (conv if conv != "u" else "d")) % v)
        elif conv in "eEfFgGaA":
            v = _printf_number(sh, arg or "", errors, floating=True)
            if conv in "aA":
                res.append(float(v).hex())
            else:
                res.append((spec + conv) % v)
    return "".join(res), False, consumed


def _bytes_format(spec: str, text: str) -> str:
    """%s with width/precision counted in bytes, as bash's printf (C printf) does."""
    if spec == "%":
        return text
    data = text.encode("utf-8", "surrogateescape")
    return ((spec + "s").encode() % data).decode("utf-8", "surrogateescape")


def _escape_len(fmt: str, i: int) -> int:
    j = i + 1
    if j >= len(fmt):
        return 1
    e = fmt[j]
    if e == "x":
        k = j + 1
        while k < len(fmt) and k < j + 3 and fmt[k] in "0123456789abcdefABCDEF":
            k += 1
        return k - i
    if e in "uU":
        width = 4 if e == "u" else 8
        k = j + 1
        while k < len(fmt) and k < j + 1 + width and fmt[k] in "0123456789abcdefABCDEF":
            k += 1
        return k - i
    return 2


@builtin("printf", usage="printf [-v var] format [arguments]", text="""
Formats and prints ARGUMENTS under control of the FORMAT.
  -v var  assign the output to shell variable VAR rather than display it
FORMAT is a character string which contains three types of objects: plain characters, which
are simply copied to standard output; character escape sequences, which are converted and
copied to the standard output; and format specifications (%s %d %i %o %u %x %X %c %e %f %g
%b %q %%), each of which causes printing of the next successive argument. The format is
reused as necessary to consume all of the arguments.""")
async def b_printf(sh, argv, fds):
    args = argv[1:]
    var = None
    if args and args[0] == "-v":
        if len(args) < 2:
            await err(sh, fds, "printf", "-v: option requires an argument")
            return 2
        var = args[1]
        args = args[2:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        await sh.report(fds, "printf: usage: printf [-v var] format [arguments]")
        return 2
    fmt, rest = args[0], args[1:]
    errors: list[str] = []
    chunks = []
    try:
        start = 0
        while True:
            text, stop, consumed = printf_format(sh, fmt, rest, errors, start)
            chunks.append(text)
            start += consumed
            if stop or consumed == 0 or start >= len(rest):
                break
    except _PrintfError:
        for e in errors:
            await err(sh, fds, "printf", e)
        if var is None:
            await out(fds, "".join(chunks))
        return 1
    result = "".join(chunks)
    for e in errors:
        await err(sh, fds, "printf", e)
    if var is not None:
        m = re.fullmatch(r"([A-Za-z_][A-Za-z_0-9]*)\[(.*)\]", var)
        if m:
            sh.set_element(m.group(1), m.group(2) if (sh.lookup_var(m.group(1)) or Var()).assoc else sh.arith(m.group(2)), result)
        elif not is_name(var):
            await err(sh, fds, "printf", f"`{var}': not a valid identifier")
            return 2
        else:
            sh.set_var(var, result)
    else:
        status = await write_or_fail(sh, fds, "printf", result)
        if status:
            return status
    return 1 if errors else 0


# ============================================================================ read
async def read_line(sh, fds: dict, delim: bytes = b"\n", fd: int = 0) -> str | None:
    stream = fds.get(fd)
    if not isinstance(stream, InputStream):
        return None
    data = await read_with_cancel(sh, stream, stream.readline(delim), delim)
    if not data:
        return None
    return data.decode("utf-8", "surrogateescape")


def never_blocks(stream: InputStream, delim: bytes | None = None) -> bool:
    """True when reading ``stream`` cannot wait (data buffered, or a file/bytes source)."""
    if isinstance(stream, (BytesInput, FileInput, EmptyInput)):
        return True
    return delim is not None and delim in stream._buf


async def read_with_cancel(sh, stream: InputStream, coro, delim: bytes | None = None, timeout: float | None = None):
    if timeout is None and never_blocks(stream, delim):
        return await coro
    return await _race_cancel(sh, coro, timeout)


async def _race_cancel(sh, coro, timeout: float | None = None):
    """Await ``coro`` but give up at once on interrupt/time-out (or after ``timeout``)."""
    cancel = sh.rt.cancel
    task = asyncio.ensure_future(coro)
    if task.done():
        return task.result()
    waiters = [task]
    cancel_task = None
    if cancel is not None:
        cancel_task = asyncio.ensure_future(cancel.wait())
        waiters.append(cancel_task)
    try:
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if cancel_task is not None:
            cancel_task.cancel()
    if task in done:
        return task.result()
    task.cancel()
    if cancel is not None and cancel.reason is not None:
        from ..commands.registry import CommandCancelled
        raise CommandCancelled(cancel.reason)
    raise asyncio.TimeoutError()


def split_read_fields(line: str, count: int, ifs: str, raw_escapes: list[bool] | None = None) -> list[str]:
    """Split a read line for ``count`` names: the last one gets the rest of the line."""
    ws = "".join(c for c in ifs if c in " \t\n")
    esc = raw_escapes or [False] * len(line)
    n = len(line)
    i = 0
    fields = []

    def is_ifs(k):
        return line[k] in ifs and not esc[k]

    def is_ws(k):
        return line[k] in ws and not esc[k]

    while i < n and is_ws(i):
        i += 1
    for idx in range(count):
        if idx == count - 1:
            # rest of line, trailing IFS whitespace removed
            j = n
            while j > i and is_ws(j - 1):
                j -= 1
            rest = line[i:j]
            # one trailing non-whitespace delimiter goes too when what precedes it is one field
            if j > i and is_ifs(j - 1) and not is_ws(j - 1):
                k = j - 1
                while k > i and is_ws(k - 1):
                    k -= 1
                if not any(is_ifs(p) for p in range(i, k)):
                    rest = line[i:k]
            fields.append(rest)
            break
        start = i
        while i < n and not is_ifs(i):
            i += 1
        fields.append(line[start:i])
        # consume one delimiter: ws* [non-ws] ws*
        while i < n and is_ws(i):
            i += 1
        if i < n and is_ifs(i) and not is_ws(i):
            i += 1
            while i < n and is_ws(i):
                i += 1
    while len(fields) < count:
        fields.append("")
    return fields


@builtin("read", usage="read [-ers] [-a array] [-d delim] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]", text="""
Read a line from the standard input and split it into fields.
The line is split on IFS; the first word goes to the first NAME, the second to the second,
and the rest of the line to the last NAME. Without NAMEs the line is stored in REPLY.
  -a array  assign the words to indices of ARRAY, starting at zero
  -d delim  continue until the first character of DELIM is read, rather than newline
  -n nchars return after reading NCHARS characters (or a newline)
  -N nchars return only after reading exactly NCHARS characters
  -p prompt output PROMPT (to stderr) before reading
  -r        do not allow backslashes to escape any characters
  -s        do not echo input
  -t timeout  time out and return failure after TIMEOUT seconds
  -u fd     read from file descriptor FD instead of the standard input
Exit status: 0 unless end-of-file is encountered, read times out, or an invalid option is given.""")
async def b_read(sh, argv, fds):
    raw = False
    array = None
    delim = "\n"
    nchars = None
    exact = False
    prompt = None
    timeout = None
    fd = 0
    secret = False
    args = argv[1:]
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        a = args[i]
        if a == "--":
            i += 1
            break
        j = 1
        while j < len(a):
            c = a[j]
            if c in "rse":
                if c == "r":
                    raw = True
                secret = secret or c == "s"
                j += 1
                continue
            if c in "adnNptui":
                value = a[j + 1:]
                if not value:
                    i += 1
                    if i >= len(args):
                        await err(sh, fds, "read", f"-{c}: option requires an argument")
                        return 2
                    value = args[i]
                if c == "a":
                    array = value
                elif c == "d":
                    delim = value[:1] if value else "\0"
                elif c in "nN":
                    if not isdigits(value):
                        await err(sh, fds, "read", f"{value}: invalid number")
                        return 1
                    nchars = _bash_int(value)
                    exact = c == "N"
                elif c == "p":
                    prompt = value
                elif c == "t":
                    try:
                        if not re.fullmatch(r"[0-9]*\.?[0-9]*", value) or value in ("", "."):
                            raise ValueError(value)  # bash takes N, N.N or .N; float() takes more
                        timeout = float(value)
                    except ValueError:
                        await err(sh, fds, "read", f"{value}: invalid timeout specification")
                        return 1
                elif c == "u":
                    if not isdigits(value):
                        await err(sh, fds, "read", f"{value}: invalid file descriptor specification")
                        return 1
                    fd = _bash_int(value)
                break
            await err(sh, fds, "read", f"-{c}: invalid option")
            await sh.err(fds, "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n")
            return 2
        i += 1
    names = args[i:]
    for name in names:
        if not is_name(name):
            await err(sh, fds, "read", f"`{name}': not a valid identifier")
            return 1
    stream = fds.get(fd)
    if not isinstance(stream, InputStream):
        await err(sh, fds, "read", f"{fd}: invalid file descriptor: Bad file descriptor")
        return 1
    if prompt is not None and getattr(stream, "interactive", False):
        # like bash, the prompt shows only when input comes from a terminal (the notebook)
        stream.prompt = prompt
    if getattr(stream, "interactive", False):
        stream.password = secret  # -s: the notebook's input box hides the answer
    delim_b = delim.encode("utf-8", "surrogateescape")

    async def read_data():
        if nchars is not None:
            buf = bytearray()
            while len(buf) < nchars:
                chunk = await stream.read(1)
                if not chunk:
                    return bytes(buf), True
                if not exact and chunk == delim_b:
                    return bytes(buf), False
                buf += chunk
            return bytes(buf), False
        pieces = []
        while True:
            line = await stream.readline(delim_b)
            if not line:
                return b"".join(pieces), True
            if line.endswith(delim_b):
                body = line[:-len(delim_b)]
                # a backslash before the delimiter continues the line (without -r)
                if not raw and body.endswith(b"\\") and _odd_backslashes(body):
                    pieces.append(body[:-1])
                    continue
                pieces.append(body)
                return b"".join(pieces), False
            pieces.append(line)
            return b"".join(pieces), True

    try:
        data, eof = await read_with_cancel(sh, stream, read_data(), delim_b if nchars is None else None, timeout)
    except asyncio.TimeoutError:
        return 142
    except OSError as e:  # a closed descriptor (`<&-`)
        # select reads with an empty name: bash names no command there
        name = f"{argv[0]}: " if argv[0] else ""
        await sh.report(fds, f"{name}read error: {fd}: {e.strerror}")
        return 1
    text = data.decode("utf-8", "surrogateescape")
    if eof and not text and nchars != 0:
        if array is not None:
            sh.set_array(array, [])
        elif names:
            for name in names:
                sh.set_var(name, "")
        else:
            sh.set_var("REPLY", "")
        return 1
    escapes = None
    if not raw and "\\" in text:
        chars, escapes = [], []
        k = 0
        while k < len(text):
            if text[k] == "\\" and k + 1 < len(text):
                chars.append(text[k + 1])
                escapes.append(True)
                k += 2
            elif text[k] == "\\":
                k += 1
            else:
                chars.append(text[k])
                escapes.append(False)
                k += 1
        text = "".join(chars)
    ifs = sh.ifs()
    if array is not None:
        fields = _split_all(text, ifs, escapes)
        sh.set_array(array, fields)
    elif not names:
        sh.set_var("REPLY", text)
    else:
        fields = split_read_fields(text, len(names), ifs, escapes)
        for name, value in zip(names, fields):
            sh.set_var(name, value)
    return 1 if eof else 0


def _odd_backslashes(body: bytes) -> bool:
    count = len(body) - len(body.rstrip(b"\\"))
    return count % 2 == 1


def _split_all(text: str, ifs: str, escapes) -> list[str]:
    """``read -a``: every field of the line (backslash-escaped characters never split)."""
    esc = escapes or [False] * len(text)
    ws = [c for c in ifs if c in " \t\n"]
    fields: list[str] = []
    cur: list[str] = []
    pending = False  # a field has started (possibly empty, after a non-blank delimiter)
    i, n = 0, len(text)
    while i < n and text[i] in ws and not esc[i]:
        i += 1
    while i < n:
        c = text[i]
        if c in ifs and not esc[i]:
            fields.append("".join(cur))
            cur, pending = [], False
            blank = c in ws
            i += 1
            while i < n and text[i] in ws and not esc[i]:
                i += 1
            if blank and i < n and text[i] in ifs and not esc[i]:
                i += 1
                while i < n and text[i] in ws and not esc[i]:
                    i += 1
            continue
        cur.append(c)
        pending = True
        i += 1
    if pending or cur:
        fields.append("".join(cur))
    return fields


@builtin("mapfile", "readarray", usage="mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]", text="""
Read lines from the standard input into an indexed array variable (default MAPFILE).
  -d delim  use DELIM to terminate lines, instead of newline
  -n count  copy at most COUNT lines (0: all)
  -O origin begin assigning to ARRAY at index ORIGIN
  -s count  discard the first COUNT lines read
  -t        remove a trailing DELIM from each line read
  -u fd     read lines from file descriptor FD""")
async def b_mapfile(sh, argv, fds):
    delim = "\n"
    count = 0
    origin = None
    skip = 0
    strip = False
    fd = 0
    args = argv[1:]
    i = 0
    while i < len(args) and args[i].startswith("-") and len(args[i]) > 1:
        a = args[i]
        if a == "--":
            i += 1
            break
        c = a[1]
        if c == "t":
            strip = True
            if len(a) > 2:
                args[i] = "-" + a[2:]
                continue
            i += 1
            continue
        if c in "dnOsuCc":
            value = a[2:]
            if not value:
                i += 1
                if i >= len(args):
                    await err(sh, fds, argv[0], f"-{c}: option requires an argument")
                    return 2
                value = args[i]
            try:
                if c == "d":
                    delim = value[:1] or "\0"
                elif c == "n":
                    count = _bash_int(value)
                elif c == "O":
                    origin = _bash_int(value)
                elif c == "s":
                    skip = _bash_int(value)
                elif c == "u":
                    fd = _bash_int(value)
            except ValueError:
                await err(sh, fds, argv[0], f"{value}: invalid number")
                return 1
            i += 1
            continue
        await err(sh, fds, argv[0], f"-{c}: invalid option")
        return 2
    name = args[i] if i < len(args) else "MAPFILE"
    stream = fds.get(fd)
    if not isinstance(stream, InputStream):
        await err(sh, fds, argv[0], f"{fd}: invalid file descriptor: Bad file descriptor")
        return 1
    d = delim.encode("utf-8", "surrogateescape")
    lines = []
    while True:
        if count and len(lines) >= count:
            break
        line = await read_with_cancel(sh, stream, stream.readline(d), d)
        if not line:
            break
        if skip:
            skip -= 1
            continue
        if strip and line.endswith(d):
            line = line[:-len(d)]
        lines.append(line.decode("utf-8", "surrogateescape"))
    if origin is None:
        sh.set_array(name, lines)
    else:
        var = sh.lookup_var(name)
        base = dict(var.value) if var is not None and isinstance(var.value, dict) else {}
        for k, line in enumerate(lines):
            base[origin + k] = line
        sh.set_array(name, base)
    return 0


# ============================================================================ cd / pwd / dirs
@builtin("cd", usage="cd [-L|[-P [-e]] [-@]] [dir]", text="""
Change the shell working directory to DIR (default $HOME). `cd -' goes to $OLDPWD.
  -L  follow symbolic links logically (default)
  -P  use the physical directory structure""")
async def b_cd(sh, argv, fds):
    args = argv[1:]
    physical = False
    while args and args[0].startswith("-") and args[0] not in ("-", "--") and len(args[0]) > 1:
        for c in args[0][1:]:
            if c == "P":
                physical = True
            elif c == "L":
                physical = False
            elif c in "e@":
                pass
            else:
                await err(sh, fds, "cd", f"-{c}: invalid option")
                await sh.err(fds, "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
                return 2
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1:
        await err(sh, fds, "cd", "too many arguments")
        return 1
    print_dir = False
    if not args:
        target = sh.get_scalar("HOME")
        if target is None:
            await err(sh, fds, "cd", "HOME not set")
            return 1
    else:
        target = args[0]
        if target == "-":
            target = sh.get_scalar("OLDPWD")
            if target is None:
                await err(sh, fds, "cd", "OLDPWD not set")
                return 1
            print_dir = True
    if target == "":
        return 0
    candidates = [target]
    cdpath = sh.get_scalar("CDPATH")
    if cdpath and not target.startswith(("/", "./", "../")) and target not in (".", ".."):
        candidates = [normpath(target, d or ".") if d else target for d in cdpath.split(":")] + [target]
    for cand in candidates:
        path = normpath(cand, sh.cwd)
        try:
            stat = sh.fs.stat(path)
        except FSError as e:
            if cand is candidates[-1]:
                await err(sh, fds, "cd", f"{target}: {e.strerror}")
                return 1
            continue
        if stat.type != "dir":
            await err(sh, fds, "cd", f"{target}: Not a directory")
            return 1
        if not sh.fs.access(path, 1):
            await err(sh, fds, "cd", f"{target}: Permission denied")
            return 1
        if physical:
            path = sh.fs.realpath(path)
        old = sh.cwd
        sh.cwd = path
        sh.set_var("OLDPWD", old)
        sh.set_var("PWD", path)
        if print_dir or (cand is not candidates[-1] and cand != target):
            await out(fds, path + "\n")
        return 0
    return 1


@builtin("pwd", usage="pwd [-LP]", text="""
Print the name of the current working directory.
  -L  print the value of $PWD if it names the current working directory (default)
  -P  print the physical directory, without any symbolic links""")
async def b_pwd(sh, argv, fds):
    physical = False
    for a in argv[1:]:
        if a == "-P":
            physical = True
        elif a == "-L":
            physical = False
        elif a.startswith("-"):
            await err(sh, fds, "pwd", f"{a[:2]}: invalid option")
            await sh.err(fds, "pwd: usage: pwd [-LP]\n")
            return 2
    path = sh.cwd
    if physical:
        try:
            path = sh.fs.realpath(path)
        except FSError:
            pass
    return await write_or_fail(sh, fds, "pwd", path + "\n")


def _dirs_list(sh) -> list[str]:
    return [sh.cwd] + list(reversed(sh.dirstack))


def _tilde_path(sh, p: str) -> str:
    home = sh.get_scalar("HOME") or ""
    if home and (p == home or p.startswith(home + "/")):
        return "~" + p[len(home):]
    return p


@builtin("dirs", usage="dirs [-clpv]", text="""
Display the list of currently remembered directories (added with pushd).
  -c  clear the directory stack
  -l  do not abbreviate the home directory with ~
  -p  print one entry per line
  -v  print one entry per line, with its position""")
async def b_dirs(sh, argv, fds):
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    if "c" in flags:
        sh.dirstack.clear()
        return 0
    items = _dirs_list(sh)
    if "l" not in flags:
        items = [_tilde_path(sh, p) for p in items]
    if "v" in flags:
        await out(fds, "".join(f"{i:2d}  {p}\n" for i, p in enumerate(items)))
    elif "p" in flags:
        await out(fds, "".join(p + "\n" for p in items))
    else:
        await out(fds, " ".join(items) + "\n")
    return 0


@builtin("pushd", usage="pushd [dir | +N | -N]", text="Add DIR to the top of the directory stack and cd to it; without arguments, swap the top two.")
async def b_pushd(sh, argv, fds):
    args = [a for a in argv[1:] if a != "-n"]
    if not args:
        if not sh.dirstack:
            await err(sh, fds, "pushd", "no other directory")
            return 1
        target = sh.dirstack.pop()
        old = sh.cwd
        status = await b_cd(sh, ["cd", target], fds)
        if status:
            sh.dirstack.append(target)
            return status
        sh.dirstack.append(old)
    else:
        old = sh.cwd
        status = await b_cd(sh, ["cd", args[0]], fds)
        if status:
            return status
        sh.dirstack.append(old)
    return await b_dirs(sh, ["dirs"], fds)


@builtin("popd", usage="popd [+N | -N]", text="Remove the top entry from the directory stack and cd to the new top.")
async def b_popd(sh, argv, fds):
    if not sh.dirstack:
        await err(sh, fds, "popd", "directory stack empty")
        return 1
    target = sh.dirstack.pop()
    status = await b_cd(sh, ["cd", target], fds)
    if status:
        return status
    return await b_dirs(sh, ["dirs"], fds)


# ============================================================================ variables
def _quote_value(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`") + '"'


def declare_line(name: str, var: Var) -> str:
    flags = var.attr_flags() or "-"
    if flags != "-":
        flags = "-" + flags
    else:
        flags = "--"
    if var.value is None:
        return f"declare {flags} {name}"
    if isinstance(var.value, dict):
        if var.assoc:
            items = "".join(f"[{_assoc_key(k)}]={_quote_value(var.value[k])} " for k in ordered_keys(var))
            return f"declare {flags} {name}=({items})"
        items = " ".join(f"[{k}]={_quote_value(v)}" for k, v in sorted(var.value.items()))
        return f"declare {flags} {name}=({items})"
    return f"declare {flags} {name}={_quote_value(var.value)}"


def _assoc_key(k: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9_./-]+", k):
        return k
    return _quote_value(k)


async def _declare(sh, argv, fds, local: bool = False) -> int:
    name0 = argv[0]
    if local and not sh.scopes:
        await err(sh, fds, name0, "can only be used in a function")
        return 1
    flags_on: set[str] = set()
    flags_off: set[str] = set()
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if not isinstance(a, str):
            break
        if a == "--":
            i += 1
            break
        if len(a) > 1 and a[0] in "-+" and all(c in "aAfFgilnprtuxIS" for c in a[1:]):
            (flags_on if a[0] == "-" else flags_off).update(a[1:])
            i += 1
            continue
        if len(a) > 1 and a[0] in "-+":
            await err(sh, fds, name0, f"{a[:2]}: invalid option")
            await sh.err(fds, f"{name0}: usage: {name0} [-aAfFgiIlnrtux] [name[=value] ...] or {name0} -p [-aAfFilnrtux] [name ...]\n")
            return 2
        break
    operands = args[i:]
    if "f" in flags_on or "F" in flags_on:
        names = [o for o in operands if isinstance(o, str)] or sorted(sh.functions)
        status = 0
        for n in names:
            f = sh.functions.get(n)
            if f is None:
                status = 1
                continue
            if "F" in flags_on:
                await out(fds, f"{n}\n" if operands else f"declare -f {n}\n")
            else:
                await out(fds, format_function(f) + "\n")
        return status
    if "p" in flags_on or (not operands and not (flags_on - {"g"})):
        return await _declare_print(sh, fds, operands, flags_on)
    if not operands:
        # declare -x etc. without names: list variables with that attribute
        return await _declare_print(sh, fds, [], flags_on | {"p"})
    status = 0
    make_local = (local or (sh.scopes and "g" not in flags_on))
    for op in operands:
        try:
            if isinstance(op, Assign):
                await _declare_one(sh, op.name, op, flags_on, flags_off, make_local)
                continue
            m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)(\[[^\]]*\])?(\+?=)(.*)$", op, re.S)
            if m:
                name, idx, eq, value = m.group(1), m.group(2), m.group(3), m.group(4)
                await _declare_one(sh, name, (idx, eq == "+=", value), flags_on, flags_off, make_local)
            elif is_name(op):
                await _declare_one(sh, op, None, flags_on, flags_off, make_local)
            else:
                await err(sh, fds, name0, f"`{op}': not a valid identifier")
                status = 1
        except ShellError as e:
            await sh.report(fds, f"{name0}: {e.message}" if not e.message.startswith(name0) else e.message)
            status = 1
    return status


async def _declare_one(sh, name: str, value, on: set, off: set, make_local: bool) -> None:
    scope = sh.scopes[-1] if make_local and sh.scopes else sh.globals
    var = scope.get(name)
    if var is None:
        if not make_local:
            var = sh.lookup_var(name) if name not in sh.globals else sh.globals[name]
            if var is not None and sh.scopes and name not in sh.globals:
                scope = sh._find_scope(name)
        if var is None:
            var = Var(None)
            scope[name] = var
    if var.readonly and (value is not None or off - {"r"}):
        if value is not None:
            raise ShellError(f"{name}: readonly variable", 1)
    if "A" in on:
        if not var.assoc and isinstance(var.value, dict) and var.value:
            raise ShellError(f"{name}: cannot convert indexed to associative array", 1)
        var.assoc = True
        if not isinstance(var.value, dict):
            var.value = {} if var.value is None else {"0": var.value}
    if "a" in on and not var.assoc and not isinstance(var.value, dict):
        var.value = {} if var.value is None else {0: var.value}
    for flag, attr in (("i", "integer"), ("l", "lower"), ("u", "upper"), ("x", "exported"), ("n", "nameref")):
        if flag in on:
            setattr(var, attr, True)
            if flag == "l":
                var.upper = False
            if flag == "u":
                var.lower = False
        if flag in off:
            setattr(var, attr, False)
    if isinstance(value, Assign):
        if value.array is not None:
            if "A" not in on and not var.assoc and not isinstance(var.value, dict):
                var.value = {}
            await sh.assign(value)
        else:
            await sh.assign(value)
    elif isinstance(value, tuple):
        idx, append, text = value
        if idx:
            key = idx[1:-1]
            sh.set_element(name, key if var.assoc else sh.arith(key), text, append)
        elif isinstance(var.value, dict) and not append and text.startswith("(") and text.endswith(")"):
            # declare -a x='(1 2)' style: treat as a compound assignment
            from .syntax.parser import Parser
            p = Parser(f"{name}={text}")
            node = p.parse_program()
            cmd = node.items[0][0]
            for a in cmd.assigns:
                await sh.assign(a)
        else:
            sh.set_var(name, text, append)
    if "r" in on:
        var.readonly = True
    if var.value is not None and (var.lower or var.upper) and isinstance(var.value, str):
        var.value = var.value.lower() if var.lower else var.value.upper()


async def _declare_print(sh, fds, names: list, flags: set) -> int:
    status = 0
    if names:
        for n in names:
            n = n if isinstance(n, str) else n.name
            var = sh.lookup_raw(n) or sh.lookup_var(n)
            if var is None:
                await err(sh, fds, "declare", f"{n}: not found")
                status = 1
                continue
            await out(fds, declare_line(n, var) + "\n")
        return status
    filt = flags - {"p", "g"}
    lines = []
    for n, var in sorted(sh.all_vars().items()):
        if filt:
            attrs = var.attr_flags()
            if not all(f in attrs for f in filt):
                continue
        if "p" in flags or filt:
            lines.append(declare_line(n, var))
        elif var.value is not None:
            lines.append(_set_line(n, var))
    await out(fds, "".join(l + "\n" for l in lines))
    return status


def _set_line(name: str, var: Var) -> str:
    if isinstance(var.value, dict):
        if var.assoc:
            items = "".join(f"[{_assoc_key(k)}]={_quote_value(var.value[k])} " for k in ordered_keys(var))
        else:
            items = " ".join(f"[{k}]={_quote_value(v)}" for k, v in sorted(var.value.items()))
        return f"{name}=({items})"
    return f"{name}={shell_quote(var.value or '')}"


@builtin("declare", "typeset", usage="declare [-aAfFgiIlnrtux] [-p] [name[=value] ...]", text="""
Set variable values and attributes.
  -f  restrict action or display to function names and definitions
  -F  restrict display to function names only
  -g  create global variables when used in a shell function
  -p  display the attributes and value of each NAME
  -a  to make NAMEs indexed arrays
  -A  to make NAMEs associative arrays
  -i  to make NAMEs have the `integer' attribute
  -l  to convert the value of each NAME to lower case on assignment
  -n  make NAME a reference to the variable named by its value
  -r  to make NAMEs readonly
  -u  to convert the value of each NAME to upper case on assignment
  -x  to make NAMEs export
Using `+' instead of `-' turns off the given attribute. When used in a function, `declare'
makes NAMEs local, as with the `local' command.""")
async def b_declare(sh, argv, fds):
    return await _declare(sh, argv, fds)


@builtin("local", usage="local [option] name[=value] ...", text="""
Define local variables: create a local variable called NAME and give it VALUE. OPTION can be
any option accepted by `declare'. Local variables can only be used within a function; they are
visible only to the function where they are defined and its children.""")
async def b_local(sh, argv, fds):
    if len(argv) == 1 and sh.scopes:
        await out(fds, "".join(_set_line(n, v) + "\n" for n, v in sorted(sh.scopes[-1].items()) if v.value is not None))
        return 0
    return await _declare(sh, argv, fds, local=True)


@builtin("export", usage="export [-fn] [name[=value] ...] or export -p", text="""
Set export attribute for shell variables: mark each NAME for automatic export to the
environment of subsequently executed commands. If VALUE is supplied, assign VALUE first.
  -f  refer to shell functions
  -n  remove the export property from each NAME
  -p  display a list of all exported variables and functions""")
async def b_export(sh, argv, fds):
    args = argv[1:]
    unexport = False
    show = False
    while args and isinstance(args[0], str) and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c == "n":
                unexport = True
            elif c == "p":
                show = True
            elif c == "f":
                pass
            else:
                await err(sh, fds, "export", f"-{c}: invalid option")
                await sh.err(fds, "export: usage: export [-fn] [name[=value] ...] or export -p\n")
                return 2
        args = args[1:]
    if not args or show:
        lines = [declare_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.exported]
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    status = 0
    for a in args:
        if isinstance(a, Assign):
            await sh.assign(a)
            var = sh.lookup_var(a.name)
            if var is not None:
                var.exported = not unexport
            continue
        m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)(\+?=)(.*)$", a, re.S)
        if m:
            try:
                sh.set_var(m.group(1), m.group(3), append=m.group(2) == "+=")
            except ShellError as e:
                await sh.report(fds, f"export: {e.message}")
                status = 1
                continue
            var = sh.lookup_var(m.group(1))
            if var is not None:
                var.exported = not unexport
        elif is_name(a):
            var = sh.lookup_var(a)
            if var is None:
                var = Var(None)
                sh.globals[a] = var
            var.exported = not unexport
        else:
            await err(sh, fds, "export", f"`{a}': not a valid identifier")
            status = 1
    return status


@builtin("readonly", usage="readonly [-aAf] [name[=value] ...] or readonly -p", text="""
Mark shell variables as unchangeable. If VALUE is supplied, assign VALUE before marking.
  -a  refer to indexed array variables
  -A  refer to associative array variables
  -p  display a list of all readonly variables""")
async def b_readonly(sh, argv, fds):
    args = [a for a in argv[1:] if not (isinstance(a, str) and a in ("-a", "-A", "-f", "--"))]
    if not args or args == ["-p"]:
        lines = [declare_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.readonly]
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    flags = ["declare", "-r"] + (["-a"] if "-a" in argv else []) + (["-A"] if "-A" in argv else [])
    if sh.scopes:
        flags.append("-g")
    return await _declare(sh, flags + args, fds)


@builtin("unset", usage="unset [-f] [-v] [-n] [name ...]", text="""
Unset values and attributes of shell variables and functions.
  -f  treat each NAME as a shell function
  -v  treat each NAME as a shell variable
  -n  treat each NAME as a name reference and unset the variable itself
Without options, unset first tries to unset a variable, and if that fails, a function.""")
async def b_unset(sh, argv, fds):
    args = argv[1:]
    mode = None
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c in "fvn":
                mode = c if c != "n" else "v"
            else:
                await err(sh, fds, "unset", f"-{c}: invalid option")
                await sh.err(fds, "unset: usage: unset [-f] [-v] [-n] [name ...]\n")
                return 2
        args = args[1:]
    status = 0
    for name in args:
        if mode == "f":
            sh.functions.pop(name, None)
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z_0-9]*)\[(.*)\]", name, re.S)
        if m:
            var = sh.lookup_var(m.group(1))
            if var is not None and isinstance(var.value, dict):
                key = m.group(2)
                if key in ("@", "*"):
                    var.value = {}
                elif var.assoc:
                    var.value.pop(key, None)
                else:
                    idx = sh.arith(key)
                    if idx < 0 and var.value:
                        idx += max(var.value) + 1
                    var.value.pop(idx, None)
            elif var is not None and sh.arith(m.group(2)) == 0:
                sh.unset_var(m.group(1))
            continue
        if not is_name(name):
            await err(sh, fds, "unset", f"`{name}': not a valid identifier")
            status = 1
            continue
        var = sh.lookup_var(name)
        if var is None and mode is None and name in sh.functions:
            del sh.functions[name]
            continue
        try:
            sh.unset_var(name)
        except ShellError as e:
            await sh.report(fds, f"unset: {e.message}")
            status = 1
    return status


@builtin("shift", usage="shift [n]", text="Shift positional parameters: rename $N+1,$N+2 ... to $1,$2 ... (N defaults to 1).")
async def b_shift(sh, argv, fds):
    n = 1
    if len(argv) > 1:
        try:
            n = _bash_int(argv[1])
        except ValueError:
            await err(sh, fds, "shift", f"{argv[1]}: numeric argument required")
            return 1
        if n < 0:
            await err(sh, fds, "shift", f"{argv[1]}: shift count out of range")
            return 1
    if n > len(sh.positional):
        return 1
    sh.positional = sh.positional[n:]
    return 0


@builtin("let", usage="let arg [arg ...]", text="""
Evaluate arithmetic expressions: each ARG is an arithmetic expression to be evaluated.
Exit status: if the last ARG evaluates to 0, let returns 1; otherwise 0.""")
async def b_let(sh, argv, fds):
    if len(argv) < 2:
        await err(sh, fds, "let", "expression expected")
        return 1
    value = 0
    for a in argv[1:]:
        try:
            value = arith_evaluate(a, sh)
        except ArithError as e:
            await err(sh, fds, "let", e.message)
            return 1
    return 0 if value else 1


# ============================================================================ set / shopt
def _print_options(sh, plus: bool) -> str:
    from .eval.interp import OPTION_DEFAULTS
    lines = []
    for name in sorted(OPTION_DEFAULTS):
        on = sh.options.get(name, False)
        if plus:
            lines.append(f"set {'-' if on else '+'}o {name}")
        else:
            lines.append(f"{name:<15}\t{'on' if on else 'off'}")
    return "".join(l + "\n" for l in lines)


@builtin("set", usage="set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]", text="""
Set or unset values of shell options and positional parameters.
  -e  exit immediately if a command exits with a non-zero status
  -u  treat unset variables as an error when substituting
  -x  print commands and their arguments as they are executed
  -f  disable file name generation (globbing)
  -a  mark variables which are modified or created for export
  -C  do not overwrite existing files with >
  -o option-name  set the option: errexit nounset xtrace noglob pipefail noclobber allexport ...
  --  assign any remaining arguments to the positional parameters
Using + rather than - causes these flags to be turned off. Without arguments, set prints the
names and values of all shell variables.""")
async def b_set(sh, argv, fds):
    from .eval.interp import OPTION_DEFAULTS, OPTION_LETTERS
    args = argv[1:]
    if not args:
        lines = [_set_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.value is not None]
        text = "".join(l + "\n" for l in lines)
        for name in sorted(sh.functions):
            text += format_function(sh.functions[name]) + "\n"
        await out(fds, text)
        return 0
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            sh.positional = args[i + 1:]
            return 0
        if a == "-" or a == "+":
            sh.options["xtrace"] = sh.options["verbose"] = False if a == "-" else sh.options["xtrace"]
            if i + 1 < len(args) or a == "-":
                sh.positional = args[i + 1:]
                return 0
            i += 1
            continue
        if a[0] in "-+" and len(a) > 1:
            on = a[0] == "-"
            j = 1
            while j < len(a):
                c = a[j]
                if c == "o":
                    if i + 1 >= len(args):
                        await out(fds, _print_options(sh, not on))
                        return 0
                    i += 1
                    name = args[i]
                    if name not in OPTION_DEFAULTS:
                        await err(sh, fds, "set", f"{name}: invalid option name")
                        return 2
                    sh.options[name] = on
                    if name in ("emacs", "vi") and on:
                        sh.options["vi" if name == "emacs" else "emacs"] = False
                elif c in OPTION_LETTERS:
                    sh.options[OPTION_LETTERS[c]] = on
                elif c in "i":
                    pass
                else:
                    await err(sh, fds, "set", f"{a[0]}{c}: invalid option")
                    await sh.err(fds, "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n")
                    return 2
                j += 1
            i += 1
            continue
        sh.positional = args[i:]
        return 0
    return 0


@builtin("shopt", usage="shopt [-pqsu] [-o] [optname ...]", text="""
Set and unset shell options.
  -o  restrict OPTNAMEs to those defined for use with `set -o'
  -p  print each shell option with an indication of its status
  -q  suppress output
  -s  enable (set) each OPTNAME
  -u  disable (unset) each OPTNAME
Options include nullglob failglob dotglob globstar extglob nocaseglob nocasematch
expand_aliases lastpipe xpg_echo.""")
async def b_shopt(sh, argv, fds):
    args = argv[1:]
    mode = None
    quiet = print_form = use_set = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        for c in args[0][1:]:
            if c in "su":
                mode = c
            elif c == "q":
                quiet = True
            elif c == "p":
                print_form = True
            elif c == "o":
                use_set = True
            else:
                await err(sh, fds, "shopt", f"-{c}: invalid option")
                await sh.err(fds, "shopt: usage: shopt [-pqsu] [-o] [optname ...]\n")
                return 2
        args = args[1:]
    table = sh.options if use_set else sh.shopts
    status = 0
    if mode is not None and args:
        for name in args:
            if name not in table:
                await err(sh, fds, "shopt", f"{name}: invalid shell option name")
                status = 1
                continue
            table[name] = mode == "s"
        return status
    names = args or sorted(table)
    lines = []
    for name in names:
        if name not in table:
            await err(sh, fds, "shopt", f"{name}: invalid shell option name")
            status = 1
            continue
        on = table[name]
        if mode == "s" and not on or mode == "u" and on:
            continue
        if args and not on:
            status = 1
        if print_form:
            lines.append(f"{'set' if use_set else 'shopt'} {'-' if on else '+'}{'o' if use_set else ('s' if on else 'u')} {name}" if use_set else f"shopt -{'s' if on else 'u'} {name}")
        else:
            lines.append(f"{name:<20}\t{'on' if on else 'off'}")
    if not quiet:
        await out(fds, "".join(l + "\n" for l in lines))
    return status


# ============================================================================ evaluation
@builtin("eval", usage="eval [arg ...]", text="Execute arguments as a shell command: combine ARGs into a single string, use the result as input to the shell, and execute the resulting commands.")
async def b_eval(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    text = " ".join(args)
    if not text.strip():
        return 0
    from .syntax.parser import ParseError, Parser
    parser = Parser(text, sh.active_aliases, sh.lineno)
    status = 0
    sh.last_status = 0
    while True:
        try:
            node = parser.next_command()
        except ParseError as e:
            await sh.report(fds, e.message)
            return 2
        if node is None:
            return status
        status = await sh.run_list(node, fds)


@builtin("source", ".", usage="source filename [arguments]", text="""
Execute commands from a file in the current shell. Read and execute commands from FILENAME
in the current shell. The entries in $PATH are used to find the directory containing
FILENAME. If any ARGUMENTS are supplied, they become the positional parameters when
FILENAME is executed.""")
async def b_source(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        await err(sh, fds, argv[0], "filename argument required")
        await sh.err(fds, f"{argv[0]}: usage: {argv[0]} filename [arguments]\n")
        return 2
    name = args[0]
    path = None
    if "/" in name or sh.fs.is_file(name, sh.cwd):
        path = normpath(name, sh.cwd)
    else:
        for d in (sh.get_scalar("PATH") or "").split(":"):
            cand = normpath(name, normpath(d or ".", sh.cwd))
            if sh.fs.is_file(cand):
                path = cand
                break
        if path is None:
            path = normpath(name, sh.cwd)
    try:
        text = sh.fs.read_bytes(path).decode("utf-8", "surrogateescape")
    except FSError as e:
        await err(sh, fds, name, e.strerror)
        return 1
    if sh.source_depth + sh.func_depth >= sh.rt.limits.function_depth:
        from .state import LimitExceeded
        raise LimitExceeded(f"{name}: maximum source nesting level exceeded (limit function_depth)", "function_depth")
    saved_positional = sh.positional
    if len(args) > 1:
        sh.positional = args[1:]
    sh.source_depth += 1
    sh.sourcing = getattr(sh, "sourcing", 0) + 1
    sh.source_stack.append(name)
    try:
        try:
            status = await sh.run_source(text, fds)
        except ReturnFromFunction as r:
            status = r.status
        if sh.traps.get("RETURN") and not sh.in_trap:
            sh.last_status = status
            await sh.run_trap("RETURN")
        return status
    finally:
        sh.source_stack.pop()
        sh.sourcing -= 1
        sh.source_depth -= 1
        if len(args) > 1:
            sh.positional = saved_positional


@builtin("exit", usage="exit [n]", text="Exit the shell with a status of N. If N is omitted, the exit status is that of the last command executed.")
async def b_exit(sh, argv, fds):
    if len(argv) > 1:
        try:
            status = _bash_int(argv[1]) & 0xFF
        except ValueError:
            await err(sh, fds, "exit", f"{argv[1]}: numeric argument required")
            raise ExitShell(2)
        if len(argv) > 2:
            await err(sh, fds, "exit", "too many arguments")
            return 1
    else:
        status = sh.last_status
    raise ExitShell(status)


@builtin("return", usage="return [n]", text="Return from a shell function (or sourced script) with the return value N (default: the status of the last command).")
async def b_return(sh, argv, fds):
    if not sh.funcnames and not getattr(sh, "sourcing", 0):
        await err(sh, fds, "return", "can only `return' from a function or sourced script")
        return 2
    status = sh.last_status
    if len(argv) > 1:
        try:
            status = _bash_int(argv[1]) & 0xFF
        except ValueError:
            await err(sh, fds, "return", f"{argv[1]}: numeric argument required")
            status = 2
    raise ReturnFromFunction(status)


async def _loop_control(sh, argv, fds, cls):
    if sh.loop_depth == 0:  # bash looks at the loop before the argument
        await err(sh, fds, argv[0], "only meaningful in a `for', `while', or `until' loop")
        return 0
    n = 1
    if len(argv) > 1:
        try:
            n = _bash_int(argv[1])
        except ValueError:
            await err(sh, fds, argv[0], f"{argv[1]}: numeric argument required")
            raise ExitShell(128) if not sh.interactive else ShellError("", 128)
        if n < 1:
            await err(sh, fds, argv[0], f"{argv[1]}: loop count out of range")
            return 1
    raise cls(min(n, sh.loop_depth))


@builtin("break", usage="break [n]", text="Exit for, while, or until loops. If N is specified, break N enclosing loops.")
async def b_break(sh, argv, fds):
    return await _loop_control(sh, argv, fds, BreakLoop)


@builtin("continue", usage="continue [n]", text="Resume the next iteration of the enclosing for, while or until loop (the Nth enclosing loop if N is given).")
async def b_continue(sh, argv, fds):
    return await _loop_control(sh, argv, fds, ContinueLoop)


# ============================================================================ test
def unary_test(sh, op: str, operand: str, fds: dict) -> bool:
    fs = sh.fs
    cwd = sh.cwd
    if op == "-z":
        return operand == ""
    if op == "-n":
        return operand != ""
    if op == "-v":
        m = re.fullmatch(r"([A-Za-z_][A-Za-z_0-9]*)\[(.*)\]", operand)
        if m:
            var = sh.lookup_var(m.group(1))
            if var is None or not isinstance(var.value, dict):
                return var is not None and var.value is not None and m.group(2) in ("0", "@", "*")
            key = m.group(2)
            if key in ("@", "*"):
                return bool(var.value)
            return (key if var.assoc else sh.arith(key)) in var.value
        var = sh.lookup_var(operand)
        if var is None:
            return isdigits(operand) and 0 < int(operand) <= len(sh.positional)
        return var.value is not None and (not isinstance(var.value, dict) or bool(var.value) and (0 in var.value or var.assoc))
    if op == "-o":
        return bool(sh.options.get(operand))
    if op == "-R":
        var = sh.lookup_var(operand)
        return var is not None and var.nameref
    if op == "-t":
        return False
    if operand.startswith("/dev/fd/") or operand in ("/dev/stdin", "/dev/stdout", "/dev/stderr"):
        return op in ("-e", "-c", "-r", "-w")
    follow = op not in ("-L", "-h")
    try:
        stat = fs.stat(operand, cwd) if follow else fs.lstat(operand, cwd)
    except (FSError, OSError):
        return False
    mode = stat.st_mode
    if op in ("-e", "-a"):
        return True
    if op == "-f":
        return st.S_ISREG(mode)
    if op == "-d":
        return st.S_ISDIR(mode)
    if op in ("-L", "-h"):
        return st.S_ISLNK(mode)
    if op == "-s":
        return stat.st_size > 0
    if op == "-r":
        return fs.access(operand, 4, cwd)
    if op == "-w":
        return fs.access(operand, 2, cwd)
    if op == "-x":
        return fs.access(operand, 1, cwd)
    if op == "-c":
        return st.S_ISCHR(mode)
    if op == "-b":
        return st.S_ISBLK(mode)
    if op == "-p":
        return st.S_ISFIFO(mode)
    if op == "-S":
        return st.S_ISSOCK(mode)
    if op == "-g":
        return bool(mode & st.S_ISGID)
    if op == "-u":
        return bool(mode & st.S_ISUID)
    if op == "-k":
        return bool(mode & st.S_ISVTX)
    if op == "-O":
        return stat.st_uid == 1000
    if op == "-G":
        return stat.st_gid == 1000
    if op == "-N":
        return stat.st_mtime > stat.st_atime
    return False


def binary_test(sh, op: str, left: str, right: str) -> bool:
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op == "<":
        return left < right
    if op == ">":
        return left > right
    fs = sh.fs
    if op in ("-nt", "-ot"):
        try:
            a = fs.stat(left, sh.cwd).st_mtime
        except OSError:
            a = None
        try:
            b = fs.stat(right, sh.cwd).st_mtime
        except OSError:
            b = None
        if op == "-nt":
            return a is not None and (b is None or a > b)
        return b is not None and (a is None or a < b)
    if op == "-ef":
        try:
            return fs.stat(left, sh.cwd).st_ino == fs.stat(right, sh.cwd).st_ino
        except OSError:
            return False
    raise ShellError(f"{op}: binary operator expected", 2)


_UNARY_OPS = frozenset({"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-n", "-o", "-p", "-r", "-s",
                        "-t", "-u", "-v", "-w", "-x", "-z", "-G", "-L", "-N", "-O", "-R", "-S"})
_BINARY_OPS = frozenset({"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"})


class _TestError(Exception):
    pass


def _test_int(s: str) -> int:
    t = s.strip()
    if not re.fullmatch(r"[-+]?[0-9]+", t):
        raise _TestError(f"{s}: integer expression expected")
    return int(t)


class _TestParser:
    def __init__(self, sh, args: list[str], fds) -> None:
        self.sh = sh
        self.args = args
        self.pos = 0
        self.fds = fds

    def peek(self, k: int = 0):
        j = self.pos + k
        return self.args[j] if j < len(self.args) else None

    def parse(self) -> bool:
        n = len(self.args)
        if n == 0:
            return False
        result = self.expr_by_count(n)
        if self.pos < n:
            raise _TestError(f"{self.args[self.pos]}: unexpected argument" if n > 4 else "too many arguments")
        return result

    def expr_by_count(self, n: int) -> bool:
        a = self.args
        # POSIX rules for small argument counts
        if n == 1:
            self.pos = 1
            return a[0] != ""
        if n == 2:
            if a[0] == "!":
                self.pos = 2
                return a[1] == ""
            if a[0] in _UNARY_OPS:
                self.pos = 2
                return self.unary(a[0], a[1])
            raise _TestError(f"{a[0]}: unary operator expected")
        if n == 3:
            if a[1] in _BINARY_OPS:
                self.pos = 3
                return self.binary(a[1], a[0], a[2])
            if a[1] in ("-a", "-o"):
                self.pos = 3
                return (a[0] != "" and a[2] != "") if a[1] == "-a" else (a[0] != "" or a[2] != "")
            if a[0] == "!":
                self.pos = 1
                sub = _TestParser(self.sh, a[1:], self.fds)
                r = sub.parse()
                self.pos = 3
                return not r
            if a[0] == "(" and a[2] == ")":
                self.pos = 3
                return a[1] != ""
            raise _TestError(f"{a[1]}: binary operator expected")
        if n == 4:
            if a[0] == "!":
                sub = _TestParser(self.sh, a[1:], self.fds)
                r = sub.parse()
                self.pos = 4
                return not r
            if a[0] == "(" and a[3] == ")":
                sub = _TestParser(self.sh, a[1:3], self.fds)
                r = sub.parse()
                self.pos = 4
                return r
        return self.or_expr()

    def or_expr(self) -> bool:
        left = self.and_expr()
        while self.peek() == "-o":
            self.pos += 1
            right = self.and_expr()
            left = left or right
        return left

    def and_expr(self) -> bool:
        left = self.not_expr()
        while self.peek() == "-a":
            self.pos += 1
            right = self.not_expr()
            left = left and right
        return left

    def not_expr(self) -> bool:
        if self.peek() == "!":
            self.pos += 1
            return not self.not_expr()
        return self.primary()

    def primary(self) -> bool:
        tok = self.peek()
        if tok is None:
            raise _TestError("argument expected")
        if tok == "(":
            self.pos += 1
            r = self.or_expr()
            if self.peek() != ")":
                raise _TestError("`)' expected")
            self.pos += 1
            return r
        nxt = self.peek(1)
        if nxt is not None and nxt in _BINARY_OPS and self.peek(2) is not None:
            self.pos += 3
            return self.binary(nxt, tok, self.args[self.pos - 1])
        if tok in _UNARY_OPS and nxt is not None:
            self.pos += 2
            return self.unary(tok, nxt)
        self.pos += 1
        return tok != ""

    def unary(self, op: str, operand: str) -> bool:
        if op == "-a":
            op = "-e"
        return unary_test(self.sh, op, operand, self.fds)

    def binary(self, op: str, left: str, right: str) -> bool:
        if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            a, b = _test_int(left), _test_int(right)
            return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]
        return binary_test(self.sh, op, left, right)


async def _run_test(sh, name: str, args: list[str], fds) -> int:
    try:
        return 0 if _TestParser(sh, args, fds).parse() else 1
    except _TestError as e:
        await err(sh, fds, name, str(e))
        return 2
    except ShellError as e:
        await err(sh, fds, name, e.message)
        return 2


@builtin("test", usage="test [expr]", text="""
Evaluate conditional expression. Exits with a status of 0 (true) or 1 (false) depending on
the evaluation of EXPR. File operators: -e -f -d -s -r -w -x -L -h -b -c -p -S -nt -ot -ef.
String operators: -z -n = != < >. Integer comparisons: -eq -ne -lt -le -gt -ge.
Other: -v VAR (variable is set), -o OPTION, ! EXPR, EXPR -a EXPR, EXPR -o EXPR, ( EXPR ).""")
async def b_test(sh, argv, fds):
    return await _run_test(sh, "test", argv[1:], fds)


@builtin("[", usage="[ arg... ]", text="Evaluate conditional expression. This is a synonym for the \"test\" builtin, but the last argument must be a literal `]', to match the opening `['.")
async def b_bracket(sh, argv, fds):
    if argv[-1] != "]":
        await err(sh, fds, "[", "missing `]'")
        return 2
    return await _run_test(sh, "[", argv[1:-1], fds)


# ============================================================================ command lookup
def _find_in_path(sh, name: str) -> str | None:
    if "/" in name:
        return name if sh.fs.exists(name, sh.cwd) else None
    path = sh.get_scalar("PATH") or ""
    for d in path.split(":"):
        cand = normpath(name, normpath(d or ".", sh.cwd))
        try:
            stat = sh.fs.stat(cand)
        except OSError:
            continue
        if stat.type == "file" and sh.fs.access(cand, 1):
            return cand
    if registry.lookup(name) is not None:
        return f"/usr/bin/{name}"
    return None


def describe_command(sh, name: str) -> list[tuple[str, str]]:
    """Every meaning of NAME in lookup order: (kind, text)."""
    found = []
    if name in sh.aliases and sh.shopts["expand_aliases"]:
        found.append(("alias", f"{name} is aliased to `{sh.aliases[name]}'"))
    if name in RESERVED:
        found.append(("keyword", f"{name} is a shell keyword"))
    if name in sh.functions:
        found.append(("function", f"{name} is a function\n{format_function(sh.functions[name])}"))
    if name in BUILTINS and name not in ("bash", "sh"):
        found.append(("builtin", f"{name} is a shell builtin"))
    path = _find_in_path(sh, name)
    if path is not None:
        found.append(("file", f"{name} is {path}"))
    return found


@builtin("type", usage="type [-afptP] name [name ...]", text="""
Display information about command type: for each NAME, indicate how it would be interpreted
if used as a command name.
  -a  display all locations containing an executable named NAME
  -f  suppress shell function lookup
  -P  force a PATH search for each NAME
  -p  return the name of the disk file that would be executed
  -t  output a single word: `alias', `keyword', `function', `builtin', `file' or `'""")
async def b_type(sh, argv, fds):
    args = argv[1:]
    flags = ""
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        flags += args[0][1:]
        args = args[1:]
    status = 0
    lines = []
    for name in args:
        found = describe_command(sh, name)
        if "f" in flags:
            found = [f for f in found if f[0] != "function"]
        if "P" in flags:
            found = [f for f in found if f[0] == "file"]
        if not found:
            if "t" not in flags and "p" not in flags and "P" not in flags:
                await err(sh, fds, "type", f"{name}: not found")
            status = 1
            continue
        if "a" not in flags:
            found = found[:1]
        for kind, text in found:
            if "t" in flags:
                lines.append(kind)
            elif "p" in flags or "P" in flags:
                if kind == "file":
                    lines.append(text.split(" is ", 1)[1])
            else:
                lines.append(text)
    await out(fds, "".join(l + "\n" for l in lines))
    return status


@builtin("command", usage="command [-pVv] command [arg ...]", text="""
Execute a simple command or display information about commands: runs COMMAND with ARGS
suppressing shell function lookup.
  -p  use a default value for PATH
  -v  print a description of COMMAND similar to the `type' builtin
  -V  print a more verbose description of each COMMAND""")
async def b_command(sh, argv, fds):
    args = argv[1:]
    verbose = describe = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c == "v":
                describe = True
            elif c == "V":
                verbose = True
            elif c == "p":
                pass
            else:
                await err(sh, fds, "command", f"-{c}: invalid option")
                return 2
        args = args[1:]
    if not args:
        return 0
    if describe or verbose:
        status = 0
        for name in args:
            found = describe_command(sh, name)
            if not found:
                if verbose:
                    await err(sh, fds, "command", f"{name}: not found")
                status = 1
                continue
            kind, text = found[0]
            if verbose:
                await out(fds, text + "\n")
            elif kind == "file":
                await out(fds, text.split(" is ", 1)[1] + "\n")
            elif kind == "alias":
                await out(fds, f"alias {name}='{sh.aliases[name]}'\n")
            else:
                await out(fds, name + "\n")
        return status
    return await sh.run_command(args, fds, allow_functions=False)


@builtin("builtin", usage="builtin [shell-builtin [arg ...]]", text="Execute a shell builtin with ARGs, without performing command lookup (useful inside a function of the same name).")
async def b_builtin(sh, argv, fds):
    if len(argv) < 2:
        return 0
    fn = BUILTINS.get(argv[1])
    if fn is None:
        await err(sh, fds, "builtin", f"{argv[1]}: not a shell builtin")
        return 1
    return await fn(sh, argv[1:], fds)


@builtin("hash", usage="hash [-lr] [-p pathname] [-dt] [name ...]", text="Remember or display program locations. With -r, forget all remembered locations.")
async def b_hash(sh, argv, fds):
    args = argv[1:]
    if "-r" in args:
        sh.hash_table.clear()
        return 0
    names = [a for a in args if not a.startswith("-")]
    if not names:
        if not sh.hash_table:
            await out(fds, "hash: hash table empty\n")
            return 0
        await out(fds, "hits\tcommand\n" + "".join(f"   1\t{p}\n" for p in sh.hash_table.values()))
        return 0
    status = 0
    for n in names:
        path = _find_in_path(sh, n)
        if path is None:
            await err(sh, fds, "hash", f"{n}: not found")
            status = 1
        else:
            sh.hash_table[n] = path
    return status


@builtin("alias", usage="alias [-p] [name[=value] ... ]", text="""
Define or display aliases. Without arguments, `alias' prints the list of aliases in the
reusable form `alias NAME=VALUE'. Otherwise, an alias is defined for each NAME whose VALUE is
given. Aliases are expanded in interactive cells (and after `shopt -s expand_aliases').""")
async def b_alias(sh, argv, fds):
    args = [a for a in argv[1:] if a != "-p"]
    if not args:
        await out(fds, "".join(f"alias {k}={shell_quote_alias(v)}\n" for k, v in sorted(sh.aliases.items())))
        return 0
    status = 0
    for a in args:
        if "=" in a:
            name, _, value = a.partition("=")
            sh.aliases[name] = value
        elif a in sh.aliases:
            await out(fds, f"alias {a}={shell_quote_alias(sh.aliases[a])}\n")
        else:
            await err(sh, fds, "alias", f"{a}: not found")
            status = 1
    return status


def shell_quote_alias(v: str) -> str:
    return "'" + v.replace("'", "'\\''") + "'"


@builtin("unalias", usage="unalias [-a] name [name ...]", text="Remove each NAME from the list of defined aliases. -a removes all alias definitions.")
async def b_unalias(sh, argv, fds):
    args = argv[1:]
    if not args:
        await sh.err(fds, "unalias: usage: unalias [-a] name [name ...]\n")
        return 2
    if "-a" in args:
        sh.aliases.clear()
        return 0
    status = 0
    for a in args:
        if a in sh.aliases:
            del sh.aliases[a]
        else:
            await err(sh, fds, "unalias", f"{a}: not found")
            status = 1
    return status


# ============================================================================ getopts
@builtin("getopts", usage="getopts optstring name [arg ...]", text="""
Parse option arguments. OPTSTRING contains the option letters to be recognized; a letter
followed by a colon expects an argument (put in OPTARG). Each call puts the next option in
the shell variable NAME and its index in OPTIND. A leading colon in OPTSTRING selects silent
error reporting. Returns non-zero at the end of the options.""")
async def b_getopts(sh, argv, fds):
    if len(argv) < 3:
        await sh.err(fds, "getopts: usage: getopts optstring name [arg ...]\n")
        return 2
    optstring, name = argv[1], argv[2]
    args = argv[3:] if len(argv) > 3 else list(sh.positional)
    silent = optstring.startswith(":")
    if silent:
        optstring = optstring[1:]
    try:
        optind = int(sh.get_scalar("OPTIND") or "1")
    except ValueError:
        optind = 1
    last_ind, charpos = sh.getopts_state
    if last_ind != optind or charpos == 0:
        charpos = 1
    if optind < 1:
        optind = 1
    if optind > len(args):
        sh.set_var(name, "?")
        sh.getopts_state = (0, 0)
        return 1
    arg = args[optind - 1]
    if charpos == 1:
        if arg == "--":
            sh.set_var("OPTIND", str(optind + 1))
            sh.set_var(name, "?")
            sh.getopts_state = (0, 0)
            return 1
        if not arg.startswith("-") or arg == "-":
            sh.set_var(name, "?")
            sh.getopts_state = (0, 0)
            return 1
    opt = arg[charpos]
    charpos += 1
    at_end = charpos >= len(arg)
    idx = optstring.find(opt) if opt != ":" else -1
    if idx < 0:
        if silent:
            sh.set_var("OPTARG", opt)
        else:
            await sh.report(fds, f"illegal option -- {opt}")
            sh.unset_var("OPTARG")
        sh.set_var(name, "?")
        if at_end:
            optind += 1
            charpos = 0
        sh.set_var("OPTIND", str(optind))
        sh.getopts_state = (optind, charpos)
        return 0
    if idx + 1 < len(optstring) and optstring[idx + 1] == ":":
        if not at_end:
            sh.set_var("OPTARG", arg[charpos:])
            optind += 1
        elif optind < len(args):
            sh.set_var("OPTARG", args[optind])
            optind += 2
        else:
            optind += 1
            sh.set_var("OPTIND", str(optind))
            sh.getopts_state = (optind, 0)
            if silent:
                sh.set_var(name, ":")
                sh.set_var("OPTARG", opt)
            else:
                await sh.report(fds, f"option requires an argument -- {opt}")
                sh.set_var(name, "?")
                sh.unset_var("OPTARG")
            return 0
        charpos = 0
    else:
        sh.unset_var("OPTARG")
        if at_end:
            optind += 1
            charpos = 0
    sh.set_var(name, opt)
    sh.set_var("OPTIND", str(optind))
    sh.getopts_state = (optind, charpos)
    return 0


# ============================================================================ jobs
@builtin("wait", usage="wait [-n] [id ...]", text="""
Wait for job completion and return exit status. Waits for each process identified by an ID
(a process ID or a job specification %N) and reports its termination status. Without IDs,
waits for all currently active child processes, and the return status is zero. With -n,
waits for the next job to terminate.""")
async def b_wait(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "-n":
        pending = list(sh.rt.job_order)
        if not pending:
            return 127
        tasks = [sh.rt.jobs[p] for p in pending if p in sh.rt.jobs]
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for pid in pending:
            if sh.rt.jobs.get(pid) in done:
                return await sh.wait_job(pid)
        return 0
    if not args:
        await sh.wait_all_jobs()
        return 0
    status = 0
    for a in args:
        pid = _job_pid(sh, a)
        if pid is None:
            await err(sh, fds, "wait", f"{a}: not a pid or valid job spec" if not a.startswith("%") else f"{a}: no such job")
            status = 127
            continue
        if pid not in sh.rt.jobs:
            await err(sh, fds, "wait", f"pid {pid} is not a child of this shell")
            status = 127
            continue
        status = await sh.wait_job(pid)
    return status


def _job_pid(sh, spec: str) -> int | None:
    if spec.startswith("%"):
        rest = spec[1:]
        order = sh.rt.job_order
        if rest in ("", "%", "+"):
            return order[-1] if order else None
        if rest == "-":
            return order[-2] if len(order) > 1 else None
        if isdigits(rest):
            k = int(rest)
            return order[k - 1] if 0 < k <= len(order) else None
        return None
    if isdigits(spec):
        return int(spec)
    return None


@builtin("jobs", usage="jobs [-lnprs] [jobspec ...]", text="Display status of jobs started with `&' in this shell.\n  -l  also list process IDs\n  -p  list process IDs only")
async def b_jobs(sh, argv, fds):
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    lines = []
    order = sh.rt.job_order
    for k, pid in enumerate(order, 1):
        task = sh.rt.jobs.get(pid)
        state = "Done" if task is None or task.done() else "Running"
        mark = "+" if k == len(order) else "-" if k == len(order) - 1 else " "
        if "p" in flags:
            lines.append(str(pid))
        elif "l" in flags:
            lines.append(f"[{k}]{mark} {pid} {state:<24}job")
        else:
            lines.append(f"[{k}]{mark}  {state:<24}job")
    await out(fds, "".join(l + "\n" for l in lines))
    return 0


_SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "PIPE": 13,
            "ALRM": 14, "TERM": 15, "CHLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20}


@builtin("kill", usage="kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]", text="Send a signal to a job. Background jobs of this shell can be terminated (they run as tasks inside the sandbox).")
async def b_kill(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "-l":
        await out(fds, " ".join(f"{n}) SIG{s}" for s, n in sorted(_SIGNALS.items(), key=lambda x: x[1])) + "\n")
        return 0
    signum = 15
    if args and args[0].startswith("-") and args[0] != "--":
        spec = args[0][1:]
        if spec in ("s", "n") and len(args) > 1:
            spec = args[1]
            args = args[1:]
        spec = spec.upper().removeprefix("SIG")
        signum = int(spec) if isdigits(spec) else _SIGNALS.get(spec, -1)
        if signum < 0:
            await err(sh, fds, "kill", f"{args[0][1:]}: invalid signal specification")
            return 1
        args = args[1:]
    if not args:
        await sh.err(fds, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
        return 2
    status = 0
    for a in args:
        pid = _job_pid(sh, a)
        task = sh.rt.jobs.get(pid) if pid is not None else None
        if task is None:
            if pid == sh.pid or a == "$$":
                continue
            await err(sh, fds, "kill", f"({a}) - No such process" if pid is not None else f"{a}: arguments must be process or job IDs")
            status = 1
            continue
        if signum != 0:
            task.cancel()
            sh.rt.job_status[pid] = 128 + signum
    return status


@builtin("disown", usage="disown [-h] [-ar] [jobspec ...]", text="Remove jobs from the job table.")
async def b_disown(sh, argv, fds):
    for pid in list(sh.rt.job_order):
        sh.rt.job_order.remove(pid)
    return 0


# ============================================================================ traps / misc
_TRAP_NAMES = {"0": "EXIT", "1": "HUP", "2": "INT", "3": "QUIT", "9": "KILL", "13": "PIPE", "14": "ALRM", "15": "TERM"}


def _trap_name(spec: str) -> str | None:
    s = spec.upper()
    if s in _TRAP_NAMES:
        return _TRAP_NAMES[s]
    s = s.removeprefix("SIG")
    if s in ("EXIT", "ERR", "DEBUG", "RETURN") or s in _SIGNALS:
        return s
    return None


@builtin("trap", usage="trap [-lp] [[arg] signal_spec ...]", text="""
Trap signals and other events: ARG is a command to be read and executed when the shell
receives the signal(s) SIGNAL_SPEC. If ARG is absent (and a single SIGNAL_SPEC is supplied)
or `-', each specified signal is reset to its original value. If ARG is the null string each
SIGNAL_SPEC is ignored. EXIT (0) runs when the shell exits, ERR when a command fails, INT on
an interrupt (the kernel's interrupt button).
  -l  print a list of signal names
  -p  display the trap commands associated with each SIGNAL_SPEC""")
async def b_trap(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args or args[0] == "-p":
        names = args[1:] if args else []
        lines = []
        for name, action in sh.traps.items():
            if names and name not in [_trap_name(n) for n in names]:
                continue
            lines.append(f"trap -- {shell_quote_alias(action)} {name}")
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    if args[0] == "-l":
        await out(fds, " ".join(f"{n}) SIG{s}" for s, n in sorted(_SIGNALS.items(), key=lambda x: x[1])) + "\n")
        return 0
    if len(args) == 1 or args[0] == "-" or (isdigits(args[0]) and _trap_name(args[0])):
        specs = args[1:] if args[0] == "-" else args
        for spec in specs:
            name = _trap_name(spec)
            if name is None:
                await err(sh, fds, "trap", f"{spec}: invalid signal specification")
                return 1
            sh.traps.pop(name, None)
        return 0
    action = args[0]
    status = 0
    for spec in args[1:]:
        name = _trap_name(spec)
        if name is None:
            await err(sh, fds, "trap", f"{spec}: invalid signal specification")
            status = 1
            continue
        sh.traps[name] = action
    return status


@builtin("umask", usage="umask [-p] [-S] [mode]", text="Display or set file mode mask.\n  -S  makes the output symbolic\n  -p  output in a form that may be reused as input")
async def b_umask(sh, argv, fds):
    args = argv[1:]
    symbolic = "-S" in args
    reuse = "-p" in args
    args = [a for a in args if a not in ("-S", "-p")]
    if not args:
        if symbolic:
            perms = []
            for who, shift in (("u", 6), ("g", 3), ("o", 0)):
                bits = (~sh.umask >> shift) & 7
                perms.append(who + "=" + ("r" if bits & 4 else "") + ("w" if bits & 2 else "") + ("x" if bits & 1 else ""))
            await out(fds, ("umask -S " if reuse else "") + ",".join(perms) + "\n")
        else:
            await out(fds, ("umask " if reuse else "") + f"{sh.umask:04o}\n")
        return 0
    mode = args[0]
    if re.fullmatch(r"[0-7]{1,4}", mode):
        sh.umask = int(mode, 8)
        return 0
    m = re.fullmatch(r"((?:[ugoa]*[=+-][rwx]*,?)+)", mode)
    if not m:
        await err(sh, fds, "umask", f"{mode}: invalid symbolic mode operator")
        return 1
    allowed = ~sh.umask & 0o777
    for clause in mode.split(","):
        cm = re.fullmatch(r"([ugoa]*)([=+-])([rwx]*)", clause)
        if not cm:
            continue
        who = cm.group(1) or "a"
        bits = (4 if "r" in cm.group(3) else 0) | (2 if "w" in cm.group(3) else 0) | (1 if "x" in cm.group(3) else 0)
        for w, shift in (("u", 6), ("g", 3), ("o", 0)):
            if w in who or "a" in who:
                if cm.group(2) == "=":
                    allowed = (allowed & ~(7 << shift)) | (bits << shift)
                elif cm.group(2) == "+":
                    allowed |= bits << shift
                else:
                    allowed &= ~(bits << shift)
    sh.umask = ~allowed & 0o777
    return 0


@builtin("times", usage="times", text="Display process times: the accumulated user and system times for the shell and for its children.")
async def b_times(sh, argv, fds):
    elapsed = time.monotonic() - sh.rt.start_time
    m, s = divmod(elapsed, 60)
    await out(fds, f"{int(m)}m{s:.3f}s 0m0.000s\n0m0.000s 0m0.000s\n")
    return 0


@builtin("exec", usage="exec [-cl] [-a name] [command [argument ...]] [redirection ...]", text="""
Replace the shell with the given command: execute COMMAND, then end the shell with its
status. If COMMAND is not specified, any redirections take effect in the current shell.""")
async def b_exec(sh, argv, fds):
    args = argv[1:]
    while args and args[0] in ("-c", "-l"):
        args = args[1:]
    if args and args[0] == "-a" and len(args) > 1:
        args = args[2:]
    if not args:
        return 0
    status = await sh.run_command(args, fds, allow_functions=False)
    raise ExitShell(status)


@builtin("help", usage="help [-s] [pattern ...]", text="Display information about builtin commands. If PATTERN is specified, gives detailed help on all commands matching PATTERN, otherwise the list of help topics is printed.\n  -s  output only a short usage synopsis for each topic matching PATTERN")
async def b_help(sh, argv, fds):
    args = argv[1:]
    short = False
    if args and args[0] == "-s":
        short = True
        args = args[1:]
    if not args:
        names = sorted(HELP)
        text = ("sandbox shell, a bash-compatible shell over the sandbox's filesystem.\n"
                "These shell commands are defined internally. Type `help name' to find out more about\n"
                "the function `name'. Other commands (ls, cat, grep, ...) accept --help.\n\n")
        text += "".join(f" {HELP[n][0]}\n" for n in names)
        await out(fds, text)
        return 0
    status = 0
    for a in args:
        matches = [n for n in sorted(HELP) if pat.match(a, n)] if pat.has_glob(a) else ([a] if a in HELP else [])
        if not matches:
            spec = registry.lookup(a)
            if spec is not None and spec.help:
                await out(fds, spec.help + "\n")
                continue
            await err(sh, fds, "help", f"no help topics match `{a}'.  Try `help help' or `man -k {a}' or `info {a}'.")
            status = 1
            continue
        for n in matches:
            if short:
                await out(fds, f"{n}: {HELP[n][0]}\n")
            else:
                await out(fds, help_text(n) + "\n")
    return status


@builtin("caller", usage="caller [expr]", text="Return the context of the current subroutine call.")
async def b_caller(sh, argv, fds):
    if not sh.funcnames:
        return 1
    caller = sh.funcnames[-2] if len(sh.funcnames) > 1 else "main"
    await out(fds, f"{sh.lineno} {caller}\n")
    return 0


@builtin("enable", usage="enable [-a] [-dnps] [-f filename] [name ...]", text="Enable and disable shell builtins (listing only in the sandbox).")
async def b_enable(sh, argv, fds):
    await out(fds, "".join(f"enable {n}\n" for n in sorted(BUILTINS)))
    return 0


@builtin("bash", "sh", usage="bash [-ceux] [-o option] [-c command_string [name [args ...]] | file [args ...]]", text="""
Run a nested shell in the sandbox: with -c, run COMMAND_STRING (NAME becomes $0 and ARGS the
positional parameters); with FILE, run the script FILE from the sandbox's filesystem;
otherwise read the script from the standard input.""")
async def b_bash(sh, argv, fds):
    args = argv[1:]
    command = None
    options: dict = {}
    from .eval.interp import OPTION_LETTERS
    while args and args[0].startswith(("-", "+")) and len(args[0]) > 1:
        a = args[0]
        if a == "--":
            args = args[1:]
            break
        if a in ("--norc", "--noprofile", "--posix", "--login", "-l", "-i", "-s"):
            args = args[1:]
            continue
        if a == "--help":
            await out(fds, help_text("bash") + "\n")
            return 0
        if a == "--version":
            await out(fds, "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu) [sandbox_kernel]\n")
            return 0
        on = a[0] == "-"
        args = args[1:]
        for c in a[1:]:
            if c == "c":
                command = True
            elif c == "o":
                if args:
                    options[args[0]] = on
                    args = args[1:]
            elif c in OPTION_LETTERS:
                options[OPTION_LETTERS[c]] = on
            elif c in "ils":
                pass
            else:
                await sh.err(fds, f"{argv[0]}: -{c}: invalid option\n")
                return 2
    if command:
        if not args:
            await sh.err(fds, f"{argv[0]}: -c: option requires an argument\n")
            return 2
        text = args[0]
        name = args[1] if len(args) > 1 else argv[0]
        sh._script_is_command_string = True
        try:
            return await sh.run_script_file(text, name, args[2:], fds, options=options)
        finally:
            sh._script_is_command_string = False
    if args:
        path = args[0]
        try:
            text = sh.fs.read_bytes(path, sh.cwd).decode("utf-8", "surrogateescape")
        except FSError as e:
            await sh.err(fds, f"{argv[0]}: {path}: {e.strerror}\n")
            return 127
        return await sh.run_script_file(text, path, args[1:], fds, options=options)
    stream = fds.get(0)
    data = await _race_cancel(sh, stream.read()) if isinstance(stream, InputStream) else b""
    return await sh.run_script_file(data.decode("utf-8", "surrogateescape"), argv[0], [], fds, options=options)


@builtin("compgen", usage="compgen [-abcdefgjksuv] [-W wordlist] [word]", text="Display possible completions of WORD (commands -c, builtins -b, functions -A function, variables -v, aliases -a, files -f, directories -d, keywords -k, words from -W WORDLIST).")
async def b_compgen(sh, argv, fds):
    args = argv[1:]
    kinds = set()
    wordlist = None
    prefix = ""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-W" and i + 1 < len(args):
            wordlist = args[i + 1].split()
            i += 2
            continue
        if a == "-A" and i + 1 < len(args):
            kinds.add({"function": "F", "variable": "v", "alias": "a", "builtin": "b", "command": "c",
                       "keyword": "k", "file": "f", "directory": "d"}.get(args[i + 1], "?"))
            i += 2
            continue
        if a.startswith("-") and len(a) > 1:
            kinds.update(a[1:])
            i += 1
            continue
        prefix = a
        i += 1
    words: list[str] = []
    if wordlist is not None:
        words += wordlist
    if "a" in kinds:
        words += sorted(sh.aliases)
    if "b" in kinds:
        words += sorted(BUILTINS)
    if "k" in kinds:
        words += sorted(RESERVED)
    if "F" in kinds:
        words += sorted(sh.functions)
    if "c" in kinds:
        words += sorted(set(sh.aliases) | set(BUILTINS) | set(sh.functions) | set(registry.names()) | set(RESERVED))
    if "v" in kinds:
        words += sh.all_variable_names()
    if "f" in kinds or "d" in kinds:
        d, _, base = prefix.rpartition("/")
        try:
            entries = sh.fs.scandir(d or ".", sh.cwd)
        except OSError:
            entries = []
        for name, stat in entries:
            if "d" in kinds and "f" not in kinds and stat.type != "dir":
                continue
            words.append((d + "/" if d else "") + name)
    matches = [w for w in words if w.startswith(prefix)]
    await out(fds, "".join(w + "\n" for w in matches))
    return 0 if matches else 1


@builtin("ulimit", usage="ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]", text="""
Modify shell resource limits (display only in the sandbox: the sandbox's own limits are set
with %limits in the notebook). -a shows all limits; -n open files; -s stack size.""")
async def b_ulimit(sh, argv, fds):
    table = {"c": ("core file size", "(blocks, -c)", "0"), "d": ("data seg size", "(kbytes, -d)", "unlimited"),
             "f": ("file size", "(blocks, -f)", "unlimited"), "n": ("open files", "(-n)", "1024"),
             "s": ("stack size", "(kbytes, -s)", "8192"), "t": ("cpu time", "(seconds, -t)", "unlimited"),
             "u": ("max user processes", "(-u)", "unlimited"), "v": ("virtual memory", "(kbytes, -v)", "unlimited")}
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    values = [a for a in argv[1:] if not a.startswith("-")]
    if values:
        return 0  # accepted and ignored: limits are the sandbox's
    if "a" in flags:
        await out(fds, "".join(f"{d:<25}{u:>15} {v}\n" for d, u, v in table.values()))
        return 0
    letter = next((c for c in flags if c in table), "f")
    await out(fds, table[letter][2] + "\n")
    return 0


@builtin("history", usage="history [-c] [n]", text="Display the command history list (the sandbox keeps none).")
async def b_history(sh, argv, fds):
    return 0


@builtin("complete", "compopt", usage="complete [-abcdefgjksuv] [-pr] [name ...]", text="Specify how arguments are to be completed (accepted and ignored in the sandbox).")
async def b_complete(sh, argv, fds):
    return 0


@builtin("logout", usage="logout [n]", text="Exit a login shell.")
async def b_logout(sh, argv, fds):
    await err(sh, fds, "logout", "not login shell: use `exit'")
    return 1


@builtin("fg", usage="fg [job_spec]", text="Move job to the foreground: waits for the job (the current one by default) and returns its status.")
async def b_fg(sh, argv, fds):
    spec = argv[1] if len(argv) > 1 else "%+"
    pid = _job_pid(sh, spec)
    if pid is None or pid not in sh.rt.jobs:
        await err(sh, fds, "fg", f"{spec if len(argv) > 1 else 'current'}: no such job")
        return 1
    return await sh.wait_job(pid)


@builtin("bg", usage="bg [job_spec ...]", text="Move jobs to the background (jobs started with `&' already run in the background).")
async def b_bg(sh, argv, fds):
    spec = argv[1] if len(argv) > 1 else "%+"
    pid = _job_pid(sh, spec)
    if pid is None or pid not in sh.rt.jobs:
        await err(sh, fds, "bg", f"{spec if len(argv) > 1 else 'current'}: no such job")
        return 1
    return 0
