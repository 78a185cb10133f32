"""Shell patterns: glob/extglob to Python regex, matching, and pathname expansion on the VFS.

Patterns arrive with quoted characters backslash-escaped (the expander does that), so ``\\*``
is a literal star and ``*`` a wildcard.
"""
from __future__ import annotations

import re

from ..syntax.lexer import group_end

EXTGLOB_CHARS = frozenset("*?+@!")

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f",
    "cntrl": r"\x00-\x1f\x7f", "print": r" -~", "graph": r"!-~", "word": r"a-zA-Z0-9_",
}


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
            if _bracket_end(pat, i) > 0:
                return True
        if extglob and c in "+@!" and i + 1 < n and pat[i + 1] == "(":
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


def escape(text: str) -> str:
    """Quote ``text`` so every character matches literally."""
    if not any(c in "*?[]\\+@!()|" for c in text):
        return text
    return "".join("\\" + c if c in "*?[]\\+@!()|" else c for c in text)


def _bracket_end(pat: str, i: int) -> int:
    """Index of the ``]`` closing the bracket expression at ``i``, or -1."""
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
            if close < 0:
                return -1
            j = close + 2
            continue
        if c == "]":
            return j
        j += 1
    return -1


def _translate_bracket(body: str) -> str:
    negate = False
    if body[:1] in ("!", "^"):
        negate = True
        body = body[1:]
    out = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "[" and i + 1 < n and body[i + 1] == ":":
            close = body.find(":]", i + 2)
            name = body[i + 2:close]
            out.append(_CLASSES.get(name, ""))
            i = close + 2
            continue
        if c == "[" and i + 1 < n and body[i + 1] in "=.":
            close = body.find(body[i + 1] + "]", i + 2)
            out.append(re.escape(body[i + 2:close]))
            i = close + 2
            continue
        if c == "\\" and i + 1 < n:
            out.append(re.escape(body[i + 1]))
            i += 2
            continue
        if c == "-" and out and i + 1 < n:
            out.append("-")
            i += 1
            continue
        out.append(re.escape(c) if c not in "-" else r"\-")
        i += 1
    inner = "".join(out)
    if not inner:
        return "(?!)" if not negate else "."
    return ("[^" if negate else "[") + inner + "]"


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
            end = _bracket_end(pat, i)
            if end < 0:
                out.append(r"\[")
            else:
                out.append(_translate_bracket(pat[i + 1:end]))
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


_CACHE: dict[tuple, re.Pattern] = {}


def compile_pattern(pat: str, extglob: bool = True, nocase: bool = False, path: bool = False) -> re.Pattern:
    key = (pat, extglob, nocase, path)
    rx = _CACHE.get(key)
    if rx is None:
        flags = re.DOTALL | (re.IGNORECASE if nocase else 0)
        try:
            rx = re.compile(translate(pat, extglob, path) + r"\Z", flags)
        except re.error:
            # e.g. a reversed range [z-a]: bash matches nothing with it
            rx = re.compile(r"(?!)")
        if len(_CACHE) > 4000:
            _CACHE.clear()
        _CACHE[key] = rx
    return rx


def match(pat: str, text: str, extglob: bool = True, nocase: bool = False) -> bool:
    """Does the whole of ``text`` match the pattern?"""
    if not nocase and not has_glob(pat, extglob):
        return unescape(pat) == text
    return compile_pattern(pat, extglob, nocase).match(text) is not None


def strip_prefix(text: str, pat: str, longest: bool, extglob: bool = True) -> str:
    rx = compile_pattern(pat, extglob)
    rng = range(len(text), -1, -1) if longest else range(0, len(text) + 1)
    for i in rng:
        if rx.match(text, 0, i):
            return text[i:]
    return text


def strip_suffix(text: str, pat: str, longest: bool, extglob: bool = True) -> str:
    rx = compile_pattern(pat, extglob)
    rng = range(0, len(text) + 1) if longest else range(len(text), -1, -1)
    for i in rng:
        if rx.match(text, i):
            return text[:i]
    return text


def replace(text: str, pat: str, rep: str, mode: str, extglob: bool = True) -> str:
    """``${x/pat/rep}``: mode is ``/`` (first), ``//`` (all), ``/#`` (prefix), ``/%`` (suffix)."""
    if mode == "/#":
        rx = compile_pattern(pat, extglob)
        for i in range(len(text), -1, -1):
            if rx.match(text, 0, i):
                return rep + text[i:]
        return text
    if mode == "/%":
        rx = compile_pattern(pat, extglob)
        for i in range(0, len(text) + 1):
            if rx.match(text, i):
                return text[:i] + rep
        return text
    if pat == "":
        return text
    try:
        body = re.compile(translate(pat, extglob), re.DOTALL)
    except re.error:
        return text
    out = []
    i = 0
    n = len(text)
    while i <= n:
        m = _longest_at(body, pat, text, i, extglob)
        if m is not None and m > i:
            out.append(rep)
            i = m
            if mode != "//":
                out.append(text[i:])
                return "".join(out)
            continue
        if m == i and m is not None and pat and not has_glob(pat):
            pass
        if i < n:
            out.append(text[i])
        i += 1
    return "".join(out)


def _longest_at(body: re.Pattern, pat: str, text: str, i: int, extglob: bool) -> int | None:
    m = body.match(text, i)
    if m is None:
        return None
    end = m.end()
    # greedy regex match is usually the longest; verify against the anchored form
    anchored = compile_pattern(pat, extglob)
    for j in range(len(text), end - 1, -1):
        if anchored.match(text, i, j):
            return j
    return end


# ----------------------------------------------------------------------------- pathnames
def glob_paths(fs, cwd: str, pattern: str, *, dotglob: bool = False, globstar: bool = False,
               extglob: bool = True, nocase: bool = False) -> list[str]:
    """Expand a (backslash-escaped) pattern against the VFS; sorted matches, [] when none."""
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
        if globstar and comp == "**":
            for base in results:
                new.extend(_globstar(fs, cwd, base, dotglob, dirs_only=not last))
            results = _dedupe(new)
            continue
        if not has_glob(comp, extglob):
            lit = unescape(comp)
            for base in results:
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
        rx = compile_pattern(comp, extglob, nocase)
        show_hidden = dotglob or unescape(comp).startswith(".")
        for base in results:
            d = base or "."
            try:
                names = fs.listdir(d, cwd)
            except OSError:
                continue
            for name in names:
                if name[0] == "." and not show_hidden:
                    continue
                if rx.match(name):
                    path = base + name if base.endswith("/") or base == "" else base + "/" + name
                    if not last and not fs.is_dir(path, cwd):
                        continue
                    new.append(path)
        results = new
        if not results:
            return []
    if trailing_slash:
        results = [r + "/" for r in results if fs.is_dir(r, cwd)]
    if results == bases:
        return []
    return sorted(results)


def _globstar(fs, cwd: str, base: str, dotglob: bool, dirs_only: bool) -> list[str]:
    """``**``: base itself (as a prefix) and every file/dir below it."""
    out = [base]
    stack = [base]
    while stack:
        cur = stack.pop()
        d = cur or "."
        try:
            entries = fs.scandir(d, cwd)
        except OSError:
            continue
        for name, stat in entries:
            if name[0] == "." and not dotglob:
                continue
            path = cur + name if cur.endswith("/") or cur == "" else cur + "/" + name
            is_dir = stat.type == "dir"
            if is_dir:
                out.append(path)
                stack.append(path)
            elif not dirs_only:
                out.append(path)
    if not dirs_only:
        out = [p for p in out if p != base]
    return out


def _dedupe(paths: list[str]) -> list[str]:
    seen = set()
    out = []
    for p in paths:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out
