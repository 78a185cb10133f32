"""The evaluator's commands: every node compiled once into a *runner*, the one place its rules live.

A runner is ``run(sh, node, fds) -> int | Awaitable[int]``: it finishes the command without a
coroutine when nothing has to wait, else returns an awaitable that finishes it (the caller
awaits it in the same dynamic state: errexit suppression, loop depth). ``start`` runs every
command of the shell, with the DEBUG trap as a branch in it.

Compound commands (lists, ``&&``/``||``, ``if``, ``case``, ``for``, ``{ }``, ``( )``) have one
implementation each: synchronous *steps* that run as far as they can and say where they
stopped, and a driver coroutine that awaits there and hands back to the steps. Simple
commands, ``[[ ]]``, ``(( ))`` and the words in them are compiled where they can be (plain
text, ``$name``, ``${a[i]}``, ``${#x}``, ``${x#pat}``-style operators, ``"..."`` of those,
``$((...))``, redirections to files and fds, quoted here-documents); a word the compiled form
does not cover (NeedsGeneric, raised before anything changed), xtrace, or a yield due hands
the command to its coroutine handler in interp.py (``HANDLERS``), as do loops, ``select`` and
function definitions, which only have that form.
"""
from __future__ import annotations

import os
import time

from ...lazy import TYPE_CHECKING, cast
from ... import aio
from ..builtins import BUILTINS, SPECIAL_BUILTINS, SYNC_BUILTINS
from ..state import (AbortCommand, BreakLoop, ContinueLoop, ExitShell, IndexedArray, LimitExceeded, ReturnFromFunction,
    ShellError, Var, is_array, too_many_words)
from ..syntax.lexer import is_name
from ..syntax.printer import format_word
from ..syntax.ast import (DQ, AndOr, ArithCommand, ArithFor, ArithSub, Assign, BraceGroup, Case, CmdSub, CommandList,
    CondAnd, CondBinary, CondCommand, CondNot, CondOr, CondUnary, CondWord, For, If, Lit, Param, Pipeline, Quoted,
    SimpleCommand, Subshell, Word)
from .cond import (INTEGER_OPS, binary_test, compare_integers, cond_integer, ere_escape, eval_cond, regex_match,
    unary_test)
from .. import pattern as pat
from ...wildcard import CHECK_EVERY, Wildcard
from .arith import ArithError, compile_expr, evaluate as arith_evaluate
from . import redirect
from .redirect import redirect_now
from .variables import DYNAMIC_VARS, NeedsExpansion
from .word import (BIG_STRING, DEFAULT_IFS, GLOB_ACTIVE, Fields, ambiguous_redirect, case_convert, charge_expansion,
    has_brace, DEFAULT_WORD_OPS, quoted_default, text_length)

if TYPE_CHECKING:
    from typing import Any, Callable

if TYPE_CHECKING:
    from .interp import Shell

#: the runner of a node that has none (the generic handler runs it)
NO_RUNNER: Any = object()
#: what a synchronous step gives when only its coroutine can go on
NOT_NOW: Any = object()
#: a compiled loop handing on to its coroutine when it is time to yield
YIELD_FIRST: Any = object()
#: parameters whose reading changes state (they are left to the generic path)
_STATEFUL_PARAMS = frozenset({"RANDOM", "SRANDOM"})

monotonic = time.monotonic
#: a test switch, read once: SANDBOX_KERNEL_GENERIC_ONLY=1 compiles no runner, so every command
#: runs on the generic handlers (tests/test_eval_paths.py holds the two paths to the same output)
GENERIC_ONLY = os.environ.get("SANDBOX_KERNEL_GENERIC_ONLY") == "1"


class NeedsGeneric(Exception):
    """A compiled word met what only the generic expander does (raised before any change)."""


# ============================================================================ words
def _plain_variable(p: Param) -> bool:
    """``$name`` of a variable (not a special or dynamic parameter): a lookup is all it takes."""
    return (p.op is None and p.index is None and not p.length and not p.indirect and is_name(p.name)
            and p.name not in DYNAMIC_VARS)


#: parameter operators the runners apply to a scalar themselves
_PATTERN_OPS = frozenset({"#", "##", "%", "%%", "/", "//", "/#", "/%", "^", "^^", ",", ",,", "~", "~~"})


def _compile_operator(p: Param) -> Callable[[Shell], str | None] | None:
    """``${name#pat}``, ``${name%%pat}``, ``${name/pat/rep}``, ``${name^^}`` ... of a scalar."""
    base = _compile_value(Param(p.name))
    if base is None:
        return None
    op = p.op or ""  # (one of _PATTERN_OPS)
    if op in ("^", "^^", ",", ",,", "~", "~~"):
        letters_of = compile_pattern(p.arg) if p.arg is not None and p.arg.parts else (lambda sh: "?")
        if letters_of is None:
            return None

        def convert(sh: Shell) -> str | None:
            value = base(sh)
            return None if value is None else case_convert(value, op, letters_of(sh))
        return convert
    pattern_of = compile_pattern(p.arg) if p.arg is not None else (lambda sh: "")
    if pattern_of is None:
        return None
    if op in ("#", "##", "%", "%%"):
        longest = op in ("##", "%%")
        strip = pat.strip_prefix if op[0] == "#" else pat.strip_suffix
        literal = constant_pattern(p.arg) if p.arg is not None else ""
        if literal is not None and not pat.has_glob(literal, True):
            # a pattern without wildcards: its shortest and longest match are itself
            text = pat.unescape(literal)
            prefix = op[0] == "#"

            def stripped_text(sh: Shell) -> str | None:
                value = base(sh)
                if value is None:
                    return None
                if not value.isascii() and sh.byte_locale():
                    return strip(value, pattern_of(sh), longest, sh.shopts["extglob"], sh.pattern_budget(), True)
                return value.removeprefix(text) if prefix else value.removesuffix(text)
            return stripped_text

        def stripped(sh: Shell) -> str | None:
            value = base(sh)
            if value is None:
                return None
            return strip(value, pattern_of(sh), longest, sh.shopts["extglob"], sh.pattern_budget(),
                         not value.isascii() and sh.byte_locale())
        return stripped
    # the replacement as expand_word makes it (patsub_replacement off) and with its quoted
    # & and \ escaped for the template patsub_replacement makes (word.py's _replacement)
    rep_of = compile_string(p.arg2) if p.arg2 is not None else (lambda sh: "")
    marked_of = compile_pattern(p.arg2, pat.quote_replacement) if p.arg2 is not None else (lambda sh: "")
    if rep_of is None or marked_of is None:
        return None

    def replaced(sh: Shell) -> str | None:
        value = base(sh)
        if value is None:
            return None
        pattern = pattern_of(sh)
        rep = pat.replacement(marked_of(sh)) if sh.shopts["patsub_replacement"] else rep_of(sh)
        return pat.replace(value, pattern, rep, op, sh.shopts["extglob"], sh.pattern_budget(),
                           not value.isascii() and sh.byte_locale())
    return replaced


#: ${x-w} ${x:-w} ${x+w} ${x:+w}: they only read


def _compile_default(p: Param, in_string: bool) -> Callable[[Shell], str | None] | None:
    """``${x:-word}`` and its kin of a variable or an element, the word made of plain text,
    parameters and arithmetic, and double-quoted parts when the result is not split
    (``in_string``: the caller would split them)."""
    if p.length or p.name in ("@", "*") or p.arg is None \
            or (p.index is not None and p.index.plain in ("@", "*")):
        return None
    allowed = (Lit, Param, ArithSub, DQ) if in_string else (Lit, Param, ArithSub)
    if any(type(part) not in allowed for part in p.arg.parts):
        return None
    base = _compile_value(Param(p.name, index=p.index))
    word_of = compile_string(p.arg)
    if base is None or word_of is None:
        return None
    colon = p.op[0] == ":"  # type: ignore[index]  # (one of DEFAULT_WORD_OPS)
    default = p.op[-1] == "-"  # type: ignore[index]

    def defaulted(sh: Shell) -> str | None:
        if sh.options["nounset"]:
            raise NeedsGeneric  # the base's unset check is not for these operators
        value = base(sh)
        missing = value is None or (colon and value == "")
        if default:
            return word_of(sh) if missing else value
        return None if missing else word_of(sh)
    return defaulted


def _compile_value(p, unset: str | None = None, in_string: bool = False) -> Callable[[Shell], str | None] | None:
    """A parameter whose value the runners read without the generic expander: ``$name``,
    ``${name[sub]}``, ``${#name}``, ``${#name[@]}``; the value (None when unset, after the
    nounset check; an element gives ``unset`` then), or None when ``p`` is not one of those."""
    if type(p) is not Param or p.indirect or p.name in _STATEFUL_PARAMS:
        return None
    if p.op is not None:
        if p.op in _PATTERN_OPS and p.index is None and not p.length and p.name not in ("@", "*"):
            return _compile_operator(p)
        if p.op in DEFAULT_WORD_OPS:
            return _compile_default(p, in_string)
        return None
    name = p.name
    index = p.index
    if index is None:
        if name in ("@", "*"):
            return None
        if p.length:
            def length(sh: Shell) -> str:
                value = sh.param_scalar(name)
                if value is None:
                    if sh.options["nounset"]:
                        sh.check_unset(p)
                    return "0"
                return str(len(value) if value.isascii() else text_length(sh, value))
            return length

        def scalar(sh: Shell) -> str | None:
            value = sh.param_scalar(name)
            if value is None and sh.options["nounset"]:
                sh.check_unset(p)
            return value
        if name.isdigit() and name.isascii() and name != "0":
            k = int(name) - 1

            def positional(sh: Shell) -> str | None:
                # $1 ... (a function's arguments): the list itself
                args = sh.positional
                return args[k] if k < len(args) else scalar(sh)
            return positional
        if not _plain_variable(p):
            return scalar

        def variable(sh: Shell) -> str | None:
            # a plain string variable (the commonest parameter) without lookup_var's checks
            var = sh.lookup_raw(name)
            if var is not None:
                if type(var.value) is str and not var.nameref:
                    return var.value
                if var.nameref:  # it may name an element or a whole array ('a[@]')
                    raise NeedsGeneric
            return scalar(sh)
        return variable
    if not is_name(name):
        return None
    if index.plain in ("@", "*"):
        if not p.length:
            return None

        def count(sh: Shell) -> str:
            var = sh.lookup_var(name)
            if var is None or var.value is None:
                return "0"
            return str(len(var.value)) if is_array(var.value) else "1"
        return count
    if p.length or (index.source and any(q in index.source for q in "'\"\\")):
        return None  # ${#a[i]}; a key with quotes (expand_key reparses its source)
    index_of = compile_string(index)
    if index_of is None:
        return None

    dynamic = name in DYNAMIC_VARS

    def element(sh: Shell) -> str | None:
        var = sh.lookup_raw(name)
        if dynamic or (var is not None and var.nameref):
            var = sh.lookup_var(name)
        key: Any  # (an associative array's key, or an index)
        if var is not None and var.assoc:
            key = index_of(sh)
        else:
            text = index_of(sh)
            if not text.strip():
                raise ShellError(f"${{{name}[{text}]}}: bad substitution", 1)
            try:
                key = sh.arith(text)
            except NeedsExpansion:
                raise NeedsGeneric from None
            if key < 0:
                value = var.value if var is not None else None
                top = value.top if type(value) is IndexedArray else 0
                if key + top < 0:
                    # before the start (a scalar has no end to count from): said at the next
                    # expansion, the value is unset, as the expander does (no fallback: it
                    # would expand the words before this one again)
                    if sh.options["nounset"]:
                        raise NeedsGeneric
                    sh.notice(f"{name}: bad array subscript")
                    return unset
                key += top
        if var is None or var.value is None:
            value = None
        elif type(var.value) is str:
            value = var.value if key == 0 or key == "0" else None
        else:
            value = var.value.get(key)
        if value is None:
            if sh.options["nounset"]:
                sh.check_unset(p)
            return unset
        return value
    return element


def compile_string(word: Word) -> Callable[[Shell], str] | None:
    """``expand_word`` of ``word`` (one string, no splitting or globbing; as an assignment's
    value: no tilde is allowed in it here), or None when it is not compiled."""
    if GENERIC_ONLY:
        return None
    fast = word.fast
    if fast is not None:
        return lambda sh: fast
    pieces: list = []
    for p in word.parts:
        piece = _compile_string_part(p)
        if piece is None:
            return None
        pieces.append(piece)
    return _concat(pieces)


def _concat(pieces: list) -> Callable[[Shell], str]:
    """The string of ``pieces`` (constant strs and functions of the shell) one after another."""
    merged: list = []
    for piece in pieces:
        if type(piece) is str and merged and type(merged[-1]) is str:
            merged[-1] += piece
        elif piece != "":
            merged.append(piece)
    if not merged:
        return lambda sh: ""
    if len(merged) == 1:
        only = merged[0]
        return (lambda sh: only) if type(only) is str else only
    if len(merged) == 2:
        a, b = merged
        # the commonest joins (k$i, $x.txt), with _counted's check inline
        if type(a) is str:
            def prefixed(sh: Shell) -> str:
                text = a + b(sh)
                return text if len(text) <= BIG_STRING else _counted(sh, text)
            return prefixed
        if type(b) is str:
            def suffixed(sh: Shell) -> str:
                text = a(sh) + b
                return text if len(text) <= BIG_STRING else _counted(sh, text)
            return suffixed
        return lambda sh: _counted(sh, a(sh) + b(sh))
    if len(merged) == 3 and type(merged[0]) is str and type(merged[2]) is str:
        a, f, c = merged
        return lambda sh: _counted(sh, a + f(sh) + c)
    return lambda sh: _counted(sh, "".join([p if type(p) is str else p(sh) for p in merged]))


def _counted(sh: Shell, text: str) -> str:
    """A string the expansion made: a big one counts against the shell's memory."""
    if len(text) > BIG_STRING:
        charge_expansion(sh.rt, len(text))
    return text


def _compile_string_part(p):
    """A part of a word as a constant str, a function of the shell giving a str, or None."""
    tp = type(p)
    if tp is Lit:
        return None if "~" in p.text else p.text
    if tp is Quoted:
        return p.text
    if tp is DQ:
        return _compile_dq(p)
    if tp is ArithSub:
        return _compile_arith_sub(p)
    return _compile_param(p)


def _compile_param(p) -> Callable[[Shell], str] | None:
    """A parameter as a string ("" when unset)."""
    if type(p) is Param and p.op is None and p.index is not None and not p.length \
            and p.index.plain not in ("@", "*"):
        return _compile_value(p, unset="")  # type: ignore[return-value]  # an element: "" for unset without a wrapper
    value_of = _compile_value(p, in_string=True)
    if value_of is None:
        return None
    if _plain_variable(p):
        name = p.name

        def variable_text(sh: Shell) -> str:
            # _compile_value's plain lookup, "" for unset (outside functions: the globals)
            var = sh.lookup_raw(name) if sh.scopes else sh.globals.get(name)
            if var is not None and type(var.value) is str and not var.nameref:
                return var.value
            value = value_of(sh)
            return "" if value is None else value
        return variable_text

    def param(sh: Shell) -> str:
        value = value_of(sh)
        return "" if value is None else value
    return param


def _compile_dq(dq: DQ) -> Callable[[Shell], str] | None:
    """A double-quoted string of plain text, ``$name`` and ``$((...))``: one string."""
    pieces: list = []
    p: Any  # (a Part, told apart by its type)
    for p in dq.parts:
        tp = type(p)
        if tp is Lit or tp is Quoted:
            pieces.append(p.text)
            continue
        piece = _compile_arith_sub(p) if tp is ArithSub else _compile_param(p)
        if piece is None:
            return None
        pieces.append(piece)
    return _concat(pieces)


def _compile_arith_sub(p: ArithSub) -> Callable[[Shell], str] | None:
    fast = p.expr.fast
    if fast is not None:
        # a constant expression: parsed once (sh.arith's errors kept)
        evaluator = _constant_arith(fast)

        def constant_sub(sh: Shell) -> str:
            try:
                return str(evaluator(sh))
            except NeedsExpansion:
                raise NeedsGeneric from None
            except ArithError as e:
                raise ShellError(e.message, 1, abort=True) from None
            except RecursionError:
                raise ShellError(f"{fast}: expression recursion level exceeded", 1, abort=True) from None
        return constant_sub
    expr = compile_string(p.expr)
    if expr is None:
        return None

    def arith_sub(sh: Shell) -> str:
        text = expr(sh)
        try:
            return str(sh.arith(text))
        except NeedsExpansion:
            raise NeedsGeneric from None
    return arith_sub


def compile_matcher(word: Word) -> Callable[[Any, str, bool, bool], bool] | None:
    """``pat.match(expand_pattern(word), text, extglob, nocase, budget)`` as
    ``fn(sh, text, extglob, nocase)``: a constant pattern without wildcards compares as text."""
    if GENERIC_ONLY:
        return None
    fast = word.fast
    if fast is not None and not pat.has_glob(fast, True):
        literal = pat.unescape(fast)

        def equal(sh: Shell, text: str, ext: bool, nocase: bool) -> bool:
            if nocase:
                return pat.match(fast, text, ext, nocase, sh.pattern_budget())
            return literal == text
        return equal
    if word.plain == "*":
        return lambda sh, text, ext, nocase: True
    constant_text = fast if fast is not None else constant_pattern(word)
    if constant_text is not None:
        # a constant pattern: its test is made once per (extglob, nocasematch)
        tests: list = [None, None, None, None]

        def constant(sh: Shell, text: str, ext: bool, nocase: bool) -> bool:
            if not text.isascii() and sh.byte_locale():
                return pat.match(constant_text, text, ext, nocase, sh.pattern_budget(), True)
            k = 2 * ext + nocase
            test = tests[k]
            if test is None:
                test = tests[k] = _pattern_test(constant_text, ext, nocase)
            return test(sh, text)
        return constant
    pattern_of = compile_pattern(word)
    if pattern_of is None:
        return None
    return lambda sh, text, ext, nocase: pat.match(pattern_of(sh), text, ext, nocase, sh.pattern_budget(),
                                                   not text.isascii() and sh.byte_locale())


def _pattern_test(pattern: str, ext: bool, nocase: bool) -> Callable[[Any, str], bool]:
    """``fn(sh, text)``: does ``text`` match the constant ``pattern``?"""
    if not nocase and not pat.has_glob(pattern, ext):
        literal = pat.unescape(pattern)
        return lambda sh, text: text == literal
    m = pat.compile_pattern(pattern, ext, nocase)
    if type(m) is Wildcard:
        same = m.literal_test()
        if same is not None:
            return lambda sh, text: same(text)
        # the wildcard matcher is linear: a short text needs no budget to stop it
        return lambda sh, text: m.fullmatch(text, sh.pattern_budget() if len(text) > CHECK_EVERY else None)
    return lambda sh, text: m.fullmatch(text, sh.pattern_budget())


def _constant_arith(text: str) -> Callable[[Shell], int]:
    """The evaluator of a constant expression, parsed now; one that does not parse raises its
    error when it runs, as ``arith.evaluate`` would."""
    try:
        return compile_expr(text)
    except (ArithError, RecursionError):
        return lambda sh: arith_evaluate(text, sh)


def compile_arith(word: Word) -> Callable[[Shell], int] | None:
    """The value of an arithmetic expression written as ``word`` (expanded first), or None."""
    fast = word.fast
    if fast is not None:
        return _constant_arith(fast)
    text_of = compile_string(word)
    if text_of is None:
        return None
    return lambda sh: arith_evaluate(text_of(sh), sh)


def constant_pattern(word: Word) -> str | None:
    """The pattern a word of plain and quoted text makes (quoted parts escaped: they match
    literally), or None when it has expansions (or a leading ``~``)."""
    if word.fast is not None:
        return word.fast
    parts: list[Any] = word.parts  # (Parts, told apart by their types)
    if parts and type(parts[0]) is Lit and parts[0].text.startswith("~"):
        return None
    if not all(type(p) is Lit or type(p) is Quoted for p in parts):
        return None
    return "".join(p.text if type(p) is Lit else pat.escape(p.text) for p in parts)


def compile_pattern(word: Word, escape: Callable[[str], str] = pat.escape) -> Callable[[Shell], str] | None:
    """``expand_pattern`` of ``word``: a pattern with its quoted characters escaped (by
    ``escape``), or None."""
    fast = word.fast
    if fast is not None:
        return lambda sh: fast
    pieces: list = []
    p: Any  # (a Part, told apart by its type)
    for k, p in enumerate(word.parts):
        tp = type(p)
        if tp is Lit:
            if k == 0 and p.text.startswith("~"):
                return None
            pieces.append(p.text)
        elif tp is Quoted:
            pieces.append(escape(p.text))
        elif tp is DQ:
            dq = _compile_dq(p)
            if dq is None:
                return None
            pieces.append(lambda sh, dq=dq: escape(dq(sh)))
        else:
            if quoted_default(p):
                return None
            piece = _compile_arith_sub(p) if tp is ArithSub else _compile_param(p)
            if piece is None:
                return None
            pieces.append(piece)
    return _concat(pieces)


def compile_fields(word) -> Callable[[Any, list], None] | None:
    """``expand_words([word])`` appending to a list (splitting and globbing included), or None."""
    if GENERIC_ONLY:
        return None
    if type(word) is not Word:
        return None  # an array argument of declare/local (an Assign)
    fast = word.fast
    if fast is not None:
        return lambda sh, out: out.append(fast)
    parts: list[Any] = word.parts  # (Parts, told apart by their types)
    if has_brace(parts):
        return None
    for k, p in enumerate(parts):
        if type(p) is Lit and "~" in p.text and (k == 0 or word.assign_like):
            return None
    if len(parts) == 1 and type(parts[0]) is Lit:
        return _compile_literal(parts[0].text)
    if all(type(p) is Quoted or (type(p) is Lit and not any(c in GLOB_ACTIVE for c in p.text)) for p in parts):
        # quoted text ('%s\n', "a"'b'c): one constant word
        constant = "".join(p.text for p in parts)
        return lambda sh, out: out.append(constant)
    if len(parts) == 1 and type(parts[0]) is Param:
        value_of = _compile_value(parts[0])
        return None if value_of is None else _compile_split_param(value_of)
    if len(parts) == 1 and type(parts[0]) is ArithSub:
        value_of = _compile_arith_sub(parts[0])
        return None if value_of is None else _compile_split_param(value_of)
    if len(parts) == 1 and type(parts[0]) is DQ and len(parts[0].parts) == 1 and type(parts[0].parts[0]) is Param:
        p = parts[0].parts[0]
        if p.name == "@" and p.op is None and p.index is None and not p.length and not p.indirect:
            # "$@": the positional parameters, one word each
            return lambda sh, out: out.extend(sh.positional)
    if len(parts) == 1 and type(parts[0]) is DQ:
        quoted_of = _compile_dq(parts[0])
        if quoted_of is None:
            return None
        return lambda sh, out: out.append(quoted_of(sh))
    steps: list[tuple[int, Any]] = []  # (kind, a str or a function of the shell)
    for p in parts:
        tp = type(p)
        if tp is Lit:
            steps.append((0, p.text))
        elif tp is Quoted:
            steps.append((1, p.text))
        elif tp is DQ:
            text = _compile_dq(p)
            if text is None:
                return None
            steps.append((2, text))  # one quoted piece
        elif tp is ArithSub:
            text = _compile_arith_sub(p)
            if text is None:
                return None
            steps.append((3, text))  # split
        else:
            value = _compile_value(p)
            if value is None:
                return None
            steps.append((4, value))  # split when set

    # a quoted part makes a field even when everything is empty; a literal with a glob
    # character makes the word a pattern
    quoted = any(kind in (1, 2) for kind, _ in steps)
    may_glob = any(kind == 0 and any(c in GLOB_ACTIVE for c in item) for kind, item in steps)

    def fields(sh: Shell, out: list) -> None:
        values = [item if kind <= 1 else item(sh) for kind, item in steps]
        ifs = sh.ifs()
        if not may_glob:
            # the commonest case (f$i.txt, $a-$b): no expansion to split or glob, one field
            for (kind, _), value in zip(steps, values):
                if kind >= 3 and value and (any(c in ifs for c in value) or any(c in GLOB_ACTIVE for c in value)):
                    break
            else:
                text = "".join([v for v in values if v is not None])
                if len(text) <= BIG_STRING:
                    if text or quoted:
                        out.append(text)
                    return
        f = Fields(ifs, sh.rt)
        for (kind, _), value in zip(steps, values):
            if kind == 0:
                if value:
                    f.lit(value)
            elif kind <= 2:
                f.quote(value)
            elif value is not None:
                f.split(value)
        f.end()
        sh.finish_fields(f.out, out)
    return fields


def _compile_literal(text: str) -> Callable[[Any, list], None] | None:
    """An unquoted literal with glob characters (``[``, ``a*``): itself unless it globs."""
    if not text:
        return None
    # whether it is a pattern, without and with extglob
    globs = (pat.has_glob(text, False), pat.has_glob(text, True))

    def literal(sh: Shell, out: list) -> None:
        if not globs[sh.shopts["extglob"]] or sh.options["noglob"]:
            out.append(text)
            return
        f = Fields(sh.ifs(), sh.rt)
        f.lit(text)
        f.end()
        sh.finish_fields(f.out, out)
    return literal


def _compile_split_param(value_of) -> Callable[[Any, list], None]:
    """An unquoted parameter alone: its value itself when it holds no IFS or glob character."""
    def split_param(sh: Shell, out: list) -> None:
        value = value_of(sh)
        if value is None:
            return
        if value:
            ifs = sh.ifs()
            if ifs == DEFAULT_IFS and value.isalnum():
                out.append(value)  # (a number, a word: no blank, no glob character)
                return
            if len(value) < 64:
                for c in value:
                    if c in ifs or c in GLOB_ACTIVE:
                        break
                else:
                    out.append(value)
                    return
            elif not any(c in value for c in ifs) and not any(c in value for c in GLOB_ACTIVE):
                # a long value: a scan per IFS and glob character, at C speed
                out.append(value)
                return
        f = Fields(sh.ifs(), sh.rt)
        f.split(value)
        f.end()
        sh.finish_fields(f.out, out)
    return split_param


# ============================================================================ commands
#: the coroutine handler of each node type (interp.py registers them): the runner of a node
#: that has no compiled one, and where a compiled runner hands on
HANDLERS: dict[type, Callable] = {}
#: the commands the DEBUG trap runs before (the heads of for, select and case run it themselves)
_DEBUG_KINDS = (SimpleCommand, ArithCommand, CondCommand)


def compile_node(node) -> Callable:
    """The runner of ``node``: compiled where it can be, else its type's coroutine handler."""
    tp = type(node)
    if GENERIC_ONLY and tp in HANDLERS:
        return HANDLERS[tp]
    runner = _compile(node)
    return HANDLERS[tp] if runner is NO_RUNNER else runner


def _compile(node) -> Callable | Any:
    tp = type(node)
    if tp is SimpleCommand:
        return _compile_simple(node)
    if tp is CommandList:
        return _compile_list(node)
    if tp is AndOr:
        return run_and_or
    if tp is If:
        return run_if if not node.redirs else _redirected(run_if)
    if tp is BraceGroup:
        return _compile_brace(node)
    if tp is Subshell:
        return run_subshell if not node.redirs else _redirected_subshell
    if tp is Pipeline:
        return _compile_pipeline(node) if len(node.commands) > 1 and not node.timed else NO_RUNNER
    if tp is ArithCommand:
        return _compile_arith_command(node)
    if tp is ArithFor:
        return _compile_arith_for(node)
    if tp is For:
        return _compile_for(node)
    if tp is CondCommand:
        return _compile_cond_command(node)
    if tp is Case:
        return _compile_case(node)
    return NO_RUNNER


def start(sh: Shell, node, fds: dict):
    """Run ``node``: its status, or an awaitable of it. (Every command of the shell starts here.)"""
    runner = node.cache
    if runner is None:
        runner = node.cache = compile_node(node)
    if sh.debug_trap_set and type(node) in _DEBUG_KINDS:
        return _debug_then(runner, sh, node, fds)
    return runner(sh, node, fds)


async def _debug_then(runner, sh: Shell, node, fds: dict) -> int:
    await sh.debug_trap(node.line)
    status = runner(sh, node, fds)
    return status if type(status) is int else await status


def _enter(sh: Shell, fds: dict, line: int) -> bool:
    """A runner's start: False when the generic handler must run the command (xtrace, a
    cancellation or a yield due: it does them), else the command's fds and line are set and
    True. (A nameref is followed where a variable is read or written: each lookup checks.)"""
    rt = sh.rt
    cancel = rt.cancel
    if sh.options["xtrace"] or (cancel is not None and cancel.reason is not None) \
            or monotonic() - rt.last_yield > rt.yield_interval:
        return False
    sh.current_fds = fds
    sh.lineno = line
    return True


def commands_exceeded(rt) -> LimitExceeded:
    """The error of a counted command past the commands limit (or after a background job's)."""
    if rt.commands > rt.limits.commands:
        return LimitExceeded(f"too many commands: {rt.limits.commands} executed (limit commands)", "commands")
    return LimitExceeded(rt.limit_error, "commands")


# ---------------------------------------------------------------------------- simple commands
def _compile_simple(node: SimpleCommand):
    command = _compile_command(node)
    if GENERIC_ONLY:
        return command
    if not node.words:
        runner = _compile_assignments(node, command) if not node.redirs else NO_RUNNER
        return command if runner is NO_RUNNER else runner
    if node.words[0].fast == "local" and len(node.words) > 1 and not node.redirs and not node.assigns:
        runner = _compile_local(node, command)
        return command if runner is NO_RUNNER else runner
    return command


def _compile_command(node: SimpleCommand):
    """A simple command's runner: its words expanded by their compiled functions up to the
    first that has none (the expander does the rest), then ``_command``."""
    words = tuple(compile_fields(w) if type(w) is Word else None for w in node.words)
    # the leading words that expand to themselves (the command's name, mostly) start argv
    constant = 0
    while constant < len(words) and words[constant] is not None and node.words[constant].fast is not None:
        constant += 1
    prefix = [w.fast for w in node.words[:constant]]
    rest = tuple(enumerate(words))[constant:]
    counted = not words
    targets = _compile_targets(node.redirs)
    temporaries = _compile_temporaries(node.assigns)
    line = node.line

    def run_simple(sh: Shell, node, fds):
        rt = sh.rt
        cancel = rt.cancel
        if (cancel is not None and cancel.reason is not None) or monotonic() - rt.last_yield > rt.yield_interval:
            return _after_tick(run_simple, sh, node, fds)
        sh.current_fds = fds
        sh.lineno = line
        sh.cmdsub_status = None
        rt.expansion_bytes = 0
        argv = prefix.copy()
        for k, fn in rest:
            if fn is None:
                return _expand_rest(sh, node, fds, argv, k, targets, temporaries)
            try:
                fn(sh, argv)
            except NeedsGeneric:
                return _expand_rest(sh, node, fds, argv, k, targets, temporaries)
            except ShellError as e:
                return sh.simple_expansion_failed(e, fds)
        if sh.pending_warnings:
            return _expand_rest(sh, node, fds, argv, len(words), targets, temporaries)
        return _command(sh, node, fds, argv, targets, temporaries, counted)
    return run_simple


def _compile_targets(redirs: list) -> list | None:
    """The redirections' targets compiled (None for a here-document), or None when one of them
    needs ``apply_redirs``."""
    targets: list = []
    for r in redirs:
        if not redirect_now(r):
            return None
        if r.op in ("<<", "<<-"):
            targets.append(None)
            continue
        fn = compile_fields(r.target)
        if fn is None or _has_arith(r.target.parts):  # (one expanded again after a fallback)
            return None
        targets.append((fn, r.target))
    return targets


def _compile_temporaries(assigns: list) -> list | None:
    """``VAR=x cmd``'s values compiled, or None when one needs the expander (values without
    arithmetic: one expanded again after a fallback must have no side effect)."""
    temporaries = []
    for a in assigns:
        value_of = compile_string(a.value) if a.value is not None else (lambda sh: "")
        if a.array is not None or a.index is not None or value_of is None or a.name in DYNAMIC_VARS \
                or (a.value is not None and _has_arith(a.value.parts)):
            return None
        temporaries.append((a.name, value_of, a.append))
    return temporaries


async def _after_tick(runner, sh: Shell, node, fds: dict) -> int:
    """A command run once the yield or cancellation check found due is done."""
    await sh._loop_tick()
    status = runner(sh, node, fds)
    return status if type(status) is int else await status


async def _expand_rest(sh: Shell, node: SimpleCommand, fds: dict, argv: list, k: int, targets, temporaries) -> int:
    """The words from ``k`` on through the expander (``argv`` has those before), then the
    command; counted first, as the expander's command substitutions count after it."""
    if node.words:
        await sh.checkpoint()
    else:
        await sh._loop_tick()  # assignments only: not a command for the commands limit
    procsub_mark = len(sh.procsub_files)
    try:
        if sh.pending_warnings:
            await sh.flush_warnings()
        try:
            if k < len(node.words):
                argv = argv + await sh.expand_words(node.words[k:])
        except ShellError as e:
            sh.pipestatus = e.status
            return await sh.handle_error(e, fds)
        if sh.pending_warnings:
            await sh.flush_warnings()
        status = _command(sh, node, fds, argv, targets, temporaries, True)
        return status if type(status) is int else await status
    finally:
        if len(sh.procsub_files) > procsub_mark:
            await sh.finish_procsubs(procsub_mark)


def _command(sh: Shell, node: SimpleCommand, fds: dict, argv: list, targets, temporaries, counted: bool,
             traced: bool = False):
    """A simple command once its words are expanded into ``argv`` (``counted``: for the
    commands limit already, or not a command)."""
    rt = sh.rt
    if not counted:
        rt.commands += 1
        if rt.commands > rt.limits.commands or rt.limit_error is not None:
            raise commands_exceeded(rt)
    if not argv:  # assignments (kept), redirections (made and closed)
        return sh.run_assignments(node, fds, sh.cmdsub_status)
    if len(argv) > rt.limits.words:
        raise too_many_words(rt.limits.words)
    if type(argv[-1]) is str:  # (declare's array arguments are Assigns)
        sh.last_arg = argv[-1]
    elif argv[-1].array is not None:  # `declare a=(1 2)`: $_ is the name
        sh.last_arg = argv[-1].name
    if not traced and sh.options["xtrace"]:
        return _traced(sh, node, fds, argv, targets, temporaries)
    redirs = node.redirs
    if not redirs:
        if not node.assigns:
            return _dispatch(sh, argv, fds)  # (what _command_in comes to: nothing to bind or close)
        return _command_in(sh, node, argv, fds, fds, None, temporaries)
    if argv[0] == "exec" and (len(argv) == 1 or argv[1:] == ["--"]) and "exec" not in sh.functions:
        return sh.exec_redirections(node, fds)
    if targets is None:
        return _redirected_command(sh, node, fds, argv, temporaries)
    try:
        cmd_fds, opened = redirect.apply_redirs_now(sh, redirs, [_target(sh, t) for t in targets], fds)
    except NeedsGeneric:
        return _redirected_command(sh, node, fds, argv, temporaries)
    except ShellError as e:
        return sh.redirection_failed(e, fds)
    return _command_in(sh, node, argv, cmd_fds, fds, opened, temporaries)


async def _traced(sh: Shell, node: SimpleCommand, fds: dict, argv: list, targets, temporaries) -> int:
    await sh._trace(node, argv, fds)
    status = _command(sh, node, fds, argv, targets, temporaries, True, True)
    return status if type(status) is int else await status


async def _redirected_command(sh: Shell, node: SimpleCommand, fds: dict, argv: list, temporaries) -> int:
    """The command under redirections only ``apply_redirs`` makes (here-documents that expand,
    ``{fd}>``, process substitutions)."""
    procsub_mark = len(sh.procsub_files)
    try:
        try:
            cmd_fds, opened = await redirect.apply_redirs(sh, node.redirs, fds)
        except ShellError as e:
            sh.pipestatus = e.status
            return await sh.handle_error(e, fds)
        status = _command_in(sh, node, argv, cmd_fds, fds, opened, temporaries)
        return status if type(status) is int else await status
    finally:
        if len(sh.procsub_files) > procsub_mark:
            await sh.finish_procsubs(procsub_mark)


#: builtins whose NAME=value arguments expand before a ``VAR=x`` binding (run_with_temporaries)
_DECLARING = frozenset(("declare", "typeset", "local"))


def _command_in(sh: Shell, node: SimpleCommand, argv: list, cmd_fds: dict, fds: dict, opened, temporaries):
    """``argv`` run with ``cmd_fds`` (``opened``: what its redirections opened, closed after)
    under its ``VAR=x`` bindings; errors of the bindings go to ``fds``."""
    saved = None
    try:
        if node.assigns:
            name = argv[0]
            if (temporaries is not None and name not in SPECIAL_BUILTINS and name not in sh.functions
                    and name not in _DECLARING):
                saved = _bind_temporaries(sh, temporaries)
            if saved is None:  # (or a readonly name to report)
                return sh.run_with_temporaries(node, argv, cmd_fds, fds, opened)
        status = _dispatch(sh, argv, cmd_fds)
    except BaseException:
        if saved:
            sh.unbind_temporaries(saved)
        if opened:
            redirect.close_now(opened)
        raise
    if type(status) is int:
        if saved:
            sh.unbind_temporaries(saved)
        if opened:
            redirect.close_now(opened)
        return status
    if saved:
        status = sh.finish_with_temporaries(status, saved)
    return sh.finish_redirected(status, opened) if opened else status


def _bind_temporaries(sh: Shell, temporaries: list) -> list | None:
    """``VAR=x cmd``'s bindings made (expanded left to right, each seeing the ones before);
    None, with nothing bound, when one is readonly or needs the generic expander."""
    saved: list = []
    try:
        for name, value_of, append in temporaries:
            binding = sh.bind_temporary(name, value_of(sh), append)
            if binding is None:
                sh.unbind_temporaries(saved)
                return None
            saved.append(binding)
    except NeedsGeneric:
        sh.unbind_temporaries(saved)
        return None
    except BaseException:
        sh.unbind_temporaries(saved)
        raise
    return saved


def _target(sh: Shell, target) -> str | None:
    """A redirection's target expanded (one word), None for a here-document."""
    if target is None:
        return None
    fn, word = target
    out: list[str] = []
    fn(sh, out)
    if len(out) != 1:
        raise ambiguous_redirect(word)
    return out[0]


def _dispatch(sh: Shell, argv: list[str], fds: dict):
    """Run the expanded command ``argv`` (a function, builtin or external command)."""
    name = argv[0]
    fdef = sh.functions.get(name)
    if fdef is not None and (name not in SPECIAL_BUILTINS or not sh.options["posix"]):
        # (POSIX mode: a special builtin is found before a function of its name)
        status = sh.start_function(fdef, argv, fds)
    else:
        fn = SYNC_BUILTINS.get(name)
        if fn is None:
            builtin = BUILTINS.get(name)
            if builtin is not None:
                return sh.finish_builtin(builtin, argv, fds)
            return sh.finish_command(sh.run_external(argv, fds))
        status = fn(sh, argv, fds)
    if type(status) is int:
        sh.pipestatus = status
        return status
    return sh.finish_command(status)


def _compile_local(node: SimpleCommand, general):
    """``local NAME=VALUE ...`` in a function, each NAME new to the function's scope: the
    values expanded first (as bash does), then the locals made. Several operands only when
    none has arithmetic (a value re-expanded after a fallback must have no side effect)."""
    operands = node.words[1:]
    values = []
    for a in operands:
        if type(a) is not Assign or a.array is not None or a.index is not None or a.append \
                or not is_name(a.name) or a.name in DYNAMIC_VARS:
            return NO_RUNNER
        value_of = compile_string(a.value) if a.value is not None else (lambda sh: "")
        if value_of is None or (len(operands) > 1 and a.value is not None and _has_arith(a.value.parts)):
            return NO_RUNNER
        values.append((a.name, value_of))
    line = node.line

    def run_local(sh: Shell, node, fds):
        if not _enter(sh, fds, line) or not sh.scopes or sh.options["allexport"] or "local" in sh.functions:
            return general(sh, node, fds)
        scope = sh.scopes[-1]
        for name, _ in values:
            if name in scope:
                return general(sh, node, fds)
            outer = sh.lookup_raw(name)
            if outer is not None and outer.readonly:
                return general(sh, node, fds)
        rt = sh.rt
        rt.expansion_bytes = 0
        try:
            texts = [value_of(sh) for _, value_of in values]
        except NeedsGeneric:
            return general(sh, node, fds)
        except ShellError as e:
            return sh.simple_expansion_failed(e, fds)
        rt.commands += 1
        if rt.commands > rt.limits.commands or rt.limit_error is not None:
            raise commands_exceeded(rt)
        sh.cmdsub_status = None
        if sh.pending_warnings:
            return _declare_locals_later(sh, scope, values, texts)
        _declare_locals(sh, scope, values, texts)
        return 0
    return run_local


def _has_arith(parts) -> bool:
    return any(type(p) is ArithSub or (type(p) is DQ and _has_arith(p.parts)) for p in parts)


def _declare_locals(sh: Shell, scope: dict, values: list, texts: list[str]) -> None:
    if sh.shares_scope(scope):
        sh.own_variables()
        scope = sh.scopes[-1]
    for (name, _), text in zip(values, texts):
        var = Var(None)
        if len(text) > 4096:
            sh.check_string(text)
        sh.charge_string(var, text, name)
        var.value = text
        scope[name] = var
    sh.last_arg = f"{values[-1][0]}={texts[-1]}"
    sh.pipestatus = 0


async def _declare_locals_later(sh: Shell, scope: dict, values: list, texts: list[str]) -> int:
    """``_declare_locals`` once the expansion's warnings are out (bash prints them first)."""
    await sh.flush_warnings()
    _declare_locals(sh, scope, values, texts)
    return 0


def _substitution_body(word: Word | None):
    """The body of a value that is one command substitution (``$(...)`` or ``"$(...)"``)."""
    if word is None or len(word.parts) != 1:
        return None
    p = word.parts[0]
    if type(p) is DQ and len(p.parts) == 1:
        p = p.parts[0]
    return p.body if type(p) is CmdSub else None


def _compile_substitution_assignment(node: SimpleCommand, body, general):
    """``name=$(...)``: the substitution run and its text assigned without the generic
    expander; the status is the substitution's."""
    a = node.assigns[0]
    name, append, line = a.name, a.append, node.line
    plan = substitution_plan(body)

    def run_substitution_assignment(sh: Shell, node, fds):
        if not _enter(sh, fds, line):
            return general(sh, node, fds)
        sh.cmdsub_status = None
        sh.rt.expansion_bytes = 0
        return _assign_substitution(sh, node, fds, body, name, append, plan)
    return run_substitution_assignment


async def _assign_substitution(sh: Shell, node: SimpleCommand, fds: dict, body, name: str, append: bool,
                               plan: list | None) -> int:
    try:
        sh.assign_scalar(name, await sh.command_substitution(body, plan), append)
    except ShellError as e:
        return await sh.assignment_failed(node.assigns[0], e, fds)
    status = sh.cmdsub_status if sh.cmdsub_status is not None else 0
    sh.pipestatus = status
    sh.last_arg = ""
    return status


def _compile_assignments(node: SimpleCommand, general):
    if len(node.assigns) == 1 and node.assigns[0].array is None and node.assigns[0].index is None:
        body = _substitution_body(node.assigns[0].value)
        if body is not None:
            return _compile_substitution_assignment(node, body, general)
    steps = []
    for a in node.assigns:
        step = _compile_assign(a)
        if step is None:
            return NO_RUNNER
        steps.append(step)
    line = node.line
    # the commonest case, one assignment that is not an array's, goes without the loop
    only = steps[0] if len(steps) == 1 and node.assigns[0].array is None else None

    def run_assignments(sh: Shell, node, fds):
        rt = sh.rt
        cancel = rt.cancel
        # _enter inline, as in run_simple
        if sh.options["xtrace"] or (cancel is not None and cancel.reason is not None) \
                or monotonic() - rt.last_yield > rt.yield_interval:
            return general(sh, node, fds)
        sh.current_fds = fds
        sh.lineno = line
        sh.cmdsub_status = None
        rt.expansion_bytes = 0
        if only is not None:
            try:
                only(sh)
            except NeedsGeneric:
                return sh.assignments_from(node, fds, 0)
            except ShellError as e:
                return sh.assignment_failed(node.assigns[0], e, fds)
            sh.pipestatus = 0
            sh.last_arg = ""  # $_ after an assignment, as in bash
            return _warned_first(sh, int, 0) if sh.pending_warnings else 0
        for k, step in enumerate(steps):
            try:
                step(sh)
            except NeedsGeneric:
                return sh.assignments_from(node, fds, k)
            except ShellError as e:
                return sh.assignment_failed(node.assigns[k], e, fds)
            if sh.pending_warnings and node.assigns[k].array is not None:
                # the generic path reports an array assignment's warnings right after it
                return sh.assignments_from(node, fds, k + 1, flush=True)
        sh.pipestatus = 0
        sh.last_arg = ""
        return _warned_first(sh, int, 0) if sh.pending_warnings else 0
    return run_assignments


def _compile_assign(a) -> Callable[[Shell], None] | None:
    name = a.name
    append = a.append
    if a.array is not None:
        if a.index is not None:
            return None  # NAME[i]=(...): the expander reports it
        elements = []
        for el in a.array:
            fn = None if isinstance(el, tuple) else compile_fields(el)
            if fn is None:
                return None
            elements.append(fn)

        def assign_array(sh: Shell) -> None:
            raw = sh.lookup_raw(name)
            if raw is not None and raw.nameref:
                raise NeedsGeneric  # (it may name an element: the expander says so)
            var = sh.lookup_var(name)
            if var is not None and var.assoc:
                raise NeedsGeneric
            values: list[str] = []
            for fn in elements:
                fn(sh, values)
            sh.set_array(name, values, append=append)
        return assign_array
    value_of = compile_string(a.value) if a.value is not None else (lambda sh: "")
    if value_of is None:
        return None
    if a.index is None:
        def assign_scalar(sh: Shell) -> None:
            sh.assign_scalar(name, value_of(sh), append)
        return assign_scalar
    index = a.index
    if index.source and any(q in index.source for q in "'\"\\"):
        return None  # an associative key with quotes (expand_key reparses its source)
    index_of = compile_string(index)
    if index_of is None:
        return None

    dynamic = name in DYNAMIC_VARS

    def assign_element(sh: Shell) -> None:
        value = value_of(sh)
        var = sh.lookup_raw(name)
        if dynamic or (var is not None and var.nameref):
            var = sh.lookup_var(name)
        key: Any  # (an associative array's key, or an index)
        if var is not None and var.assoc:
            key = index_of(sh)
            if type(var.value) is dict and not (var.readonly or var.integer or dynamic):
                # an associative array's element (no nameref: the runner checked), inline
                sh.store_element(var, name, key, value, append)
                return
        else:
            text = index_of(sh)
            if not text.strip():
                raise ShellError(f"{name}[{text}]: bad array subscript", 1)
            try:
                key = sh.arith(text)
            except NeedsExpansion:
                raise NeedsGeneric from None
            except ShellError as e:
                # bash: an arithmetic error in an assignment's subscript ends the shell
                raise ShellError(e.message, 1, fatal=True) from None
        sh.set_element(name, key, value, append)
    return assign_element


# ---------------------------------------------------------------------------- (( ))
def _compile_arith_command(node: ArithCommand):
    """``(( expr ))``: the expression's text compiled where it can be (else the expander makes
    it), then evaluated."""
    expr = compile_string(node.expr)
    line = node.line

    def run_arith(sh: Shell, node, fds):
        rt = sh.rt
        cancel = rt.cancel
        if (cancel is not None and cancel.reason is not None) or monotonic() - rt.last_yield > rt.yield_interval:
            return _after_tick(run_arith, sh, node, fds)
        sh.current_fds = fds
        sh.lineno = line
        if expr is None or sh.options["xtrace"]:
            return _arith_expanding(sh, node, fds)
        try:
            text = expr(sh)
        except NeedsGeneric:
            return _arith_expanding(sh, node, fds)
        if sh.pending_warnings:
            return _warned_first(sh, _arith_status, sh, fds, text)
        return _arith_status(sh, fds, text)
    return _redirected(run_arith, True) if node.redirs else run_arith


async def _warned_first(sh: Shell, finish, *args) -> int:
    """``finish(*args)`` once the expansion's warnings are out (bash prints them as it
    expands, before the command's own errors, and before errexit may end the shell)."""
    await sh.flush_warnings()
    status = finish(*args)
    return status if type(status) is int else await status


async def _arith_expanding(sh: Shell, node: ArithCommand, fds: dict) -> int:
    text = await sh.expand_word(node.expr)
    if sh.options["xtrace"]:
        await sh.err(fds, f"{sh._ps4()}(( {text} ))\n")
    status = _arith_status(sh, fds, text)
    return status if type(status) is int else await status


def _arith_status(sh: Shell, fds: dict, text: str):
    """``(( text ))``'s status (0 for a value other than 0), or the awaitable reporting its error."""
    try:
        value = arith_evaluate(text, sh)
    except ArithError as e:
        return sh.report_status(fds, f"((: {e.message}", 1)
    except RecursionError:
        return sh.report_status(fds, f"((: {text}: expression recursion level exceeded", 1)
    except ShellError as e:
        if e.fatal:
            raise
        return sh.report_status(fds, e.message, 1)  # (an assignment to a readonly name)
    status = 0 if value else 1
    sh.pipestatus = status
    if sh.pending_warnings:  # (what evaluating it noticed: said before errexit may end the shell)
        return _warned_first(sh, int, status)
    return status


def loop_flow(e: BreakLoop | ContinueLoop) -> str:
    """A loop's ``break``/``continue``: aimed at this loop it is the flow ("break" or
    "continue"); aimed further out it propagates with one level used up."""
    if e.levels > 1:
        e.levels -= 1
        raise e
    return "break" if isinstance(e, BreakLoop) else "continue"


def _compile_for(node: For):
    """``for NAME in WORDS``: the words expanded by their compiled functions where they have
    them, the items run by ``_for_steps``."""
    compiled = [compile_fields(w) for w in node.words] if node.words is not None else []
    words = tuple(fn for fn in compiled if fn is not None) if None not in compiled else None
    valid = is_name(node.var)
    line = node.line

    def run_for(sh: Shell, node, fds):
        sh.current_fds = fds
        sh.lineno = line
        if not valid:  # bash checks the name when the loop runs, not when it is parsed
            return sh.report_status(fds, f"`{node.var}': not a valid identifier", 1)
        if node.words is None:
            return _for_items(sh, node, fds, list(sh.positional))
        if words is None:
            return _for_words_from(sh, node, fds, [], 0)
        sh.rt.expansion_bytes = 0
        items: list[str] = []
        for k, fn in enumerate(words):
            try:
                fn(sh, items)
            except NeedsGeneric:
                return _for_words_from(sh, node, fds, items, k)
        return _for_items(sh, node, fds, items)
    return _redirected(run_for) if node.redirs else run_for


async def _for_words_from(sh: Shell, node: For, fds: dict, items: list[str], k: int) -> int:
    """The words from ``k`` on through the expander (``items`` has those before), then the loop."""
    items += await sh.expand_words((node.words or [])[k:])
    status = _for_items(sh, node, fds, items)
    return status if type(status) is int else await status


def _for_items(sh: Shell, node: For, fds: dict, items: list[str]):
    if len(items) > sh.rt.limits.words:
        raise too_many_words(sh.rt.limits.words)
    if sh.pending_warnings:  # (what expanding the words noticed, said before the loop runs)
        return _warned_first(sh, _for_items, sh, node, fds, items)
    sh.loop_depth += 1
    try:
        stop = _for_steps(sh, node, fds, items, 0, 0, False)
    except BaseException:
        sh.loop_depth -= 1
        raise
    if type(stop) is int:
        sh.loop_depth -= 1
        return stop
    return _for_resume(sh, node, fds, items, stop)


#: where a loop's steps stopped: a body to await, a yield due, a head (DEBUG trap, xtrace) to
#: show before the item, a variable that could not be bound
_BODY, _YIELD, _HEAD, _UNBOUND = "body", "yield", "head", "unbound"


def _for_steps(sh: Shell, node: For, fds: dict, items: list[str], j: int, status: int, headed: bool):
    """The loop from item ``j`` on (``headed``: item j's head is shown): its status, or where it
    stopped (j, status or awaitable, what)."""
    var = node.var
    body = node.body
    rt = sh.rt
    for j in range(j, len(items)):
        if (sh.debug_trap_set or sh.options["xtrace"]) and not headed:
            return j, status, _HEAD
        headed = False
        unbound = sh._bind_loop_var(var, items[j])
        if unbound is not None:
            return j, unbound, _UNBOUND
        try:
            r = start(sh, body, fds)
        except (BreakLoop, ContinueLoop) as e:
            if loop_flow(e) == "break":
                return 0
            r = 0
        if type(r) is not int:
            return j, r, _BODY
        status = r
        cancel = rt.cancel
        if (monotonic() - rt.last_yield > rt.yield_interval or (cancel is not None and cancel.reason is not None)) \
                and sh._time_to_yield():
            return j + 1, status, _YIELD
    return status


async def _for_resume(sh: Shell, node: For, fds: dict, items: list[str], stop) -> int:
    """Where ``_for_steps`` stopped, awaited; the loop level counted (this ends it)."""
    try:
        while type(stop) is not int:
            j, value, what = stop
            headed = False
            if what is _BODY:
                try:
                    value = await value
                except (BreakLoop, ContinueLoop) as e:
                    if loop_flow(e) == "break":
                        return 0
                    value = 0
                j += 1
                if sh._time_to_yield():
                    await sh._yield_now()
            elif what is _YIELD:
                await sh._yield_now()
            elif what is _HEAD:
                if sh.debug_trap_set:
                    await sh.debug_trap(node.line)
                if sh.options["xtrace"]:  # bash shows the words as written
                    words = '"$@"' if node.words is None else " ".join(format_word(w) for w in node.words)
                    await sh.err(fds, f"{sh._ps4()}for {node.var} in {words}\n")
                headed = True
            else:  # (value: why the variable was not bound)
                await sh.report(fds, value)
                return 1
            stop = _for_steps(sh, node, fds, items, j, value, headed)
        return stop
    finally:
        sh.loop_depth -= 1


def _compile_arith_for(node: ArithFor):
    """``for ((...))`` stays a coroutine; its heads are compiled for ``Shell.run_arith_for``:
    each evaluates to an int (raising ArithError like ``arith.evaluate``) or is None."""
    heads = tuple(compile_arith(w) if w is not None else None for w in (node.init, node.condition, node.step))

    def run_arith_for(sh: Shell, node, fds):
        return sh.run_arith_for(node, fds, heads)
    return run_arith_for


# ---------------------------------------------------------------------------- [[ ]] and case
def _compile_cond_command(node: CondCommand):
    """``[[ expr ]]``: compiled where it can be, else ``eval_cond`` expands and tests it (and
    shows each test under xtrace)."""
    test = _compile_cond(node.expr)
    line = node.line

    def run_cond(sh: Shell, node, fds):
        rt = sh.rt
        cancel = rt.cancel
        if (cancel is not None and cancel.reason is not None) or monotonic() - rt.last_yield > rt.yield_interval:
            return _after_tick(run_cond, sh, node, fds)
        sh.current_fds = fds
        sh.lineno = line
        if test is None or sh.options["xtrace"]:
            return _cond_expanding(sh, node, fds)
        try:
            status = 0 if test(sh) else 1
        except NeedsGeneric:
            return _cond_expanding(sh, node, fds)
        except ShellError as e:
            return sh.cond_failed(e, fds)
        sh.pipestatus = status
        if sh.pending_warnings:
            return _warned_first(sh, int, status)
        return status
    return _redirected(run_cond, True) if node.redirs else run_cond


async def _cond_expanding(sh: Shell, node: CondCommand, fds: dict) -> int:
    tracer = None
    if sh.options["xtrace"]:
        async def tracer(text: str) -> None:
            await sh.err(fds, f"{sh._ps4()}[[ {text} ]]\n")
    try:
        status = 0 if await eval_cond(sh, node.expr, tracer) else 1
    except ShellError as e:
        status = await sh._cond_error(e, fds)
    sh.pipestatus = status
    return status


def _compile_cond(expr) -> Callable[[Shell], bool] | None:
    """A ``[[ ]]`` expression as ``eval_cond`` evaluates it (=~ is left to it)."""
    if GENERIC_ONLY:
        return None
    tp = type(expr)
    if tp is CondAnd or tp is CondOr:
        left, right = _compile_cond(expr.left), _compile_cond(expr.right)
        if left is None or right is None:
            return None
        if tp is CondAnd:
            return lambda sh: left(sh) and right(sh)
        return lambda sh: left(sh) or right(sh)
    if tp is CondNot:
        inner = _compile_cond(expr.expr)
        return None if inner is None else (lambda sh: not inner(sh))
    if tp is CondWord:
        word = compile_string(expr.word)
        return None if word is None else (lambda sh: word(sh) != "")
    if tp is CondUnary:
        operand = compile_string(expr.operand)
        if operand is None:
            return None
        op = expr.op
        return lambda sh: unary_test(sh, op, operand(sh))
    if tp is not CondBinary:
        return None
    left_of = compile_string(expr.left)
    if left_of is None:
        return None
    op = expr.op
    if op == "=~":
        source_of = _compile_regex_source(expr.right)
        if source_of is None:
            return None
        return lambda sh: regex_match(sh, left_of(sh), source_of(sh))
    if op in ("=", "!="):
        matcher = compile_matcher(expr.right)
        if matcher is None:
            return None
        equal = op == "="

        def matches(sh: Shell) -> bool:
            # [[ == ]] matches as if extglob were on (bash 5.2)
            return matcher(sh, left_of(sh), True, sh.shopts["nocasematch"]) == equal
        return matches
    right_of = compile_string(expr.right)
    if right_of is None:
        return None
    if op in INTEGER_OPS:
        def integers(sh: Shell) -> bool:
            # both words expanded before either is evaluated (`[[ x++ -eq $x ]]` sees x before)
            left = left_of(sh)
            right = right_of(sh)
            return compare_integers(op, cond_integer(sh, left), cond_integer(sh, right))
        return integers
    return lambda sh: binary_test(sh, op, left_of(sh), right_of(sh))


def _compile_regex_source(word: Word) -> Callable[[Shell], str] | None:
    """``regex_source`` of ``=~``'s word: quoted parts escaped so they match literally."""
    pieces: list = []
    p: Any  # (a Part, told apart by its type)
    for p in word.parts:
        tp = type(p)
        if tp is Lit:
            if p.text.startswith("~") and p is word.parts[0]:
                return None  # a tilde: regex_source expands it
            pieces.append(p.text)
            continue
        if quoted_default(p):
            return None
        value = compile_string(Word([p]))
        if value is None:
            return None
        if tp is Quoted:
            pieces.append(ere_escape(p.text))
        elif tp is DQ:
            pieces.append(lambda sh, value=value: ere_escape(value(sh)))
        else:
            pieces.append(value)
    return _concat(pieces)


def _compile_case(node: Case):
    """``case WORD in ...``: the word and the patterns compiled where they can be; the items run
    by ``_case_steps``."""
    word_of = compile_string(node.word)
    matchers = []
    for item in node.items:
        compiled = [compile_matcher(p) for p in item.patterns]
        matchers.append(None if None in compiled else compiled)
    line = node.line

    def run_case(sh: Shell, node, fds):
        sh.current_fds = fds
        sh.lineno = line
        if word_of is None or sh.options["xtrace"] or sh.debug_trap_set:
            return _case_head(sh, node, fds, matchers)
        try:
            word = word_of(sh)
        except NeedsGeneric:
            return _case_head(sh, node, fds, matchers)
        stop = _case_steps(sh, node, fds, matchers, word, 0, 0, None)
        if type(stop) is tuple:
            return _case_resume(sh, node, fds, matchers, word, stop)
        return stop if not sh.pending_warnings else _warned_first(sh, int, stop)
    return _redirected(run_case) if node.redirs else run_case


async def _case_head(sh: Shell, node: Case, fds: dict, matchers: list) -> int:
    """The head through the expander, after the DEBUG trap and xtrace's line."""
    if sh.debug_trap_set:
        await sh.debug_trap(node.line)
    if sh.options["xtrace"]:  # bash shows the word as written, before expanding it
        await sh.err(fds, f"{sh._ps4()}case {format_word(node.word)} in\n")
    word = await sh.expand_word(node.word)
    stop = _case_steps(sh, node, fds, matchers, word, 0, 0, None)
    if type(stop) is tuple:
        return await _case_resume(sh, node, fds, matchers, word, stop)
    if sh.pending_warnings:
        await sh.flush_warnings()
    return stop


#: ``_case_steps``'s ``matched`` when item i's body has run (``status`` is its status)
_RAN: Any = object()


def _case_steps(sh: Shell, node: Case, fds: dict, matchers: list, word: str, i: int, status: int, matched):
    """The items from ``i`` on (``matched``: whether item i matched, None to test it here, _RAN
    when its body ran): the status, or where it stopped: (i, status, None) for item i's patterns
    to expand and test, (i, awaitable) for its body."""
    items = node.items
    n = len(items)
    shopts = sh.shopts
    while i < n:
        item = items[i]
        if matched is not _RAN:
            if matched is None:
                compiled = matchers[i]
                if compiled is None:
                    return i, status, None
                matched = False
                try:
                    for matches in compiled:
                        if matches(sh, word, shopts["extglob"], shopts["nocasematch"]):
                            matched = True
                            break
                except NeedsGeneric:
                    return i, status, None
            if not matched:
                i += 1
                matched = None
                continue
            if item.body is not None:
                if sh.pending_warnings:  # (what matching the patterns noticed, said before the body runs)
                    return i, _warned_first(sh, start, sh, item.body, fds)
                r = start(sh, item.body, fds)
                if type(r) is not int:
                    return i, r
                status = r
        matched = None
        if item.terminator == ";&" and i + 1 < n:
            i += 1
            matched = True  # the next item's body runs without a test
            continue
        if item.terminator != ";;&":
            return status
        i += 1
    return status


async def _case_resume(sh: Shell, node: Case, fds: dict, matchers: list, word: str, stop) -> int:
    while type(stop) is tuple:
        if len(stop) == 3:
            i, status, _ = stop
            stop = _case_steps(sh, node, fds, matchers, word, i, status,
                               await _case_matches(sh, node.items[i], word))
        else:
            i, pending = stop
            stop = _case_steps(sh, node, fds, matchers, word, i, await pending, _RAN)
    if sh.pending_warnings:  # (what matching noticed when no body ran)
        await sh.flush_warnings()
    return stop


async def _case_matches(sh: Shell, item, word: str) -> bool:
    """Whether one of ``item``'s patterns, expanded, matches ``word``."""
    ext = sh.shopts["extglob"]
    nocase = sh.shopts["nocasematch"]
    budget = sh.pattern_budget()
    bytewise = not word.isascii() and sh.byte_locale()
    for p in item.patterns:
        if pat.match(await sh.expand_pattern(p), word, ext, nocase, budget, bytewise):
            return True
    return False


# ---------------------------------------------------------------------------- compound commands
# Each compound command has one implementation: a synchronous *steps* function that runs as
# far as it can without waiting and then says where it stopped (a tuple: the step, and what to
# await there), and a driver coroutine that awaits that in the dynamic state the step runs in
# (errexit suppressed in a condition, the loop counted) and hands back to the steps. The
# rules (errexit, ERR, which operand runs, fall-through) live in the steps only.

#: what a list stopped on: an item's status to await, its ERR trap, a background job to start
_ITEM, _TRAP, _JOB = "item", "trap", "job"


def _compile_list(node: CommandList):
    items = node.items
    if len(items) != 1 or items[0][1]:
        return run_list
    item = items[0][0]

    def run_one(sh: Shell, node, fds):
        # a list of one command (a loop's or a function's body, say): _list_steps inline
        sh.errexit_exempt = False
        status = start(sh, item, fds)
        if type(status) is not int:
            return _list_resume(sh, node, fds, (0, status, _ITEM))
        sh.last_status = status
        if status and not sh.errexit_exempt:
            trap = _failed(sh, status)
            if trap is not None:
                return trap
        return status
    return run_one


def run_list(sh: Shell, node: CommandList, fds: dict):
    stop = _list_steps(sh, node, fds, 0, sh.last_status)
    return stop if type(stop) is int else _list_resume(sh, node, fds, stop)


def _list_steps(sh: Shell, node: CommandList, fds: dict, k: int, status: int):
    """The list from item ``k`` on (``status``: the one before): its status, or where it
    stopped: (k, awaitable, what)."""
    items = node.items
    for k in range(k, len(items)):
        item, background = items[k]
        if background:
            return k, _start_job(sh, item, fds), _JOB
        sh.errexit_exempt = False
        status = start(sh, item, fds)
        if type(status) is not int:
            return k, status, _ITEM
        sh.last_status = status
        if status and not sh.errexit_exempt:
            trap = _failed(sh, status)
            if trap is not None:
                return k, trap, _TRAP
    return status


def _failed(sh: Shell, status: int):
    """An item failed (and no condition around it handled that): errexit, or the ERR trap to
    await (it applies errexit after it), or None; the compound commands around it do not fail
    again for it."""
    if sh.pending_warnings:
        return _said_then_failed(sh, status)
    if not sh.errexit_suppress:
        if sh.traps.get("ERR") and not sh.in_err_trap:
            return sh.after_failure(status)
        if sh.options["errexit"]:
            raise ExitShell(status)
    sh.errexit_exempt = True
    return None


async def _said_then_failed(sh: Shell, status: int) -> int:
    """``_failed`` once what the command noticed is said (before errexit or the ERR trap)."""
    await sh.flush_warnings()
    after = _failed(sh, status)
    return status if after is None else await after


async def _list_resume(sh: Shell, node: CommandList, fds: dict, stop) -> int:
    while True:
        k, pending, what = stop
        status = await pending
        if what is _ITEM:
            sh.last_status = status
            if status and not sh.errexit_exempt:
                trap = _failed(sh, status)
                if trap is not None:
                    status = await trap
        stop = _list_steps(sh, node, fds, k + 1, status)
        if type(stop) is int:
            return stop


async def _start_job(sh: Shell, item, fds: dict) -> int:
    """``item &``: started as a job (a task: it needs the event loop)."""
    await aio.need_loop()
    sh.start_background(item, fds)
    sh.last_status = 0
    return 0


def run_and_or(sh: Shell, node: AndOr, fds: dict):
    sh.errexit_suppress += 1
    try:
        status = start(sh, node.first, fds)
    finally:
        sh.errexit_suppress -= 1
    stop = (-1, status) if type(status) is not int else _and_or_steps(sh, node, fds, -1, status)
    return stop if type(stop) is int else _and_or_resume(sh, node, fds, stop)


def _and_or_steps(sh: Shell, node: AndOr, fds: dict, k: int, status: int):
    """``a && b || c`` after operand ``k`` (-1: the first) gave ``status``: the list's status,
    or where it stopped: (j, awaitable of operand j)."""
    sh.last_status = status
    rest = node.rest
    last = len(rest) - 1
    # the last operand's failure is the list's own (errexit applies); it ran if k is last
    exempt = k != last
    for j in range(k + 1, last + 1):
        op, pipeline = rest[j]
        if (op == "&&") != (status == 0):
            continue
        if j == last:
            exempt = False
            sh.errexit_exempt = False
            status = start(sh, pipeline, fds)
        else:
            sh.errexit_suppress += 1
            try:
                status = start(sh, pipeline, fds)
            finally:
                sh.errexit_suppress -= 1
        if type(status) is not int:
            return j, status
        sh.last_status = status
    sh.errexit_exempt = exempt or sh.errexit_exempt
    return status


async def _and_or_resume(sh: Shell, node: AndOr, fds: dict, stop) -> int:
    last = len(node.rest) - 1
    while True:
        k, pending = stop
        if k == last:
            status = await pending
        else:
            sh.errexit_suppress += 1
            try:
                status = await pending
            finally:
                sh.errexit_suppress -= 1
        stop = _and_or_steps(sh, node, fds, k, status)
        if type(stop) is int:
            return stop


def run_if(sh: Shell, node: If, fds: dict):
    sh.current_fds = fds
    stop = _if_steps(sh, node, fds, 0, None)
    return stop if type(stop) is not tuple else _if_resume(sh, node, fds, stop)


def _if_steps(sh: Shell, node: If, fds: dict, k: int, tested):
    """``if`` from clause ``k`` on (``tested``: its condition's status when known): the status
    or the awaitable of the branch taken, or where it stopped: (k, awaitable of condition k)."""
    clauses = node.clauses
    for k in range(k, len(clauses)):
        condition, branch = clauses[k]
        if tested is None:
            sh.errexit_suppress += 1
            try:
                tested = start(sh, condition, fds)
            finally:
                sh.errexit_suppress -= 1
            if type(tested) is not int:
                return k, tested
        sh.errexit_exempt = False
        if tested == 0:
            return start(sh, branch, fds)
        tested = None
    if node.else_body is not None:
        return start(sh, node.else_body, fds)
    return 0


async def _if_resume(sh: Shell, node: If, fds: dict, stop) -> int:
    while type(stop) is tuple:
        k, pending = stop
        sh.errexit_suppress += 1
        try:
            status = await pending
        finally:
            sh.errexit_suppress -= 1
        stop = _if_steps(sh, node, fds, k, status)
    return stop if type(stop) is int else await stop


def _compile_brace(node: BraceGroup):
    body = node.body
    if node.redirs:
        return _redirected(run_brace)
    if type(body) is CommandList and len(body.items) == 1 and not body.items[0][1]:
        run_body = _compile_list(body)

        def run_brace_one(sh: Shell, node, fds):
            # { cmd; } (a function's body, say): the list's runner folded in
            sh.current_fds = fds
            return run_body(sh, body, fds)
        return run_brace_one
    return run_brace


def run_brace(sh: Shell, node: BraceGroup, fds: dict):
    sh.current_fds = fds
    return start(sh, node.body, fds)


def _redirected(run, pipestatus: bool = False):
    """A compound command's runner under its own redirections (``with_redirs`` applies them,
    reports a failure, and closes what it opened); ``pipestatus``: the status is PIPESTATUS
    (of a failed redirection too)."""
    def run_redirected(sh: Shell, node, fds):
        sh.current_fds = fds
        pending = redirect.with_redirs(sh, node, fds, lambda fds: _finished(run(sh, node, fds)))
        return _pipestatus_of(sh, pending) if pipestatus else pending
    return run_redirected


async def _finished(status) -> int:
    return status if type(status) is int else await status


def stage_names(node: Pipeline) -> tuple[str | None, ...]:
    """Each stage's command name when it is a plain simple command whose words and redirection
    targets cannot assign anything (it may run in the shell itself: ``pipeline.runs_in_shell``), else
    None. A pipeline's runner computes them once."""
    return tuple(_plain_stage_name(cmd) for cmd in node.commands)


def _plain_stage_name(cmd) -> str | None:
    if type(cmd) is not SimpleCommand or cmd.assigns:
        return None
    words = cmd.words
    if not words or type(words[0]) is not Word:
        return None
    for w in words:
        if type(w) is not Word:
            return None
        if w.fast is None and not _inert_parts(w.parts):
            return None
    for r in cmd.redirs:
        target = r.target
        if type(target) is Word and target.fast is None and not _inert_parts(target.parts):
            return None
    return words[0].fast


def substitution_plan(body) -> list | None:
    """``$(...)`` of one simple command or pipeline whose every stage ``stage_names`` names
    and whose words read nothing of the process running them (BASHPID, BASH_SUBSHELL, an
    indirect name): [the stage names, None], what ``Shell.command_substitution`` needs to run it
    in the shell itself, as a pipeline's stages are run (it fills in the second item: whether
    those commands may, found at their first run); else None. Computed once per body."""
    if type(body) is not CommandList or len(body.items) != 1 or body.items[0][1]:
        return None
    node = body.items[0][0]
    if type(node) is Pipeline:
        if node.negate or node.timed or len(node.commands) < 2:
            return None
        commands = node.commands
    elif type(node) is SimpleCommand:
        commands = [node]
    else:
        return None
    names = tuple(_plain_stage_name(cmd) for cmd in commands)
    if None in names:
        return None
    for cmd in commands:  # (plain stages: simple commands of Words)
        words = [w for w in cast(SimpleCommand, cmd).words] + \
            [r.target for r in cast(SimpleCommand, cmd).redirs if type(r.target) is Word]
        if not all(_process_blind(cast(Word, w).parts) for w in words):
            return None
    return [names, None]


#: what a fork's own words may read of its process: a substitution run in the shell itself
#: would read the shell's
_PROCESS_PARAMS = frozenset({"BASHPID", "BASH_SUBSHELL"})


def _process_blind(parts: list) -> bool:
    for p in parts:
        tp = type(p)
        if tp is DQ:
            if not _process_blind(p.parts):
                return False
        elif tp is Param:
            if p.name in _PROCESS_PARAMS or p.indirect \
                    or (p.arg is not None and not _process_blind(p.arg.parts)) \
                    or (p.arg2 is not None and not _process_blind(p.arg2.parts)):
                return False
    return True


def _inert_parts(parts: list) -> bool:
    """Parts whose expansion cannot change shell state (no substitutions, no ${x:=})."""
    for p in parts:
        tp = type(p)
        if tp is Lit or tp is Quoted:
            continue
        if tp is DQ:
            if not _inert_parts(p.parts):
                return False
            continue
        if tp is Param:
            if p.op in ("=", ":=", "bad") or p.index is not None \
                    or (p.arg is not None and not _inert_parts(p.arg.parts)) \
                    or (p.arg2 is not None and not _inert_parts(p.arg2.parts)):
                return False
            continue
        return False
    return True


def _compile_pipeline(node: Pipeline):
    """``a | b ...``: its coroutine started directly (with a DEBUG trap, the handler runs it
    before the stages), with what can be known of its stages before they run."""
    names = stage_names(node)

    def run_pipeline(sh: Shell, node: Pipeline, fds: dict):
        sh.current_fds = fds  # (what the DEBUG trap writes to, too)
        if sh.debug_trap_set:
            return sh.run_pipeline(node, fds)
        sh.lineno = node.line
        return sh.run_stages(node, fds, names)
    return run_pipeline


def run_subshell(sh: Shell, node: Subshell, fds: dict):
    """``( list )`` in a waited fork: the body's runner, without a coroutine when it finishes
    at once and the fork has no EXIT trap to run."""
    sh.current_fds = fds
    sh.lineno = node.line
    child = sh.fork_waited()
    if sh.exec_position:
        sh.exec_into(child)  # ( ... ) & is one process
    child.loop_depth = 0  # bash: break/continue in ( ) do not reach the enclosing loops
    try:
        status = start(child, node.body, fds)
    except (ExitShell, AbortCommand, ReturnFromFunction) as e:
        status = e.status
    except (BreakLoop, ContinueLoop):
        status = 0
    except ShellError as e:
        status = raise_later(e)
    except BaseException:
        sh.end_waited(child)
        raise
    if type(status) is not int or child.traps.get("EXIT") or child.debug_trap_set or child.pending_warnings:
        # (debug_trap_set: it may have a signal to take, or have died of one)
        return sh.finish_subshell(child, status, fds, node)
    sh.end_waited(child)
    sh.pipestatus = status
    return status


def _redirected_subshell(sh: Shell, node: Subshell, fds: dict):
    sh.lineno = node.line  # (a failed redirection's message names the subshell's line)
    return _redirected_subshell_run(sh, node, fds)


_redirected_subshell_run = _redirected(run_subshell, True)


async def _pipestatus_of(sh: Shell, pending) -> int:
    status = await pending
    sh.pipestatus = status
    return status


async def raise_later(e: BaseException) -> int:
    """An awaitable that raises ``e`` where it is awaited (its handlers are there)."""
    raise e


__all__ = ["NO_RUNNER", "NOT_NOW", "NeedsGeneric", "commands_exceeded", "compile_arith", "compile_fields",
           "compile_node", "compile_pattern", "compile_string", "stage_names", "start", "substitution_plan"]
