"""tr: translate, squeeze and delete bytes (C locale)."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from ._lib.quoting import quote
from ._lib.textio import BatchWriter, Fail, run_guarded
from .options import UsageError, getopt
from .registry import CommandContext, command

TR_HELP = """\
Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help              display this help and exit

ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \\NNN            character with octal value NNN (1 to 3 octal digits)
  \\\\              backslash
  \\a              audible BEL
  \\b              backspace
  \\f              form feed
  \\n              new line
  \\r              return
  \\t              horizontal tab
  \\v              vertical tab
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:]       all letters and digits
  [:alpha:]       all letters
  [:blank:]       all horizontal whitespace
  [:cntrl:]       all control characters
  [:digit:]       all digits
  [:graph:]       all printable characters, not including space
  [:lower:]       all lower case letters
  [:print:]       all printable characters, including space
  [:punct:]       all punctuation characters
  [:space:]       all horizontal or vertical whitespace
  [:upper:]       all upper case letters
  [:xdigit:]      all hexadecimal digits
  [=CHAR=]        all characters which are equivalent to CHAR

Translation occurs if -d is not given and both STRING1 and STRING2 appear.
-t may be used only when translating.  ARRAY2 is extended to length of
ARRAY1 by repeating its last character as necessary.  Excess characters
of ARRAY2 are ignored.  Character classes expand in unspecified order;
while translating, [:lower:] and [:upper:] may be used in pairs to
specify case conversion.  Squeezing occurs after translation or deletion."""


def _class(test) -> list[int]:
    return [c for c in range(256) if test(c)]


CLASSES = {
    "alnum": _class(lambda c: chr(c).isascii() and chr(c).isalnum()),
    "alpha": _class(lambda c: chr(c).isascii() and chr(c).isalpha()),
    "blank": [9, 32],
    "cntrl": _class(lambda c: c < 32 or c == 127),
    "digit": list(range(48, 58)),
    "graph": list(range(33, 127)),
    "lower": list(range(97, 123)),
    "print": list(range(32, 127)),
    "punct": _class(lambda c: 33 <= c < 127 and not chr(c).isalnum()),
    "space": [9, 10, 11, 12, 13, 32],
    "upper": list(range(65, 91)),
    "xdigit": _class(lambda c: chr(c) in "0123456789ABCDEFabcdef"),
}

_SIMPLE_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("n"): 10, ord("r"): 13,
                   ord("t"): 9, ord("v"): 11, ord("\\"): 92}


@dataclass
class Element:
    kind: str            # "char", "range", "class", "equiv", "repeat"
    values: list[int]
    name: str = ""       # class name
    fill: bool = False   # [c*]: repeat to fill
    char: int = 0        # the repeated character of [c*n]


def _unescape(text: str) -> tuple[list[tuple[int, bool]], bool]:
    """Bytes of ``text`` with backslash escapes done: (value, was_escaped) pairs."""
    raw = text.encode("utf-8", "surrogateescape")
    out: list[tuple[int, bool]] = []
    warned = False
    i = 0
    while i < len(raw):
        c = raw[i]
        if c != 0x5C:
            out.append((c, False))
            i += 1
            continue
        if i + 1 >= len(raw):
            out.append((0x5C, True))
            warned = True
            i += 1
            continue
        n = raw[i + 1]
        if 0x30 <= n <= 0x37:
            j = i + 1
            value = 0
            while j < len(raw) and j < i + 4 and 0x30 <= raw[j] <= 0x37 and value * 8 + raw[j] - 48 <= 255:
                value = value * 8 + raw[j] - 48
                j += 1
            out.append((value, True))
            i = j
            continue
        out.append((_SIMPLE_ESCAPES.get(n, n), True))
        i += 2
    return out, warned


def parse_set(text: str, is_set2: bool) -> tuple[list[Element], bool]:
    chars, warned = _unescape(text)
    elems: list[Element] = []
    i = 0
    n = len(chars)

    def lit(k: int, ch: str) -> bool:
        return k < n and chars[k][0] == ord(ch) and not chars[k][1]

    while i < n:
        c, esc = chars[i]
        if lit(i, "[") and i + 1 < n:
            # [:class:]
            if lit(i + 1, ":"):
                end = next((k for k in range(i + 2, n - 1) if lit(k, ":") and lit(k + 1, "]")), None)
                if end is not None:
                    name = bytes(v for v, _ in chars[i + 2:end]).decode("latin-1")
                    if name not in CLASSES:
                        raise Fail(f"invalid character class {quote(name, 'locale')}")
                    elems.append(Element("class", list(CLASSES[name]), name))
                    i = end + 2
                    continue
            # [=c=]
            if lit(i + 1, "=") and lit(i + 3, "=") and lit(i + 4, "]"):
                elems.append(Element("equiv", [chars[i + 2][0]]))
                i += 5
                continue
            # [c*n]
            if i + 2 < n and lit(i + 2, "*"):
                end = next((k for k in range(i + 3, n) if lit(k, "]")), None)
                if end is not None:
                    digits = bytes(v for v, _ in chars[i + 3:end]).decode("latin-1")
                    if digits == "" or re.fullmatch(r"[0-9]+", digits):
                        if digits and not re.fullmatch(r"0[0-7]*|[1-9][0-9]*", digits):
                            raise Fail(f"invalid repeat count {quote(digits, 'locale')} in [c*n] construct")
                        count = int(digits, 8 if digits.startswith("0") else 10) if digits else 0
                        if not is_set2 and not (digits and count):
                            raise Fail("the [c*] repeat construct may not appear in string1")
                        ch = chars[i + 1][0]
                        elems.append(Element("repeat", [ch] * count, fill=count == 0, char=ch))
                        i = end + 1
                        continue
        if i + 2 < n and lit(i + 1, "-"):
            hi = chars[i + 2][0]
            if hi < c:
                lo_s = chr(c) if 32 <= c < 127 else f"\\{c:03o}"
                hi_s = chr(hi) if 32 <= hi < 127 else f"\\{hi:03o}"
                raise Fail(f"range-endpoints of '{lo_s}-{hi_s}' are in reverse collating sequence order")
            elems.append(Element("range", list(range(c, hi + 1))))
            i += 3
            continue
        elems.append(Element("char", [c]))
        i += 1
    return elems, warned


def _squeezer(values: set[int]):
    if not values:
        return None
    cls = b"".join(re.escape(bytes([v])) for v in sorted(values))
    return re.compile(b"([" + cls + b"])\\1+")


class _Plan(NamedTuple):
    table: bytes | None          # translation
    delete_bytes: bytes
    squeeze_set: frozenset[int]
    squeezer: re.Pattern | None
    warned: bool                 # a lone backslash at the end of a string


def _plan(args: tuple[str, ...]) -> _Plan:
    """What tr's options and strings ask for; Fail or UsageError for a bad request."""
    # GNU tr stops at the first operand: "tr a -b" translates to "-b"
    opts, operands = getopt(list(args), "+cCdst", {
        "complement": "c", "delete": "d", "squeeze-repeats": "s", "truncate-set1": "t"}, status=1)
    flags = {o for o, _ in opts}
    complement = bool(flags & {"c", "C"})
    delete, squeeze, truncate = "d" in flags, "s" in flags, "t" in flags
    translating = not delete and len(operands) == 2
    if not operands:
        raise UsageError("missing operand", 1)
    if delete and squeeze:
        need = 2
    elif delete or (squeeze and len(operands) < 2):
        need = 1
    else:
        need = 2
    if len(operands) < need:
        if delete and squeeze:
            raise UsageError(f"missing operand after {quote(operands[0], 'locale')}\nTwo strings must be "
                             "given when both deleting and squeezing repeats.", 1)
        raise UsageError(f"missing operand after {quote(operands[0], 'locale')}\nTwo strings must be given "
                         "when translating.", 1)
    if len(operands) > need:
        extra = f"extra operand {quote(operands[need], 'locale')}"
        if delete and not squeeze:
            extra += "\nOnly one string may be given when deleting without squeezing repeats."
        raise UsageError(extra, 1)

    elems1, warn1 = parse_set(operands[0], False)
    elems2, warn2 = parse_set(operands[1], True) if len(operands) > 1 else ([], False)
    set1 = [v for e in elems1 for v in e.values]
    if complement:
        members = set(set1)
        set1 = [c for c in range(256) if c not in members]

    table = None
    delete_bytes = b""
    squeeze_set: set[int] = set()
    if sum(e.fill for e in elems2) > 1:
        raise Fail("only one [c*] repeat construct may appear in string2")
    if translating:
        if not elems2:
            raise Fail("when not truncating set1, string2 must be non-empty")
        # case-conversion classes in set2 must face a class in set1
        pos1: dict[int, str] = {}
        k = 0
        for e in elems1:
            if e.kind == "class":
                pos1[k] = e.name
            k += len(e.values)
        k = 0
        fixed2 = sum(len(e.values) for e in elems2 if not e.fill)
        set2: list[int] = []
        for e in elems2:
            if e.kind == "equiv":
                raise Fail("[=c=] expressions may not appear in string2 when translating")
            if e.kind == "class":
                if e.name not in ("upper", "lower"):
                    raise Fail("when translating, the only character classes that may appear in "
                               "string2 are 'upper' and 'lower'")
                if not complement and k <= len(set1) and pos1.get(k) not in ("upper", "lower"):
                    raise Fail("misaligned [:upper:] and/or [:lower:] construct")
            if e.fill:
                count = max(0, len(set1) - fixed2)
                set2.extend([e.char] * count)
                k += count
                continue
            set2.extend(e.values)
            k += len(e.values)
        if not set2:
            raise Fail("when not truncating set1, string2 must be non-empty")
        if not truncate and len(set1) > len(set2) and elems2[-1].kind == "class":
            raise Fail("when translating with string1 longer than string2,\n"
                       "the latter string must not end with a character class")
        if complement and any(e.kind == "class" for e in elems1) and len(set(set2)) > 1:
            raise Fail("when translating with complemented character classes,\n"
                       "string2 must map all characters in the domain to one")
        if truncate:
            set1 = set1[:len(set2)]
        elif len(set2) < len(set1):
            set2 = set2 + [set2[-1]] * (len(set1) - len(set2))
        mapping = list(range(256))
        for a, b in zip(set1, set2):
            mapping[a] = b
        table = bytes(mapping)
        if squeeze:
            squeeze_set = set(set2)
    else:
        if any(e.fill for e in elems2):
            raise Fail("the [c*] construct may appear in string2 only when translating")
        if delete:
            delete_bytes = bytes(sorted(set(set1)))
            if squeeze:
                squeeze_set = {v for e in elems2 for v in e.values}
        elif squeeze:
            squeeze_set = set(set1)
    return _Plan(table, delete_bytes, frozenset(squeeze_set), _squeezer(squeeze_set), warn1 or warn2)


#: a loop runs the same tr again and again: plans of short argument lists are kept
_cached_plan = functools.lru_cache(maxsize=128)(_plan)


@command("tr", help=TR_HELP)
@run_guarded
async def tr(ctx: CommandContext) -> int:
    args = tuple(ctx.args)
    plan = _cached_plan(args) if sum(map(len, args)) <= 1024 else _plan(args)
    if plan.warned:
        await ctx.error("warning: an unescaped backslash at end of string is not portable")
    table, delete_bytes, squeeze_set, squeezer = plan.table, plan.delete_bytes, plan.squeeze_set, plan.squeezer
    out = BatchWriter(ctx)
    last = -1
    while chunk := await ctx.stdin.read_some():
        ctx.check()
        if table is not None:
            chunk = chunk.translate(table)
        if delete_bytes:
            chunk = chunk.translate(None, delete_bytes)
        if squeezer is not None and chunk:
            chunk = squeezer.sub(rb"\1", chunk)
            if last in squeeze_set:
                chunk = chunk.lstrip(bytes([last]))
            if chunk:
                last = chunk[-1]
        await out.write(chunk)
    await out.flush()
    return 0
