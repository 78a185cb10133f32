"""echo and printf."""
from __future__ import annotations

import time
from collections.abc import Awaitable

from ...lazy import TYPE_CHECKING, lazy_compile, lazy_import
from ..quoting import backslash_quote
from ..state import LimitExceeded, ShellError, split_subscript
from ..syntax.escapes import PRINTF, PRINTF_B, decode_escape, decode_escapes
from ..syntax.lexer import is_name
from .output import err, write_now_or_later, write_or_fail
from .registry import builtin

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI
    from ...commands._lib.cprintf import LongDouble

cprintf = lazy_import("...commands._lib.cprintf", __package__)  # printf's conversions only
dates = lazy_import("...commands._lib.dates", __package__)  # printf %(...)T only: zoneinfo, datetime


@builtin("echo", usage="echo [-neE] [arg ...]", text="""
Write arguments to the standard output, separated by single spaces and followed by a newline.
  -n  do not append a newline
  -e  enable interpretation of backslash escapes (\\n \\t \\\\ \\0NNN \\xHH \\c ...)
  -E  disable interpretation of backslash escapes (default)""", sync=True)
def b_echo(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
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
    if "\0" in text:
        text = " ".join(c_strings(argv[i:]))
    if escapes:
        text, stop = decode_escapes(text, echo=True)
        if stop:
            newline = False
    if newline:
        text += "\n"
    return write_now_or_later(sh, fds, "echo", text)


def c_strings(args: list[str]) -> list[str]:
    """The arguments as a C program gets them: each ends at its first NUL byte."""
    return [a.split("\0", 1)[0] for a in args]


class _PrintfError(Exception):
    """A fatal format error: bash's printf stops there (what it wrote so far stays)."""


class _Note(str):
    """A message that leaves printf's status alone (a warning, a missing escape digit)."""


_INT64 = 1 << 63
_UINT64 = 1 << 64
_INT_MAX = (1 << 31) - 1
_INTEGER = lazy_compile(r"([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
_NONZERO = frozenset("123456789")
_ERANGE = "Numerical result out of range"


def _invalid_number(arg: str) -> str:
    """bash's sh_invalidnum message for ARG."""
    if arg[:1] == "0" and arg[1:2].isdigit():
        return f"{arg}: invalid octal number"
    if arg[:2] == "0x":
        return f"{arg}: invalid hex number"
    return f"{arg}: invalid number"


def _char_code(arg: str) -> int:
    """bash's value of ``'X`` or ``"X``: the character after the quote (a byte that is not
    UTF-8 is its own value; nothing after the quote is 0)."""
    if len(arg) < 2:
        return 0
    code = ord(arg[1])
    return code & 0xFF if 0xDC80 <= code <= 0xDCFF else code


def _printf_integer(arg: str, errors: list, unsigned: bool = False) -> int:
    """ARG as C's strtoimax (strtoumax with UNSIGNED) reads it for printf: leading blanks,
    sign, 0x/0 prefixes; what follows the number is an error, a value out of range a warning
    (clamped, or wrapped modulo 2**64 for a negative unsigned)."""
    if not arg:
        return 0
    if arg[0] in _NONZERO and len(arg) < 19 and arg.isdigit() and arg.isascii():
        return int(arg)
    if arg[0] in "'\"":
        return _char_code(arg)
    text = arg.lstrip(cprintf.C_SPACE)
    m = _INTEGER.match(text)
    if m is None or m.end() != len(text):
        errors.append(_invalid_number(arg))
        if m is None:
            return 0
    sign, body = m.groups()
    if body[:2] in ("0x", "0X"):
        magnitude = int(body, 16)
    elif body[0] == "0":
        magnitude = int(body, 8)
    else:
        magnitude = int(body) if len(body) < 40 else _UINT64  # out of range, however long
    if unsigned:
        if magnitude >= _UINT64:
            errors.append(_Note(f"warning: {arg}: {_ERANGE}"))
            return _UINT64 - 1
        return (-magnitude) % _UINT64 if sign == "-" else magnitude
    v = -magnitude if sign == "-" else magnitude
    if not -_INT64 <= v < _INT64:
        errors.append(_Note(f"warning: {arg}: {_ERANGE}"))
        v = _INT64 - 1 if v > 0 else -_INT64
    return v


def _printf_long_double(arg: str, errors: list) -> LongDouble:
    """ARG as strtold(3) reads it (bash's printf prints floating point as ``long double``)."""
    if not arg:
        return cprintf.ZERO
    if arg[0] in "'\"":
        return cprintf.from_int(_char_code(arg))
    value, end, out_of_range = cprintf.strtold(arg)
    if end != len(arg):
        errors.append(_invalid_number(arg))
    elif out_of_range:
        errors.append(_Note(f"warning: {arg}: {_ERANGE}"))
    return value


def _star_value(args: list[str], argi: int, errors: list) -> tuple[int, int]:
    """A ``*`` width or precision from ARGS[ARGI] (an int: clamped, with a warning, unless it
    was the last argument, as bash does): (value, the next argument's index)."""
    if argi >= len(args):
        return 0, argi
    value = _printf_integer(args[argi], errors)
    if argi + 1 < len(args) and not -_INT_MAX - 1 <= value <= _INT_MAX:
        errors.append(_Note(f"warning: {args[argi + 1]}: {_ERANGE}"))
        value = _INT_MAX if value > 0 else -_INT_MAX - 1
    return value, argi + 1


_SKIP_FLAGS = frozenset("#'-+ 0")
_LENGTH_MODIFIERS = frozenset("hjlLtz")
_DIGITS = frozenset("0123456789")
_CONVERSIONS = frozenset("csnbqQdiouxXeEfFgGaA")
#: a width or precision read from the arguments
_STAR = -1
#: a precision of ``.-DIGITS``: bash skips the sign, the C library then reads precision 0
#: and ``-`` as the conversion (an unknown one, which it writes out as text)
_NEGATIVE = -2

def _format_escape(fmt: str, i: int) -> tuple[str, int, str]:
    """The escape whose backslash is FMT[i] in a format: (its text, the index after it, the
    message bash writes for a ``\\x``, ``\\u`` or ``\\U`` without digits, or ""). What is
    no escape is a backslash, and the next character is read as usual (``\\%d`` converts)."""
    text, j, _ = decode_escape(fmt, i, PRINTF)
    e = fmt[i + 1:i + 2]
    if text != "\\" + e:
        return text, j, ""
    if e and e in "xuU":
        return "\\", i + 1, "missing hex digit for \\x" if e == "x" else f"missing unicode digit for \\{e}"
    return "\\", i + 1, ""


def _compile_format(fmt: str) -> list:
    """FMT as bash's printf reads it: a list of literal text (str) and tuples ("spec", flags,
    width, precision, conversion, digits after ``.-``), ("time", flags, width, precision,
    strftime format), ("warn", message) and ("bad", message) (a fatal error, the last piece).
    A width is None, a number or _STAR; a precision None, a number, _STAR or _NEGATIVE. A
    spec without stars that is no %b or %n is ("plain", flags, width (0: none), precision,
    conversion, digits after ``.-``, the widest field it may make): printf_format's fast case.
    Parsed once per format string (a loop prints the same format again)."""
    pieces: list = []
    text: list[str] = []
    i, n = 0, len(fmt)

    def flush() -> None:
        if text:
            pieces.append("".join(text))
            text.clear()

    while i < n:
        c = fmt[i]
        if c == "\\":
            decoded, i, message = _format_escape(fmt, i)
            text.append(decoded)
            if message:
                flush()
                pieces.append(("warn", message))
            continue
        if c != "%":
            j = i
            while j < n and fmt[j] not in "%\\":
                j += 1
            text.append(fmt[i:j])
            i = j
            continue
        start = i
        if fmt[i + 1:i + 2] == "%":
            text.append("%")
            i += 2
            continue
        flush()
        j = i + 1
        while j < n and fmt[j] in _SKIP_FLAGS:
            j += 1
        flags = fmt[i + 1:j]
        width: int | None = None
        if j < n and fmt[j] == "*":
            width = _STAR
            j += 1
        else:
            k = j
            while k < n and fmt[k] in _DIGITS:
                k += 1
            if k > j:
                width = int(fmt[j:k])
            j = k
        prec: int | None = None
        tail = ""
        if j < n and fmt[j] == ".":
            j += 1
            if j < n and fmt[j] == "*":
                prec = _STAR
                tail = "*"
                j += 1
            else:
                negative = j < n and fmt[j] == "-"
                j += negative
                k = j
                while k < n and fmt[k] in _DIGITS:
                    k += 1
                tail = fmt[j:k]
                prec = _NEGATIVE if negative else int(tail or "0")
                j = k
        modifiers = j
        while j < n and fmt[j] in _LENGTH_MODIFIERS:
            j += 1
        if j >= n:
            pieces.append(("bad", f"`{fmt[start:]}': missing format character"))
            return pieces
        conv = fmt[j]
        if conv == "(":
            depth, k = 1, j + 1
            while k < n:
                depth += (fmt[k] == "(") - (fmt[k] == ")")
                if depth == 0:
                    break
                k += 1
            if fmt[k + 1:k + 2] != "T":
                # not a time: bash warns and writes the % as text
                pieces.append(("warn", f"warning: `{fmt[k + 1:k + 2]}': invalid time format specification"))
                text.append("%")
                # bash wrote the ( over the first length modifier, and leaves it there
                fmt = fmt[:modifiers] + "(" + fmt[modifiers + 1:]
                i = start + 1
                continue
            pieces.append(("time", flags, width, prec, fmt[j + 1:k] or "%X"))
            i = k + 2
            continue
        if conv not in _CONVERSIONS:
            pieces.append(("bad", f"`{conv}': invalid format character"))
            return pieces
        if width != _STAR and prec != _STAR and conv not in "bn":
            width = width or 0
            widest = width if conv in "csqQ" else max(width, prec or 0)
            pieces.append(("plain", flags, width, prec, conv, tail, widest))
        else:
            pieces.append(("spec", flags, width, prec, conv, tail))
        i = j + 1
    flush()
    return pieces


_COMPILED: dict[str, list] = {}


def compiled_format(fmt: str) -> list:
    pieces = _COMPILED.get(fmt)
    if pieces is None:
        if len(_COMPILED) >= 512:
            _COMPILED.clear()
        pieces = _COMPILED[fmt] = _compile_format(fmt)
    return pieces


def printf_format(sh: ShellAPI, fmt: str, args: list[str], errors: list, start: int,
                  res: list[str]) -> tuple[bool, int]:
    """One pass through FMT, its text appended to RES: (whether a ``\\c`` of ``%b`` stopped
    the output, how many arguments it used); _PrintfError on a fatal error."""
    argi = start
    nargs = len(args)
    limit = sh.rt.limits.string_bytes
    first = len(res)
    for piece in compiled_format(fmt):
        if piece.__class__ is str:
            res.append(piece)
            continue
        kind = piece[0]
        if kind == "plain":
            if piece[6] > limit:
                raise _too_wide(piece[6])
            arg = None
            if argi < nargs:
                arg = args[argi]
                argi += 1
            res.append(_convert(piece[1], piece[2], piece[3], piece[4], piece[5], arg, errors))
            continue
        if kind == "spec" or kind == "time":
            flags, width, prec = piece[1], piece[2], piece[3]
            if width == _STAR:
                width, argi = _star_value(args, argi, errors)
                if width < 0:
                    flags += "*-"  # left-justified by the argument: not the flag itself
                    width = -width
            if prec == _STAR:
                prec, argi = _star_value(args, argi, errors)
                if prec < 0:
                    prec = None
            width = width or 0
            widest = width if kind == "time" or piece[4] in "csbqQ" else max(width, prec or 0)
            if widest > limit:
                raise _too_wide(widest)
            arg = None
            if argi < nargs:
                arg = args[argi]
                argi += 1
            if kind == "time":
                res.append(_format_time(sh, flags, width, prec, piece[4], arg, errors))
                continue
            conv = piece[4]
            if conv == "b":
                text, stop = decode_escapes(arg or "", mode=PRINTF_B)
                res.append(_printstr(text, flags, width, prec))
                if stop:
                    return True, argi - start
            elif conv == "n":
                if arg:
                    _assign_count(sh, arg, "".join(res[first:]), errors)
            else:
                res.append(_convert(flags, width, prec, conv, piece[5], arg, errors))
        elif kind == "warn":
            errors.append(_Note(piece[1]))
        else:  # bad
            errors.append(piece[1])
            raise _PrintfError()
    return False, argi - start


def _assign_count(sh: ShellAPI, name: str, written: str, errors: list) -> None:
    """%n: NAME = the bytes written so far by this pass through the format."""
    if not is_name(name):
        errors.append(f"`{name}': not a valid identifier")
        raise _PrintfError()
    try:
        sh.set_var(name, str(len(written.encode("utf-8", "surrogateescape"))))
    except ShellError as e:
        errors.append(_Note(e.message))


def _too_wide(width: int) -> LimitExceeded:
    return LimitExceeded(f"printf: field width {width} exceeds the string limit (limit string_bytes)", "string_bytes")


def _bytes_of(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _text_of(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _printstr(text: str, flags: str, width: int, prec: int | None) -> str:
    """bash's own %b %q %Q and %(...)T padding: only ``-`` counts, ``.-N`` is precision 0."""
    if prec == _NEGATIVE:
        prec = 0
    if text.isascii() and (prec is None or prec >= len(text)):
        if len(text) >= width:
            return text
        return text.ljust(width) if "-" in flags else text.rjust(width)
    return _text_of(cprintf.format_bytes(_bytes_of(text), "-" if "-" in flags else "", width, prec))


def _convert(flags: str, width: int, prec: int | None, conv: str, tail: str, arg: str | None,
             errors: list) -> str:
    """One conversion of ARG (None: no argument left)."""
    if conv == "s":
        text = arg or ""
        if prec == _NEGATIVE:
            return _unknown_conversion(flags, width, tail, conv)
        if text.isascii():
            if prec is not None:
                text = text[:prec]
            if len(text) >= width:
                return text
            return text.ljust(width) if "-" in flags else text.rjust(width)
        return _text_of(cprintf.format_bytes(_bytes_of(text), flags, width, prec))
    if conv == "c":
        # the argument's first byte; none (or an empty one) is a NUL byte
        data = _bytes_of(arg)[:1] if arg else b"\0"
        if prec == _NEGATIVE:
            return _unknown_conversion(flags, width, tail, conv)
        return _text_of(cprintf.format_bytes(data, flags, width, None))
    if conv == "q":
        return _printstr(backslash_quote(arg or ""), flags, width, prec)
    if conv == "Q":
        # %.NQ: N cuts the unquoted text, and the quoted one is written whole; but a bare
        # "." (and ".-N") is precision 0 for bash's padding
        text = arg or ""
        if tail.isdigit():
            text = _text_of(_bytes_of(text)[:int(tail)])
        whole = tail != "" and prec != _NEGATIVE
        return _printstr(backslash_quote(text), flags, width, None if whole or prec is None else 0)
    if conv in "di":
        value = _printf_integer(arg or "", errors)
    elif conv in "ouxX":
        value = _printf_integer(arg or "", errors, unsigned=True)
    else:
        if conv in "fF" and arg and prec != _NEGATIVE:
            text = cprintf.format_decimal(arg, flags, width, prec)  # (a plain decimal: exactly itself)
            if text is not None:
                return text
        number = _printf_long_double(arg or "", errors)
        if prec == _NEGATIVE:
            return _unknown_conversion(flags, width, tail, conv)
        return cprintf.format_float(number, flags, width, prec, conv)
    if prec == _NEGATIVE:
        return _unknown_conversion(flags, width, tail, conv)
    if not flags and prec is None and conv in "diu":
        return str(value).rjust(width) if width else str(value)
    return cprintf.format_int(value, flags, width, prec, conv)


def _unknown_conversion(flags: str, width: int, tail: str, conv: str) -> str:
    """What glibc's printf writes for bash's ``%.-Nd``: the directive as it read it, with
    precision 0 and ``-`` as the (unknown) conversion, then the rest as text."""
    head = "%" + "".join(f for f in "#'" if f in flags)
    head += "+" if "+" in flags else " " if " " in flags else ""
    # the - flag turns 0 off, a negative * width does not
    head += "-" if "-" in flags else ""
    head += "0" if "0" in flags and "-" not in flags.replace("*-", "") else ""
    modifier = "l" if conv in "diouxX" else "L" if conv in "eEfFgGaA" else ""
    return f"{head}{width or ''}.0-{tail}{modifier}{conv}"


#: the seconds whose year glibc's localtime can hold (an int counting from 1900), in UTC
_LOCALTIME_RANGE = (-67768040609740800, 67768036191676799)


def _format_time(sh: ShellAPI, flags: str, width: int, prec: int | None, strf: str, arg: str | None,
                 errors: list) -> str:
    """%(FMT)T of ARG (seconds since the epoch; none or -1: now, -2: the shell's start)."""
    when = -1 if arg is None else _printf_integer(arg, errors)
    if when == -1:
        when = int(time.time())
    elif when == -2:
        when = sh.rt.start_time_epoch
    elif not _LOCALTIME_RANGE[0] <= when <= _LOCALTIME_RANGE[1]:
        when = 0  # localtime(3) fails (the year would not fit an int): bash writes the epoch
    tz = sh.lookup_var("TZ")
    env = {"TZ": tz.value} if tz is not None and tz.exported and isinstance(tz.value, str) else {}
    try:
        stamp = dates.format_date(strf, dates.local_datetime(when, env), 0)
    except (OverflowError, OSError, ValueError):
        errors.append(f"{arg}: invalid number")
        stamp = ""
    if len(stamp.encode("utf-8", "surrogateescape")) >= 128:
        stamp = ""  # bash's strftime buffer: a longer result is no result
    return _printstr(stamp, flags, width, prec)


@builtin("printf", usage="printf [-v var] format [arguments]", text="""
Formats and prints ARGUMENTS under control of the FORMAT.
  -v var  assign the output to shell variable VAR rather than display it
FORMAT is a character string which contains three types of objects: plain characters, which
are simply copied to standard output; character escape sequences, which are converted and
copied to the standard output; and format specifications (%s %d %i %o %u %x %X %c %e %f %g
%a %b %q %Q %n %(fmt)T %%), each of which causes printing of the next successive argument.
The format is reused as necessary to consume all of the arguments.""", sync=True)
def b_printf(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    """printf FORMAT ARGS... to standard output without a coroutine when it formats without
    error; -v, usage errors and format errors go to ``printf_async`` (formatting is pure but
    for %n, which assigns the same again: it formats again there)."""
    args = argv[1:]
    if not args or args[0] in ("-v", "--"):
        return printf_async(sh, argv, fds)
    errors: list[str] = []
    chunks: list[str] = []
    try:
        _format_all(sh, args, errors, chunks)
    except _PrintfError:
        return printf_async(sh, argv, fds)
    if errors:
        return printf_async(sh, argv, fds)
    return write_now_or_later(sh, fds, "printf", "".join(chunks))


def _format_all(sh: ShellAPI, args: list[str], errors: list[str], chunks: list[str]) -> bool:
    """FORMAT ARGS... (``args``) into ``chunks``, the format reused until the arguments are
    used up; messages into ``errors``; _PrintfError on a fatal one (``chunks`` then holds
    what was written before it). Returns whether a ``\\c`` of ``%b`` stopped it."""
    if "\0" in "".join(args):
        args = c_strings(args)
    fmt, rest = args[0], args[1:]
    start = 0
    while True:
        stop, consumed = printf_format(sh, fmt, rest, errors, start, chunks)
        start += consumed
        if stop or consumed == 0 or start >= len(rest):
            return stop


async def printf_async(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
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
    if var is not None and split_subscript(var) is None and not is_name(var):
        await err(sh, fds, "printf", f"`{var}': not a valid identifier")
        return 2
    errors: list[str] = []
    chunks: list[str] = []
    status = 0
    stopped = False
    try:
        stopped = _format_all(sh, args, errors, chunks)
    except _PrintfError:
        status = 1
    result = "".join(chunks)
    for e in errors:
        await err(sh, fds, "printf", e)
    if var is not None:
        # bash assigns what was written even when a format error stopped it
        ref = split_subscript(var)
        try:
            if ref is not None:
                sh.set_element(ref[0], await sh.subscript_key(ref[0], ref[1], var), result)
            else:
                sh.set_var(var, result)
        except ShellError as e:
            await sh.report(fds, f"printf: {e.message}")
            return 1
    else:
        written = await write_or_fail(sh, fds, "printf", result)
        if written:
            return written
    if status or stopped:  # \\c returns at once: an invalid number before it does not count
        return status
    return 1 if any(not isinstance(e, _Note) for e in errors) else 0
