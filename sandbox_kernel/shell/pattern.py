"""Shell patterns: matching, prefix/suffix removal, replacement and pathname expansion.

Patterns arrive with quoted characters backslash-escaped (the expander does that), so ``\\*``
is a literal star and ``*`` a wildcard. Plain wildcard patterns (``* ? [...]``, nearly all
of them) run on the linear-time matcher of ``sandbox_kernel.wildcard``; only patterns with an
extglob group become a regex, compiled by the ``regex`` module and run with a time budget, so
no pattern can hold the kernel past its wall time or an interrupt. The loops here (every
prefix, every position) check the ``Budget`` as they go.
"""
from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator

from ..lazy import lazy_import
from ..wildcard import Budget, CLASSES, CharSet, Wildcard, bracket_end, compile_wildcard, parse_bracket
from .state import too_many_words

regex = lazy_import("regex")  # extglob groups only: importing regex is ~10 ms

EXTGLOB_CHARS = frozenset("*?+@!")
#: seconds a regex match runs on the calling thread before it moves to a helper thread
REGEX_SLICE = 0.05
#: how often the caller looks at the budget while a helper thread matches
REGEX_POLL = 0.02
#: how far past the deadline the helper's own regex timeout lies (the budget ends it first)
REGEX_BACKSTOP = 1.0
#: positions tried between two budget checks in the prefix/suffix/replace loops
LOOP_CHECK = 256

@functools.cache
def _class_chars(name: str) -> str:
    """The ASCII characters of a [:class:], for regex character classes."""
    test = CLASSES[name]
    return "".join(re.escape(chr(k)) for k in range(128) if test(chr(k)))


def has_glob(pat: str, extglob: bool = True) -> bool:
    """Does ``pat`` contain an unescaped wildcard?"""
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "\\":
            i += 2
            continue
        if c in "*?":
            return True
        if c == "[":
            if bracket_end(pat, i) > 0:
                return True
        if extglob and c in "+@!" and i + 1 < n and pat[i + 1] == "(":
            return True
        i += 1
    return False


def has_extglob(pat: str) -> bool:
    """Does ``pat`` contain an unescaped extglob group such as ``@(a|b)``?"""
    i, n = 0, len(pat)
    while i < n - 1:
        c = pat[i]
        if c == "\\":
            i += 2
            continue
        if c in EXTGLOB_CHARS and pat[i + 1] == "(" and group_end(pat, i + 1) > 0:
            return True
        i += 1
    return False


def unescape(pat: str) -> str:
    """Remove the backslashes that quote characters (quote removal of a pattern)."""
    if "\\" not in pat:
        return pat
    out = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "\\" and i + 1 < n:
            out.append(pat[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


_SPECIAL = frozenset("*?[]\\+@!()|-^")


def escape(text: str) -> str:
    """Quote ``text`` so every character matches literally (also inside a bracket, where a
    quoted ``-`` is no range)."""
    if not any(c in _SPECIAL for c in text):
        return text
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def split_pattern_list(text: str) -> list[str]:
    """A colon-separated list of patterns (GLOBIGNORE): colons inside ``[...]`` belong to
    the pattern (``[[:alnum:]]*``)."""
    out = []
    start = i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            end = bracket_end(text, i)
            if end > 0:
                i = end + 1
                continue
        if c == ":":
            out.append(text[start:i])
            start = i + 1
        i += 1
    out.append(text[start:])
    return out


def group_end(pat: str, i: int) -> int:
    """Index of the ``)`` closing the ``(`` at ``i`` (backslash escapes skipped), or -1."""
    depth = 0
    n = len(pat)
    while i < n:
        c = pat[i]
        if c == "\\":
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


# ----------------------------------------------------------------------------- extglob regexes
def _bracket_regex(cs: CharSet, path: bool) -> str:
    inner = "".join(re.escape(c) for c in sorted(cs.chars))
    inner += "".join(f"{re.escape(lo)}-{re.escape(hi)}" for lo, hi in cs.ranges)
    inner += "".join(_class_chars(name) for name in cs.class_names)
    if cs.negate:
        return "[^" + inner + ("/" if path else "") + "]" if inner or path else "."
    return "[" + inner + "]" if inner else "(?!)"


def translate(pat: str, extglob: bool = True, path: bool = False) -> str:
    """The regex (without anchors) for a shell pattern."""
    out: list[str] = []
    i, n = 0, len(pat)
    star = "[^/]*" if path else ".*"
    any_char = "[^/]" if path else "."
    while i < n:
        c = pat[i]
        if extglob and c in EXTGLOB_CHARS and i + 1 < n and pat[i + 1] == "(":
            end = group_end(pat, i + 1)
            if end > 0:
                alts = [translate(a, extglob, path) for a in _split_alternatives(pat[i + 2:end])]
                group = "(?:" + "|".join(alts) + ")"
                if c == "?":
                    out.append(group + "?")
                elif c == "*":
                    out.append(group + "*")
                elif c == "+":
                    out.append(group + "+")
                elif c == "@":
                    out.append(group)
                else:  # !(...): anything that is not one of the alternatives
                    rest = translate(pat[end + 1:], extglob, path)
                    out.append(f"(?:(?!{group}{rest}\\Z){star})")
                i = end + 1
                continue
        if c == "*":
            while i + 1 < n and pat[i + 1] == "*":
                i += 1
            out.append(star)
        elif c == "?":
            out.append(any_char)
        elif c == "[":
            end = bracket_end(pat, i)
            if end < 0:
                out.append(r"\[")
            else:
                out.append(_bracket_regex(parse_bracket(pat[i + 1:end]), path))
                i = end
        elif c == "\\":
            if i + 1 < n:
                out.append(re.escape(pat[i + 1]))
                i += 1
            else:
                out.append(r"\\")
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _split_alternatives(body: str) -> list[str]:
    alts = []
    depth = 0
    cur = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            cur.append(body[i:i + 2])
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == "|" and depth == 0:
            alts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    alts.append("".join(cur))
    return alts


class RegexPattern:
    """An extglob pattern as a ``regex`` pattern; every match call runs under a budget: a
    short slice on this thread, then (a slow match) on a helper thread with the GIL released
    while this one polls the budget, so an interrupt or the wall time ends it."""

    __slots__ = ("rx",)

    def __init__(self, source: str, nocase: bool) -> None:
        flags = regex.DOTALL | (regex.IGNORECASE if nocase else 0)
        try:
            self.rx = regex.compile(source, flags)
        except regex.error:
            self.rx = regex.compile(r"(?!)")

    def _fullmatch(self, text: str, start: int, end: int, budget: Budget | None) -> bool:
        if budget is None:
            return self.rx.fullmatch(text, start, end) is not None
        budget.check()
        try:
            return self.rx.fullmatch(text, start, end, timeout=REGEX_SLICE) is not None
        except TimeoutError:
            pass
        while True:
            budget.check()
            result = self._match_on_helper(text, start, end, budget)
            if not isinstance(result, TimeoutError):
                return result is not None
            # the helper's own timeout is a backstop a little past the deadline; had it fired
            # first (clocks differ) the budget is not spent yet, so the match goes on

    @staticmethod
    def _wait(helper: threading.Thread, budget: Budget) -> None:
        while helper.is_alive():
            helper.join(REGEX_POLL)
            budget.check()

    def _match_on_helper(self, text: str, start: int, end: int, budget: Budget) -> object:
        box: list[object] = []

        def work() -> None:
            try:
                box.append(self.rx.fullmatch(text, start, end, concurrent=True,
                                             timeout=max(budget.remaining(), 0) + REGEX_BACKSTOP))
            except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                box.append(e)

        helper = threading.Thread(target=work, name="extglob-match", daemon=True)
        helper.start()
        self._wait(helper, budget)
        result = box[0] if box else None
        if isinstance(result, BaseException) and not isinstance(result, TimeoutError):
            raise result
        return result

    def fullmatch(self, text: str, budget: Budget | None = None) -> bool:
        return self._fullmatch(text, 0, len(text), budget)

    def ends(self, text: str, start: int = 0, budget: Budget | None = None) -> Iterator[int]:
        for j in range(start, len(text) + 1):
            if self._fullmatch(text, start, j, budget):
                yield j

    def starts(self, text: str, budget: Budget | None = None) -> Iterator[int]:
        n = len(text)
        for i in range(n, -1, -1):
            if self._fullmatch(text, i, n, budget):
                yield i


Matcher = Wildcard | RegexPattern
_CACHE: dict[tuple[str, bool, bool, bool], RegexPattern] = {}


def compile_pattern(pat: str, extglob: bool = True, nocase: bool = False, path: bool = False) -> Matcher:
    """A matcher for the whole of a text: ``fullmatch``, ``ends`` and ``starts``."""
    if not (extglob and has_extglob(pat)):
        return compile_wildcard(pat, nocase, path)
    key = (pat, extglob, nocase, path)
    rx = _CACHE.get(key)
    if rx is None:
        if len(_CACHE) > 4000:
            _CACHE.clear()
        rx = _CACHE[key] = RegexPattern(translate(pat, extglob, path), nocase)
    return rx


def match(pat: str, text: str, extglob: bool = True, nocase: bool = False, budget: Budget | None = None,
          bytewise: bool = False) -> bool:
    """Does the whole of ``text`` match the pattern? (``bytewise``: in a single-byte locale)"""
    if not nocase and not has_glob(pat, extglob):
        return unescape(pat) == text
    if bytewise:
        pat, text = as_bytes(pat), as_bytes(text)
    return compile_pattern(pat, extglob, nocase).fullmatch(text, budget)


def _first(it: Iterator[int]) -> int | None:
    return next(it, None)


def _last(it: Iterator[int]) -> int | None:
    end = None
    for end in it:
        pass
    return end


def as_bytes(text: str) -> str:
    """TEXT as a single-byte locale (LC_CTYPE=C) sees it: one character per UTF-8 byte, so a
    pattern's ``?`` or a length counts bytes."""
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def from_bytes(text: str) -> str:
    """``as_bytes`` undone (bytes that are no longer UTF-8 stay as surrogate escapes)."""
    return text.encode("latin-1").decode("utf-8", "surrogateescape")


def _prefix_end(text: str, pat: str, longest: bool, extglob: bool, budget: Budget | None) -> int | None:
    ends = compile_pattern(pat, extglob).ends(text, 0, budget)
    return _last(ends) if longest else _first(ends)


def _suffix_start(text: str, pat: str, longest: bool, extglob: bool, budget: Budget | None) -> int | None:
    starts = compile_pattern(pat, extglob).starts(text, budget)
    return _last(starts) if longest else _first(starts)


def strip_prefix(text: str, pat: str, longest: bool, extglob: bool = True, budget: Budget | None = None,
                 bytewise: bool = False) -> str:
    """``${x#pat}`` / ``${x##pat}``; ``bytewise``: in a single-byte locale."""
    if bytewise and not text.isascii():
        return from_bytes(strip_prefix(as_bytes(text), as_bytes(pat), longest, extglob, budget))
    end = _prefix_end(text, pat, longest, extglob, budget)
    return text if end is None else text[end:]


def strip_suffix(text: str, pat: str, longest: bool, extglob: bool = True, budget: Budget | None = None,
                 bytewise: bool = False) -> str:
    """``${x%pat}`` / ``${x%%pat}``; ``bytewise``: in a single-byte locale."""
    if bytewise and not text.isascii():
        return from_bytes(strip_suffix(as_bytes(text), as_bytes(pat), longest, extglob, budget))
    start = _suffix_start(text, pat, longest, extglob, budget)
    return text if start is None else text[:start]


def quote_replacement(text: str) -> str:
    """Quoted text in the replacement of ``${x/pat/rep}`` (bash's quote_string_for_repl): its
    ``&`` and ``\\`` backslash-escaped, so that they stay themselves."""
    if "&" not in text and "\\" not in text:
        return text
    return text.replace("\\", "\\\\").replace("&", "\\&")


def replacement(rep: str) -> str | tuple:
    """The replacement of ``${x/pat/rep}`` under patsub_replacement, from its expansion with
    quoted ``&`` and ``\\`` escaped (``quote_replacement``): REP itself when it has no ``&``,
    ``\\&`` or ``\\\\`` (a lone backslash stays); else a template, a tuple of literal text and
    None where the matched text goes (``\\&`` is ``&``, ``\\\\`` one backslash)."""
    if "&" not in rep and "\\\\" not in rep:
        return rep
    pieces: list[str | None] = []
    text: list[str] = []
    i, n = 0, len(rep)
    while i < n:
        c = rep[i]
        if c == "&":
            pieces.append("".join(text))
            text.clear()
            pieces.append(None)
        elif c == "\\" and i + 1 < n and rep[i + 1] in "&\\":
            text.append(rep[i + 1])
            i += 1
        else:
            text.append(c)
        i += 1
    pieces.append("".join(text))
    return tuple(pieces)


def _render(rep: str | tuple, match: str) -> str:
    if rep.__class__ is str:
        return rep
    return "".join(match if piece is None else piece for piece in rep)


def replace(text: str, pat: str, rep: str | tuple, mode: str, extglob: bool = True,
            budget: Budget | None = None, bytewise: bool = False) -> str:
    """``${x/pat/rep}``: mode is ``/`` (first), ``//`` (all), ``/#`` (prefix), ``/%`` (suffix);
    each match is the longest one at the leftmost position. REP is a string, or a template
    (``replacement``) that puts the matched text where ``&`` was; ``bytewise``: in a
    single-byte locale."""
    if bytewise and not text.isascii():
        rep = as_bytes(rep) if rep.__class__ is str else tuple(None if r is None else as_bytes(r) for r in rep)
        return from_bytes(replace(as_bytes(text), as_bytes(pat), rep, mode, extglob, budget))
    if mode == "/#":
        end = _prefix_end(text, pat, True, extglob, budget)
        return text if end is None else _render(rep, text[:end]) + text[end:]
    if mode == "/%":
        start = _suffix_start(text, pat, True, extglob, budget)
        return text if start is None else text[:start] + _render(rep, text[start:])
    if pat == "":
        return text
    if not has_glob(pat, extglob):
        # a literal: its one match at each place is itself
        literal = unescape(pat)
        return text.replace(literal, _render(rep, literal), -1 if mode == "//" else 1)
    matcher = compile_pattern(pat, extglob)
    out = []
    i = 0
    n = len(text)
    tried = 0
    while i <= n:
        tried += 1
        if budget is not None and tried % LOOP_CHECK == 0:
            budget.check()
        end = _last(matcher.ends(text, i, budget))
        if end is not None and end > i:
            out.append(_render(rep, text[i:end]))
            i = end
            if mode != "//":
                out.append(text[i:])
                return "".join(out)
            continue
        if i < n:
            out.append(text[i])
        i += 1
    return "".join(out)


# ----------------------------------------------------------------------------- pathnames
def glob_paths(fs, cwd: str, pattern: str, *, dotglob: bool = False, globstar: bool = False,
               extglob: bool = True, nocase: bool = False, skipdots: bool = True,
               budget: Budget | None = None, limit: int | None = None, bytewise: bool = False) -> list[str]:
    """Expand a (backslash-escaped) pattern against the VFS; sorted matches, [] when none;
    ``bytewise``: names matched as a single-byte locale sees them (``?`` is one byte).
    ``.`` and ``..`` match only a pattern that starts with a literal dot, and only when
    ``skipdots`` (shopt globskipdots) is off. More than ``limit`` paths at any step (the
    words limit: ``d*/../d*/../d*`` multiplies) raise LimitExceeded before they take memory."""
    if globstar and "**" in pattern.split("/"):
        walker = _Globstar(fs, cwd, dotglob, extglob, nocase, skipdots, budget, limit)
        return sorted(walker.glob(pattern, 0) or [])
    absolute = pattern.startswith("/")
    components = [c for c in pattern.split("/")]
    if absolute:
        components = components[1:]
        bases = ["/"]
    else:
        bases = [""]
    trailing_slash = pattern.endswith("/") and len(pattern) > 1
    comps = [c for c in components if c != ""]
    results = bases
    for k, comp in enumerate(comps):
        last = k == len(comps) - 1
        new: list[str] = []
        if not has_glob(comp, extglob):
            lit = unescape(comp)
            for k_base, base in enumerate(results):
                if budget is not None and k_base % LOOP_CHECK == LOOP_CHECK - 1:
                    budget.check()
                path = base + lit if base.endswith("/") or base == "" else base + "/" + lit
                if last:
                    if fs.exists(path, cwd, follow=False):
                        new.append(path)
                elif fs.is_dir(path, cwd):
                    new.append(path)
            results = new
            if not results:
                return []
            continue
        matcher = compile_pattern(as_bytes(comp) if bytewise else comp, extglob, nocase)
        leading_dot = unescape(comp).startswith(".")
        show_hidden = dotglob or leading_dot
        seen = 0
        for base in results:
            d = base or "."
            try:
                names = fs.listdir(d, cwd)
            except OSError:
                continue
            if leading_dot and not skipdots:
                names = [".", "..", *names]
            for name in names:
                seen += 1
                if budget is not None and seen % LOOP_CHECK == 0:
                    budget.check()
                if name[0] == "." and not show_hidden:
                    continue
                if matcher.fullmatch(as_bytes(name) if bytewise and not name.isascii() else name, budget):
                    path = base + name if base.endswith("/") or base == "" else base + "/" + name
                    if not last and not fs.is_dir(path, cwd):
                        continue
                    new.append(path)
                    if limit is not None and len(new) > limit:
                        raise too_many_words(limit)
        results = new
        if not results:
            return []
    if trailing_slash:
        results = [r + "/" for r in results if fs.is_dir(r, cwd)]
    if results == bases:
        return []
    return sorted(results)


# globstar: bash's glob_filename/glob_vector, whose results `**` patterns depend on in detail
# (`g/**` gives `g/`, `g/*/**` gives `g/h`, `g/**/**` gives `g`; symlinks to directories are
# listed, and searched by a following component, but never walked)
_ALLDIRS = 1     # `**`: every name below the directory, walked recursively
_ADDCURDIR = 2   # ... and the directory itself
_NULLDIR = 4     # no directory before the pattern: names relative to the cwd
_RECURSE = 8     # globbing the directory part of a longer pattern


def _is_starstar(pattern: str, i: int) -> bool:
    return pattern.startswith("**", i) and (i + 2 == len(pattern) or pattern[i + 2] == "/")


class _Globstar:
    """Pathname expansion of a pattern with a ``**`` component under ``shopt -s globstar``.
    ``glob`` returns the matches unsorted, or None where bash's glob fails (no match)."""

    def __init__(self, fs, cwd: str, dotglob: bool, extglob: bool, nocase: bool, skipdots: bool,
                 budget: Budget | None, limit: int | None = None) -> None:
        self.fs, self.cwd, self.dotglob, self.extglob = fs, cwd, dotglob, extglob
        self.nocase, self.skipdots, self.budget = nocase, skipdots, budget
        self.limit = limit
        self.seen = 0

    def _bounded(self, paths: list) -> list:
        """``paths``, unless they pass the words limit (then LimitExceeded)."""
        if self.limit is not None and len(paths) > self.limit:
            raise too_many_words(self.limit)
        return paths

    def _tick(self) -> None:
        self.seen += 1
        if self.budget is not None and self.seen % LOOP_CHECK == 0:
            self.budget.check()

    def _testdir(self, path: str, follow: bool = True) -> int:
        """0 for a directory, -2 for a symlink (not followed), -1 otherwise."""
        if not path:
            return -1
        try:
            st = self.fs.stat(path, self.cwd, follow=follow)
        except OSError:
            return -1
        return -2 if st.type == "symlink" else 0 if st.type == "dir" else -1

    @staticmethod
    def _join(directory: str, name: str, nulldir: bool) -> str:
        if nulldir and directory in (".", "./"):
            return name
        return directory + name if directory.endswith("/") or not directory else directory + "/" + name

    @staticmethod
    def _dir_to_array(directory: str, names: list[str]) -> list[str]:
        if not directory:
            return names
        prefix = directory if directory.endswith("/") else directory + "/"
        return [prefix + name for name in names]

    def _everything(self, directory: str, flags: int) -> list[str]:
        """`**` in DIRECTORY: every name below it (hidden ones with dotglob), directories walked
        but not symlinks; the directory itself first with _ADDCURDIR."""
        out = []
        if flags & _ADDCURDIR:
            out.append("" if flags & _NULLDIR else directory)
        nulldir = bool(flags & _NULLDIR)
        stack = [directory]
        while stack:
            cur = stack.pop()
            try:
                entries = self.fs.scandir(cur, self.cwd)
            except OSError:
                continue
            for name, st in entries:
                self._tick()
                if name[0] == "." and not self.dotglob:
                    continue
                path = self._join(cur, name, nulldir)
                if st.type == "dir":
                    stack.append(path)
                out.append(path)
            self._bounded(out)
        return out

    def _vector(self, pat: str, directory: str, flags: int) -> list[str] | None:
        """The names in DIRECTORY that PAT matches (bare names; whole paths for `**`)."""
        if not pat:
            return [""] if self._testdir(directory) == 0 else None
        if flags & _ALLDIRS:
            if not self.fs.is_dir(directory, self.cwd):
                return None
            return self._everything(directory, flags)
        if not has_glob(pat, self.extglob):
            if self._testdir(directory) != 0:
                return None
            name = unescape(pat)
            return [name] if self.fs.exists(directory + "/" + name, self.cwd, follow=False) else []
        try:
            names = self.fs.listdir(directory, self.cwd)
        except OSError:
            return None
        matcher = compile_pattern(pat, self.extglob, self.nocase)
        leading_dot = unescape(pat).startswith(".")
        if leading_dot and not self.skipdots:
            names = [".", "..", *names]
        out = []
        for name in names:
            self._tick()
            if name[0] == "." and not (self.dotglob or leading_dot):
                continue
            if matcher.fullmatch(name, self.budget):
                out.append(name)
        return out

    def glob(self, pathname: str, flags: int) -> list[str] | None:
        cut = pathname.rfind("/")
        directory, filename = ("", pathname) if cut < 0 else (pathname[:cut + 1], pathname[cut + 1:])
        if directory and has_glob(directory, self.extglob):
            d, dflags = directory, flags
            all_starstar = last_starstar = False
            if _is_starstar(d, 0):
                # collapse a leading run of `**/` components to one
                i = start = 0
                while _is_starstar(d, i):
                    start = i
                    i += 3
                    while i < len(d) and d[i] == "/":
                        i += 1
                    if i >= len(d):
                        break
                all_starstar = i >= len(d)
                d = d[start:]
                dflags |= _ALLDIRS | _ADDCURDIR
            dlen = len(d)
            if not all_starstar:
                # ... and a trailing run of `/**/`
                dl = prev = dlen
                while dl >= 4 and d[dl - 4:dl] == "/**/":
                    prev, dl = dl, dl - 3
                last_starstar = dl != dlen
                dlen = prev
            if last_starstar and dlen > 4 and filename == "**":
                dlen -= 3   # `dir/**/**` is `dir/**` (the directories are its first matches)
            d = d[:dlen]
            if d.endswith("/"):
                d = d[:-1]
            directories = self.glob(d, dflags | _RECURSE)
            if not directories:
                return None
            if not (all_starstar and filename == "**"):
                return self._under(directories, filename, flags, all_starstar)
            directory = ""   # `**/**` is `**`
        if not filename:
            return [unescape(directory)]
        directory = unescape(directory)
        dflags = flags
        if not directory:
            dflags |= _NULLDIR
        if filename == "**":
            dflags |= _ALLDIRS | _ADDCURDIR
            if not directory and not flags & _ALLDIRS:
                dflags &= ~_ADDCURDIR
        found = self._vector(filename, directory or ".", dflags)
        if found is None:
            return None
        return self._dir_to_array("" if dflags & _ALLDIRS else directory, found)

    def _under(self, directories: list[str], filename: str, flags: int, all_starstar: bool) -> list[str]:
        """FILENAME globbed in each of DIRECTORIES (the expansion of the pattern's directory part)."""
        result: list[str] = []
        for dname in directories:
            self._tick()
            where = dname
            dflags = flags & ~(_ALLDIRS | _ADDCURDIR)
            if filename == "**":
                dflags |= _ALLDIRS | _ADDCURDIR
            if not where and filename:
                dflags |= _NULLDIR
                where = "."
            found: list[str] | None
            if all_starstar and not dflags & _NULLDIR and self._testdir(where, follow=False) == -2 \
                    and self._testdir(where) == 0:
                # a symlink to a directory that `**` found: listed, never searched
                found = None if filename else [""]
            else:
                found = self._vector(filename, where, dflags)
            if found is None:
                continue
            if dflags & _ALLDIRS and filename == "**":
                if dflags & _NULLDIR and not flags & _NULLDIR and found and found[0] == "":
                    result.extend(name for name in found if name)
                    break
                result.extend(found)
            else:
                result.extend(self._dir_to_array(dname, found))
            self._bounded(result)
        return result
