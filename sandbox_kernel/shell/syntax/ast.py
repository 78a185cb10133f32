"""Typed syntax tree of the shell language.

Words keep their quoting structure as a list of parts so the expander can apply bash's rules
(which parts are split, which are globbed). Every command node has a ``line`` for LINENO and
error messages, and compound commands carry their own redirections.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


# ----------------------------------------------------------------------------- word parts
@dataclass(slots=True)
class Lit:
    """Unquoted literal text (subject to brace expansion, tilde and globbing)."""
    text: str


@dataclass(slots=True)
class Quoted:
    """Text that is literal and quoted: '...', $'...', a backslash-escaped character."""
    text: str


@dataclass(slots=True)
class DQ:
    """A double-quoted string; its parts are expanded but never split or globbed."""
    parts: list[Part]


@dataclass(slots=True)
class Param:
    """``$name`` or ``${...}``. ``op`` is None for a plain reference, else one of ``:-``,
    ``-``, ``:=``, ``#`` (remove prefix), ``/`` (replace), ``:`` (substring), ``len`` ...
    ``arg``/``arg2`` are Words (the replacement of ``/pat/rep``, the length of ``:off:len``)."""
    name: str
    op: str | None = None
    arg: "Word | None" = None
    arg2: "Word | None" = None
    index: "Word | None" = None      # ${a[i]}; "@" / "*" are kept as Lit words
    indirect: bool = False           # ${!name}
    length: bool = False             # ${#name}
    #: ``$1`` rather than ``${1}`` (bash names the one ``$1`` in an unbound-variable error)
    unbraced: bool = field(default=False, compare=False, repr=False)


@dataclass(slots=True)
class CmdSub:
    body: CommandList


@dataclass(slots=True)
class ArithSub:
    expr: "Word"


@dataclass(slots=True)
class ProcSub:
    direction: str  # "<" or ">"
    body: CommandList


Part = Union[Lit, Quoted, DQ, Param, CmdSub, ArithSub, ProcSub]


@dataclass(slots=True)
class Word:
    parts: list[Part]
    #: the plain text when the word is one unquoted literal without special characters
    #: (the expander's fast path), else None
    plain: str | None = None
    #: ``plain`` when it also has no brace, tilde or glob characters: expands to itself
    fast: str | None = None
    #: the word as written (for `declare -f` / `type`)
    source: str | None = None
    #: a command argument that looks like NAME=value: a tilde after the = or a : expands
    assign_like: bool = False


# ----------------------------------------------------------------------------- commands
# Every command node has ``runner``: the function eval/fastpath.py compiles it into when it first
# runs (not part of the syntax: never compared or printed).
@dataclass(slots=True)
class Assign:
    name: str
    value: Word | None              # scalar value (None with ``array``)
    index: Word | None = None       # name[index]=value
    array: list[Word | tuple[Word, Word, bool]] | None = None  # name=(...): Word or ([key], value, +=)
    append: bool = False            # +=
    fast = None                     # never a plain word (see Word.fast)


@dataclass(slots=True)
class HereDoc:
    body: Word                      # expanded unless ``quoted``
    quoted: bool
    strip_tabs: bool
    delimiter: str
    raw: str = ""                   # the body as written


@dataclass(slots=True)
class Redir:
    op: str                         # < > >> >| <> <& >& &> &>> << <<- <<<
    target: Word | HereDoc
    fd: int | None = None           # explicit fd number (None = the op's default)
    fd_var: str | None = None       # {var}>file


@dataclass(slots=True)
class SimpleCommand:
    assigns: list[Assign]
    #: an Assign among the words is an array argument of declare/local/export/readonly
    words: list[Word | Assign]
    redirs: list[Redir]
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class Pipeline:
    commands: list[Node]
    negate: bool = False
    timed: bool = False
    line: int = 0
    #: stage i's stderr also goes into the pipe (``|&``)
    stderr_pipes: list[bool] = field(default_factory=list)
    #: ``time -p``: the POSIX report whatever TIMEFORMAT says
    posix_time: bool = False
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class AndOr:
    first: Node
    rest: list[tuple[str, Node]]    # [(op "&&"|"||", node)]
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class CommandList:
    items: list[tuple[Node, bool]]  # [(node, background)]
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class Subshell:
    body: Node
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class BraceGroup:
    body: Node
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class If:
    clauses: list[tuple[CommandList, CommandList]]  # [(condition, body)]
    else_body: CommandList | None
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class Loop:
    condition: Node
    body: Node
    until: bool = False
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class For:
    var: str
    words: list[Word] | None        # None: "$@"
    body: Node
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class Select:
    var: str
    words: list[Word] | None
    body: Node
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class ArithFor:
    init: Word | None
    condition: Word | None
    step: Word | None
    body: Node
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class CaseItem:
    patterns: list[Word]
    body: CommandList | None
    terminator: str                 # ";;" ";&" ";;&"


@dataclass(slots=True)
class Case:
    word: Word
    items: list[CaseItem]
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class FunctionDef:
    name: str
    body: Node
    line: int = 0
    source: str = ""                # text for `declare -f` / `type`
    runner: object = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class ArithCommand:
    expr: Word
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


# [[ ... ]] expressions
@dataclass(slots=True)
class CondWord:
    word: Word


@dataclass(slots=True)
class CondUnary:
    op: str
    operand: Word


@dataclass(slots=True)
class CondBinary:
    op: str
    left: Word
    right: Word
    #: the operator as written where it differs from ``op`` (``==`` for ``=``), for xtrace
    written: str = ""


@dataclass(slots=True)
class CondNot:
    expr: CondExpr


@dataclass(slots=True)
class CondAnd:
    left: CondExpr
    right: CondExpr


@dataclass(slots=True)
class CondOr:
    left: CondExpr
    right: CondExpr


@dataclass(slots=True)
class CondCommand:
    expr: CondExpr
    redirs: list[Redir] = field(default_factory=list)
    line: int = 0
    runner: object = field(default=None, repr=False, compare=False)


Node = Union[SimpleCommand, Pipeline, AndOr, CommandList, Subshell, BraceGroup, If, Loop, For,
             Select, ArithFor, Case, FunctionDef, ArithCommand, CondCommand]
CondExpr = Union[CondWord, CondUnary, CondBinary, CondNot, CondAnd, CondOr]
