"""Typed syntax tree of the shell language.

Words keep their quoting structure as a list of parts so the expander can apply bash's rules
(which parts are split, which are globbed). Every command node has a ``line`` for LINENO and
error messages, and compound commands carry their own redirections.
"""
from __future__ import annotations


#: what a node holds besides its syntax: never compared or printed (``cache``; whether ``$1``
#: had braces, which only bash's messages show)
NOT_SYNTAX = frozenset({"cache", "unbraced"})


class Syntax:
    """A node's ``==`` and ``repr``, from its ``__slots__`` (those of a dataclass). The nodes are
    plain classes: making a dataclass costs ~0.5 ms, and these 33 were a fifth of the shell's
    start (tests/test_startup.py)."""

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__ if name not in NOT_SYNTAX)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__ if name not in NOT_SYNTAX)
        return f"{type(self).__name__}({shown})"


# ----------------------------------------------------------------------------- word parts
class Lit(Syntax):
    """Unquoted literal text (subject to brace expansion, tilde and globbing)."""
    text: str

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Quoted(Syntax):
    """Text that is literal and quoted: '...', $'...', a backslash-escaped character."""
    text: str

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class DQ(Syntax):
    """A double-quoted string; its parts are expanded but never split or globbed."""
    parts: list[Part]

    __slots__ = ("parts",)

    def __init__(self, parts: list[Part]) -> None:
        self.parts = parts


class Param(Syntax):
    """``$name`` or ``${...}``. ``op`` is None for a plain reference, else one of ``:-``,
    ``-``, ``:=``, ``#`` (remove prefix), ``/`` (replace), ``:`` (substring), ``len`` ...
    ``arg``/``arg2`` are Words (the replacement of ``/pat/rep``, the length of ``:off:len``)."""
    name: str
    op: str | None
    arg: "Word | None"
    arg2: "Word | None"
    index: "Word | None"            # ${a[i]}; "@" / "*" are kept as Lit words
    indirect: bool                  # ${!name}
    length: bool                    # ${#name}
    #: ``$1`` rather than ``${1}`` (bash names the one ``$1`` in an unbound-variable error)
    unbraced: bool

    __slots__ = ("name", "op", "arg", "arg2", "index", "indirect", "length", "unbraced")

    def __init__(self, name: str, op: str | None = None, arg: "Word | None" = None, arg2: "Word | None" = None,
                 index: "Word | None" = None, indirect: bool = False, length: bool = False,
                 unbraced: bool = False) -> None:
        self.name = name
        self.op = op
        self.arg = arg
        self.arg2 = arg2
        self.index = index
        self.indirect = indirect
        self.length = length
        self.unbraced = unbraced


class CmdSub(Syntax):
    body: "CommandList | Unparsed"

    __slots__ = ("body",)

    def __init__(self, body: "CommandList | Unparsed") -> None:
        self.body = body


class ArithSub(Syntax):
    expr: "Word"

    __slots__ = ("expr",)

    def __init__(self, expr: "Word") -> None:
        self.expr = expr


class ProcSub(Syntax):
    direction: str  # "<" or ">"
    body: CommandList

    __slots__ = ("direction", "body")

    def __init__(self, direction: str, body: CommandList) -> None:
        self.direction = direction
        self.body = body


Part = Lit | Quoted | DQ | Param | CmdSub | ArithSub | ProcSub


class Word(Syntax):
    parts: list[Part]
    #: the plain text when the word is one unquoted literal without special characters
    #: (the expander's fast path), else None
    plain: str | None
    #: ``plain`` when it also has no brace, tilde or glob characters: expands to itself
    fast: str | None
    #: the word as written (for `declare -f` / `type`)
    source: str | None
    #: a command argument that looks like NAME=value: a tilde after the = or a : expands
    assign_like: bool

    __slots__ = ("parts", "plain", "fast", "source", "assign_like")

    def __init__(self, parts: list[Part], plain: str | None = None, fast: str | None = None, source: str | None = None,
                 assign_like: bool = False) -> None:
        self.parts = parts
        self.plain = plain
        self.fast = fast
        self.source = source
        self.assign_like = assign_like


# ----------------------------------------------------------------------------- commands
# Every command node has ``cache``: a slot whoever runs or analyses the tree may keep what it
# derived from the node in (the evaluator keeps the node's compiled runner there: a side table
# keyed by node was 5-10 % slower on loops). Nothing here reads or sets it: it is opaque to
# syntax/, never compared or printed, and None in a new node.
class Assign(Syntax):
    name: str
    value: Word | None              # scalar value (None with ``array``)
    index: Word | None              # name[index]=value
    array: list[Word | tuple[Word, Word, bool]] | None  # name=(...): Word or ([key], value, +=)
    append: bool                    # +=
    fast = None                     # never a plain word (see Word.fast)

    __slots__ = ("name", "value", "index", "array", "append")

    def __init__(self, name: str, value: Word | None, index: Word | None = None,
                 array: list[Word | tuple[Word, Word, bool]] | None = None, append: bool = False) -> None:
        self.name = name
        self.value = value
        self.index = index
        self.array = array
        self.append = append


class HereDoc(Syntax):
    body: Word                      # expanded unless ``quoted``
    quoted: bool
    strip_tabs: bool
    delimiter: str
    raw: str                        # the body as written

    __slots__ = ("body", "quoted", "strip_tabs", "delimiter", "raw")

    def __init__(self, body: Word, quoted: bool, strip_tabs: bool, delimiter: str, raw: str = "") -> None:
        self.body = body
        self.quoted = quoted
        self.strip_tabs = strip_tabs
        self.delimiter = delimiter
        self.raw = raw


class Redir(Syntax):
    op: str                         # < > >> >| <> <& >& &> &>> << <<- <<<
    target: Word | HereDoc
    fd: int | None                  # explicit fd number (None = the op's default)
    fd_var: str | None              # {var}>file

    __slots__ = ("op", "target", "fd", "fd_var")

    def __init__(self, op: str, target: Word | HereDoc, fd: int | None = None, fd_var: str | None = None) -> None:
        self.op = op
        self.target = target
        self.fd = fd
        self.fd_var = fd_var


class SimpleCommand(Syntax):
    assigns: list[Assign]
    #: an Assign among the words is an array argument of declare/local/export/readonly
    words: list[Word | Assign]
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("assigns", "words", "redirs", "line", "cache")

    def __init__(self, assigns: list[Assign], words: list[Word | Assign], redirs: list[Redir], line: int = 0,
                 cache: object = None) -> None:
        self.assigns = assigns
        self.words = words
        self.redirs = redirs
        self.line = line
        self.cache = cache


class Pipeline(Syntax):
    commands: list[Node]
    negate: bool
    timed: bool
    line: int
    #: stage i's stderr also goes into the pipe (``|&``)
    stderr_pipes: list[bool]
    #: ``time -p``: the POSIX report whatever TIMEFORMAT says
    posix_time: bool
    cache: object

    __slots__ = ("commands", "negate", "timed", "line", "stderr_pipes", "posix_time", "cache")

    def __init__(self, commands: list[Node], negate: bool = False, timed: bool = False, line: int = 0,
                 stderr_pipes: list[bool] | None = None, posix_time: bool = False, cache: object = None) -> None:
        self.commands = commands
        self.negate = negate
        self.timed = timed
        self.line = line
        self.stderr_pipes = [] if stderr_pipes is None else stderr_pipes
        self.posix_time = posix_time
        self.cache = cache


class AndOr(Syntax):
    first: Node
    rest: list[tuple[str, Node]]    # [(op "&&"|"||", node)]
    line: int
    cache: object

    __slots__ = ("first", "rest", "line", "cache")

    def __init__(self, first: Node, rest: list[tuple[str, Node]], line: int = 0, cache: object = None) -> None:
        self.first = first
        self.rest = rest
        self.line = line
        self.cache = cache


class CommandList(Syntax):
    items: list[tuple[Node, bool]]  # [(node, background)]
    line: int
    cache: object

    __slots__ = ("items", "line", "cache")

    def __init__(self, items: list[tuple[Node, bool]], line: int = 0, cache: object = None) -> None:
        self.items = items
        self.line = line
        self.cache = cache


class Unparsed(Syntax):
    """Source text parsed only when it runs: a backquoted body with a syntax error (bash
    reports it when the substitution runs, as "command substitution: line N")."""
    text: str
    line: int
    cache: object

    __slots__ = ("text", "line", "cache")

    def __init__(self, text: str, line: int = 0, cache: object = None) -> None:
        self.text = text
        self.line = line
        self.cache = cache


class Subshell(Syntax):
    body: Node
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("body", "redirs", "line", "cache")

    def __init__(self, body: Node, redirs: list[Redir] | None = None, line: int = 0, cache: object = None) -> None:
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class BraceGroup(Syntax):
    body: Node
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("body", "redirs", "line", "cache")

    def __init__(self, body: Node, redirs: list[Redir] | None = None, line: int = 0, cache: object = None) -> None:
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class If(Syntax):
    clauses: list[tuple[CommandList, CommandList]]  # [(condition, body)]
    else_body: CommandList | None
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("clauses", "else_body", "redirs", "line", "cache")

    def __init__(self, clauses: list[tuple[CommandList, CommandList]], else_body: CommandList | None,
                 redirs: list[Redir] | None = None, line: int = 0, cache: object = None) -> None:
        self.clauses = clauses
        self.else_body = else_body
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class Loop(Syntax):
    condition: Node
    body: Node
    until: bool
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("condition", "body", "until", "redirs", "line", "cache")

    def __init__(self, condition: Node, body: Node, until: bool = False, redirs: list[Redir] | None = None,
                 line: int = 0, cache: object = None) -> None:
        self.condition = condition
        self.body = body
        self.until = until
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class For(Syntax):
    var: str
    words: list[Word] | None        # None: "$@"
    body: Node
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("var", "words", "body", "redirs", "line", "cache")

    def __init__(self, var: str, words: list[Word] | None, body: Node, redirs: list[Redir] | None = None, line: int = 0,
                 cache: object = None) -> None:
        self.var = var
        self.words = words
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class Select(Syntax):
    var: str
    words: list[Word] | None
    body: Node
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("var", "words", "body", "redirs", "line", "cache")

    def __init__(self, var: str, words: list[Word] | None, body: Node, redirs: list[Redir] | None = None, line: int = 0,
                 cache: object = None) -> None:
        self.var = var
        self.words = words
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class ArithFor(Syntax):
    init: Word | None
    condition: Word | None
    step: Word | None
    body: Node
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("init", "condition", "step", "body", "redirs", "line", "cache")

    def __init__(self, init: Word | None, condition: Word | None, step: Word | None, body: Node,
                 redirs: list[Redir] | None = None, line: int = 0, cache: object = None) -> None:
        self.init = init
        self.condition = condition
        self.step = step
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class CaseItem(Syntax):
    patterns: list[Word]
    body: CommandList | None
    terminator: str                 # ";;" ";&" ";;&"

    __slots__ = ("patterns", "body", "terminator")

    def __init__(self, patterns: list[Word], body: CommandList | None, terminator: str) -> None:
        self.patterns = patterns
        self.body = body
        self.terminator = terminator


class Case(Syntax):
    word: Word
    items: list[CaseItem]
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("word", "items", "redirs", "line", "cache")

    def __init__(self, word: Word, items: list[CaseItem], redirs: list[Redir] | None = None, line: int = 0,
                 cache: object = None) -> None:
        self.word = word
        self.items = items
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


class FunctionDef(Syntax):
    name: str
    body: Node
    line: int
    source: str                     # text for `declare -f` / `type`
    cache: object

    __slots__ = ("name", "body", "line", "source", "cache")

    def __init__(self, name: str, body: Node, line: int = 0, source: str = "", cache: object = None) -> None:
        self.name = name
        self.body = body
        self.line = line
        self.source = source
        self.cache = cache


class ArithCommand(Syntax):
    expr: Word
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("expr", "redirs", "line", "cache")

    def __init__(self, expr: Word, redirs: list[Redir] | None = None, line: int = 0, cache: object = None) -> None:
        self.expr = expr
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


# [[ ... ]] expressions
class CondWord(Syntax):
    word: Word

    __slots__ = ("word",)

    def __init__(self, word: Word) -> None:
        self.word = word


class CondUnary(Syntax):
    op: str
    operand: Word

    __slots__ = ("op", "operand")

    def __init__(self, op: str, operand: Word) -> None:
        self.op = op
        self.operand = operand


class CondBinary(Syntax):
    op: str
    left: Word
    right: Word
    #: the operator as written where it differs from ``op`` (``==`` for ``=``), for xtrace
    written: str

    __slots__ = ("op", "left", "right", "written")

    def __init__(self, op: str, left: Word, right: Word, written: str = "") -> None:
        self.op = op
        self.left = left
        self.right = right
        self.written = written


class CondNot(Syntax):
    expr: CondExpr

    __slots__ = ("expr",)

    def __init__(self, expr: CondExpr) -> None:
        self.expr = expr


class CondAnd(Syntax):
    left: CondExpr
    right: CondExpr

    __slots__ = ("left", "right")

    def __init__(self, left: CondExpr, right: CondExpr) -> None:
        self.left = left
        self.right = right


class CondOr(Syntax):
    left: CondExpr
    right: CondExpr

    __slots__ = ("left", "right")

    def __init__(self, left: CondExpr, right: CondExpr) -> None:
        self.left = left
        self.right = right


class CondCommand(Syntax):
    expr: CondExpr
    redirs: list[Redir]
    line: int
    cache: object

    __slots__ = ("expr", "redirs", "line", "cache")

    def __init__(self, expr: CondExpr, redirs: list[Redir] | None = None, line: int = 0, cache: object = None) -> None:
        self.expr = expr
        self.redirs = [] if redirs is None else redirs
        self.line = line
        self.cache = cache


Node = (SimpleCommand | Pipeline | AndOr | CommandList | Subshell | BraceGroup | If | Loop | For
        | Select | ArithFor | Case | FunctionDef | ArithCommand | CondCommand)
CondExpr = CondWord | CondUnary | CondBinary | CondNot | CondAnd | CondOr
