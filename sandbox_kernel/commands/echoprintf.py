"""echo and printf as the programs /usr/bin/echo and /usr/bin/printf (GNU coreutils 9.1): what
exec, env, xargs, find -exec, timeout and the like run. A plain ``echo`` or ``printf`` is the
shell's builtin (shell/builtins/echo_printf.py), and the two differ: coreutils' echo -e reads
``\\41`` as octal and knows no ``\\E`` or ``\\u``; its printf stops everything at ``\\c`` in
the format, rejects flags a conversion cannot take (%#d, %0s, %5b), has no -v, %n, %Q or
%(..)T, and makes an out-of-range number an error."""
from __future__ import annotations

from ..limits import Limits
from ._lib.cprintf import C_SPACE, format_bytes, format_float, format_int, from_int, strtold
from ._lib.quoting import quote
from ..locales import program_locale
from .options import UsageError
from .registry import CommandContext, command

ECHO_HELP = """\
Usage: echo [SHORT-OPTION]... [STRING]...
  or:  echo LONG-OPTION
Echo the STRING(s) to standard output.

  -n             do not output the trailing newline
  -e             enable interpretation of backslash escapes
  -E             disable interpretation of backslash escapes (default)
      --help     display this help and exit

If -e is in effect, the following sequences are recognized:

  \\\\      backslash
  \\a      alert (BEL)
  \\b      backspace
  \\c      produce no further output
  \\e      escape
  \\f      form feed
  \\n      new line
  \\r      carriage return
  \\t      horizontal tab
  \\v      vertical tab
  \\0NNN   byte with octal value NNN (1 to 3 digits)
  \\xHH    byte with hexadecimal value HH (1 to 2 digits)

NOTE: your shell may have its own version of echo, which usually supersedes
the version described here."""

PRINTF_HELP = """\
Usage: printf FORMAT [ARGUMENT]...
  or:  printf OPTION
Print ARGUMENT(s) according to FORMAT, or execute according to OPTION:

      --help     display this help and exit

FORMAT controls the output as in C printf.  Interpreted sequences are:

  \\"      double quote
  \\\\      backslash
  \\a      alert (BEL)
  \\b      backspace
  \\c      produce no further output
  \\e      escape
  \\f      form feed
  \\n      new line
  \\r      carriage return
  \\t      horizontal tab
  \\v      vertical tab
  \\NNN    byte with octal value NNN (1 to 3 digits)
  \\xHH    byte with hexadecimal value HH (1 to 2 digits)
  \\uHHHH  Unicode (ISO/IEC 10646) character with hex value HHHH (4 digits)
  \\UHHHHHHHH  Unicode character with hex value HHHHHHHH (8 digits)
  %%      a single %
  %b      ARGUMENT as a string with '\\' escapes interpreted,
          except that octal escapes are of the form \\0 or \\0NNN
  %q      ARGUMENT is printed in a format that can be reused as shell input,
          escaping non-printable characters with the proposed POSIX $'' syntax.

and all C format specifications ending with one of diouxXfeEgGcs, with
ARGUMENTs converted to proper type first.  Variable widths are handled.

NOTE: your shell may have its own version of printf, which usually supersedes
the version described here."""

_OCTAL = "01234567"
_HEXDIGITS = "0123456789abcdefABCDEF"
_SIMPLE = {"a": b"\a", "b": b"\b", "e": b"\x1b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t", "v": b"\v",
           "\\": b"\\", '"': b'"'}
_INT_MAX = (1 << 31) - 1
_INT64 = 1 << 63
_UINT64 = 1 << 64
_ERANGE = "Numerical result out of range"


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@command("echo", help=ECHO_HELP, own_help=True)  # `echo --help x` writes --help x
async def echo(ctx: CommandContext) -> int:
    args = list(ctx.args)
    if len(args) == 1 and args[0] in ("--help", "--version"):
        await ctx.out(ECHO_HELP + "\n" if args[0] == "--help" else "echo (GNU coreutils) 9.1\n")
        return 0
    newline, escapes = True, False
    while args and len(args[0]) > 1 and args[0][0] == "-" and all(c in "neE" for c in args[0][1:]):
        for c in args.pop(0)[1:]:
            if c == "n":
                newline = False
            else:
                escapes = c == "e"
    data = _bytes(" ".join(args))
    if escapes:
        data, stopped = _echo_escapes(data)
        if stopped:
            await ctx.stdout.write(data)
            return 0
    await ctx.stdout.write(data + (b"\n" if newline else b""))
    return 0


def _echo_escapes(data: bytes) -> tuple[bytes, bool]:
    """coreutils echo -e: (the bytes, whether \\c stopped them)."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        i += 1
        if c != 0x5C or i >= n:
            out.append(c)
            continue
        e = chr(data[i])
        i += 1
        if e == "c":
            return bytes(out), True
        if e in _SIMPLE and e != '"':
            out += _SIMPLE[e]
        elif e == "x" and i < n and chr(data[i]) in _HEXDIGITS:
            j = i + 1 + (i + 1 < n and chr(data[i + 1]) in _HEXDIGITS)
            out.append(int(data[i:j], 16))
            i = j
        elif e in _OCTAL:
            # \0NNN, or \NNN (the first digit is one of the three)
            start = i if e == "0" else i - 1
            j = start
            while j < n and j < start + 3 and chr(data[j]) in _OCTAL:
                j += 1
            out.append(int(data[start:j] or b"0", 8) & 0xFF)
            i = j
        else:
            out += b"\\" + e.encode("latin-1")
    return bytes(out), False


class _Exit(Exception):
    """printf ends here: \\c (status 0) or a fatal error (its message, status 1)."""

    def __init__(self, status: int, message: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Printf:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.utf8 = program_locale(ctx.env, "LC_CTYPE") not in ("C", "POSIX")
        self.out = bytearray()
        self.messages: list[str] = []
        self.status = 0

    async def flush(self) -> None:
        """Write what is formatted, then the messages so far (GNU's come out between them)."""
        if self.out:
            data = bytes(self.out)
            self.out.clear()
            await self.ctx.stdout.write(data)
        for message in self.messages:
            await self.ctx.error(message)
        self.messages.clear()

    # ---- numbers (coreutils' vstrtoimax, vstrtoumax, vstrtold)
    def _char_constant(self, arg: str) -> int | None:
        """'X or "X: X's code (a warning for what follows it); None when it is no constant."""
        if arg[:1] not in ("'", '"') or len(arg) < 2:
            return None
        code = ord(arg[1])
        if 0xDC80 <= code <= 0xDCFF:
            code &= 0xFF
        if len(arg) > 2:
            self.messages.append(f"warning: {arg[2:]}: character(s) following character constant have been ignored")
        return code

    def _invalid(self, arg: str, read: int) -> None:
        what = "expected a numeric value" if read == 0 else "value not completely converted"
        self.messages.append(f"{quote(arg, 'locale')}: {what}")
        self.status = 1

    def integer(self, arg: str, unsigned: bool = False) -> int:
        code = self._char_constant(arg)
        if code is not None:
            return code
        text = arg.lstrip(C_SPACE)
        skipped = len(arg) - len(text)
        j = 0
        negative = False
        if text[:1] in ("+", "-"):
            negative = text[0] == "-"
            j = 1
        base, k = 10, j
        if text[j:j + 2].lower() == "0x" and text[j + 2:j + 3] and text[j + 2] in _HEXDIGITS:
            base, k = 16, j + 2
        elif text[j:j + 1] == "0":
            base = 8
        digits = _HEXDIGITS if base == 16 else _OCTAL if base == 8 else "0123456789"
        end = k
        while end < len(text) and text[end] in digits:
            end += 1
        if end == k:
            if arg:
                self._invalid(arg, 0)
            return 0
        body = text[k:end]
        magnitude = int(body, base) if base != 10 or len(body) < 40 else _UINT64
        # strtoimax's ERANGE is reported before what follows the number
        if unsigned:
            if magnitude >= _UINT64:
                self._out_of_range(arg)
                return _UINT64 - 1
            value = (-magnitude) % _UINT64 if negative else magnitude
        else:
            value = -magnitude if negative else magnitude
            if not -_INT64 <= value < _INT64:
                self._out_of_range(arg)
                return _INT64 - 1 if value > 0 else -_INT64
        if end != len(text):
            self._invalid(arg, skipped + end)
        return value

    def _out_of_range(self, arg: str) -> None:
        self.messages.append(f"{quote(arg, 'locale')}: {_ERANGE}")
        self.status = 1

    def long_double(self, arg: str):
        code = self._char_constant(arg)
        if code is not None:
            return from_int(code)
        value, end, out_of_range = strtold(arg)
        if out_of_range:
            self._out_of_range(arg)
        elif arg and end != len(arg):
            self._invalid(arg, end)
        return value

    # ---- escapes (coreutils' print_esc)
    def escape(self, text: str, i: int, octal_0: bool) -> int:
        """The escape whose backslash is TEXT[i], written: the index after it."""
        p = i + 1
        n = len(text)
        e = text[p] if p < n else ""
        out = self.out
        if e == "x":
            j = p + 1
            while j < n and j < p + 3 and text[j] in _HEXDIGITS:
                j += 1
            if j == p + 1:
                raise _Exit(1, "missing hexadecimal number in escape")
            out.append(int(text[p + 1:j], 16))
            return j
        if e and e in _OCTAL:
            start = p + (octal_0 and e == "0")
            j = start
            while j < n and j < start + 3 and text[j] in _OCTAL:
                j += 1
            out.append(int(text[start:j] or "0", 8) & 0xFF)
            return j
        if e == "c":
            raise _Exit(0)
        if e in _SIMPLE:
            out += _SIMPLE[e]
            return p + 1
        if e in ("u", "U"):
            size = 4 if e == "u" else 8
            digits = text[p + 1:p + 1 + size]
            if len(digits) < size or any(c not in _HEXDIGITS for c in digits):
                raise _Exit(1, "missing hexadecimal number in escape")
            code = int(digits, 16)
            if (code < 0xA0 and code not in (0x24, 0x40, 0x60)) or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                raise _Exit(1, f"invalid universal character name \\{e}{code:0{size}X}")
            if self.utf8:
                out += chr(code).encode("utf-8")
            else:  # gnulib's fallback where the locale cannot write it
                out += (f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}").encode()
            return p + 1 + size
        out += b"\\"
        if e:
            out += _bytes(e)
            return p + 1
        return p

    def escape_string(self, arg: str) -> None:
        """%b: ARG with its escapes (\\0NNN octal)."""
        i, n = 0, len(arg)
        while i < n:
            k = arg.find("\\", i)
            if k < 0:
                self.out += _bytes(arg[i:])
                return
            self.out += _bytes(arg[i:k])
            i = self.escape(arg, k, True)

    # ---- the format (coreutils' print_formatted)
    def star(self, args: list[str], argi: int, what: str) -> tuple[int | None, int]:
        if argi >= len(args):
            return 0, argi
        value = self.integer(args[argi])
        if what == "width" and not -_INT_MAX - 1 <= value <= _INT_MAX:
            raise _Exit(1, f"invalid field width: {quote(args[argi], 'locale')}")
        if what == "precision":
            if value < 0:
                return None, argi + 1
            if value > _INT_MAX:
                raise _Exit(1, f"invalid precision: {quote(args[argi], 'locale')}")
        return value, argi + 1

    async def one_pass(self, fmt: str, args: list[str], limit: int) -> int:
        """FORMAT once through, with ARGS from the start: how many it used."""
        argi = 0
        i, n = 0, len(fmt)
        out = self.out
        while i < n:
            c = fmt[i]
            if c == "\\":
                i = self.escape(fmt, i, False)
                continue
            if c != "%":
                j = i
                while j < n and fmt[j] not in "%\\":
                    j += 1
                out += _bytes(fmt[i:j])
                i = j
                continue
            start = i
            i += 1
            nxt = fmt[i:i + 1]
            if nxt in ("%", "b", "q"):
                i += 1
                if nxt == "%":
                    out += b"%"
                elif argi < len(args):
                    if nxt == "b":
                        self.escape_string(args[argi])
                    else:
                        out += _bytes(quote(args[argi], "shell-escape"))
                    argi += 1
                continue
            ok = set("aAcdeEfFgGiosuxX")
            flags = ""
            while i < n and fmt[i] in "I'-+ #0":
                f = fmt[i]
                flags += f
                if f in "I'":
                    ok -= set("aAceEosxX")
                elif f == "#":
                    ok -= set("cdisu")
                elif f == "0":
                    ok -= set("cs")
                i += 1
            width: int | None = 0
            if fmt[i:i + 1] == "*":
                i += 1
                width, argi = self.star(args, argi, "width")
                if width is not None and width < 0:
                    flags += "-"
                    width = -width
            else:
                j = i
                while i < n and fmt[i].isdigit() and fmt[i].isascii():
                    i += 1
                width = int(fmt[j:i]) if i > j else 0
            prec: int | None = None
            if fmt[i:i + 1] == ".":
                i += 1
                ok.discard("c")
                if fmt[i:i + 1] == "*":
                    i += 1
                    prec, argi = self.star(args, argi, "precision")
                else:
                    j = i
                    while i < n and fmt[i].isdigit() and fmt[i].isascii():
                        i += 1
                    prec = int(fmt[j:i]) if i > j else 0
            while i < n and fmt[i] in "lLhjtz":
                i += 1
            conv = fmt[i:i + 1]
            if conv not in ok:
                raise _Exit(1, f"{fmt[start:i + 1]}: invalid conversion specification")
            i += 1
            widest = max(width or 0, prec or 0) if conv not in "cs" else (width or 0)
            if widest > limit:
                raise _Exit(1, f"field width {widest} exceeds the string limit (limit string_bytes)")
            arg = ""
            if argi < len(args):
                arg = args[argi]
                argi += 1
            width = width or 0
            if conv == "s":
                text = format_bytes(_bytes(arg), flags, width, prec)
            elif conv == "c":
                text = format_bytes(_bytes(arg)[:1] or b"\0", flags, width, None)
            elif conv in "di":
                text = format_int(self.integer(arg), flags, width, prec, conv).encode()
            elif conv in "ouxX":
                text = format_int(self.integer(arg, unsigned=True), flags, width, prec, conv).encode()
            else:
                text = format_float(self.long_double(arg), flags, width, prec, conv).encode()
            if self.messages or len(out) >= 65536:
                await self.flush()  # a number's message comes before the number
            out += text
        return argi


@command("printf", help=PRINTF_HELP, own_help=True)
async def printf(ctx: CommandContext) -> int:
    args = list(ctx.args)
    if len(args) == 1 and args[0] in ("--help", "--version"):
        await ctx.out(PRINTF_HELP + "\n" if args[0] == "--help" else "printf (GNU coreutils) 9.1\n")
        return 0
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        raise UsageError("missing operand", 1)
    fmt, rest = args[0], args[1:]
    state = _Printf(ctx)
    limit = (getattr(ctx.shell, "limits", None) or Limits()).string_bytes
    status = None
    try:
        while True:
            used = await state.one_pass(fmt, rest, limit)
            rest = rest[used:]
            if used == 0 or not rest:
                break
        if rest:
            state.messages.append(f"warning: ignoring excess arguments, starting with {quote(rest[0], 'locale')}")
    except _Exit as e:
        status = e.status
        if e.message:
            state.messages.append(e.message)
    await state.flush()
    return state.status if status is None else status
