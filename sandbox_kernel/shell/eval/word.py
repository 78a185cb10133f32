"""Word expansion in bash's order: brace, tilde, parameter/command/arithmetic substitution,
word splitting on IFS, pathname expansion, quote removal.

Functions over an ``ExpandConfig`` (a Protocol: the narrow part of the shell expansion may
use, like mvdan/sh's ``expand.Config``): its state, its variable store, and command and
process substitution. The Shell is the one config; it binds the entry points others reach
through it (``expand_word``, ``expand_words``, ``arith``, ``ifs`` ...) as methods.
"""
from __future__ import annotations

import bisect
import re
from itertools import islice

from ...chars import isdigits
from ...lazy import TYPE_CHECKING, cast, lazy_compile
from ...locales import installed_locale, single_byte
from ...wildcard import Budget
from .. import pattern as pat
from .arith import evaluate as arith_evaluate
from ..quoting import declare_text, double_quote, key_text, quote_always
from ..syntax.escapes import decode_ansi_c
from ..syntax.ast import ArithSub, CmdSub, DQ, Lit, Param, Part, ProcSub, Quoted, Word
from ..state import (ArithError, IndexedArray, LimitExceeded, ShellError, is_array, ordered_keys, ordered_values,
    split_subscript, too_many_words)
from ..syntax.lexer import NAME_CHARS, is_name
from .variables import NeedsExpansion, memory_exceeded

if TYPE_CHECKING:
    from typing import Any, Awaitable, Callable, Iterable, Protocol, Sequence, TypeGuard
    from ...vfs import VFS
    from ..api import Key
    from ..state import Var
    from ..syntax.ast import Node
    from .arith import ArithEnv
    from .interp import Runtime
    from .runs import RunView

    class ExpandConfig(ArithEnv, Protocol):
        """What expansion may use of the shell (the Shell is the one): its state, its variable
        store (also as the arithmetic's: ArithEnv), and command and process substitution, which
        run commands (the evaluator's one cycle: it expands their words in turn)."""

        #: set while the word of a ${x-word} inside an assignment value expands
        in_assignment_word: bool
        #: LC_CTYPE's locale as last set (byte_locale; None until first needed)
        ctype: str | None

        rt: Runtime | RunView
        fs: VFS
        cwd: str
        options: dict[str, bool]
        shopts: dict[str, bool]
        positional: list[str]
        arg0: str
        command_string: bool
        subshell_level: int
        namerefs: int
        pending_warnings: list[str] | None

        def check_cancel(self) -> None: ...

        async def command_checkpoint(self) -> None: ...

        async def command_substitution(self, body: Node, plan: Any = ...) -> str: ...

        async def process_substitution(self, p: ProcSub) -> str: ...

        def all_variable_names(self) -> list[str]: ...

        async def arith_async(self, text: str) -> int: ...

        async def arith_expanding(self, text: str) -> int: ...

        async def expand_key(self, word: Word) -> str: ...

        async def flush_warnings(self) -> None: ...

        def get_scalar(self, name: str) -> str | None: ...

        def lookup_raw(self, name: str) -> Var | None: ...

        def lookup_var(self, name: str) -> Var | None: ...

        def nameref_target(self, name: str, quiet: bool = False) -> tuple[str, str | None] | None: ...

        def notice(self, message: str) -> None: ...

        def param_scalar(self, name: str) -> str | None: ...

        def set_element(self, name: str, index: Key, value: str, append: bool = False) -> None: ...

        def set_var(self, name: str, value: str, append: bool = False, export: bool | None = None) -> None: ...

        def subscript_word(self, text: str) -> Word: ...


GLOB_ACTIVE = frozenset("*?[(")
#: IFS when it is unset
DEFAULT_IFS = " \t\n"
#: the ${x OP word} operators whose word is used as a value
_DEFAULT_OPS = frozenset({":-", "-", ":=", "=", ":+", "+"})
_SEQ = lazy_compile(r"^(-?[0-9]+)\.\.(-?[0-9]+)(?:\.\.(-?[0-9]+))?$")
_CHAR_SEQ = lazy_compile(r"^(.)\.\.(.)(?:\.\.(-?[0-9]+))?$", re.S)



#: the operators whose word is the result itself (``:=``/``=`` assign it too)
DEFAULT_WORD_OPS = frozenset({":-", "-", ":+", "+"})


def quoted_default(p: object) -> TypeGuard[Param]:
    """``${x:-"word"}`` and its kin with quoted text in the word (a pattern or regex must keep
    it literal: ``param_default``)."""
    return type(p) is Param and p.op in DEFAULT_WORD_OPS and p.arg is not None \
        and any(type(part) is not Lit for part in p.arg.parts)


def ambiguous_redirect(word: Word) -> ShellError:
    """A redirection target that expanded to no word or to several."""
    return ShellError(f"{word.source or ''}: ambiguous redirect", 1)

class Fields:
    """Builds the fields of one word: segments remember whether they may glob. A field longer
    than string_bytes raises before it is joined; big fields count as the command's expansion
    (``charge_expansion``)."""

    __slots__ = ("out", "segs", "quoted", "ifs", "rt")

    def __init__(self, ifs: str, rt) -> None:
        self.out: list[tuple[str, str | None]] = []   # (text, glob pattern or None)
        self.segs: list[tuple[str, bool]] = []         # (text, glob-active)
        self.quoted = False
        self.ifs = ifs
        self.rt = rt

    def lit(self, text: str) -> None:
        self.segs.append((text, True))

    def quote(self, text: str) -> None:
        self.segs.append((text, False))
        self.quoted = True

    def end(self, force: bool = False) -> None:
        segs = self.segs
        if segs or force or self.quoted:
            if len(segs) == 1:
                text, active = segs[0]
                pattern = text if active and globs(text) else None
            else:
                size = sum(len(s) for s, _ in segs)
                if size > BIG_STRING:
                    if size > self.rt.limits.string_bytes:
                        raise string_too_long(size, self.rt.limits.string_bytes)
                    charge_expansion(self.rt, size)
                text = "".join(s for s, _ in segs)
                pattern = None
                if any(a and globs(s) for s, a in segs):
                    pattern = "".join(s if a else pat.escape(s) for s, a in segs)
            if text or force or self.quoted:
                self.out.append((text, pattern))
        self.segs = []
        self.quoted = False

    def split(self, value: str) -> None:
        """Add an unquoted expansion result: split on IFS. A delimiter is IFS whitespace
        around at most one other IFS character (a regex split: a long value splits at C
        speed)."""
        ifs = self.ifs
        if not ifs:
            if value:
                self.segs.append((value, True))
            return
        if not (any(c in ifs for c in value) if len(value) < 64 else any(c in value for c in ifs)):
            if value:
                self.segs.append((value, True))
            return
        if len(value) > BIG_STRING:
            charge_expansion(self.rt, len(value))  # its pieces are new strings
        leading, delimiter = _ifs_regexes(ifs)
        # leading IFS whitespace is skipped, unless a field is in progress: then it is part of
        # the delimiter that ends it (``p$v`` with v=' :b' is p, b)
        pos = 0 if self.segs or self.quoted else leading.match(value).end()  # type: ignore[union-attr]  # (matches "")
        pieces = delimiter.split(value[pos:] if pos else value)
        last = pieces.pop()
        if pieces:
            # the first piece ends the field before the value; each other is a field
            if pieces[0]:
                self.segs.append((pieces[0], True))
            self.end(force=True)
            if globs(value):
                self.out.extend((p, p if globs(p) else None) for p in islice(pieces, 1, None))
            else:
                self.out.extend((p, None) for p in islice(pieces, 1, None))
        if last:
            self.segs.append((last, True))


_IFS_REGEXES: dict[str, tuple[re.Pattern, re.Pattern]] = {}


def _ifs_regexes(ifs: str) -> tuple[re.Pattern, re.Pattern]:
    """(leading IFS whitespace, one delimiter) for ``ifs``."""
    found = _IFS_REGEXES.get(ifs)
    if found is None:
        ws = "".join(re.escape(c) for c in ifs if c in " \t\n")
        other = "".join(re.escape(c) for c in ifs if c not in " \t\n")
        if ws and other:
            delimiter = f"[{ws}]+(?:[{other}][{ws}]*)?|[{other}][{ws}]*"
        elif ws:
            delimiter = f"[{ws}]+"
        else:
            delimiter = f"[{other}]"
        if len(_IFS_REGEXES) > 64:
            _IFS_REGEXES.clear()
        found = _IFS_REGEXES[ifs] = (re.compile(f"[{ws}]*" if ws else ""), re.compile(delimiter))
    return found


#: strings longer than this that an expansion makes count against the shell's memory
BIG_STRING = 1 << 16


def charge_expansion(rt, size: int) -> None:
    """A command's expansion made a string of ``size`` bytes: the big strings one command's
    words make may not pass the shell's memory limit (``shell_memory_bytes``) together, so that
    repeating a big value (``"$x"{1..100}``, ``$x $x $x ...``) ends in an error, not in
    gigabytes. (What a command stores is charged as it is stored, as always.)"""
    rt.expansion_bytes += size
    if rt.expansion_bytes > rt.limits.shell_memory_bytes:
        raise memory_exceeded("word expansion", rt.limits)


def string_too_long(size: int, limit: int) -> LimitExceeded:
    return LimitExceeded(f"string of {size} bytes exceeds the limit ({limit} bytes; limit string_bytes)",
                         "string_bytes")


def globs(text: str) -> bool:
    """Does ``text`` hold a character that may start a glob (long text: a scan per such
    character, at C speed)?"""
    if len(text) < 64:
        return any(c in GLOB_ACTIVE for c in text)
    return any(c in text for c in GLOB_ACTIVE)


def _brace_tokens(parts: list) -> list:
    tokens: list = []
    for p in parts:
        if isinstance(p, Lit):
            tokens.extend(p.text)
        else:
            tokens.append(p)
    return tokens


def _rejoin_names(tokens: list) -> list:
    """Brace expansion works on the text: ``{$a,b}_c`` gives ``$a_c``, the variable a_c. An
    unbraced ``$name`` a brace expansion put before name characters takes them in."""
    out: list = []
    i = 0
    n = len(tokens)
    while i < n:
        t = tokens[i]
        i += 1
        if type(t) is Param and t.unbraced and t.op is None and t.index is None and i < n \
                and type(tokens[i]) is str and tokens[i] in NAME_CHARS and (t.name[0].isalpha() or t.name[0] == "_"):
            j = i
            while j < n and type(tokens[j]) is str and tokens[j] in NAME_CHARS:
                j += 1
            t = Param(t.name + "".join(tokens[i:j]), unbraced=True)
            i = j
        out.append(t)
    return out


def _tokens_to_parts(tokens: list) -> list:
    parts: list = []
    buf: list[str] = []
    for t in tokens:
        if isinstance(t, str):
            buf.append(t)
        else:
            if buf:
                parts.append(Lit("".join(buf)))
                buf = []
            parts.append(t)
    if buf:
        parts.append(Lit("".join(buf)))
    return parts


def _brace_pairs(tokens: Sequence, check: Callable[[], None] | None) -> dict[int, tuple[int, list[int]]]:
    """Each ``{`` that has a matching ``}``: its index -> (the ``}``, the commas at its level),
    in one pass (a scan from every unmatched ``{`` to the end was quadratic)."""
    pairs: dict[int, tuple[int, list[int]]] = {}
    stack: list[tuple[int, list[int]]] = []
    for j, t in enumerate(tokens):
        if check is not None and j % 65536 == 65535:
            check()
        if t == "{":
            stack.append((j, []))
        elif t == "}":
            if stack:
                start, commas = stack.pop()
                pairs[start] = (j, commas)
        elif t == "," and stack:
            stack[-1][1].append(j)
    return pairs


def brace_expand(tokens: Sequence, limit: int, check: Callable[[], None] | None = None) -> list:
    """The brace expansions of a word: ``tokens`` is a str (an all-literal word) or a list of
    one-character strs and word parts; each result has the same type. The number of results
    is known before they are built, so ``limit`` (words) stops a product such as
    ``{1..1000}{1..1000}{1..1000}`` before it takes memory; ``check`` (raising on an interrupt
    or the deadline) runs now and then while a large product is built."""
    n = len(tokens)
    pairs = _brace_pairs(tokens, check) if "{" in tokens else {}
    i = 0
    while i < n:
        if tokens[i] != "{":
            i += 1
            continue
        j, commas = pairs.get(i, (-1, []))
        if j < 0:
            # an unmatched brace is literal; a later one may still expand ({{a,b} is {a {b)
            i += 1
            continue
        choices: list
        if commas:
            bounds = [i] + commas + [j]
            choices = []
            for k in range(len(bounds) - 1):
                choices.extend(brace_expand(tokens[bounds[k] + 1:bounds[k + 1]], limit, check))
                if len(choices) > limit:
                    raise too_many_words(limit)
        else:
            inner = tokens[i + 1:j]
            seq = None
            if all(type(t) is str for t in inner):
                after = tokens[j + 1:]
                seq = brace_sequence("".join(inner), limit, after if isinstance(after, str) else "".join(
                    t if type(t) is str else "$" for t in after))
            if seq is None:
                i += 1
                continue
            choices = seq if isinstance(tokens, str) else [list(item) for item in seq]
        rests = brace_expand(tokens[j + 1:], limit, check)
        if len(choices) * len(rests) > limit:
            raise too_many_words(limit)
        prefix: Any = tokens[:i]  # (a str or a list, as ``tokens``)
        out: list = []
        for c in choices:
            head = prefix + c
            out.extend([head + r for r in rests])
            if check is not None and len(out) % 4096 < len(rests):
                check()
        return out
    return [tokens]


def brace_sequence(text: str, limit: int, followed: str = "") -> list[str] | None:
    """``{a..b[..step]}`` of numbers or letters; None when ``text`` is no sequence.
    ``followed``: the text after the closing brace."""
    m = _SEQ.match(text)
    if m:
        a_s, b_s, step_s = m.group(1), m.group(2), m.group(3)
        a, b = int(a_s), int(b_s)
        step = abs(int(step_s)) if step_s else 1
        if step == 0:
            step = 1
        if abs(a - b) // step >= limit:
            raise too_many_words(limit)
        width = 0
        if (len(a_s.lstrip("-")) > 1 and a_s.lstrip("-")[0] == "0") or \
                (len(b_s.lstrip("-")) > 1 and b_s.lstrip("-")[0] == "0"):
            width = max(len(a_s), len(b_s))
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        if width:
            return [(f"-{str(-v).zfill(width - 1)}" if v < 0 else str(v).zfill(width)) for v in rng]
        return [str(v) for v in rng]
    m = _CHAR_SEQ.match(text)
    if m and m.group(1).isascii() and m.group(2).isascii() and m.group(1).isalpha() and m.group(2).isalpha():
        a, b = ord(m.group(1)), ord(m.group(2))
        if m.group(1).islower() != m.group(2).islower() and followed:
            # bash builds the range through the punctuation between Z and a, and the backquote
            # then starts an unclosed command substitution with the text after the braces
            raise ShellError(f'bad substitution: no closing "`" in `{followed}', 1, abort=True, errexit=True)
        step = abs(int(m.group(3))) if m.group(3) else 1
        step = step or 1
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in rng]
    return None


def text_length(sh: ExpandConfig, value: str) -> int:
    """``${#s}``: characters, or bytes in a single-byte locale."""
    if value.isascii() or not byte_locale(sh):
        return len(value)
    return len(value.encode("utf-8", "surrogateescape"))


def _substring_of(value: str, offset: int, length: int | None) -> str:
    """``${s:offset:length}`` of a string (negative offset or length: from the end)."""
    n = len(value)
    if offset < 0:
        offset += n
        if offset < 0:
            return ""
    if length is None:
        return value[offset:]
    if length < 0:
        end = n + length
        if end < offset:
            raise ShellError(f"{length}: substring expression < 0", 1, abort=True)
        return value[offset:end]
    return value[offset:offset + length]


def has_brace(parts: list) -> bool:
    for p in parts:
        if isinstance(p, Lit) and "{" in p.text:
            return True
    return False


async def expand_words(sh: ExpandConfig, words: list) -> list[str]:
    """Expand command words into fields (brace, split, glob); at most ``Limits.words``."""
    out: list[str] = []
    limit = sh.rt.limits.words
    for w in words:
        fast = w.fast
        if fast is not None:
            out.append(fast)
            continue
        if type(w) is not Word:
            out.append(w)  # an array assignment argument of declare/local (an Assign)
            continue
        parts = w.parts
        # $name alone: the commonest case, no await needed
        if len(parts) == 1 and type(parts[0]) is Param and parts[0].op is None and parts[0].index is None \
                and not parts[0].length and not parts[0].indirect and parts[0].name not in "@*" \
                and not sh.namerefs:
            value = sh.param_scalar(parts[0].name)
            if value is None:
                if sh.options["nounset"]:
                    check_unset(sh, parts[0])
                continue
            fields = Fields(ifs(sh), sh.rt)
            fields.split(value)
            fields.end()
            finish_fields(sh, fields.out, out)
            continue
        if len(parts) == 1 and type(parts[0]) is DQ and all(type(p) is Lit for p in parts[0].parts):
            out.append("".join(p.text for p in parts[0].parts))  # type: ignore[union-attr]  # (Lits: checked)
            continue
        if not has_brace(parts) or not sh.options["braceexpand"]:
            fields = Fields(ifs(sh), sh.rt)
            await _expand_parts(sh, parts, fields, first=True, assign_like=w.assign_like)
            fields.end()
            finish_fields(sh, fields.out, out)
        else:
            await _expand_braced(sh, parts, out, limit)
        if len(out) > limit:
            raise too_many_words(limit)
    return out


async def keyed_element_words(sh: ExpandConfig, element: tuple) -> list[str] | None:
    """``[k]=v`` in an indexed array's ``(...)``: bash brace-expands the element as written
    first, and when that makes several words they are plain elements (``[k]=a [k]=b``);
    None when it stays one keyed assignment."""
    key, value, append = element
    if not sh.options["braceexpand"] or not (has_brace(key.parts) or has_brace(value.parts)):
        return None
    whole = [Lit("["), *key.parts, Lit("]+=" if append else "]="), *value.parts]
    if len(brace_expand(_brace_tokens(whole), sh.rt.limits.words, sh.check_cancel)) < 2:
        return None
    return await expand_words(sh, [Word(whole)])


async def _expand_braced(sh: ExpandConfig, parts: list, out: list[str], limit: int) -> None:
    """A word with braces: each brace expansion is expanded on its own."""
    literal = len(parts) == 1 and type(parts[0]) is Lit
    expansions = brace_expand(parts[0].text if literal else _brace_tokens(parts), limit, sh.check_cancel)
    for k, alt in enumerate(expansions):
        if k % 10_000 == 9_999:
            # a long expansion still honours the wall time and interrupts
            await sh.command_checkpoint()
        if literal:
            if not alt:
                continue
            if not alt.startswith("~") and not any(c in GLOB_ACTIVE for c in alt):
                out.append(alt)
                continue
            alt_parts = [Lit(alt)]
        else:
            alt_parts = _tokens_to_parts(_rejoin_names(alt))
        fields = Fields(ifs(sh), sh.rt)
        await _expand_parts(sh, alt_parts, fields, first=True)
        fields.end()
        finish_fields(sh, fields.out, out)
        if len(out) > limit:
            raise too_many_words(limit)


def finish_fields(sh: ExpandConfig, produced: list, out: list[str]) -> None:
    """Pathname expansion of the fields: a field that matches nothing stays as it was
    (a backslash that came from a variable's value is kept)."""
    noglob = sh.options["noglob"]
    for text, pattern in produced:
        if pattern is None or noglob or not pat.has_glob(pattern, sh.shopts["extglob"]):
            out.append(text)
            continue
        ignore = _globignore(sh)
        matches = pat.glob_paths(sh.fs, sh.cwd, pattern, dotglob=sh.shopts["dotglob"] or bool(ignore),
                                 globstar=sh.shopts["globstar"], extglob=sh.shopts["extglob"],
                                 nocase=sh.shopts["nocaseglob"], skipdots=sh.shopts["globskipdots"],
                                 budget=pattern_budget(sh), limit=sh.rt.limits.words,
                                 bytewise=byte_locale(sh))
        if ignore:
            # . and .. never match when GLOBIGNORE is set
            matches = [m for m in matches if m.rstrip("/").rsplit("/", 1)[-1] not in (".", "..")
                       and not any(g.fullmatch(m) for g in ignore)]
        if matches:
            out.extend(matches)
        elif sh.shopts["failglob"]:
            raise ShellError(f"no match: {text}", 1, abort=True, errexit=True)
        elif not sh.shopts["nullglob"]:
            out.append(text)


def _globignore(sh: ExpandConfig) -> list:
    """The matchers of GLOBIGNORE's colon-separated patterns (whole paths; ``*`` does not
    match ``/``)."""
    value = sh.get_scalar("GLOBIGNORE")
    if not value:
        return []
    ext = sh.shopts["extglob"]
    return [pat.compile_pattern(g, ext, path=True) for g in pat.split_pattern_list(value) if g]


async def expand_word(sh: ExpandConfig, word: Word, assignment: bool = False) -> str:
    """One string: no splitting or globbing (assignment values, redirect targets...)."""
    fast = word.fast
    if fast is not None:
        return fast
    parts: list[Any] = word.parts  # (Parts, told apart by type(p) below: mypy narrows no alias)
    value: str | Words | None
    if len(parts) == 1:
        p = parts[0]
        tp = type(p)
        if tp is Param and p.op is None and p.index is None and not p.length and not p.indirect \
                and p.name not in "@*" and not sh.namerefs:
            value = sh.param_scalar(p.name)
            if value is None:
                if sh.options["nounset"]:
                    check_unset(sh, p)
                return ""
            return value
        if tp is Lit and "~" not in p.text:
            return p.text
        if tp is Quoted:
            return p.text
    out: list[str] = []
    assignment = assignment or sh.in_assignment_word
    for k, p in enumerate(parts):
        tp = type(p)
        if tp is Lit:
            text = p.text
            if "~" in text and (k == 0 or assignment):
                text = _tilde(sh, text, assignment, k == 0 or (bool(out) and out[-1].endswith(":")))
            out.append(text)
        elif tp is Quoted:
            out.append(p.text)
        elif tp is DQ:
            # "$@" in a one-string context joins with spaces whatever IFS is
            out.append(" ".join(await _expand_dq(sh, p.parts)))
        else:
            if assignment and tp is Param and p.op in _DEFAULT_OPS and not sh.in_assignment_word:
                # x=~:${u-~:~}: the word inside takes an assignment's tilde rules too
                sh.in_assignment_word = True
                try:
                    value = await _expand_part_value(sh, p, quoted=True)
                finally:
                    sh.in_assignment_word = False
            else:
                value = await _expand_part_value(sh, p, quoted=True)
            if isinstance(value, list):
                out.append(" ".join(value) if value.at else _ifs_join(sh, value))
            elif value is not None:
                out.append(value)
    if len(out) > 1:
        size = sum(map(len, out))
        if size > BIG_STRING:
            charge_expansion(sh.rt, size)
    return "".join(out)


async def expand_redirect_target(sh: ExpandConfig, word: Word) -> str:
    """The file of a redirection: brace-expanded, split and globbed like a command word
    (``> one-*``), and it must come to exactly one word."""
    fast = word.fast
    if fast is not None:
        return fast
    fields = await expand_words(sh, [word])
    if len(fields) != 1:
        raise ambiguous_redirect(word)
    return fields[0]


async def expand_pattern(sh: ExpandConfig, word: Word, escape: Callable[[str], str] = pat.escape) -> str:
    """A pattern: quoted characters escaped (by ``escape``) so they match literally."""
    fast = word.fast
    if fast is not None and escape is pat.escape:
        return fast
    out: list[str] = []
    p: Any  # (a Part, told apart by its type)
    for k, p in enumerate(word.parts):
        tp = type(p)
        if tp is Lit:
            text = p.text
            if k == 0 and text.startswith("~"):
                text = escape(_tilde(sh, text, False))
            out.append(text)
        elif tp is Quoted:
            out.append(escape(p.text))
        elif tp is DQ:
            out.append(escape(_ifs_join(sh, await _expand_dq(sh, p.parts))))
        else:
            if quoted_default(p):
                value = await param_default(sh, p, lambda w: expand_pattern(sh, w, escape))
            else:
                value = await _expand_part_value(sh, p, quoted=False)
            if isinstance(value, list):
                value = " ".join(value)
            if value is not None:
                out.append(value)
    return "".join(out)


async def param_default(sh: ExpandConfig, p: Param,
                        expand_arg: Callable[[Word], Awaitable[str]]) -> str | Words | None:
    """``${x:-word}`` / ``${x:+word}`` (and the unset-only forms) where a pattern or a
    regex is made: the word, when used, made by ``expand_word`` (which keeps its quoted
    parts literal), else the value."""
    resolved = await resolve_param(sh, p)
    value = await _param_value(sh, resolved)
    if _use_word(sh, p.op, value, False, p.indirect) and p.arg is not None:
        return await expand_arg(p.arg)
    return value if p.op in (":-", "-") else None


async def expand_heredoc(sh: ExpandConfig, word: Word) -> str:
    return "".join([_ifs_join(sh, await _expand_dq(sh, word.parts))])


# ------------------------------------------------------------------ internals
def parse_extglob(sh: ExpandConfig) -> bool:
    """For the parser: extglob groups are words when the line is read with extglob on."""
    return sh.shopts["extglob"]


def pattern_budget(sh: ExpandConfig) -> Budget:
    """How long one pattern match may run: until this run is cancelled or out of time."""
    return Budget(sh.check_cancel, sh.rt.deadline)


def byte_locale(sh: ExpandConfig) -> bool:
    """Whether the shell's LC_CTYPE (LC_ALL, else LC_CTYPE, else LANG) is a single-byte
    locale, where ``${#s}``, ``${s:i:n}`` and a pattern's ``?`` count bytes (checked only
    for text that is not ASCII)."""
    wanted = ""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        wanted = sh.param_scalar(name) or ""
        if wanted:
            break
    if not wanted or installed_locale(wanted):
        sh.ctype = wanted or "C"
    elif sh.ctype is None:
        sh.ctype = "C"  # the shell started in a locale this machine lacks: C
    # (else setlocale failed: the locale stays what it was, as in bash)
    return single_byte(sh.ctype)


def ifs(sh: ExpandConfig) -> str:
    v = sh.lookup_raw("IFS")  # (lookup_var's checks only for a nameref: IFS is no dynamic variable)
    if v is not None and v.nameref:
        v = sh.lookup_var("IFS")
    if v is None or v.value is None:
        return DEFAULT_IFS
    value = v.value
    return value if type(value) is str else v.scalar() or ""


def _ifs_join(sh: ExpandConfig, values: list[str]) -> str:
    if len(values) == 1:
        return values[0]
    chars = ifs(sh)
    sep = chars[0] if chars else ""
    return sep.join(values)


async def _expand_parts(sh: ExpandConfig, parts: list, fields: Fields, first: bool = False, split_lits: bool = False,
                        assign_like: bool = False) -> None:
    """Add a word's parts to ``fields``. ``first``: the parts start the word (a leading
    tilde expands); ``split_lits``: literal text splits too (the word of an unquoted
    ``${x:-word}``); ``assign_like``: an argument such as ``x=~/a:~/b``."""
    for k, p in enumerate(parts):
        tp = type(p)
        if tp is Lit:
            text = p.text
            pieces = None
            if "~" in text and (assign_like or (k == 0 and first)):
                if assign_like and k == 0:
                    eq = text.find("=") + 1
                    fields.lit(text[:eq])
                    text = text[eq:]
                pieces = tilde_pieces(sh, text, k == 0 and first, assign_like)
            for piece, expanded in pieces or [(text, False)]:
                if expanded:
                    fields.quote(piece)
                elif split_lits:
                    fields.split(piece)
                elif piece:
                    fields.lit(piece)
        elif tp is Quoted:
            fields.quote(p.text)
        elif tp is DQ:
            values = await _expand_dq(sh, p.parts)
            if not values:
                continue
            fields.quote(values[0])
            for v in values[1:]:
                fields.end(force=True)
                fields.quote(v)
        elif tp is Param and p.op in (":-", "-", ":+", "+", ":=", "="):
            await _param_with_word(sh, p, fields)
        else:
            value = await _expand_part_value(sh, p, quoted=False)
            if value is None:
                continue
            if isinstance(value, list):
                _split_list(sh, p, value, fields)
            else:
                fields.split(value)


def _split_list(sh: ExpandConfig, p: Part, values: list[str], fields: Fields) -> None:
    """Unquoted ``$@``, ``$*``, ``${a[@]}``: bash joins the elements with IFS's first
    character and splits the whole, so with IFS=x an empty element is an empty field.
    With an empty IFS each element is a field of its own (empty ones vanish), except
    ``${!prefix*}`` (joined without a separator) and ``${!a[*]}`` (with spaces)."""
    ifs = fields.ifs
    if ifs:
        fields.split(ifs[0].join(values))
        return
    if type(p) is Param and (p.op == "prefix*" or (p.indirect and p.index is not None and p.index.plain == "*")):
        fields.split(("" if p.op == "prefix*" else " ").join(values))
        return
    for idx, v in enumerate(values):
        if idx:
            fields.end()
        fields.split(v)


async def _expand_dq(sh: ExpandConfig, parts: list) -> list[str]:
    """Expand the inside of double quotes: normally one string, several for "$@"."""
    out: list[str] = [""]
    at_seen = at_words = False
    for p in parts:
        tp = type(p)
        if tp is Lit or tp is Quoted:
            out[-1] += p.text
            continue
        if tp is DQ:
            inner = await _expand_dq(sh, p.parts)
            out[-1] += _ifs_join(sh, inner)
            continue
        value = await _expand_part_value(sh, p, quoted=True)
        if isinstance(value, list):
            if value.at:
                # "$@" and "${a[@]}": one word per value, none for no values
                at_seen = True
                if not value:
                    continue
                at_words = True
                out[-1] += value[0]
                out.extend(value[1:])
            else:
                out[-1] += _ifs_join(sh, value)
        elif value is not None:
            out[-1] += value
    if at_seen and not at_words and out == [""]:
        return []
    return out


async def _expand_part_value(sh: ExpandConfig, p: Any, quoted: bool) -> str | Words | None:
    tp = type(p)
    if tp is Param:
        return await expand_param(sh, p, quoted)
    if tp is CmdSub:
        return await sh.command_substitution(p.body)
    if tp is ArithSub:
        text = await expand_word(sh, p.expr)
        try:
            return str(arith(sh, text))
        except NeedsExpansion:
            return str(await sh.arith_expanding(text))
        finally:
            # what the lookups noticed ($((a[-9]))'s "bad array subscript"), said now
            if sh.pending_warnings:
                await sh.flush_warnings()
    if tp is ProcSub:
        return await sh.process_substitution(p)
    if tp is Lit or tp is Quoted:
        return p.text
    if tp is DQ:
        return _ifs_join(sh, await _expand_dq(sh, p.parts))
    raise ShellError(f"cannot expand {tp.__name__}")


def arith(sh: ExpandConfig, text: str) -> int:
    try:
        return arith_evaluate(text, sh)
    except ArithError as e:
        raise ShellError(e.message, 1, abort=True) from None
    except RecursionError:
        raise ShellError(f"{text}: expression recursion level exceeded", 1, abort=True) from None


def _tilde_dir(sh: ExpandConfig, name: str) -> str | None:
    """The directory ``~name`` stands for, or None (the text stays as written)."""
    if name == "":
        home = sh.get_scalar("HOME")
        return home if home is not None else "/home/user"
    if name == "+":
        return sh.get_scalar("PWD") or sh.cwd
    if name == "-":
        return sh.get_scalar("OLDPWD")
    if name == "user":
        return "/home/user"
    if name == "root":
        return "/root"
    return None


def tilde_pieces(sh: ExpandConfig, text: str, at_start: bool, after_colons: bool) -> list[tuple[str, bool]] | None:
    """``text`` as (piece, expanded) pairs: a ``~`` at its start (``at_start``) or, in an
    assignment (``after_colons``), after a ``:`` is expanded up to the next ``/`` (or
    ``:``). None when nothing was expanded."""
    if "~" not in text:
        return None
    starts = [0] if at_start and text.startswith("~") else []
    if after_colons:
        k = text.find(":~")
        while k >= 0:
            starts.append(k + 1)
            k = text.find(":~", k + 1)
    pieces: list[tuple[str, bool]] = []
    done = 0
    for i in starts:
        if i < done:
            continue
        end = i + 1
        while end < len(text) and text[end] != "/" and not (after_colons and text[end] == ":"):
            end += 1
        value = _tilde_dir(sh, text[i + 1:end])
        if value is None:
            continue
        if i > done:
            pieces.append((text[done:i], False))
        pieces.append((value, True))
        done = end
    if not pieces:
        return None
    if done < len(text):
        pieces.append((text[done:], False))
    return pieces


def _tilde(sh: ExpandConfig, text: str, assignment: bool, at_start: bool = True) -> str:
    pieces = tilde_pieces(sh, text, at_start, assignment)
    return text if pieces is None else "".join(t for t, _ in pieces)


# ------------------------------------------------------------------ parameters
async def _param_with_word(sh: ExpandConfig, p: Param, fields: Fields) -> None:
    """Unquoted ``${x:-word}`` and friends: the word's own quoting survives."""
    p = await resolve_param(sh, p)
    value = await _param_value(sh, p)
    op = p.op
    use_word = _use_word(sh, op, value, False, p.indirect)
    if op in (":+", "+"):
        if use_word and p.arg is not None:
            await _expand_parts(sh, p.arg.parts, fields, first=True, split_lits=True)
        return
    if use_word:
        if op in (":=", "="):
            text = await expand_word(sh, p.arg) if p.arg else ""
            await _assign_default(sh, p, text)
            fields.split(text)
            return
        if p.arg is not None:
            await _expand_parts(sh, p.arg.parts, fields, first=True, split_lits=True)
        return
    if isinstance(value, list):
        _split_list(sh, p, value, fields)
    elif value:
        fields.split(value)


def _use_word(sh: ExpandConfig, op: str | None, value: str | Words | None, quoted: bool,
              indirect: bool = False) -> bool:
    """Whether ``${x<op>word}`` uses its word: unset (no value, or an empty array) for
    ``-``/``+``/``=``/``?``; also null for the ``:`` forms (several values are null when
    they join to the empty string: with spaces, or with IFS for a quoted "${a[*]}")."""
    if value is None or (isinstance(value, list) and not value):
        missing = True
    elif op is None or op[0] != ":":
        missing = False
    elif isinstance(value, list):
        if indirect:
            # through ${!ref} with ref='a[@]', only no elements count as null
            missing = False
        elif value.at or not quoted:
            missing = len(value) == 1 and value[0] == ""
        else:
            missing = _ifs_join(sh, value) == ""
    else:
        missing = value == ""
    return not missing if op in (":+", "+") else missing


async def _assign_default(sh: ExpandConfig, p: Param, text: str) -> None:
    name = p.name
    if name in "@*#?-$!" or isdigits(name):
        raise ShellError(f"${name}: cannot assign in this way", 1, abort=True, errexit=True)
    if p.index is None:
        sh.set_var(name, text)
        return
    key = await _subscript_of(sh, p)
    if key in ("@", "*"):
        raise ShellError(f"{name}[{key}]: bad array subscript", 1)
    if key is not None:
        sh.set_element(name, key, text)


async def resolve_param(sh: ExpandConfig, p: Param) -> Param:
    """The parameter ``p`` stands for after ``${!ref}`` indirection and namerefs: a
    Param without either, with ``p``'s operator."""
    if p.indirect and p.op not in ("prefix*", "prefix@") and not (
            p.op is None and p.index is not None and p.index.plain in ("@", "*")):
        p = await _indirect_target(sh, p)
        if p.name == UNSET_PARAM or p.name == NAMEREF_NAME:
            return p
    if sh.namerefs and p.name[0] not in "@*#?-$!0123456789":
        var = sh.lookup_raw(p.name)
        if var is not None and var.nameref and type(var.value) is str and var.value:
            target = sh.nameref_target(p.name)
            if target is None:
                return Param(UNSET_PARAM, p.op, p.arg, p.arg2, None, False, p.length)
            name, sub = target
            if sub is None:
                return Param(name, p.op, p.arg, p.arg2, p.index, p.indirect, p.length)
            if p.index is not None:
                # ref[i] of a reference to an element: nothing
                return Param(UNSET_PARAM, p.op, p.arg, p.arg2, p.index, False, p.length)
            return Param(name, p.op, p.arg, p.arg2, _index_word(sh, sub), p.indirect, p.length)
    return p


async def _indirect_target(sh: ExpandConfig, p: Param) -> Param:
    """``${!ref...}``: the parameter named by ref's value (which may be ``a[i]``, ``a[@]``,
    ``@`` or a positional parameter)."""
    base = Param(p.name, None, None, None, p.index)
    var = sh.lookup_raw(p.name) if p.index is None else None
    if var is not None and var.nameref:
        # ${!nameref} is the name it refers to
        return Param(NAMEREF_NAME, p.op, p.arg, p.arg2, Word([Lit(var.value or "")], var.value or ""))
    value = await _param_value(sh, await resolve_param(sh, base))
    if isinstance(value, list):
        if not value:
            value = None
        else:
            value = " ".join(value)
    if not value:
        holder = sh.lookup_var(p.name) if p.index is None and is_name(p.name) else None
        if holder is not None and is_array(holder.value):
            # an array without element 0: nothing to follow, and no error
            return Param(UNSET_PARAM, p.op, p.arg, p.arg2, None, False, p.length)
        label = p.name if p.index is None else f"{p.name}[{p.index.source or p.index.plain or ''}]"
        raise ShellError(f"{label}: invalid indirect expansion", 1, abort=True, errexit=True)
    # the Param it gives keeps indirect=True: resolved, but null-tested as bash does
    target = value
    if target in ("@", "*", "#", "?", "-", "$", "!") or isdigits(target):
        return Param(target, p.op, p.arg, p.arg2, None, True, p.length)
    ref = split_subscript(target)
    if ref is not None:
        return Param(ref[0], p.op, p.arg, p.arg2, _index_word(sh, ref[1]), True, p.length)
    if not is_name(target):
        raise ShellError(f"{target}: invalid variable name", 1, abort=True, errexit=True)
    return Param(target, p.op, p.arg, p.arg2, None, True, p.length)


def _index_word(sh: ExpandConfig, sub: str) -> Word:
    if sub in ("@", "*"):
        return Word([Lit(sub)], sub, None, sub)
    return sh.subscript_word(sub)


async def _subscript_of(sh: ExpandConfig, p: Param) -> Key | None:
    """The element ``p.index`` names: "@"/"*", an assoc key, an index >= 0, or None
    (out of range: reported, and the element is missing)."""
    word = cast(Word, p.index)  # (callers ask only for an element)
    plain = word.plain
    if plain in ("@", "*"):
        return plain
    var = sh.lookup_var(p.name)
    if var is not None and var.assoc:
        return await sh.expand_key(word)
    text = await expand_word(sh, word)
    if not text.strip():
        raise ShellError(f"${{{p.name}[{text}]}}: bad substitution", 1)
    try:
        index = arith(sh, text)
    except NeedsExpansion:
        index = await sh.arith_expanding(text)
    if index >= 0:
        return index
    value = var.value if var is not None else None
    top = value.top if type(value) is IndexedArray else 0
    if index + top < 0:
        # before the start (a scalar has no end to count from)
        sh.notice(f"{p.name}: bad array subscript")
        return None
    return index + top


async def _param_value(sh: ExpandConfig, p: Param) -> str | Words | None:
    """The value of a resolved parameter before its operator: None (unset), a str, or
    Words for the @/* forms."""
    name = p.name
    index = p.index
    if name == UNSET_PARAM:
        return Words((), index.plain == "@") if index is not None and index.plain in ("@", "*") else None
    if index is None:
        if name == "@" or name == "*":
            return Words(sh.positional, name == "@")
        return sh.param_scalar(name)
    if name == NAMEREF_NAME:
        return index.plain
    key = await _subscript_of(sh, p)
    if key is None:
        return None
    var = sh.lookup_var(name)
    if key == "@" or key == "*":
        if var is None or var.value is None:
            return Words((), key == "@")
        return Words(ordered_values(var), key == "@")
    if var is None or var.value is None:
        if _special_param(name) and key == 0:
            return sh.param_scalar(name)
        return None
    value = var.value
    if type(value) is str:
        return value if key == 0 or key == "0" else None
    return value.get(key)


def _special_param(name: str) -> bool:
    return name in "@*#?-$!" or isdigits(name)


async def expand_param(sh: ExpandConfig, p: Param, quoted: bool) -> str | Words | None:
    """Value of a ${...}: a str, Words (for @/* forms) or None."""
    try:
        return await _expand_param(sh, p, quoted)
    finally:
        if sh.pending_warnings:
            await sh.flush_warnings()


async def _expand_param(sh: ExpandConfig, p: Param, quoted: bool) -> str | Words | None:
    op = p.op
    if op == "bad":
        raise ShellError(f"{p.name}: bad substitution", 1, abort=True, errexit=True)
    if op in ("prefix*", "prefix@"):
        names = sorted(n for n in sh.all_variable_names() if n.startswith(p.name))
        return Words(names, op == "prefix@")
    if p.indirect and op is None and p.index is not None and p.index.plain in ("@", "*"):
        # ${!a[@]}: the keys
        var = sh.lookup_var(p.name)
        if var is None or var.value is None:
            return Words((), p.index.plain == "@")
        return Words([str(k) for k in ordered_keys(var)], p.index.plain == "@")
    p = await resolve_param(sh, p)
    name = p.name
    if op == "@" and p.arg is not None and p.arg.plain == "a":
        return _attributes(sh, p)
    if p.length and p.index is not None and p.index.plain in ("@", "*") and p.name != UNSET_PARAM:
        # ${#a[@]}: the count, without making the list
        var = sh.lookup_var(p.name)
        return str(len(var.value) if var is not None and is_array(var.value) else
                   0 if var is None or var.value is None else 1)
    value = await _param_value(sh, p)
    if p.length:
        if value is None:
            check_unset(sh, p)
            return "0"
        if isinstance(value, list):
            return str(len(value))
        return str(text_length(sh, value))
    if op is None:
        if value is None:
            check_unset(sh, p)
        return value
    if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
        use_word = _use_word(sh, op, value, quoted, p.indirect)
        if op in (":-", "-"):
            return await _arg_value(sh, p.arg, quoted) if use_word else value
        if op in (":=", "="):
            if use_word:
                text = await expand_word(sh, p.arg) if p.arg else ""
                await _assign_default(sh, p, text)
                return text
            return value
        if op in (":+", "+"):
            if not use_word:
                if not quoted:
                    return None
                # "${a[@]+x}" of no elements is no word, like "${a[@]}"
                return Words((), True) if isinstance(value, list) and value.at else ""
            return await _arg_value(sh, p.arg, quoted)
        if use_word:
            msg = await expand_word(sh, p.arg) if p.arg and p.arg.parts else ""
            label = name if p.index is None else f"{name}[{p.index.plain or p.index.source or ''}]"
            default = "parameter null or not set" if op[0] == ":" else "parameter not set"
            raise ShellError(f"{label}: {msg or default}",
                             unbound_status(sh), fatal=True)
        return value
    if value is None:
        check_unset(sh, p)
        return None
    if op == ":":
        return await _substring(sh, p, value)
    if op in ("#", "##", "%", "%%"):
        pattern = await expand_pattern(sh, p.arg) if p.arg else ""
        ext = sh.shopts["extglob"]
        budget = pattern_budget(sh)
        bytewise = byte_locale(sh)
        if op in ("#", "##"):
            fn = lambda s: pat.strip_prefix(s, pattern, op == "##", ext, budget, bytewise)  # noqa: E731
        else:
            fn = lambda s: pat.strip_suffix(s, pattern, op == "%%", ext, budget, bytewise)  # noqa: E731
        return _map(fn, value)
    if op in ("/", "//", "/#", "/%"):
        pattern = await expand_pattern(sh, p.arg) if p.arg else ""
        rep = await _replacement(sh, p.arg2)
        ext = sh.shopts["extglob"]
        budget = pattern_budget(sh)
        bytewise = byte_locale(sh)
        fn = lambda s: pat.replace(s, pattern, rep, op, ext, budget, bytewise)  # noqa: E731
        return _map(fn, value)
    if op in ("^", "^^", ",", ",,", "~", "~~"):
        pattern = await expand_pattern(sh, p.arg) if p.arg and p.arg.parts else "?"
        fn = lambda s: case_convert(s, op, pattern)  # noqa: E731
        return _map(fn, value)
    if op == "@":
        return _transform(sh, p, value)
    raise ShellError(f"${{{name}{op}}}: bad substitution", 1, abort=True, errexit=True)


async def _replacement(sh: ExpandConfig, word: Word | None) -> str | tuple:
    """The replacement of ``${x/pat/rep}``, expanded as an unquoted word even inside double
    quotes; under patsub_replacement (bash 5.2's default) a template in which each ``&``
    that was not quoted stands for the matched text."""
    if word is None:
        return ""
    if not sh.shopts["patsub_replacement"]:
        return await expand_word(sh, word)
    return pat.replacement(await expand_pattern(sh, word, pat.quote_replacement))


async def _arg_value(sh: ExpandConfig, arg: Word | None, quoted: bool) -> str | Words:
    """The word of ``${x:-word}``/``${x:+word}`` (several words for "${x:-"$@"}")."""
    if arg is None:
        return ""
    if quoted and len(arg.parts) == 1 and type(arg.parts[0]) is DQ:
        fields = await _expand_dq(sh, arg.parts[0].parts)
        return fields[0] if len(fields) == 1 else Words(fields, True)
    return await expand_word(sh, arg)


def unbound_status(sh: ExpandConfig) -> int:
    """The status an unset-variable error exits with: 127 in a ``bash -c`` string, 1 in
    a script file, a subshell, or with errexit (as bash)."""
    return 1 if sh.subshell_level or sh.options["errexit"] or not sh.command_string else 127


def check_unset(sh: ExpandConfig, p: Param) -> None:
    if sh.options["nounset"] and p.name not in ("@", "*") \
            and not (p.index is not None and p.index.plain in ("@", "*")):
        if p.name in ("!", "-", UNSET_PARAM):
            return
        label = p.name if p.index is None else f"{p.name}[{p.index.plain or p.index.source or ''}]"
        if p.unbraced and not (p.name[0].isalpha() or p.name[0] == "_"):
            label = "$" + label
        raise ShellError(f"{label}: unbound variable", unbound_status(sh), fatal=True)


async def _substring(sh: ExpandConfig, p: Param, value: str | Words) -> str | Words:
    off_text = await expand_word(sh, p.arg) if p.arg else "0"
    offset = await sh.arith_async(off_text) if off_text.strip() else 0
    length = None
    if p.arg2 is not None:
        len_text = await expand_word(sh, p.arg2)
        length = await sh.arith_async(len_text) if len_text.strip() else 0
    if isinstance(value, list):
        items = list(value)
        start: int | None
        if p.index is None:
            # $@ counts $0 as position 0
            items = [sh.arg0] + items
            start = offset + len(items) if offset < 0 else offset
        else:
            start = _slice_start(sh, p, offset)
        if start is None or start < 0:
            return Words((), value.at)
        if length is None:
            return Words(items[start:], value.at)
        if length < 0:
            raise ShellError(f"{length}: substring expression < 0", 1, abort=True)
        return Words(items[start:start + length], value.at)
    if not value.isascii() and byte_locale(sh):
        return pat.from_bytes(_substring_of(pat.as_bytes(value), offset, length))
    return _substring_of(value, offset, length)


def _slice_start(sh: ExpandConfig, p: Param, offset: int) -> int | None:
    """Where ``${a[@]:offset}`` starts among the elements: an indexed array's offset is an
    index (negative: from the end), the first element at or after it; an associative
    array counts its keys from 1."""
    var = sh.lookup_var(p.name)
    value = var.value if var is not None else None
    if type(value) is IndexedArray:
        if offset < 0:
            offset += value.top
            if offset < 0:
                return None
        return bisect.bisect_left(value.keys(), offset)
    if type(value) is dict:
        if offset < 0:
            offset += len(value)
            return offset if offset >= 0 else None
        return max(offset - 1, 0)
    return offset if offset >= 0 else offset + 1


def _attributes(sh: ExpandConfig, p: Param) -> str | Words:
    """``${x@a}``: the attribute letters, also of a declared variable without a value."""
    var = sh.lookup_var(p.name) if not _special_param(p.name) else None
    if var is None:
        check_unset(sh, p)
    flags = var.attr_flags() if var is not None else ""
    if p.index is not None and p.index.plain in ("@", "*"):
        count = len(ordered_values(var)) if var is not None and var.value is not None else 0
        return Words([flags] * count, p.index.plain == "@")
    return flags


def _transform(sh: ExpandConfig, p: Param, value: str | Words) -> str | Words:
    op = p.arg.plain if p.arg else ""
    var = sh.lookup_var(p.name) if op in ("A", "K", "k") and not _special_param(p.name) else None
    whole = p.index is not None and p.index.plain in ("@", "*")
    if op in ("K", "k") and whole and var is not None and is_array(var.value):
        pairs = [(str(k), v) for k, v in zip(ordered_keys(var), ordered_values(var))]
        if op == "k":
            return Words([x for pair in pairs for x in pair], p.index is not None and p.index.plain == "@")
        return " ".join(f"{key_text(k)} {double_quote(v)}" for k, v in pairs) + " "
    if op == "A":
        if whole and var is not None and is_array(var.value):
            return declare_text(p.name, var)
        flags = var.attr_flags() if var is not None else ""
        prefix = f"declare -{flags} " if flags else ""

    def one(s: str) -> str:
        if op == "Q" or op == "K" or op == "k":
            return quote_always(s)
        if op == "U":
            return s.upper()
        if op == "L":
            return s.lower()
        if op == "u":
            return s[:1].upper() + s[1:]
        if op == "E":
            return decode_ansi_c(s)
        if op == "P":
            return decode_prompt(s, sh)
        if op == "A":
            return f"{prefix}{p.name}={quote_always(s)}"
        raise ShellError(f"${{{p.name}@{op}}}: bad substitution", 1)
    return _map(one, value)


#: what resolve_param gives for nothing to refer to (a circular nameref), and for ${!nameref}
#: (the name it holds)
UNSET_PARAM = "!unset"
NAMEREF_NAME = "!refname"


class Words(list):
    """Values of $@, $*, ${a[@]}, ${a[*]} (also reached through ${!ref} or a nameref):
    ``at`` keeps them separate words inside double quotes, else they join with IFS."""

    __slots__ = ("at",)

    def __init__(self, values: Iterable[str] = (), at: bool = True) -> None:
        super().__init__(values)
        self.at = at


def _map(fn: Callable[[str], str], value: str | Words) -> str | Words:
    """``fn`` applied to a value, or to each of several (which stay several)."""
    if isinstance(value, list):
        return Words([fn(v) for v in value], value.at)
    return fn(value)


_PROMPT_ESCAPES = {"a": "\a", "e": "\x1b", "n": "\n", "r": "\r", "\\": "\\", "[": "", "]": ""}


def decode_prompt(s: str, sh: ExpandConfig) -> str:
    """``${x@P}``: the prompt escapes bash expands (``\\u``, ``\\h``, ``\\w``, ``\\$`` ...)."""
    out = []
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = s[i + 1]
        i += 2
        if e in _PROMPT_ESCAPES:
            out.append(_PROMPT_ESCAPES[e])
        elif e == "$":
            out.append("#" if sh.get_scalar("EUID") == "0" else "$")
        elif e == "u":
            out.append(sh.get_scalar("USER") or "user")
        elif e in "hH":
            host = sh.get_scalar("HOSTNAME") or "sandbox"
            out.append(host if e == "H" else host.split(".")[0])
        elif e in "wW":
            cwd = sh.get_scalar("PWD") or sh.cwd
            home = sh.get_scalar("HOME")
            if home and (cwd == home or cwd.startswith(home.rstrip("/") + "/")):
                cwd = "~" + cwd[len(home.rstrip("/")):]
            out.append(cwd if e == "w" or cwd in ("/", "~") else cwd.rsplit("/", 1)[-1])
        elif e == "s":
            out.append(sh.arg0.rsplit("/", 1)[-1])
        elif e == "v":
            out.append("5.2")
        elif e == "V":
            out.append("5.2.15")
        elif e in "01234567":
            j = i - 1
            while j < n and j < i + 2 and s[j] in "01234567":
                j += 1
            out.append(chr(int(s[i - 1:j], 8) & 0xFF))
            i = j
        else:
            out.append("\\" + e)
    return "".join(out)


def case_convert(s: str, op: str, pattern: str) -> str:
    """``${s^pat}``, ``${s^^pat}``, ``${s,pat}``, ``${s,,pat}``, ``${s~pat}``, ``${s~~pat}``."""
    every = op in ("^^", ",,", "~~")
    upper = op.startswith("^")
    toggle = op.startswith("~")
    if pattern == "?" and s.isascii():
        # every character, ASCII: str's own conversions do the same, at C speed
        head = s if every else s[:1]
        head = head.swapcase() if toggle else head.upper() if upper else head.lower()
        return head if every else head + s[1:]
    out = []
    for k, c in enumerate(s):
        if (every or k == 0) and (pattern == "?" or pat.match(pattern, c)):
            if toggle:
                changed = c.lower() if c.isupper() else c.upper()
            else:
                changed = c.upper() if upper else c.lower()
            if len(changed) == 1:  # towupper maps one character to one: 'ß' stays
                c = changed
        out.append(c)
        if not every and k == 0:
            out.append(s[1:])
            break
    return "".join(out)
