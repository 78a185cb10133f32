"""POSIX regular expressions (BRE and ERE, with GNU extensions) translated to Python regex.

``translate(pattern, extended=False)`` returns Python regex source; ``compile_posix`` returns a
``PosixRegex`` ready for grep, sed and awk.

What is translated (GNU grep/sed semantics):
  * BRE: ``\\( \\) \\{m,n\\} \\1..\\9``, GNU ``\\+ \\? \\|``; ``* + ? { } | ( )`` are literal
    unescaped; ``*`` is literal at the start of the RE, of a group or of an alternative;
    ``^`` is an anchor only at the start (of the RE, a group, an alternative) and ``$`` only
    at the end, literal elsewhere.
  * ERE: ``( ) | + ? {m,n}``; a ``{`` that does not open a valid interval is literal; a
    repetition operator with nothing to repeat is ignored (GNU warns and does the same);
    back-references are accepted (GNU extension).
  * Both: bracket expressions with ``[:class:]``, ``[=c=]``, ``[.c.]``, ``]`` first, backslash
    literal inside; ``\\< \\> \\b \\B \\w \\W \\s \\S \\` \\'``.
  * Stacked repetitions (``a**``, ``a+?``) mean a repetition of a repetition, never Python's
    lazy/possessive forms.

Caveat: POSIX wants the leftmost-*longest* match, Python finds the leftmost match of the
first alternative that succeeds. The difference shows only with alternation (``a|ab``), so
patterns with alternation are compiled with the ``regex`` module's POSIX flag. Quantifiers are
greedy in both, which gives the same answer for everything else. Every call is bounded by the
run's wall time and interrupt (``bounded``: pass ``bounds=Bounds(deadline, cancel)``, or
``Bounds.of(ctx)`` in a command); a stopped call raises ``RegexStopped``.
"""
from __future__ import annotations

import functools
import re

import regex
from ...chars import isdigits
from ...lazy import lazy_compile
from .bounded import MAX_EXPANDED, Bounds, BoundedPattern, RegexStopped, cheap_length, expanded_size

__all__ = ["RegexError", "RegexStopped", "RegexTimeout", "Bounds", "translate", "compile_posix",
           "PosixRegex", "CLASSES"]

#: The name callers used before matches stopped with the run (a stop is not only a time-out).
RegexTimeout = RegexStopped


class RegexError(ValueError):
    """A malformed POSIX regex; the message is GNU's (e.g. ``Unmatched ( or \\(``)."""


# Character classes in the C locale, as Python bracket-expression bodies.
CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "0-9A-Za-z",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": "!-/:-@\\[-`{-~",
    "print": " -~",
    "graph": "!-~",
    "cntrl": "\\x00-\\x1f\\x7f",
    "xdigit": "0-9A-Fa-f",
}

_PY_SPECIAL = set(".^$*+?{}[]\\|()#&~ \t\n\r\f\v-")


def _lit(ch: str) -> str:
    """A literal character as Python regex source."""
    if ch in _PY_SPECIAL:
        return "\\" + ch if ch not in "\t\n\r\f\v" else {"\t": "\\t", "\n": "\\n", "\r": "\\r",
                                                         "\f": "\\f", "\v": "\\v"}[ch]
    return ch


def _class_lit(ch: str) -> str:
    if ch in "\\]^-[&~|":
        return "\\" + ch
    if ch == "\n":
        return "\\n"
    return ch


_SED_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


_HEX_BYTE = lazy_compile(r"x([0-9a-fA-F]{2})")


def sed_escape(text: str, i: int, utf8: bool = False) -> tuple[str, int] | None:
    r"""GNU sed's character escapes at ``text[i]`` (the character after a backslash):
    ``\n \t \r \f \v \a``, ``\xHH``, ``\oNNN``, ``\dNNN``, ``\cX``. Returns (character,
    index after the escape) or None when ``text[i]`` starts no such escape. ``utf8``: the
    text is characters of a UTF-8 locale, where ``\xce\xbc`` (the bytes of one character)
    is that character; a byte that begins or continues no whole character stays a byte."""
    if i >= len(text):
        return None
    ch = text[i]
    if ch in _SED_ESCAPES:
        return _SED_ESCAPES[ch], i + 1
    if utf8 and ch == "x" and (m := _HEX_BYTE.match(text, i)) and int(m.group(1), 16) >= 0x80:
        return _utf8_escape(text, i)
    digits = {"x": ("0123456789abcdefABCDEF", 2, 16), "o": ("01234567", 3, 8), "d": ("0123456789", 3, 10)}
    if ch in digits:
        allowed, most, base = digits[ch]
        j = i + 1
        while j < len(text) and j < i + 1 + most and text[j] in allowed:
            j += 1
        if j == i + 1:
            return None
        return chr(int(text[i + 1:j], base) & 0xFF if base != 16 else int(text[i + 1:j], 16)), j
    if ch == "c" and i + 1 < len(text):
        return chr(ord(text[i + 1].upper()) ^ 0x40), i + 2
    return None


def _utf8_escape(text: str, i: int) -> tuple[str, int]:
    """``\\xHH`` escapes from ``text[i]`` (at the x) that spell one UTF-8 character: it, and
    the index after them; else the first byte alone (a surrogate escape, as undecodable input
    bytes are)."""
    lead = int(text[i + 1:i + 3], 16)
    size = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 1
    raw = bytearray([lead])
    j = i + 3
    while len(raw) < size and text.startswith("\\", j) and (m := _HEX_BYTE.match(text, j + 1)):
        raw.append(int(m.group(1), 16))
        j = m.end()
    try:
        return raw.decode("utf-8"), j
    except UnicodeDecodeError:
        return bytes([lead]).decode("utf-8", "surrogateescape"), i + 3


def _parse_bracket(p: str, i: int, line_mode: bool = False, escapes: str = "", utf8: bool = False) -> tuple[str, int]:
    """Parse a bracket expression starting after ``[`` at ``p[i]``; return (python, next index).
    ``line_mode``: the subject holds many lines, so the set must never match a newline.
    ``escapes``: "" (POSIX: a backslash is literal), "sed" (``\\n``, ``\\t``... are escapes),
    "awk" (any backslash escapes the next character, as in gawk)."""
    n = len(p)
    negate = False
    if i < n and p[i] == "^":
        negate = True
        i += 1
    items: list[str] = []
    first = True
    while True:
        if i >= n:
            raise RegexError("Unmatched [, [^, [:, [., or [=")
        ch = p[i]
        if ch == "]" and not first:
            i += 1
            break
        first = False
        if ch == "[" and i + 1 < n and p[i + 1] in ":=.":
            kind = p[i + 1]
            end = p.find(kind + "]", i + 2)
            if end < 0:
                raise RegexError("Unmatched [, [^, [:, [., or [=")
            name = p[i + 2:end]
            i = end + 2
            if kind == ":":
                if name not in CLASSES:
                    raise RegexError("Invalid character class name")
                body = CLASSES[name]
                if line_mode:
                    body = body.replace("\\n", "")
                items.append(body)
                continue
            if len(name) != 1:
                raise RegexError("Invalid collation character")
            ch_value = name
        elif ch == "\\" and escapes and (got := _bracket_escape(p, i + 1, escapes, utf8)) is not None:
            ch_value, i = got
        else:
            ch_value = ch
            i += 1
        # a range?
        if i + 1 < n and p[i] == "-" and p[i + 1] != "]":
            i += 1
            hi = p[i]
            if hi == "[" and i + 1 < n and p[i + 1] in ".=":
                kind = p[i + 1]
                end = p.find(kind + "]", i + 2)
                if end < 0:
                    raise RegexError("Unmatched [, [^, [:, [., or [=")
                hi = p[i + 2:end]
                if len(hi) != 1:
                    raise RegexError("Invalid collation character")
                i = end + 2
            elif hi == "\\" and escapes and (got := _bracket_escape(p, i + 1, escapes, utf8)) is not None:
                hi, i = got
            else:
                i += 1
            if ord(hi) < ord(ch_value):
                raise RegexError("Invalid range end")
            items.append(_class_lit(ch_value) + "-" + _class_lit(hi))
            continue
        items.append(_class_lit(ch_value))
    body = "".join(items)
    if line_mode:
        if negate:
            body += "\\n"
        elif "\\n" in body or "\n" in body:
            raise _NotLineSafe()
    return ("[^" if negate else "[") + body + "]", i


def _bracket_escape(p: str, i: int, escapes: str, utf8: bool = False) -> tuple[str, int] | None:
    if escapes == "awk" and i < len(p) and p[i] in "01234567":
        j = i + 1
        while j < len(p) and j < i + 3 and p[j] in "01234567":
            j += 1
        return chr(int(p[i:j], 8)), j
    got = sed_escape(p, i, utf8)
    if got is not None:
        return got
    if escapes == "awk" and i < len(p):
        return p[i], i + 1
    return None


class _NotLineSafe(Exception):
    """The pattern could match a newline: it cannot run over many lines at once."""


class _Piece:
    __slots__ = ("src", "quantified", "repeatable")

    def __init__(self, src: str, quantified: bool = False, repeatable: bool = True) -> None:
        self.src = src
        self.quantified = quantified
        self.repeatable = repeatable


class _Translator:
    def __init__(self, pattern: str, extended: bool, multiline: bool, sed_escapes: bool,
                 line_mode: bool = False, awk: bool = False, utf8: bool = False) -> None:
        self.p = pattern
        self.awk = awk
        self.utf8 = utf8
        self.bracket_escapes = "awk" if awk else ("sed" if sed_escapes else "")
        sed_escapes = sed_escapes or awk
        self.line_mode = line_mode
        self.ere = extended
        self.multiline = multiline
        self.sed_escapes = sed_escapes
        self.i = 0
        self.groups_open = 0
        self.groups_closed: set[int] = set()
        self.has_alternation = False
        self.has_backref = False
        self.nested_repeat = False
        self.unbounded = 0  # unbounded repetitions: several can backtrack polynomially
        self.repetitions = 0  # every repetition operator applied

    def run(self) -> str:
        src = self.alternation(depth=0)
        if self.i < len(self.p):  # a stray close paren
            raise RegexError("Unmatched ) or \\)")
        return src

    # alternation := branch ( '|' branch )*
    def alternation(self, depth: int) -> str:
        branches = [self.branch(depth)]
        while self.at_alt():
            self.i += 2 if not self.ere else 1
            self.has_alternation = True
            branches.append(self.branch(depth))
        return "|".join(branches)

    def at_alt(self) -> bool:
        p, i = self.p, self.i
        if self.ere:
            return i < len(p) and p[i] == "|"
        return p.startswith("\\|", i)

    def at_close(self) -> bool:
        p, i = self.p, self.i
        if self.ere:
            return i < len(p) and p[i] == ")"
        return p.startswith("\\)", i)

    def at_branch_end(self, j: int) -> bool:
        """Is position j the end of a branch (for a BRE ``$`` anchor)?"""
        p = self.p
        if j >= len(p):
            return True
        if self.ere:
            return p[j] in "|)"
        return p.startswith("\\)", j) or p.startswith("\\|", j)

    def branch(self, depth: int) -> str:
        p = self.p
        pieces: list[_Piece] = []
        start = True  # at the start of the branch: '*' literal (BRE), '^' an anchor
        while self.i < len(p):
            if self.at_alt():
                break
            if self.at_close():
                if depth == 0 and self.ere:
                    # GNU ERE: an unmatched ')' is an ordinary character
                    self.i += 1
                    pieces.append(_Piece("\\)"))
                    start = False
                    continue
                if depth == 0:
                    raise RegexError("Unmatched ) or \\)")
                break
            ch = p[self.i]
            # repetition operators
            quant = self.read_quantifier(start, pieces)
            if quant is not None:
                if quant == "":
                    continue
                prev = pieces[-1] if pieces else None
                if prev is None or not prev.repeatable:
                    # nothing to repeat: GNU ignores the operator in ERE
                    start = False
                    continue
                if prev.quantified or (prev.src.startswith("(") and prev.src.endswith(")")
                                       and any(q in prev.src for q in "*+{")):
                    self.nested_repeat = True
                if prev.quantified:
                    prev.src = "(?:" + prev.src + ")"
                if quant in ("*", "+") or quant.endswith(",}"):
                    self.unbounded += 1
                self.repetitions += 1
                prev.src += quant
                prev.quantified = True
                start = False
                continue
            if ch == "^":
                self.i += 1
                after_anchor = bool(pieces) and pieces[-1].src == "^" and not self.ere
                if (start and not after_anchor) or self.ere:
                    pieces.append(_Piece("^", repeatable=False))
                    # in a BRE, '*' right after a leading '^' is literal
                    start = not self.ere
                    continue
                pieces.append(_Piece("\\^"))
                start = False
                continue
            if ch == "$":
                self.i += 1
                if self.ere or self.at_branch_end(self.i):
                    pieces.append(_Piece("$" if self.multiline else "\\Z", repeatable=False))
                else:
                    pieces.append(_Piece("\\$"))
                start = False
                continue
            if ch == "[":
                src, self.i = _parse_bracket(p, self.i + 1, self.line_mode, self.bracket_escapes, self.utf8)
                pieces.append(_Piece(src))
                start = False
                continue
            if ch == ".":
                self.i += 1
                pieces.append(_Piece("[^\\n]" if self.line_mode else "."))
                start = False
                continue
            if self.ere and ch == "(":
                self.i += 1
                pieces.append(self.group(depth))
                start = False
                continue
            if ch == "\\":
                if self.i + 1 >= len(p):
                    raise RegexError("Trailing backslash")
                nxt = p[self.i + 1]
                if not self.ere and nxt == "(":
                    self.i += 2
                    pieces.append(self.group(depth))
                    start = False
                    continue
                if not self.ere and nxt == "{" and start:
                    # GNU: an interval with nothing to repeat at the start is literal
                    self.i += 2
                    pieces.append(_Piece("\\{"))
                    start = False
                    continue
                self.i += 2
                pieces.append(self.escape(nxt))
                start = False
                continue
            if ch == "\n" and self.line_mode:
                raise _NotLineSafe()
            self.i += 1
            pieces.append(_Piece(_lit(ch)))
            start = False
        return "".join(pc.src for pc in pieces)

    def group(self, depth: int) -> _Piece:
        self.groups_open += 1
        number = self.groups_open
        inner = self.alternation(depth + 1)
        if not self.at_close():
            raise RegexError("Unmatched ( or \\(")
        self.i += 1 if self.ere else 2
        self.groups_closed.add(number)
        return _Piece("(" + inner + ")")

    def read_quantifier(self, start: bool, pieces: list[_Piece]) -> str | None:
        """A repetition operator at self.i as Python source ('' = consumed and ignored),
        or None when there is none."""
        p, i = self.p, self.i
        ch = p[i]
        if ch == "*":
            if not self.ere and (start or not pieces):
                return None  # literal
            self.i += 1
            return "*"
        if self.ere:
            if ch in "+?":
                self.i += 1
                return ch
            if ch == "{":
                m = re.match(r"\{([0-9]*)(,([0-9]*))?\}", p[i:])
                if not m or (m.group(1) == "" and m.group(2) is None):
                    return None  # literal '{'
                self.i += m.end()
                return self.interval(m)
            return None
        if ch == "\\" and i + 1 < len(p):
            nxt = p[i + 1]
            if nxt in "+?":
                if start or not pieces:
                    return None
                self.i += 2
                return nxt
            if nxt == "{":
                if start or not pieces:
                    return None
                end = p.find("\\}", i + 2)
                if end < 0:
                    raise RegexError("Unmatched \\{")
                m = re.fullmatch(r"([0-9]*)(,([0-9]*))?", p[i + 2:end])
                if not m:
                    raise RegexError("Invalid content of \\{\\}")
                self.i = end + 2
                return self.interval(m, offset=0)
        return None

    @staticmethod
    def interval(m: re.Match, offset: int = 1) -> str:
        lo_s = m.group(1)
        has_comma = m.group(2) is not None
        hi_s = m.group(3) if has_comma else lo_s
        lo = int(lo_s) if lo_s else 0
        hi = int(hi_s) if hi_s else None
        if hi is not None and hi < lo:
            raise RegexError("Invalid content of \\{\\}")
        if max(lo, hi or 0) > 32767:
            raise RegexError("Regular expression too big")
        if hi is None:
            return "{%d,}" % lo
        if hi == lo:
            return "{%d}" % lo
        return "{%d,%d}" % (lo, hi)

    def escape(self, ch: str) -> _Piece:
        if self.awk and ch in "01234567":
            # awk has no back-references: \NNN is an octal character code
            j = self.i
            while j < len(self.p) and j < self.i + 2 and self.p[j] in "01234567":
                j += 1
            value = chr(int(ch + self.p[self.i:j], 8))
            self.i = j
            return _Piece(_lit(value))
        if isdigits(ch) and ch != "0":
            number = int(ch)
            if number not in self.groups_closed:
                raise RegexError("Invalid back reference")
            self.has_backref = True
            return _Piece("(?:\\%d)" % number)
        simple = {
            "<": ("\\b(?=\\w)", False), ">": ("\\b(?<=\\w)", False),
            "b": ("\\b", False), "B": ("\\B", False),
            "w": ("\\w", True), "W": ("\\W", True), "s": ("\\s", True), "S": ("\\S", True),
            "`": ("\\A", False), "'": ("\\Z", False),
        }
        if self.line_mode:
            if ch in "`'":
                raise _NotLineSafe()
            if ch == "W":
                return _Piece("[^\\w\\n]")
            if ch == "s":
                return _Piece("[^\\S\\n]")
        if ch == "y" and self.awk:
            ch = "b"  # gawk's word boundary
        if ch in simple:
            src, rep = simple[ch]
            return _Piece(src, repeatable=rep)
        if self.sed_escapes:
            got = sed_escape(self.p, self.i - 1, self.utf8)
            if got is not None:
                value, self.i = got
                if self.line_mode and value == "\n":
                    raise _NotLineSafe()
                return _Piece(_lit(value))
        return _Piece(_lit(ch))


def translate(pattern: str, extended: bool = False, *, multiline: bool = False,
              sed_escapes: bool = False, awk: bool = False) -> str:
    """Python regex source for a POSIX BRE (or ERE when ``extended``). ``multiline``: ``$``
    may match before a newline (sed's M flag; compile with re.M). ``sed_escapes``: ``\\n``,
    ``\\t``... mean the control characters, as in sed and awk."""
    return _Translator(pattern, extended, multiline, sed_escapes, awk=awk).run()


class PosixRegex(BoundedPattern):
    """A compiled POSIX regex: ``search``, ``match``, ``fullmatch``, ``findall``, ``sub``,
    ``subn``, ``split``, ``finditer`` like Python's, each call bounded (``bind(bounds)``).
    ``python`` is the translated source, ``groups`` its group count; ``risky`` says that the
    pattern may backtrack a lot (alternation, back-references, nested or several unbounded
    repetitions). ``repetitions`` (None: no bound on the work) lets short subjects run in
    ``re``."""

    __slots__ = ("python", "flags", "risky", "groups", "repetitions")

    def __init__(self, pattern: str, python: str, flags: int, risky: bool = False, posix: bool = False,
                 repetitions: int | None = None, bounds: Bounds | None = None) -> None:
        self.python = python
        #: the ``re`` flags it was made with (``compiled.flags`` are the regex module's: its A differs)
        self.flags = flags
        self.risky = risky
        self.repetitions = repetitions
        rflags = regex.V0 | (regex.POSIX if posix else 0)
        for flag, rflag in ((re.I, regex.I), (re.M, regex.M), (re.S, regex.S), (re.A, regex.A)):
            if flags & flag:
                rflags |= rflag
        if expanded_size(python) > MAX_EXPANDED:  # GNU's message: its matcher also writes them out
            raise RegexError("Regular expression too big")
        try:
            compiled = regex.compile(python, rflags)
        except regex.error as e:
            raise RegexError(str(e)) from None
        cheap = -1 if posix else cheap_length(len(python), repetitions)
        quick = None
        if cheap >= 0:
            try:
                quick = re.compile(python, flags)
            except re.error:
                quick = None
        super().__init__(compiled, bounds, pattern, quick, cheap)
        self.groups = compiled.groups

    def finditer_nonoverlapping(self, string: str):
        """Matches as GNU finds them for ``g`` substitution and ``grep -o``: leftmost,
        non-overlapping, and an empty match is not allowed right where the previous match
        ended."""
        pos = 0
        prev_end = -1
        n = len(string)
        search = self.search
        while pos <= n:
            m = search(string, pos)
            if m is None:
                return
            start, end = m.span()
            if start == end and start == prev_end:
                if start >= n:
                    return
                pos = start + 1
                continue
            yield m
            prev_end = end
            pos = end if end > start else end + 1
            if end == start and start >= n:
                return


def compile_posix(pattern: str, extended: bool = False, *, ignore_case: bool = False,
                  multiline: bool = False, sed_escapes: bool = False, dotall: bool = True,
                  python: bool = False, awk: bool = False, ascii: bool = False,
                  bounds: Bounds | None = None) -> PosixRegex:
    """Compile a POSIX BRE/ERE (or, with ``python=True``, a Perl-style pattern as grep -P);
    its calls stop with ``bounds`` (default: a 30 s budget from now). A short pattern compiled
    before is that same object, bound to ``bounds`` now (a loop runs the same sed again)."""
    key = (pattern, extended, ignore_case, multiline, sed_escapes, dotall, python, awk, ascii)
    rx = _COMPILED.get(key) if len(pattern) <= 1024 else None
    if rx is not None:
        rx.bind(bounds or Bounds.budget())
        return rx
    rx = _compile_posix(pattern, extended, ignore_case, multiline, sed_escapes, dotall, python, awk, ascii, bounds)
    if len(pattern) <= 1024:
        if len(_COMPILED) >= 256:
            _COMPILED.clear()
        _COMPILED[key] = rx
    return rx


_COMPILED: dict[tuple, PosixRegex] = {}


def _compile_posix(pattern: str, extended: bool, ignore_case: bool, multiline: bool, sed_escapes: bool,
                   dotall: bool, python: bool, awk: bool, ascii: bool, bounds: Bounds | None) -> PosixRegex:
    repetitions: int | None
    if python:
        src = pattern
        risky, posix, repetitions = True, False, None
    elif len(pattern) <= 1024:
        src, risky, posix, repetitions = _translated(pattern, extended, multiline, sed_escapes, awk, not ascii)
    else:
        src, risky, posix, repetitions = _translate(pattern, extended, multiline, sed_escapes, awk, not ascii)
    flags = (re.I if ignore_case else 0) | (re.M if multiline else 0) | (re.S if dotall else 0)
    if ascii:  # C locale: \w, \b and case folding know ASCII only
        flags |= re.A
    return PosixRegex(pattern, src, flags, risky, posix, repetitions, bounds)


def _translate(pattern: str, extended: bool, multiline: bool, sed_escapes: bool,
               awk: bool, utf8: bool = False) -> tuple[str, bool, bool, int | None]:
    """(Python source, risky, has alternation, repetitions) of a POSIX pattern; ``utf8``: a
    UTF-8 locale's (escaped bytes that spell a character are that character)."""
    translator = _Translator(pattern, extended, multiline, sed_escapes, awk=awk, utf8=utf8)
    src = translator.run()
    return src, _risky(translator), translator.has_alternation, _repetitions(translator)


#: a loop runs the same sed or grep again and again: short patterns are translated once
_translated = functools.lru_cache(maxsize=256)(_translate)


def translate_lines(pattern: str, extended: bool = False, *, sed_escapes: bool = False,
                    utf8: bool = False) -> tuple[str, bool, bool, int | None] | None:
    """Python source that matches like ``pattern`` on one line but can run over a text of many
    lines at once (compile with re.M, without re.S): it never matches a newline, and ``^``/``$``
    are line anchors. Returns (source, risky, has_alternation, repetitions: None when the
    pattern's work has no bound, see ``compile_posix``), or None when the pattern could match
    a newline (then callers go line by line)."""
    if len(pattern) <= 1024:
        return _translated_lines(pattern, extended, sed_escapes, utf8)
    return _translate_lines(pattern, extended, sed_escapes, utf8)


def _translate_lines(pattern: str, extended: bool, sed_escapes: bool,
                     utf8: bool) -> tuple[str, bool, bool, int | None] | None:
    translator = _Translator(pattern, extended, True, sed_escapes, line_mode=True, utf8=utf8)
    try:
        src = translator.run()
    except _NotLineSafe:
        return None
    return src, _risky(translator), translator.has_alternation, _repetitions(translator)


_translated_lines = functools.lru_cache(maxsize=256)(_translate_lines)


def _risky(translator: _Translator) -> bool:
    return (translator.has_backref or translator.nested_repeat or translator.has_alternation
            or translator.unbounded > 1)


def _repetitions(translator: _Translator) -> int | None:
    """How many repetitions bound the pattern's work (None: no bound, see ``cheap_length``)."""
    if translator.has_backref or translator.nested_repeat or translator.has_alternation:
        return None
    return translator.repetitions


def compile_python(src: str, *, ignore_case: bool = False, multiline: bool = False,
                   dotall: bool = False, risky: bool = False, posix: bool = False,
                   ascii: bool = False, bounds: Bounds | None = None, shown: str | None = None,
                   repetitions: int | None = None) -> PosixRegex:
    """A PosixRegex from already-translated Python source; ``shown`` is the user's pattern,
    ``repetitions`` those of the user's pattern when wrapping it in line-bounded ``[^\\n]*``
    (they add no backtracking of their own: see ``translate_lines``). Like ``compile_posix``, a
    short source compiled before is that same object, bound to ``bounds`` now."""
    key = (src, ignore_case, multiline, dotall, risky, posix, ascii, shown, repetitions)
    rx = _COMPILED_PYTHON.get(key) if len(src) <= 1024 else None
    if rx is not None:
        rx.bind(bounds or Bounds.budget())
        return rx
    flags = (re.I if ignore_case else 0) | (re.M if multiline else 0) | (re.S if dotall else 0)
    if ascii:
        flags |= re.A
    rx = PosixRegex(src if shown is None else shown, src, flags, risky, posix, repetitions, bounds)
    if len(src) <= 1024:
        if len(_COMPILED_PYTHON) >= 256:
            _COMPILED_PYTHON.clear()
        _COMPILED_PYTHON[key] = rx
    return rx


_COMPILED_PYTHON: dict[tuple, PosixRegex] = {}
