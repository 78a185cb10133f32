"""echo and printf."""
from __future__ import annotations

import re
import time
from typing import Callable

from ...chars import isdigits
from ...lazy import lazy_compile, lazy_import
from ..eval.variables import split_subscript
from ..eval.word import backslash_quote
from ..state import LimitExceeded, ShellError
from ..syntax.escapes import PRINTF, PRINTF_B, decode_escape, decode_escapes
from ..syntax.lexer import is_name
from .output import err, out, write_now_or_later, write_or_fail
from .registry import builtin

dates = lazy_import("...commands._lib.dates", __package__)  # printf %(...)T only: zoneinfo, datetime


@builtin("echo", usage="echo [-neE] [arg ...]", text="""
Write arguments to the standard output, separated by single spaces and followed by a newline.
  -n  do not append a newline
  -e  enable interpretation of backslash escapes (\\n \\t \\\\ \\0NNN \\xHH \\c ...)
  -E  disable interpretation of backslash escapes (default)""", sync=True)
def b_echo(sh, argv, fds):
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
    pass


_C_SPACE = " \t\n\v\f\r"
_INTEGER = lazy_compile(r"([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
_NONZERO = frozenset("123456789")
_INT64 = 1 << 63
_UINT64 = 1 << 64


def _invalid_number(arg: str) -> str:
    """bash's sh_invalidnum message for ARG."""
    if arg[:1] == "0" and arg[1:2].isdigit():
        return f"{arg}: invalid octal number"
    if arg[:2] == "0x":
        return f"{arg}: invalid hex number"
    return f"{arg}: invalid number"


def _printf_integer(arg: str, errors: list, unsigned: bool = False) -> int:
    """ARG as C's strtoimax (strtoumax with UNSIGNED) reads it for printf: leading blanks,
    sign, 0x/0 prefixes; what follows the number is an error, a value out of range a warning
    (clamped, or wrapped modulo 2**64 for a negative unsigned)."""
    if not arg:
        return 0
    if arg[0] in _NONZERO and len(arg) < 19 and arg.isdigit() and arg.isascii():
        return int(arg)
    if arg[0] in "'\"":
        return ord(arg[1]) if len(arg) > 1 else 0
    text = arg.lstrip(_C_SPACE)
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
        magnitude = int(body)
    if unsigned:
        if magnitude >= _UINT64:
            errors.append(f"warning: {arg}: Numerical result out of range")
            return _UINT64 - 1
        return (-magnitude) % _UINT64 if sign == "-" else magnitude
    v = -magnitude if sign == "-" else magnitude
    if not -_INT64 <= v < _INT64:
        errors.append(f"warning: {arg}: Numerical result out of range")
        v = _INT64 - 1 if v > 0 else -_INT64
    return v


def _printf_float(arg: str, errors: list) -> float:
    s = arg.lstrip(_C_SPACE)
    if not s:
        if arg:
            errors.append(_invalid_number(arg))
        return 0.0
    if s[0] in "'\"":
        return float(ord(s[1])) if len(s) >= 2 else 0.0
    try:
        if not s.isascii() or "_" in s:  # float() also reads '٣' and '1_0'
            raise ValueError(s)
        return float(s)
    except ValueError:
        m = re.match(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?", s)
        errors.append(f"{arg}: invalid number")
        return float(m.group(0)) if m else 0.0


_TIME_SPEC = lazy_compile(r"%([-+ #0]*)([0-9]+)?(?:\.([0-9]*))?\(([^)]*)\)T")

_FMT_SPEC = lazy_compile(r"%([-+ #0]*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?(hh|h|ll|l|L|q|j|z|t)?([diouxXeEfFgGaAcsbqQ%])")


# a compiled format: literal text (str), or one of these tuples
_STOP = ("stop",)  # \\c: the output stops here
_PERCENT = ("%",)  # %%


def _compile_format(fmt: str) -> list:
    """FMT as a list of pieces: literal text, ("stop",), ("%",), ("bad", message),
    ("time", flags, width, precision, strftime format) and ("spec", flags, width, precision,
    conversion); parsed once per format string (a loop prints the same format again)."""
    pieces: list = []
    text: list[str] = []
    i, n = 0, len(fmt)

    def flush():
        if text:
            pieces.append("".join(text))
            text.clear()

    while i < n:
        c = fmt[i]
        if c == "\\":
            decoded, i, stop = decode_escape(fmt, i, PRINTF)
            if stop:
                flush()
                pieces.append(_STOP)
                return pieces
            text.append(decoded)
            continue
        if c != "%":
            j = i
            while j < n and fmt[j] not in "%\\":
                j += 1
            text.append(fmt[i:j])
            i = j
            continue
        flush()
        tm = _TIME_SPEC.match(fmt, i)
        if tm:
            i = tm.end()
            pieces.append(("time", tm.group(1), tm.group(2) or "", tm.group(3), tm.group(4) or "%X"))
            continue
        m = _FMT_SPEC.match(fmt, i)
        if not m:
            pieces.append(("bad", f"`{fmt[i + 1 : i + 2] or '%'}': invalid format character" if i + 1 < n
                           else "`%': missing format character"))
            return pieces
        i = m.end()
        flags, width, prec, _, conv = m.groups()
        if conv == "%":
            # "%5%" and the like: bash rejects flags or a width on %%
            pieces.append(_PERCENT if m.end() - m.start() == 2 else ("bad", "`%': invalid format character"))
            if pieces[-1] is not _PERCENT:
                return pieces
            continue
        if width == "*" or prec == "*":
            pieces.append(("spec", flags, width, prec, conv, None, 0))
            continue
        spec = _spec(flags, width, prec)
        widest = max(int(width or 0), int(prec or 0))
        if conv == "b":
            pieces.append(("spec", flags, width, prec, conv, spec, widest))
        else:
            pieces.append(("conv", _converter(spec, flags, prec, conv), widest))
    flush()
    return pieces


def _converter(spec: str, flags: str, prec: str | None, conv: str) -> Callable[[str | None, list], str]:
    """``_convert`` of a conversion whose spec is fixed, the commonest ones made once."""
    if conv == "s":
        if spec == "%":
            return lambda arg, errors: arg if arg is not None else ""
        text_format = spec + "s"
        bytes_format = text_format.encode()

        def string(arg: str | None, errors: list) -> str:
            if arg is None:
                arg = ""
            if arg.isascii():  # a byte per character: the width counts the same
                return text_format % arg
            return (bytes_format % arg.encode("utf-8", "surrogateescape")).decode("utf-8", "surrogateescape")
        return string
    if conv in "di":
        integer_format = spec + "d"
        return lambda arg, errors: integer_format % _printf_integer(arg or "", errors)
    if conv in "eEfFgG":
        float_format = spec + conv
        return lambda arg, errors: float_format % _printf_float(arg or "", errors)
    return lambda arg, errors: _convert(spec, flags, prec, conv, arg, errors)


_COMPILED: dict[str, list] = {}


def compiled_format(fmt: str) -> list:
    pieces = _COMPILED.get(fmt)
    if pieces is None:
        if len(_COMPILED) >= 512:
            _COMPILED.clear()
        pieces = _COMPILED[fmt] = _compile_format(fmt)
    return pieces


def printf_format(sh, fmt: str, args: list[str], errors: list, start: int = 0) -> tuple[str, bool, int]:
    """Format once through ``fmt``; returns (text, stop requested by \\c, args consumed)."""
    res: list[str] = []
    argi = start
    nargs = len(args)
    limit = sh.rt.limits.string_bytes
    for piece in compiled_format(fmt):
        if piece.__class__ is str:
            res.append(piece)
            continue
        kind = piece[0]
        if kind == "conv":
            if piece[2] > limit:
                raise _too_wide(piece[2])
            if argi < nargs:
                res.append(piece[1](args[argi], errors))
                argi += 1
            else:
                res.append(piece[1](None, errors))
        elif kind == "spec":
            _, flags, width, prec, conv, spec, widest = piece
            if spec is None:
                spec, widest = _starred_spec(flags, width, prec, args, argi, errors)
                argi += (width == "*") + (prec == "*")
                argi = min(argi, nargs)
            if widest > limit:
                raise _too_wide(widest)
            if argi < nargs:
                arg = args[argi]
                argi += 1
            else:
                arg = None
            if conv == "b":
                text, stop = decode_escapes(arg or "", mode=PRINTF_B)
                res.append(_bytes_format(spec, text))
                if stop:
                    return "".join(res), True, argi - start
            else:
                res.append(_convert(spec, flags, prec, conv, arg, errors))
        elif kind == "%":
            res.append("%")
        elif kind == "stop":
            return "".join(res), True, argi - start
        elif kind == "time":
            _, flags, width, prec, strf = piece
            arg = args[argi] if argi < nargs else None
            argi += arg is not None
            res.append(_format_time(sh, flags, width, prec, strf, arg, errors))
        else:  # bad
            errors.append(piece[1])
            raise _PrintfError()
    return "".join(res), False, argi - start


def _too_wide(width: int) -> LimitExceeded:
    return LimitExceeded(f"printf: field width {width} exceeds the string limit (limit string_bytes)", "string_bytes")


def _spec(flags: str, width: str | None, prec: str | None) -> str:
    """A conversion's C spec without its letter: ``%-10.2``."""
    return "%" + flags + (width or "") + ("." + prec if prec is not None else "")


def _starred_spec(flags: str, width: str | None, prec: str | None, args: list[str], argi: int,
                  errors: list) -> tuple[str, int]:
    """The spec of a conversion whose width or precision is ``*`` (taken from the arguments
    at ARGI, in that order), and its widest number."""
    if width == "*":
        a = args[argi] if argi < len(args) else None
        argi += 1
        width = str(_printf_integer(a or "0", errors))
        if width.startswith("-"):
            flags += "-"
            width = width[1:]
    if prec == "*":
        a = args[argi] if argi < len(args) else None
        prec = str(_printf_integer(a or "0", errors))
    widest = max(int(width) if width and isdigits(width) else 0, int(prec) if prec and isdigits(prec) else 0)
    return _spec(flags, width, prec), widest


def _convert(spec: str, flags: str, prec: str | None, conv: str, arg: str | None, errors: list) -> str:
    """One conversion of ARG (None: no argument left) under SPEC."""
    if conv == "s":
        if arg is None:
            arg = ""
        if spec == "%":
            return arg
        return _bytes_format(spec, arg)
    if conv in "di":
        return (spec + "d") % _printf_integer(arg or "", errors)
    if conv in "qQ":
        return _bytes_format(spec, backslash_quote(arg if arg is not None else ""))
    if conv == "c":
        first = (arg or "").encode("utf-8", "surrogateescape")[:1].decode("utf-8", "surrogateescape")
        return _bytes_format(spec, first if arg else ("\0" if arg == "" else ""))
    if conv in "ouxX":
        v = _printf_integer(arg or "", errors, unsigned=True)
        if v == 0:
            spec = spec.replace("#", "")  # C's %#x of 0 is plain 0
        if conv == "o" and "#" in flags:
            # C's %#o prefixes 0 (Python's would write 0o)
            spec = spec.replace("#", "")
            digits = ("%" + ("." + prec if prec is not None else "") + "o") % v
            if not digits.startswith("0"):
                digits = "0" + digits
            return (spec + "s") % digits
        return (spec + (conv if conv != "u" else "d")) % v
    # eEfFgGaA
    v = _printf_float(arg or "", errors)
    if conv in "aA":
        return float(v).hex()
    return (spec + conv) % v


def _format_time(sh, flags: str, width: str, prec: str | None, strf: str, arg: str | None, errors: list) -> str:
    """%(FMT)T of ARG (seconds since the epoch; empty or -1: now, -2: the shell's start)."""
    if arg in (None, "", "-1"):
        when = int(time.time())
    elif arg == "-2":
        when = sh.rt.start_time_epoch
    else:
        when = _printf_integer(arg, errors)
    tz = sh.lookup_var("TZ")
    env = {"TZ": tz.value} if tz is not None and tz.exported and isinstance(tz.value, str) else {}
    try:
        stamp = dates.format_date(strf, dates.local_datetime(when, env), 0)
    except (OverflowError, OSError, ValueError):
        errors.append(f"{arg}: invalid number")
        stamp = ""
    if len(stamp.encode("utf-8", "surrogateescape")) >= 128:
        stamp = ""  # bash's strftime buffer: a longer result is no result
    return _bytes_format(_spec(flags, width, prec), stamp)


def _bytes_format(spec: str, text: str) -> str:
    """%s with width/precision counted in bytes, as bash's printf (C printf) does."""
    if spec == "%":
        return text
    data = text.encode("utf-8", "surrogateescape")
    return ((spec + "s").encode() % data).decode("utf-8", "surrogateescape")


@builtin("printf", usage="printf [-v var] format [arguments]", text="""
Formats and prints ARGUMENTS under control of the FORMAT.
  -v var  assign the output to shell variable VAR rather than display it
FORMAT is a character string which contains three types of objects: plain characters, which
are simply copied to standard output; character escape sequences, which are converted and
copied to the standard output; and format specifications (%s %d %i %o %u %x %X %c %e %f %g
%b %q %%), each of which causes printing of the next successive argument. The format is
reused as necessary to consume all of the arguments.""", sync=True)
def b_printf(sh, argv, fds):
    """printf FORMAT ARGS... to standard output without a coroutine when it formats without
    error; -v, usage errors and format errors go to ``printf_async`` (formatting is pure:
    it formats again there)."""
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


def _format_all(sh, args: list[str], errors: list[str], chunks: list[str]) -> None:
    """FORMAT ARGS... (``args``) into ``chunks``, the format reused until the arguments are
    used up; messages into ``errors``; _PrintfError on a fatal one."""
    if "\0" in "".join(args):
        args = c_strings(args)
    fmt, rest = args[0], args[1:]
    start = 0
    while True:
        text, stop, consumed = printf_format(sh, fmt, rest, errors, start)
        chunks.append(text)
        start += consumed
        if stop or consumed == 0 or start >= len(rest):
            break


async def printf_async(sh, argv, fds):
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
    errors: list[str] = []
    chunks: list[str] = []
    try:
        _format_all(sh, args, errors, chunks)
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
        ref = split_subscript(var)
        if ref is not None:
            try:
                sh.set_element(ref[0], await sh.subscript_key(ref[0], ref[1], var), result)
            except ShellError as e:
                await sh.report(fds, f"printf: {e.message}")
                return 1
        elif not is_name(var):
            await err(sh, fds, "printf", f"`{var}': not a valid identifier")
            return 2
        else:
            sh.set_var(var, result)
    else:
        status = await write_or_fail(sh, fds, "printf", result)
        if status:
            return status
    return 1 if any(not e.startswith("warning: ") for e in errors) else 0
