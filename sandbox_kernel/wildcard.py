"""Wildcard patterns (``*``, ``?``, ``[...]``) matched in linear time, without backtracking.

A pattern compiles to a list of tokens and runs as a bit-parallel NFA: the set of pattern
positions reached so far is one Python int, updated once per text character. So one match
costs O(len(text)) big-int steps whatever the pattern (a backtracking regex needs exponential
time on ``*a*a*a*a*b``), and the set of all match ends from one start falls out of the same
pass (``ends``), which prefix/suffix stripping and replacement need.

Backslash quotes the next character (``\\*`` is a literal star). ``[...]`` takes ``!``/``^``
negation, ranges, ``[:class:]`` (ASCII, as in the C locale), ``[=c=]`` and ``[.c.]``; an
unclosed ``[`` is literal. With ``pathname`` (fnmatch's FNM_PATHNAME) only a literal ``/``
matches ``/``. Used by the shell (``shell/pattern.py``) and by commands (``find -name``,
``tar --exclude``): ``fnmatch(pattern, name)``.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator

__all__ = ["Budget", "CharSet", "Wildcard", "bracket_end", "compile_wildcard", "excluded", "fnmatch", "parse_bracket"]

#: characters between two budget checks in a long match
CHECK_EVERY = 1024

CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": lambda c: c.isascii() and c.isalpha(),
    "digit": lambda c: "0" <= c <= "9",
    "alnum": lambda c: c.isascii() and c.isalnum(),
    "upper": lambda c: "A" <= c <= "Z",
    "lower": lambda c: "a" <= c <= "z",
    "space": lambda c: c in " \t\n\r\f\v",
    "blank": lambda c: c in " \t",
    "punct": lambda c: c.isascii() and 33 <= ord(c) <= 126 and not c.isalnum(),
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
    "cntrl": lambda c: ord(c) < 32 or ord(c) == 127,
    "print": lambda c: 32 <= ord(c) <= 126,
    "graph": lambda c: 33 <= ord(c) <= 126,
    "word": lambda c: c == "_" or (c.isascii() and c.isalnum()),
}


class Budget:
    """How long a match may run: ``check()`` raises (the caller's exception) when the run is
    cancelled or past its deadline; ``deadline`` is a ``time.monotonic()`` value."""

    __slots__ = ("check", "deadline")

    def __init__(self, check: Callable[[], None], deadline: float = float("inf")) -> None:
        self.check = check
        self.deadline = deadline

    def remaining(self) -> float:
        return self.deadline - time.monotonic()


class CharSet:
    """One bracket expression."""

    __slots__ = ("negate", "chars", "ranges", "class_names")

    def __init__(self, negate: bool, chars: set[str], ranges: list[tuple[str, str]],
                 class_names: list[str]) -> None:
        self.negate = negate
        self.chars = frozenset(chars)
        self.ranges = ranges
        #: the [:name:] classes (known names only)
        self.class_names = class_names

    def contains(self, c: str) -> bool:
        hit = c in self.chars or any(lo <= c <= hi for lo, hi in self.ranges) or \
            any(CLASSES[name](c) for name in self.class_names)
        return hit != self.negate

    def contains_folded(self, c: str) -> bool:
        """``contains`` without case (bash's nocasematch, fnmatch's FNM_CASEFOLD): the character,
        the listed ones and the range ends lowercased; a [:class:] sees the character as it is."""
        f = c.lower()
        hit = any(f == m.lower() for m in self.chars) or any(lo.lower() <= f <= hi.lower() for lo, hi in self.ranges) \
            or any(CLASSES[name](c) for name in self.class_names)
        return hit != self.negate


STAR = "*"   # a token: any run of characters
ANY = "?"    # a token: any one character


def bracket_end(pat: str, i: int) -> int:
    """Index of the ``]`` closing the bracket expression that starts at ``pat[i] == '['``,
    or -1 when there is none (the ``[`` is then a literal)."""
    j = i + 1
    n = len(pat)
    if j < n and pat[j] in "!^":
        j += 1
    if j < n and pat[j] == "]":
        j += 1
    while j < n:
        c = pat[j]
        if c == "\\":
            j += 2
            continue
        if c == "[" and j + 1 < n and pat[j + 1] in ":=.":
            close = pat.find(pat[j + 1] + "]", j + 2)
            if close >= 0:
                j = close + 2
                continue
        if c == "]":
            return j
        j += 1
    return -1


def parse_bracket(body: str) -> CharSet:
    """The set of a bracket expression's body (the text between ``[`` and ``]``)."""
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    class_names: list[str] = []
    # (character, whether it may start/end a range): an escaped '-' is always literal
    items: list[tuple[str, bool]] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "[" and i + 1 < n and body[i + 1] in ":=.":
            close = body.find(body[i + 1] + "]", i + 2)
            if close < 0 and body[i + 1] == ".":
                return CharSet(False, set(), [], [])  # an unclosed [. : nothing matches (bash, glibc)
            if close >= 0:
                name = body[i + 2:close]
                if body[i + 1] == ":":
                    if name in CLASSES:
                        class_names.append(name)
                else:
                    chars.update(name)
                i = close + 2
                continue
        if c == "\\" and i + 1 < n:
            items.append((body[i + 1], body[i + 1] != "-"))
            i += 2
            continue
        items.append((c, True))
        i += 1
    k = 0
    while k < len(items):
        c, can_range = items[k]
        if can_range and k + 2 < len(items) and items[k + 1] == ("-", True) and items[k + 2][1]:
            lo, hi = c, items[k + 2][0]
            if lo <= hi:  # a reversed range matches nothing
                ranges.append((lo, hi))
            k += 3
            continue
        chars.add(c)
        k += 1
    return CharSet(negate, chars, ranges, class_names)


class _Literal(str):
    """A literal character token (a str subclass, so a quoted '*' is not the STAR token)."""

    __slots__ = ()


def tokenize(pat: str) -> list[str | CharSet]:
    """Tokens: STAR, ANY, a CharSet, or a one-character literal string (consecutive stars
    are one)."""
    tokens: list[str | CharSet] = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "*":
            if not tokens or tokens[-1] is not STAR:
                tokens.append(STAR)
        elif c == "?":
            tokens.append(ANY)
        elif c == "[":
            end = bracket_end(pat, i)
            if end < 0:
                tokens.append(_Literal("["))
            else:
                tokens.append(parse_bracket(pat[i + 1:end]))
                i = end
        elif c == "\\" and i + 1 < n:
            i += 1
            tokens.append(_Literal(pat[i]))  # a literal, even if it is '*' or '?'
        else:
            tokens.append(_Literal(c))
        i += 1
    return tokens


class Wildcard:
    """A compiled wildcard pattern."""

    __slots__ = ("tokens", "nocase", "pathname", "stars", "accept", "start", "_masks", "_reverse", "_segments")

    def __init__(self, pattern: str | list[str | CharSet], nocase: bool = False, pathname: bool = False) -> None:
        self.tokens = tokenize(pattern) if isinstance(pattern, str) else pattern
        self.nocase = nocase
        self.pathname = pathname
        stars = 0
        for k, t in enumerate(self.tokens):
            if t is STAR:
                stars |= 1 << k
        self.stars = stars
        self.accept = 1 << len(self.tokens)
        self.start = self._closure(1)
        self._masks: dict[str, int] = {}
        self._reverse: Wildcard | None = None
        self._segments = None if nocase or pathname else _literal_segments(self.tokens)

    def _closure(self, states: int) -> int:
        # a star may match nothing: reaching it also reaches the token after it
        return states | ((states & self.stars) << 1)

    def _mask(self, c: str) -> int:
        """Bits of the one-character tokens that match ``c``."""
        mask = 0
        nocase = self.nocase
        slash = self.pathname and c == "/"
        for k, t in enumerate(self.tokens):
            if t is STAR:
                continue
            if t is ANY:
                hit = not slash
            elif isinstance(t, CharSet):
                hit = not slash and (t.contains_folded(c) if nocase else t.contains(c))
            else:
                hit = c == t or (nocase and c.lower() == t.lower())
            if hit:
                mask |= 1 << k
        if len(self._masks) < 4096:
            self._masks[c] = mask
        return mask

    def ends(self, text: str, start: int = 0, budget: Budget | None = None) -> Iterator[int]:
        """Every ``j`` (ascending) where ``text[start:j]`` matches the whole pattern."""
        states = self.start
        accept = self.accept
        if states & accept:
            yield start
        masks = self._masks
        stars = self.stars
        slash_stops = self.pathname
        countdown = CHECK_EVERY
        for j in range(start, len(text)):
            c = text[j]
            mask = masks.get(c)
            if mask is None:
                mask = self._mask(c)
            keep = 0 if slash_stops and c == "/" else states & stars
            states = ((states & mask) << 1) | keep
            if not states:
                return
            states |= (states & stars) << 1
            if states & accept:
                yield j + 1
            countdown -= 1
            if countdown == 0 and budget is not None:
                budget.check()
                countdown = CHECK_EVERY

    def fullmatch(self, text: str, budget: Budget | None = None) -> bool:
        """Does the whole of ``text`` match (``ends`` run to the end, without a generator)?"""
        if self._segments is not None:
            return _segments_match(self._segments, text)
        states = self.start
        masks = self._masks
        stars = self.stars
        slash_stops = self.pathname
        countdown = CHECK_EVERY
        for c in text:
            mask = masks.get(c)
            if mask is None:
                mask = self._mask(c)
            keep = 0 if slash_stops and c == "/" else states & stars
            states = ((states & mask) << 1) | keep
            if not states:
                return False
            states |= (states & stars) << 1
            countdown -= 1
            if countdown == 0 and budget is not None:
                budget.check()
                countdown = CHECK_EVERY
        return bool(states & self.accept)

    def literal_test(self) -> Callable[[str], bool] | None:
        """``fullmatch`` without a budget (it is linear), for a pattern of literal texts between
        stars: ``*.txt``, ``a*``, ``*7*``, ``a*b*c``; None for other patterns."""
        segments = self._segments
        if segments is None:
            return None
        if len(segments) == 1:
            return segments[0].__eq__
        if len(segments) == 3 and not segments[0] and not segments[2]:
            middle = segments[1]
            return lambda text: middle in text
        return lambda text: _segments_match(segments, text)

    def starts(self, text: str, budget: Budget | None = None) -> Iterator[int]:
        """Every ``i`` (descending) where ``text[i:]`` matches the whole pattern."""
        rev = self._reverse
        if rev is None:
            rev = self._reverse = Wildcard(self.tokens[::-1], self.nocase, self.pathname)
        n = len(text)
        for j in rev.ends(text[::-1], 0, budget):
            yield n - j


def _literal_segments(tokens: list) -> list[str] | None:
    """The literal texts between the stars of a pattern of only literals and stars (``*.txt``,
    ``a*b*c``), else None."""
    segments = [""]
    for t in tokens:
        if t is STAR:
            segments.append("")
        elif t is ANY or type(t) is CharSet:
            return None
        else:
            segments[-1] += t
    return segments


def _segments_match(segments: list[str], text: str) -> bool:
    """A pattern of literal segments between stars: the first at the start, the last at the
    end, the others in order between them, each found leftmost (str.find: C speed, and
    leftmost is never wrong when the pieces between stars are literal)."""
    first = segments[0]
    if len(segments) == 1:
        return text == first
    last = segments[-1]
    if len(text) < len(first) + len(last) or not text.startswith(first) or not text.endswith(last):
        return False
    pos = len(first)
    end = len(text) - len(last)
    for k in range(1, len(segments) - 1):
        seg = segments[k]
        found = text.find(seg, pos, end)
        if found < 0:
            return False
        pos = found + len(seg)
    return True


_CACHE: dict[tuple[str, bool, bool], Wildcard] = {}


def compile_wildcard(pattern: str, nocase: bool = False, pathname: bool = False) -> Wildcard:
    key = (pattern, nocase, pathname)
    w = _CACHE.get(key)
    if w is None:
        if len(_CACHE) > 4000:
            _CACHE.clear()
        w = _CACHE[key] = Wildcard(pattern, nocase, pathname)
    return w


def fnmatch(pattern: str, text: str, *, nocase: bool = False, pathname: bool = False, period: bool = False,
            leading_dir: bool = False, budget: Budget | None = None) -> bool:
    """Does the whole of ``text`` match the wildcard ``pattern``? fnmatch(3) with its flags:
    ``nocase`` FNM_CASEFOLD, ``pathname`` FNM_PATHNAME (only a literal ``/`` matches ``/``),
    ``period`` FNM_PERIOD (a leading ``.``, after a ``/`` too with ``pathname``, only matches a
    literal ``.``), ``leading_dir`` FNM_LEADING_DIR (a match of the text up to a ``/`` will do).
    The one matcher of names: the shell, find, tar, grep, du, diff, zip and unzip use it
    (tests/test_wildcard.py holds it to the C library's fnmatch)."""
    w = compile_wildcard(pattern, nocase, pathname)
    if period and _hidden_period(w, text, pathname):
        return False
    if not leading_dir:
        return w.fullmatch(text, budget)
    n = len(text)
    return any(j == n or text[j] == "/" for j in w.ends(text, 0, budget))


def _hidden_period(w: Wildcard, text: str, pathname: bool) -> bool:
    """FNM_PERIOD: does a leading ``.`` of ``text`` (of each segment, with ``pathname``) meet
    a wildcard instead of a literal ``.`` in the pattern? With ``pathname`` segments line up
    with the pattern's literal slashes, else only the text's first character is leading."""
    if not pathname:
        return text[:1] == "." and not _literal_dot(w.tokens, 0)
    if "." not in text:
        return False
    # the pattern's segments: tokens between literal slashes
    starts = [0] + [k + 1 for k, t in enumerate(w.tokens) if type(t) is _Literal and t == "/"]
    for k, segment in enumerate(text.split("/")):
        if k >= len(starts):  # past the pattern's last slash: no match, or a leading_dir rest
            break
        if segment[:1] == "." and not _literal_dot(w.tokens, starts[k]):
            return True
    return False


def _literal_dot(tokens: list, k: int) -> bool:
    return k < len(tokens) and type(tokens[k]) is _Literal and tokens[k] == "."


def excluded(pattern: str, name: str, *, anchored: bool = False, nocase: bool = False,
             leading_dir: bool = False) -> bool:
    """GNU's --exclude rule (gnulib exclude.c, for tar, du, grep and diff): ``fnmatch`` on the
    whole ``name`` or, unless ``anchored``, on what follows any ``/`` in it."""
    if fnmatch(pattern, name, nocase=nocase, leading_dir=leading_dir):
        return True
    if anchored:
        return False
    return any(name[k] == "/" and name[k + 1:k + 2] != "/"
               and fnmatch(pattern, name[k + 1:], nocase=nocase, leading_dir=leading_dir)
               for k in range(len(name)))
