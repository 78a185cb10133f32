"""The variable store: scopes, lookups (through namerefs and the dynamic variables),
assignments of scalars, arrays and elements, ``name[sub]`` strings given at run time (to
unset, printf -v, test -v, ${!ref}, namerefs), and the memory the values hold.

The interpreter's ``Shell`` is a ``Variables`` (its base class: variable reads are the hot
path, and a member holding the shell back would make every fork cyclic garbage; see
docs/architecture.md, "Rooms"). What the store uses of the shell is declared at the top of
the class: ``rt`` (limits, the memory pool), ``options``, for the dynamic variables
``lineno``, ``pipestatus``, ``frames`` (the call stack), and for subscripts word expansion
(``subscript_word`` + ``expand_word``) and arithmetic (``arith``), which the Shell binds from
word.py.
"""
from __future__ import annotations

import gc
import time
import weakref

from ...chars import isdigits
from ...lazy import TYPE_CHECKING, cast, lazy_compile
from ..options import OPTION_DEFAULTS
from ..state import (VALUE_OVERHEAD, ExitShell, IndexedArray, LimitExceeded, ShellError, TempVar, Var, is_array,
    split_subscript)
from .arith import SIGN, wrap
from ..syntax.ast import DQ, Assign, Lit, Param, Quoted, Word
from ..syntax.lexer import ParseError, is_name
from ..syntax.parser import Parser

if TYPE_CHECKING:
    from typing import Any
    from ...vfs import VFS
    from ..api import Key
    from .interp import Frame, Runtime
    from .runs import RunView

FAKE_PID = 4242
#: variables every new shell sets (bash 5.2 without a startup file)
SHELL_VARS = {
    "IFS": " \t\n", "PS4": "+ ", "OPTIND": "1", "OPTERR": "1", "BASH": "/bin/bash",
    "BASH_VERSION": "5.2.15(1)-release",
}
BASH_VERSINFO = ("5", "2", "15", "1", "release", "x86_64-pc-linux-gnu")
#: ... and those it sets only when the environment has no value
DEFAULT_VARS = {"HOSTTYPE": "x86_64", "MACHTYPE": "x86_64-pc-linux-gnu", "OSTYPE": "linux-gnu",
                "PATH": "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.",
                "SHELL": "/bin/bash"}  # the login shell /etc/passwd names
READONLY_SHELL_VARS = {"UID": "1000", "EUID": "1000"}
DYNAMIC_VARS = frozenset({"RANDOM", "SECONDS", "LINENO", "PIPESTATUS", "BASHPID", "EPOCHSECONDS",
                          "EPOCHREALTIME", "FUNCNAME", "SRANDOM", "BASH_SUBSHELL", "GROUPS",
                          "BASH_SOURCE", "BASH_LINENO", "_"})
#: the variables that name LC_CTYPE's locale: a change is applied when made (a locale that
#: fails to load leaves the one before, so the order of changes matters)
LOCALE_VARS = frozenset({"LC_ALL", "LC_CTYPE", "LANG"})
#: names whose plain assignment takes set_var's path
_WATCHED_VARS = DYNAMIC_VARS | LOCALE_VARS
#: how long a chain of namerefs may be (bash: 8 levels, then "circular name reference")
NAMEREF_DEPTH = 8


_SUBSCRIPT_WORDS: dict[str, Word] = {}
#: a subscript with these characters needs word expansion (quote removal at least)
_EXPANDS = lazy_compile(r"[$`'\"\\]")
_QUOTES = lazy_compile(r"['\"\\]")


class NeedsExpansion(ShellError):
    """A subscript met during arithmetic needs a command substitution: arith_async runs it
    and evaluates again; anywhere else it is an error."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text}: syntax error: operand expected (error token is \"{text}\")", 1, abort=True)
        self.text = text


def value_size(s: str) -> int:
    """Bytes a stored string holds (CPython keeps non-ASCII text at up to 4 bytes a character)."""
    return (len(s) if s.isascii() else 4 * len(s)) + VALUE_OVERHEAD


def strings_size(values: list[str]) -> int:
    """``value_size`` of each of ``values``, summed (one call for a whole list)."""
    size = 0
    for v in values:
        size += (len(v) if v.isascii() else 4 * len(v)) + VALUE_OVERHEAD
    return size


def array_size(value) -> int:
    if type(value) is dict:
        return sum(value_size(v) + len(k) for k, v in value.items())
    return sum(value_size(v) for v in value.values())


def memory_exceeded(name: str, limits) -> LimitExceeded:
    return LimitExceeded(
        f"{name}: memory limit exceeded ({limits.shown('shell_memory_bytes')}; limit "
        f"shell_memory_bytes; {limits.raise_hint('shell_memory_bytes')})", "shell_memory_bytes")


#: ``assign_scalar``'s default: the variable is to be looked up
NOT_LOOKED_UP: Any = object()


class MemoryPool:
    """The bytes all shells of a runtime hold (variables, here-documents, command
    substitutions being built), against ``shell_memory_bytes``. Accounts of ended forks and
    holds of collected streams are released here at the next charge (their finalizers only
    queue them, since a finalizer may run in the middle of an update)."""

    __slots__ = ("held", "released")

    def __init__(self) -> None:
        self.held = 0
        self.released: list[MemoryAccount | MemoryHold] = []

    def settle(self) -> None:
        while self.released:
            self.released.pop().settle()

    def make_room(self, n: int, name: str, limits) -> None:
        """``n`` more bytes do not fit: collect what ended, else raise."""
        gc.collect()  # ended forks whose finalizers wait on a reference cycle
        self.settle()
        if self.held + n > limits.shell_memory_bytes:
            raise memory_exceeded(name, limits)


class MemoryHold:
    """Bytes held outside variables while something lives: a command substitution's output
    being built, a here-document's text, lines ``mapfile`` has read. ``grow`` charges before
    the bytes are kept; ``release`` (or the finalizer of the owner) gives them back."""

    __slots__ = ("pool", "rt", "name", "held", "__weakref__")

    def __init__(self, pool: MemoryPool, rt, name: str) -> None:
        self.pool = pool
        self.rt = rt  # its limits may change between cells
        self.name = name
        self.held = 0

    def grow(self, n: int) -> None:
        pool = self.pool
        if pool.released:
            pool.settle()
        if pool.held + n > self.rt.limits.shell_memory_bytes:
            pool.make_room(n, self.name, self.rt.limits)
        pool.held += n
        self.held += n

    def release(self) -> None:
        self.pool.held -= self.held
        self.held = 0

    def end(self) -> None:
        """The owner was collected (a finalizer): released at the next charge."""
        self.pool.released.append(self)

    settle = release


class MemoryAccount:
    """What one shell (or fork) has charged to the pool. A fork shares its parent's strings,
    so it starts at 0; while forks of this shell are alive, what it frees still counts (a
    background job may hold the old values)."""

    __slots__ = ("pool", "own", "forks", "deferred", "parent", "ended", "__weakref__")

    def __init__(self, pool: MemoryPool, parent: "MemoryAccount | None" = None) -> None:
        self.pool = pool
        self.own = 0
        self.forks = 0
        self.deferred = 0
        self.parent = parent
        self.ended = False
        if parent is not None:
            parent.forks += 1

    def end(self) -> None:
        """The shell is gone (a weakref finalizer): settled at the next charge."""
        self.pool.released.append(self)

    def settle(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.pool.held -= self.own
        self.own = self.deferred = 0
        parent = self.parent
        if parent is not None:
            parent.forks -= 1
            if parent.forks == 0 and parent.deferred and not parent.ended:
                parent.pool.held -= parent.deferred
                parent.own -= parent.deferred
                parent.deferred = 0


def decimal_value(var: Var) -> int | None:
    """The number a variable holding a plain decimal string is, as arithmetic reads it (kept in
    ``Var.numeric`` while the value is that very string: a loop's counter is parsed once per
    change); None for any other value."""
    raw = var.value
    numeric = var.numeric
    if numeric is not None and numeric[0] is raw:
        return numeric[1]
    if type(raw) is not str or not raw.isdigit() or not raw.isascii() or (raw[0] == "0" and len(raw) > 1):
        return None
    n = int(raw)
    if n >= SIGN:
        n = wrap(n)
    var.numeric = (raw, n)
    return n


class Variables:
    """Variables of one shell: scopes innermost last, the globals below them."""

    globals: dict[str, Var]
    #: the functions' local scopes, innermost last
    scopes: list[dict[str, Var]]
    #: $1 ...
    positional: list[str]
    #: what this shell's variables hold of the shell memory limit
    #: None in a waited fork until its first charge (``account``)
    memory: MemoryAccount | None

    if TYPE_CHECKING:  # what the store uses of the shell: its state, and the expander's parts
        rt: Runtime | RunView
        fs: VFS
        cwd: str
        options: dict[str, bool]
        arg0: str
        pid: int
        #: $$ (the shell process's pid; ``pid`` is BASHPID)
        shell_pid: int
        last_status: int
        last_arg: str
        last_bg_pid: int | None
        lineno: int
        pipestatus: list[int] | int
        frames: list[Frame]
        subshell_level: int
        #: when SECONDS was last assigned
        _seconds_start: float

        def fds_for_subst(self) -> dict: ...

        def option_flags(self) -> str: ...

        async def report(self, fds: dict, message: str) -> None: ...

        def sync_option_vars(self) -> None: ...

        def arith(self, text: str) -> int: ...

        async def expand_word(self, word: Word, assignment: bool = False) -> str: ...

        async def expand_words(self, words: list) -> list[str]: ...

        def ifs(self) -> str: ...

        def unbound_status(self) -> int: ...

        def byte_locale(self) -> bool: ...

        async def keyed_element_words(self, element: tuple) -> list[str] | None: ...

    # ================================================================== startup
    def init_shell_vars(self, ppid: str) -> None:
        """The variables a starting bash sets (over its environment): IFS, PS4, BASH_VERSION,
        the readonly UID/EUID/PPID, SHELLOPTS/BASHOPTS, PWD and SHLVL, and defaults (PATH,
        OSTYPE ...) for those the environment lacks."""
        g = self.globals
        shellopts = g.get("SHELLOPTS")
        if shellopts is not None and type(shellopts.value) is str:
            # an exported SHELLOPTS turns its options on in the new shell
            for opt in shellopts.value.split(":"):
                if opt in OPTION_DEFAULTS:
                    self.options[opt] = True
        for name, value in SHELL_VARS.items():
            g[name] = Var(value)
        versinfo = g["BASH_VERSINFO"] = Var(IndexedArray.of(BASH_VERSINFO))
        versinfo.readonly = True
        for name, value in (*READONLY_SHELL_VARS.items(), ("PPID", ppid)):
            var = g[name] = Var(value)
            var.readonly = True
        for name, value in DEFAULT_VARS.items():
            if name not in g:
                g[name] = Var(value)
        if "HOSTNAME" not in g:
            g["HOSTNAME"] = Var(self._host_name())  # gethostname(), unexported
        g["PWD"] = Var(self.cwd, True)
        oldpwd = g.get("OLDPWD")
        if oldpwd is None or type(oldpwd.value) is not str or not self._is_dir(oldpwd.value):
            # bash starts with OLDPWD exported but unset (unless it names a directory)
            g["OLDPWD"] = Var(None, True)
        level = g.get("SHLVL")
        depth = int(level.value) if level is not None and type(level.value) is str and isdigits(level.value) else 0
        g["SHLVL"] = Var(str(depth + 1), True)
        self.sync_option_vars()

    def init_interactive_vars(self) -> None:
        """What ``bash -i`` sets besides (when unset): the prompts, MAILCHECK, and HISTFILE
        under $HOME (HISTSIZE comes with a history read, which -c does not)."""
        g = self.globals
        home = g.get("HOME")
        defaults = {"PS1": "\\s-\\v\\$ ", "PS2": "> ", "MAILCHECK": "60",
                    "HISTFILE": (home.value if home is not None and type(home.value) is str else "~")
                    + "/.bash_history"}
        for name, value in defaults.items():
            if name not in g:
                g[name] = Var(value)

    def _host_name(self) -> str:
        """The host name (the sandbox's /etc/hostname, what `hostname` says)."""
        try:
            name = self.fs.read_text("/etc/hostname").strip()
        except Exception:  # noqa: BLE001 - an odd layout: the default name
            name = ""
        return name or "sandbox"

    def _is_dir(self, path: str) -> bool:
        try:
            return self.fs.is_dir(path, self.cwd)
        except Exception:
            return False

    def _same_dir(self, a: str, b: str) -> bool:
        """Whether paths ``a`` and ``b`` name the same directory."""
        try:
            return self.fs.realpath(a) == self.fs.realpath(b)
        except Exception:
            return False

    # ================================================================== lookups
    def lookup_raw(self, name: str) -> Var | None:
        """The variable called ``name`` itself (a nameref is not followed)."""
        scopes = self.scopes
        if scopes:
            for scope in reversed(scopes):
                v = scope.get(name)
                if v is not None:
                    return v
        return self.globals.get(name)

    def lookup_var(self, name: str) -> Var | None:
        if name in DYNAMIC_VARS:
            return self._dynamic(name)
        scopes = self.scopes
        if scopes:
            for scope in reversed(scopes):
                v = scope.get(name)
                if v is not None:
                    return self._deref(name, v) if v.nameref else v
        v = self.globals.get(name)
        if v is not None and v.nameref:
            return self._deref(name, v)
        return v

    def nameref_target(self, name: str, quiet: bool = False) -> tuple[str, str | None] | None:
        """Where ``name`` leads through namerefs: (final name, subscript text or None); None
        for a circular chain (with bash's warning unless ``quiet``)."""
        seen = 0
        current = name
        while True:
            v = self.lookup_raw(current)
            if v is None or not v.nameref or type(v.value) is not str or not v.value:
                return current, None
            target = v.value
            ref = split_subscript(target)
            if ref is not None:
                return ref
            seen += 1
            if target == current or seen > NAMEREF_DEPTH:
                if not quiet:
                    self.warn(f"{name}: circular name reference")
                return None
            current = target

    def _deref(self, name: str, v: Var) -> Var | None:
        if type(v.value) is not str or not v.value:
            return v
        target = self.nameref_target(name)
        if target is None:
            return None
        tname, sub = target
        if sub is None:
            return self.lookup_var(tname) if tname != name else v
        # a reference to an element: a value of its own, read now
        value = self.element_value(tname, self.subscript_key_sync(tname, sub))
        return None if value is None else Var(value)

    def _dynamic(self, name: str) -> Var | None:
        stored = self.globals.get(name)
        if name == "RANDOM":
            return Var(str(self.rt.random.randrange(32768)))
        if name == "SRANDOM":
            return Var(str(self.rt.random.getrandbits(32)))
        if name == "SECONDS":
            base = 0
            if stored is not None and stored.value is not None:
                try:
                    base = int(stored.scalar() or 0)
                except ValueError:
                    base = 0
                start = getattr(self, "_seconds_start", self.rt.start_time)
                return Var(str(base + int(time.monotonic() - start)))
            return Var(str(int(time.monotonic() - self.rt.start_time)))
        if name == "LINENO":
            return Var(str(self.lineno))
        if name == "PIPESTATUS":
            statuses = self.pipestatus
            if isinstance(statuses, int):
                return Var(IndexedArray.of([str(statuses)]))
            return Var(IndexedArray.of(str(s) for s in statuses))
        if name == "BASHPID":
            return Var(str(self.pid))
        if name == "EPOCHSECONDS":
            return Var(str(int(time.time())))
        if name == "EPOCHREALTIME":
            return Var(f"{time.time():.6f}")
        if name == "FUNCNAME":
            # set only while a function runs; then it names every frame
            frames = self.frames
            if not any(f.function for f in frames):
                return None
            return Var(IndexedArray.of(f.name for f in reversed(frames)))
        if name == "BASH_SUBSHELL":
            return Var(str(self.subshell_level))
        if name == "GROUPS":
            return Var(IndexedArray.of(["1000"]))
        if name == "_":
            return Var(self.last_arg)
        if name == "BASH_SOURCE":
            return Var(IndexedArray.of(f.source for f in reversed(self.frames)))
        if name == "BASH_LINENO":
            # the call stack's lines: empty at the top level
            return Var(IndexedArray.of(str(f.line) for f in reversed(self.frames)))
        return stored

    def _set_dynamic(self, name: str, value: str) -> None:
        if name == "RANDOM":
            try:
                self.rt.random.seed(int(value))
            except ValueError:
                self.rt.random.seed(value)
        elif name == "SECONDS":
            self._seconds_start = time.monotonic()

    def get_scalar(self, name: str) -> str | None:
        v = self.lookup_var(name)
        if v is None:
            return None
        value = v.value
        if value is None or type(value) is str:
            return value
        return v.scalar()

    def param_scalar(self, name: str) -> str | None:
        """$name for any parameter name (special ones included)."""
        c = name[0]
        if c.isalpha() or c == "_":
            return self.get_scalar(name)
        if isdigits(c):
            k = int(name)
            if k == 0:
                return self.arg0
            return self.positional[k - 1] if k <= len(self.positional) else None
        if name == "?":
            return str(self.last_status)
        if name == "#":
            return str(len(self.positional))
        if name == "@" or name == "*":
            if not self.positional:
                return None
            ifs = self.ifs()
            return (ifs[0] if ifs else "").join(self.positional) if name == "*" else " ".join(self.positional)
        if name == "$":
            return str(self.shell_pid)
        if name == "!":
            return str(self.last_bg_pid) if self.last_bg_pid is not None else None
        if name == "-":
            return self.option_flags()
        return None

    def all_vars(self) -> dict[str, Var]:
        merged = dict(self.globals)
        for scope in self.scopes:
            merged.update(scope)
        if "BASH_LINENO" not in merged:
            # listed by set and declare even when empty
            merged["BASH_LINENO"] = self._dynamic("BASH_LINENO") or Var(None)  # (never None)
        return merged

    def all_variable_names(self) -> list[str]:
        names = {n for n, v in self.all_vars().items() if v.value is not None}
        return sorted(names)

    def find_scope(self, name: str) -> dict[str, Var]:
        """The innermost scope that holds ``name`` (the globals when none does)."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope
        return self.globals

    def element_value(self, name: str, key) -> str | None:
        """``${name[key]}`` for a resolved key (an int index >= 0 or an assoc key)."""
        var = self.lookup_var(name)
        if var is None:
            return None
        value = var.value
        if value is None:
            return None
        if type(value) is str:
            return value if key == 0 else None
        return value.get(key)

    def is_set(self, text: str) -> bool:
        """``test -v text``: a set variable, element (``name[sub]``) or positional parameter."""
        ref = split_subscript(text)
        if ref is None:
            if isdigits(text):
                return 0 < int(text) <= len(self.positional)
            var = self.lookup_var(text) if is_name(text) else None
            if var is None or var.value is None:
                return False
            value = var.value
            return type(value) is str or ("0" if var.assoc else 0) in value
        name, sub = ref
        var = self.lookup_var(name)
        if var is None or var.value is None:
            return False
        value = var.value
        if sub in ("@", "*"):
            return bool(value)
        key: Key
        try:
            key = self.expand_subscript_sync(sub)
        except NeedsExpansion:
            return False
        if not var.assoc:
            index = self.arith(key)
            if index < 0:
                top = value.top if type(value) is IndexedArray else 1
                if index + top < 0:
                    self.notice(f"{name}: bad array subscript")
                    return False
                index += top
            key = index
        if type(value) is str:
            return key == 0
        return key in value

    # ================================================================== subscripts
    def resolve_index(self, name: str, var: Var | None, index: int, label: str | None = None) -> int:
        """A negative index counts back from the end; before the start it is an error."""
        if index >= 0:
            return index
        value = var.value if var is not None else None
        top = value.top if type(value) is IndexedArray else (1 if type(value) is str else 0)
        if index + top < 0:
            raise ShellError(f"{label or name}: bad array subscript", 1)
        return index + top

    def subscript_key_sync(self, name: str, sub: str):
        """The key ``name[sub]`` means, without running commands (for lookups that cannot
        wait): an assoc key with quotes removed, or a non-negative index."""
        var = self.lookup_var(name)
        try:
            text = self.expand_subscript_sync(sub)
        except NeedsExpansion:
            if self._expanded_subscripts is not None:
                raise
            raise ShellError(f"{name}[{sub}]: bad array subscript", 1) from None
        if var is not None and var.assoc:
            return text
        return self.resolve_index(name, var, self.arith(text))

    async def subscript_key(self, name: str, sub: str, label: str | None = None, var: Var | None = None):
        """``name[sub]`` given as a string at run time: an associative array's key is the
        subscript expanded like a word; an index is expanded, then evaluated, negative ones
        counted from the end. Returns "@"/"*" for the whole array. ``var``: name's variable
        when the caller has it."""
        if sub in ("@", "*"):
            return sub
        if sub == "":
            raise ShellError(f"{label or name + '[]'}: bad array subscript", 1)
        if var is None:
            var = self.lookup_var(name)
        text = sub if _EXPANDS.search(sub) is None else await self.expand_subscript(sub)
        if var is not None and var.assoc:
            return text
        try:
            index = self.arith(text)
        except NeedsExpansion:
            index = await self.arith_expanding(text)
        return self.resolve_index(name, var, index, label)

    def subscript_word(self, text: str) -> Word:
        """A subscript given as text, parsed as a word (its quotes and expansions count)."""
        word = _SUBSCRIPT_WORDS.get(text)
        if word is None:
            try:
                parts = Parser(text).read_word_parts(stop=frozenset())
            except ParseError:
                raise ShellError(f"{text}: bad array subscript", 1) from None
            if len(_SUBSCRIPT_WORDS) > 2000:
                _SUBSCRIPT_WORDS.clear()
            if parts and type(parts[0]) is Lit and parts[0].text.startswith("~"):
                parts[0] = Quoted(parts[0].text)  # no tilde expansion in a subscript
            word = _SUBSCRIPT_WORDS[text] = Word(parts, None, None, text)
        return word

    async def expand_subscript(self, text: str) -> str:
        if _EXPANDS.search(text) is None:
            return text
        return await self.expand_word(self.subscript_word(text))

    async def expand_key(self, word: Word) -> str:
        """An associative-array subscript written in the source: a word with quote removal
        (an arithmetic index keeps its text)."""
        source = word.source
        if source and _QUOTES.search(source) is not None:
            return await self.expand_word(self.subscript_word(source))
        return await self.expand_word(word)

    def expand_subscript_sync(self, text: str) -> str:
        """``expand_subscript`` where nothing may wait: quotes and plain ``$name`` expand;
        anything that runs a command raises NeedsExpansion (the caller expands and retries)."""
        if _EXPANDS.search(text) is None:
            return text
        done = self._expanded_subscripts
        if done is not None:
            values = done.get(text)
            if values:
                used = self._subscripts_used
                n = used.get(text, 0)
                if n < len(values):
                    used[text] = n + 1
                    return values[n]
        return self._expand_parts_sync(self.subscript_word(text).parts, text)

    def _expand_parts_sync(self, parts: list, text: str) -> str:
        out = []
        for p in parts:
            tp = type(p)
            if tp is Lit or tp is Quoted:
                out.append(p.text)
            elif tp is DQ:
                out.append(self._expand_parts_sync(p.parts, text))
            elif tp is Param and p.op is None and p.index is None and not p.indirect and not p.length \
                    and p.name not in ("@", "*"):
                value = self.param_scalar(p.name)
                if value is None and self.options["nounset"]:
                    raise ShellError(f"{p.name}: unbound variable", self.unbound_status(), fatal=True)
                out.append(value or "")
            else:
                raise NeedsExpansion(text)
        return "".join(out)

    #: expansions of subscripts done for the arithmetic being evaluated (``arith_async``)
    _expanded_subscripts: dict[str, list[str]] | None = None
    _subscripts_used: dict[str, int] = {}

    async def arith_async(self, text: str) -> int:
        """``arith`` that may run command substitutions in subscripts it meets in variables
        (``x='a[$(cmd)]'; $((x))``): each is expanded when first met, then the expression is
        evaluated again from the start."""
        if self._expanded_subscripts is None:
            try:
                return self.arith(text)
            except NeedsExpansion:
                pass
        return await self.arith_expanding(text)

    async def arith_expanding(self, text: str) -> int:
        """The slow path of arith_async (after a first evaluation met a subscript to expand)."""
        saved = self._expanded_subscripts, self._subscripts_used
        done: dict[str, list[str]] = {}
        self._expanded_subscripts = done
        try:
            for _ in range(64):
                self._subscripts_used = {}
                try:
                    return self.arith(text)
                except NeedsExpansion as e:
                    done.setdefault(e.text, []).append(await self.expand_word(self.subscript_word(e.text)))
            return self.arith(text)
        finally:
            self._expanded_subscripts, self._subscripts_used = saved

    # ================================================================== memory
    #: the shell a waited fork belongs to (the parent of its memory account)
    waited_by: "Variables | None" = None

    def account(self) -> MemoryAccount:
        """This shell's memory account (a waited fork opens its own at its first charge)."""
        account = self.memory
        if account is None:
            assert self.waited_by is not None  # (only a waited fork starts without one)
            parent = self.waited_by.account()
            account = self.memory = MemoryAccount(parent.pool, parent)
        return account

    def _account(self, delta: int, name: str) -> None:
        """Charge (or credit) ``delta`` bytes of variable storage; over the limit it raises
        before anything is stored."""
        account = self.memory
        if account is None:
            account = self.account()
        pool = account.pool
        if delta > 0:
            if pool.released:
                pool.settle()
            if pool.held + delta > self.rt.limits.shell_memory_bytes:
                pool.make_room(delta, name, self.rt.limits)
            pool.held += delta
            account.own += delta
        elif delta < 0:
            if account.forks:
                account.deferred -= delta
                return
            pool.held += delta
            account.own += delta

    def _replace(self, old: int, new: int, name: str) -> None:
        """``old`` bytes make way for ``new`` ones. While forks of this shell run they may
        still hold the old value, so it stays charged until they end."""
        account = self.memory
        if account is None:
            account = self.account()
        if account.forks and account.pool.released:
            account.pool.settle()
        if not account.forks:
            self._account(new - old, name)
            return
        try:
            self._account(new, name)
        except LimitExceeded:
            if account.forks:
                raise
            # the check collected the ended forks: the old value is free after all
            self._account(new - old, name)
            return
        self._account(-old, name)

    def _charge_value(self, var: Var, new_size: int, name: str) -> None:
        self._replace(var.charged, new_size, name)
        var.charged = new_size

    def charge_string(self, var: Var, value: str, name: str) -> None:
        """``var`` is to hold the string ``value`` (charged before it is stored)."""
        n = len(value)
        size = (n if value.isascii() else 4 * n) + VALUE_OVERHEAD
        account = self.memory
        if account is None:
            account = self.account()  # (a waited fork's first charge: its account is new, no forks)
        if account.forks:
            self._replace(var.charged, size, name)
            var.charged = size
        elif size != var.charged:
            self._account(size - var.charged, name)
            var.charged = size

    def _charge_element(self, var: Var, old: str | None, new: str, name: str, key_size: int = 0) -> None:
        n = len(new)
        size = (n if new.isascii() else 4 * n) + VALUE_OVERHEAD
        if old is not None:
            credit = min(value_size(old), var.charged)
            self._replace(credit, size, name)
            var.charged += size - credit
        else:
            self._account(size + key_size, name)
            var.charged += size + key_size

    #: what $1 ... are charged (0 in a fork: its copy shares the parent's strings)
    positional_charged = 0

    def set_positional(self, args: list[str], name: str) -> None:
        """``args`` become $1 ... in place of the current ones, charged like array elements
        (``shift`` leaves the charge until they are set again or the function returns)."""
        size = sum(map(value_size, args)) if args else 0
        if size or self.positional_charged:
            self._replace(self.positional_charged, size, name)
            self.positional_charged = size
        self.positional = args

    def enter_positional(self, args: list[str], name: str) -> tuple[list[str], int]:
        """A function's arguments become $1 ...: what to give ``leave_positional`` at its end.
        Short argument lists are not charged (at most ``function_depth`` times 4 KiB)."""
        saved = self.positional, self.positional_charged
        size = sum(map(len, args))
        if size > 4096:
            size = sum(map(value_size, args))
            self._account(size, name)
        else:
            size = 0
        self.positional, self.positional_charged = args, size
        return saved

    def leave_positional(self, saved: tuple[list[str], int]) -> None:
        if self.positional_charged:
            self._account(-self.positional_charged, "")
        self.positional, self.positional_charged = saved

    def hold_memory(self, name: str, size: int = 0, owner: object = None) -> MemoryHold:
        """A hold of ``size`` bytes (more with ``grow``) against the shell memory limit, in the
        name ``name`` takes in the error; with ``owner``, released when the owner is collected."""
        hold = MemoryHold(self.rt.memory, self.rt, name)
        if size:
            hold.grow(size)
        if owner is not None:
            weakref.finalize(owner, hold.end)
        return hold

    # ================================================================== shared variables
    #: a fork its parent waits for (Shell.fork_waited) shares the parent's globals and the
    #: scopes it was forked in (``shared_scopes``) until it first changes one of them
    vars_shared = False
    shared_scopes: tuple[dict[str, Var], ...] = ()  # (the tuple keeps them alive: their ids stay theirs)
    shared_ids: frozenset[int] = frozenset()
    #: an assignment in a fork that shares copies one variable (``_own_one``): the ids of
    #: the scope dicts it copied (whose other variables are still the parent's) and of the
    #: variables it owns
    copied_ids: frozenset[int] | set[int] = frozenset()
    owned_ids: frozenset[int] | set[int] = frozenset()

    def own_variables(self) -> None:
        """Copy the shared variables (as a fork does) before changing one of them."""
        if not self.vars_shared:
            return
        self.vars_shared = False
        shared = self.shared_ids
        owned = self.owned_ids
        self.shared_scopes = ()
        self.shared_ids = self.copied_ids = self.owned_ids = frozenset()
        if owned:
            self.globals = {k: v if id(v) in owned else v.copy() for k, v in self.globals.items()}
        else:
            self.globals = {k: v.copy() for k, v in self.globals.items()}
        scopes = self.scopes
        for k, scope in enumerate(scopes):
            if id(scope) in shared:
                scopes[k] = {name: v if id(v) in owned else v.copy() for name, v in scope.items()}

    def _own_one(self, scope: dict[str, Var], var: Var | None, name: str) -> dict[str, Var] | None:
        """Before an assignment to ``name`` (``var`` in ``scope``, or None to create it there):
        make ``scope`` a dict of this shell's and ``var`` a copy of its own; the other variables
        stay shared (``( cd dir )`` copies two, not all). The scope now (None when ``scope`` is
        not found)."""
        if id(scope) not in self.copied_ids:
            new = dict(scope)
            if scope is self.globals:
                self.globals = new
            else:
                for k, s in enumerate(self.scopes):
                    if s is scope:
                        self.scopes[k] = new
                        break
                else:
                    return None
            copied = self.copied_ids
            if not isinstance(copied, set):  # (frozenset() until the first copy)
                copied = self.copied_ids = set()
                self.owned_ids = set()
            copied.add(id(new))
            self.shared_ids = self.shared_ids | {id(new)}
            self.shared_scopes += (new,)
            scope = new
        if var is not None and id(var) not in self.owned_ids:
            own = scope[name] = var.copy()
            self.owned_ids.add(id(own))  # type: ignore[union-attr]  # a set once a scope was copied
        return scope

    def shares_scope(self, scope: dict[str, Var]) -> bool:
        """Whether ``scope`` is still the parent's (``own_variables`` before changing it)."""
        return self.vars_shared and (scope is self.globals or id(scope) in self.shared_ids)

    def release_scope(self, scope: dict[str, Var]) -> None:
        """A function's locals went away: what they held is free."""
        if self.shares_scope(scope):
            return  # the parent's: it holds them
        freed = 0
        for v in scope.values():
            freed += v.charged
            v.charged = 0
        if freed:
            self._account(-freed, "")

    # ================================================================== assignment targets
    def _var_for_write(self, name: str) -> tuple[dict[str, Var], Var | None, str]:
        """Where an assignment to ``name`` goes: (scope, existing var or None, final name),
        following namerefs to a whole variable."""
        scope, var, name, sub = self._write_target(name)
        return scope, var, name

    def _new_var(self, scope: dict[str, Var], name: str, value: str, export: bool | None = None) -> None:
        """A new string variable ``name`` in ``scope`` (this shell's own)."""
        if len(value) > 4096:
            self.check_string(value)
        var = Var(None)
        self.charge_string(var, value, name)
        var.value = value
        if export or self.options["allexport"]:
            var.exported = True
        scope[name] = var

    def _write_target(self, name: str) -> tuple[dict[str, Var], Var | None, str, str | None]:
        """(scope, var or None, final name, subscript of an element target or None): this
        shell's own, to change."""
        found = self._find_write_target(name)
        if self.vars_shared and (found[0] is self.globals or id(found[0]) in self.shared_ids):  # (shares_scope)
            var = found[1]
            if var is not None and id(var) in self.owned_ids:
                return found
            scope = self._own_one(found[0], var, found[2])
            if scope is not None:
                return scope, scope.get(found[2]), found[2], found[3]
            self.own_variables()
            return self._find_write_target(name)
        return found

    def _find_write_target(self, name: str) -> tuple[dict[str, Var], Var | None, str, str | None]:
        for scope in reversed(self.scopes):
            v = scope.get(name)
            if v is not None:
                if v.nameref and type(v.value) is str and v.value:
                    return self._nameref_write_target(name)
                return scope, v, name, None
        v = self.globals.get(name)
        if v is not None and v.nameref and type(v.value) is str and v.value:
            return self._nameref_write_target(name)
        return self.globals, v, name, None

    def _nameref_write_target(self, name: str) -> tuple[dict[str, Var], Var | None, str, str | None]:
        target = self.nameref_target(name)
        if target is None:
            raise ShellError(f"{name}: circular name reference", 1)
        name, sub = target
        if sub is not None:
            return self.find_scope(name), self.lookup_raw(name), name, sub
        for scope in reversed(self.scopes):
            v = scope.get(name)
            if v is not None:
                return scope, v, name, None
        return self.globals, self.globals.get(name), name, None

    def check_string(self, value: str | bytes) -> None:
        if len(value) > self.rt.limits.string_bytes:
            raise LimitExceeded(
                f"string of {len(value)} bytes exceeds the limit ({self.rt.limits.string_bytes} bytes; "
                "limit string_bytes)",
                "string_bytes")

    # ================================================================== writes
    def set_var(self, name: str, value: str, append: bool = False, export: bool | None = None) -> None:
        scope, var, name, sub = self._write_target(name)
        if sub is not None:
            if sub in ("@", "*"):
                raise ShellError(f"`{name}[{sub}]': not a valid identifier", 1)
            self.set_element(name, self.subscript_key_sync(name, sub), value, append)
            return
        if var is None:
            if name in DYNAMIC_VARS:
                self._set_dynamic(name, value)
            self._new_var(scope, name, value, export)
            if name in LOCALE_VARS:
                self.byte_locale()
            return
        if var.readonly:
            raise ShellError(f"{name}: readonly variable", 1, abort=True, errexit=True)
        if var.integer:
            if append:
                value = str(self.arith(f"({var.scalar() or 0})+({value or 0})"))
                append = False
            else:
                value = str(self.arith(value or "0"))
        if append:
            old = var.scalar() or ""
            value = old + value
        if var.lower:
            value = value.lower()
        elif var.upper:
            value = value.upper()
        if len(value) > 4096:
            self.check_string(value)
        current = var.value
        if current is None and (var.indexed or var.assoc):
            current = var.value = {} if var.assoc else IndexedArray()
        if type(current) is IndexedArray or type(current) is dict:
            key: Any = "0" if var.assoc else 0  # (a dict's key, or an IndexedArray's index)
            self._charge_element(var, current.get(key), value, name, 1)
            current[key] = value
        else:
            self.charge_string(var, value, name)
            var.value = value
        if self.options["allexport"] or export:
            var.exported = True
        if name in DYNAMIC_VARS:
            self._set_dynamic(name, value)
        elif name in LOCALE_VARS:
            self.byte_locale()

    def set_raw(self, var: Var, value: str, name: str) -> None:
        """Give ``var`` itself the string ``value`` (a nameref's target: not followed)."""
        self.charge_string(var, value, name)
        var.value = value

    def unset_raw(self, name: str) -> None:
        """``unset -n name``: the variable itself, even a nameref."""
        self.own_variables()
        for scope in [*reversed(self.scopes), self.globals]:
            var = scope.get(name)
            if var is not None:
                if var.readonly:
                    raise ShellError(f"{name}: cannot unset: readonly variable", 1)
                self._account(-var.charged, name)
                var.charged = 0
                if scope is self.globals:
                    del scope[name]
                else:
                    scope[name] = Var(None)
                return

    def _array_var(self, name: str, assoc: bool | None = None) -> tuple[Var, str]:
        """The variable an array assignment writes (made when missing)."""
        scope, var, name, sub = self._write_target(name)
        if sub is not None:
            raise ShellError(f"`{name}[{sub}]': not a valid identifier", 1)
        if var is not None and var.readonly:
            raise ShellError(f"{name}: readonly variable", 1)
        if var is None:
            var = Var(None)
            scope[name] = var
            if self.options["allexport"]:
                var.exported = True
        if assoc:
            var.assoc = True
        return var, name

    def set_array(self, name: str, values, assoc: bool = False, append: bool = False) -> None:
        """``name=(values)`` (a list, an IndexedArray, or a dict for an associative array);
        with ``append``, after the existing elements."""
        var, name = self._array_var(name, assoc or None)
        if var.integer:
            if type(values) is dict:
                values = {k: str(self.arith(v or "0")) for k, v in values.items()}
            else:
                items = values.items() if type(values) is IndexedArray else enumerate(values)
                values = IndexedArray({k: str(self.arith(v or "0")) for k, v in items})
        if var.assoc:
            pairs = values.items() if type(values) is IndexedArray else enumerate(values)
            new = values if type(values) is dict else {str(k): v for k, v in pairs}
            if append and type(var.value) is dict:
                for k, v in new.items():
                    self._charge_element(var, var.value.get(k), v, name, len(k))
                    var.value[k] = v
                return
            self._charge_value(var, array_size(new), name)
            var.value = new
            return
        current = var.value
        if append and type(current) is IndexedArray and type(values) is list and not var.integer:
            # a+=(x ...): the commonest array assignment, at the cost of the new elements
            added = strings_size(values)
            self._account(added, name)
            var.charged += added
            current.append(values)
            return
        size = None
        if type(values) is IndexedArray:
            new_values = values
        elif type(values) is dict:
            new_values = IndexedArray(values)
        else:
            values = list(values)
            size = strings_size(values)  # from the list: array_size would sort the new array's keys
            new_values = IndexedArray.of(values)
        if append and current is not None:
            if type(current) is str:
                current = IndexedArray.of([current])
                var.value = current
            added = sum(value_size(v) for v in new_values.values())
            self._account(added, name)
            var.charged += added
            start = current.top
            for k, v in new_values.items():
                current[start + k] = v
            return
        self._charge_value(var, array_size(new_values) if size is None else size, name)
        var.value = new_values

    def set_match_groups(self, groups: list[str]) -> None:
        """BASH_REMATCH after ``[[ =~ ]]`` (every match sets it): an existing plain global
        array takes the new list directly, anything else goes through ``set_array``."""
        var = self.globals.get("BASH_REMATCH")
        if var is None or type(var.value) is not IndexedArray or var.readonly or var.integer or var.assoc \
                or var.nameref or self.vars_shared or any("BASH_REMATCH" in scope for scope in self.scopes):
            self.set_array("BASH_REMATCH", groups)
            return
        if not groups and not var.value:
            return  # no match again: it stays empty
        self._charge_value(var, strings_size(groups), "BASH_REMATCH")
        var.value = IndexedArray.of(groups)

    def append_values(self, name: str, values: list[str]) -> None:
        """``name+=(values)``: after the last element, at the cost of the new ones only."""
        self.set_array(name, values, append=True)

    def set_element(self, name: str, index: Key, value: str, append: bool = False) -> None:
        """``name[index]=value``: ``index`` is an int (negative ones count from the end) or
        an associative array's key."""
        scope, var, name, sub = self._write_target(name)
        if sub is not None:
            raise ShellError(f"`{name}[{sub}]': not a valid identifier", 1)
        if var is not None and var.readonly:
            raise ShellError(f"{name}: readonly variable", 1)
        if var is None:
            var = Var(None)
            scope[name] = var
            if self.options["allexport"]:
                var.exported = True
        key: Key
        if var.assoc:
            key = str(index)
            if type(var.value) is not dict:
                var.value = {}
        else:
            position = index if type(index) is int else self.arith(str(index))
            current = var.value
            if type(current) is not IndexedArray:
                var.value = IndexedArray() if current is None else IndexedArray.of([current])
            if position < 0:
                position = self.resolve_index(name, var, position, f"{name}[{index}]")
            key = position
        if var.integer:
            value = str(self.arith(f"({var.value.get(key) or 0})+({value or 0})" if append else (value or "0")))
            append = False
        self.store_element(var, name, key, value, append)

    def store_element(self, var: Var, name: str, key: Key, value: str, append: bool = False) -> None:
        """Store ``value`` at ``key`` of the array ``var`` (its value an IndexedArray or a dict,
        the key resolved), charged; ``append``: after the element's old value."""
        if self.vars_shared:
            var = cast(Var, self._write_target(name)[1])  # this shell's own copy
        old = var.value.get(key)
        if append and old is not None:
            value = old + value
        if len(value) > 4096:
            self.check_string(value)
        self._charge_element(var, old, value, name, len(key) if var.assoc else 0)  # type: ignore[arg-type]  # (str)
        var.value[key] = value

    def unset_var(self, name: str) -> bool:
        scope, var, name, sub = self._write_target(name)
        if sub is not None:
            return self.unset_element(name, self.subscript_key_sync(name, sub))
        if var is None:
            return True
        if var.readonly:
            raise ShellError(f"{name}: cannot unset: readonly variable", 1)
        self._account(-var.charged, name)
        var.charged = 0
        if type(var) is TempVar and scope.get(name) is var:
            # a ``VAR=x cmd`` binding: unset uncovers what it hides
            var.uncovered = True
            if var.hides is None:
                del scope[name]
            else:
                scope[name] = var.hides
        elif scope is self.globals:
            del scope[name]
        elif name in scope:
            if scope is self.scopes[-1]:
                # an unset local of the running function stays local (the global stays hidden)
                scope[name] = Var(None)
            else:
                # a caller's local goes, uncovering the variable below it (bash's dynamic scope)
                del scope[name]
        if name in LOCALE_VARS:
            self.byte_locale()
        return True

    def unset_element(self, name: str, key) -> bool:
        """``unset 'name[key]'`` with a resolved key ("@"/"*": the whole array)."""
        scope, var, name, sub = self._write_target(name)
        if var is None or var.value is None:
            return True
        if var.readonly:
            raise ShellError(f"{name}: cannot unset: readonly variable", 1)
        value = var.value
        if key in ("@", "*"):
            self._account(-var.charged, name)
            var.charged = 0
            value.clear() if is_array(value) else None
            if type(value) is str:
                self.unset_var(name)
            return True
        if type(value) is str:
            if key == 0 or key == "0":
                self.unset_var(name)
            return True
        old = value.pop(key, None)
        if old is not None:
            credit = min(value_size(old) + (len(key) if var.assoc else 0), var.charged)
            self._account(-credit, name)
            var.charged -= credit
        return True

    # ================================================================== arithmetic access (arith.py)
    def arith_key(self, name: str, raw: str) -> Key:
        """The key of ``name[raw]`` inside an arithmetic expression."""
        var = self.lookup_var(name)
        text = raw if _EXPANDS.search(raw) is None else self.expand_subscript_sync(raw)
        if var is not None and var.assoc:
            return text
        index = self.arith(text)
        if index < 0:
            value = var.value if var is not None else None
            top = value.top if type(value) is IndexedArray else (1 if type(value) is str else 0)
            if index + top >= 0:
                return index + top
            # reading gives 0 (after the message); assigning fails in set_element
            self.notice(f"{name}: bad array subscript")
        return index

    def arith_get(self, name: str, index: Key | None) -> str:
        if index is None:
            var = self.lookup_raw(name) if self.scopes else self.globals.get(name)
            if var is not None and type(var.value) is str and not var.nameref and name not in DYNAMIC_VARS:
                return var.value  # a plain string: the commonest case, inline
            v = self.get_scalar(name)
            if v is None and self.options["nounset"]:
                raise ShellError(f"{name}: unbound variable", self.unbound_status(), fatal=True)
            return v or ""
        value = self.element_value(name, index)
        if value is None and self.options["nounset"]:
            raise ShellError(f"{name}: unbound variable", self.unbound_status(), fatal=True)
        return value or ""

    def arith_number(self, name: str) -> int | None:
        """The value of a plain variable holding a decimal number as arithmetic reads it (kept
        with the variable: ``Var.numeric``); None for anything else (``arith_get`` and the
        general way)."""
        var = self.lookup_raw(name) if self.scopes else self.globals.get(name)
        if var is None or var.nameref or name in DYNAMIC_VARS:
            return None
        return decimal_value(var)

    def arith_step(self, name: str, delta: int) -> int | None:
        """``name++``/``name--`` of a plain variable holding a decimal number, in one lookup:
        the old value; None (nothing done) for anything else (``arith_get``/``arith_set``)."""
        var = self.lookup_raw(name) if self.scopes else self.globals.get(name)
        if var is None or var.nameref or name in DYNAMIC_VARS:
            return None
        old = decimal_value(var)
        if old is None:
            return None
        new = old + delta
        if new >= SIGN or new < 0:
            return None  # (wrapping, or a minus sign: the general way)
        text = str(new)
        self.assign_scalar(name, text, False, var)  # (its checks: readonly, integer, a fork's copy)
        if var.value is text:  # (not a fork's copy of var, which has it)
            var.numeric = (text, new)
        return old

    def arith_set(self, name: str, index: Key | None, value: int) -> None:
        if index is None:
            self.assign_scalar(name, str(value), False)
        else:
            self.set_element(name, index, str(value))

    def exported_env(self) -> dict[str, str]:
        # bash exports strings only: an exported array is not in the environment
        env = {name: var.value for name, var in self.globals.items() if var.exported and type(var.value) is str}
        for scope in self.scopes:
            for name, var in scope.items():
                if var.exported and type(var.value) is str:
                    env[name] = var.value
                else:
                    env.pop(name, None)  # a local hides the global of its name
        return env

    # ================================================================== assignment words
    async def assign(self, a: Assign) -> None:
        if a.array is not None:
            if a.index is not None:
                raise ShellError(f"{a.name}[{await self.expand_word(a.index)}]: cannot assign list to array member",
                                 1, abort=True, errexit=True)
            await self._assign_array(a)
            return
        value = await self.expand_word(a.value, assignment=True) if a.value is not None else ""
        if a.index is None:
            await self.assign_expanded(a, value)
            return
        var = self.lookup_var(a.name)
        key: Key
        if var is not None and var.assoc:
            key = await self.expand_key(a.index)
        else:
            text = await self.expand_word(a.index)
            if not text.strip():
                raise ShellError(f"{a.name}[{text}]: bad array subscript", 1)
            try:
                try:
                    key = self.arith(text)
                except NeedsExpansion:
                    key = await self.arith_expanding(text)
            except ShellError as e:
                # bash: an arithmetic error in an assignment's subscript ends the shell
                raise ShellError(e.message, 1, fatal=True) from None
        self.set_element(a.name, key, value, a.append)

    async def assign_expanded(self, a: Assign, value: str) -> None:
        """``NAME=VALUE`` (no subscript) with VALUE expanded already."""
        if self.namerefs:
            # (a circular chain is reported once, by assign_scalar)
            target = self.nameref_target(a.name, quiet=True)
            name, sub = target if target is not None else (a.name, None)
            if sub is not None:
                # a reference to an element: its subscript may run commands
                if sub in ("@", "*"):
                    raise ShellError(f"`{name}[{sub}]': not a valid identifier", 1)
                self.set_element(name, await self.subscript_key(name, sub), value, a.append)
                return
        self.assign_scalar(a.name, value, a.append)

    def assign_scalar(self, name: str, value: str, append: bool, var: Var | None = NOT_LOOKED_UP) -> None:
        """``name=value`` / ``name+=value`` once the value is expanded (no nameref to follow
        to an element: ``assign`` handled those). ``var``: ``lookup_raw(name)``, when the
        caller has it."""
        if var is NOT_LOOKED_UP:
            var = self.lookup_raw(name) if self.scopes else self.globals.get(name)
        if var is None and not self.scopes and name not in _WATCHED_VARS:
            # a new global (a fork's own copy of the globals first): set_var's way, without
            # looking the name up again
            self._new_var(self.globals if not self.vars_shared else cast(dict, self._own_one(self.globals, None, name)),
                          name, value)
            return
        if var is None or (type(var.value) is not str and (append or var.value is not None or var.indexed
                                                           or var.assoc)) \
                or var.readonly or var.integer or var.lower or var.upper or var.nameref or self.options["allexport"] \
                or name in _WATCHED_VARS:
            self.set_var(name, value, append)  # (else a string, or declared without one, as OLDPWD starts)
            return
        if self.vars_shared and id(var) not in self.owned_ids:
            own = self._write_target(name)[1] if self.scopes else \
                cast(dict, self._own_one(self.globals, var, name))[name]  # (a global: no second lookup)
            assert own is not None
            var = own  # this fork's own copy of it
        # a plain string variable: the commonest assignment, inline
        old_length = -1
        if append:
            old_length = len(var.value)
            # the variable lets go of its string first: when nothing else holds it CPython
            # extends it in place, so s+=x in a loop is linear, not quadratic
            current = var.value
            var.value = None
            try:
                current += value
            except BaseException:
                var.value = current
                raise
            value = current
            del current
        try:
            if len(value) > 4096:
                self.check_string(value)
            self.charge_string(var, value, name)
        except BaseException:
            if old_length >= 0:
                var.value = value[:old_length]
            raise
        var.value = value

    async def _assign_array(self, a: Assign) -> None:
        """``name=(...)`` / ``name+=(...)``: bash expands every value first, then evaluates
        the ``[key]`` subscripts in order against the array as it fills."""
        scope, var, name, sub = self._write_target(a.name)
        if sub is not None:
            raise ShellError(f"`{name}[{sub}]': not a valid identifier", 1)
        assoc = var is not None and var.assoc
        items: list[tuple] = []
        keyed = False
        for el in a.array or ():
            if isinstance(el, tuple):
                words = None if assoc else await self.keyed_element_words(el)
                if words is not None:
                    items.extend((None, f, False) for f in words)
                    continue
                keyed = True
                value = el[1]
                if assoc and any(type(p) is Lit and "~" in p.text for p in value.parts):
                    # an associative element's value takes no tilde expansion at all (bash)
                    value = Word([Quoted(p.text) if type(p) is Lit else p for p in value.parts])
                items.append((el[0], await self.expand_word(value, assignment=not assoc), el[2]))
            else:
                for f in await self.expand_words([el]):
                    items.append((None, f, False))
        if assoc:
            await self._fill_assoc(name, items, a.append)
        elif not keyed:
            self.set_array(name, [v for _, v, _ in items], append=a.append)
        else:
            await self._fill_indexed(name, items, a.append)
        if self.pending_warnings:
            await self.flush_warnings()

    async def _fill_indexed(self, name: str, items: list[tuple], append: bool) -> None:
        var = self.lookup_var(name)
        if append and var is not None and var.value is not None:
            value = var.value
            index = value.top if type(value) is IndexedArray else 1
        else:
            self.set_array(name, [])
            index = 0
        for key_word, value, add in items:
            if key_word is not None:
                key_text = await self.expand_word(key_word)
                if not key_text.strip():
                    raise ShellError(f"{name}[{key_text}]: bad array subscript", 1)
                index = await self.arith_async(key_text)
                if index < 0:
                    index = self.resolve_index(name, self.lookup_var(name), index, f"{name}[{key_text}]")
            self.set_element(name, index, value, add)
            index += 1

    async def _fill_assoc(self, name: str, items: list[tuple], append: bool) -> None:
        keyed = any(k is not None for k, _, _ in items)
        values: dict[str, str] = {}
        var = self.lookup_var(name)
        existing = var.value if append and var is not None and type(var.value) is dict else {}
        if keyed:
            for key_word, value, add in items:
                if key_word is None:
                    await self.report(self.fds_for_subst(),
                                      f"{name}: {value}: must use subscript when assigning associative array")
                    continue
                key = await self.expand_key(key_word)
                if add:
                    # a new literal's += does not see its own earlier elements (bash)
                    value = (values.get(key, existing.get(key, "")) if append else "") + value
                values[key] = value
        else:
            # bash 5.1: (key value key value ...)
            for k in range(0, len(items), 2):
                values[items[k][1]] = items[k + 1][1] if k + 1 < len(items) else ""
        self.set_array(name, values, assoc=True, append=append)

    # ================================================================== warnings
    #: messages from code that cannot write (lookups), reported at the next expansion
    pending_warnings: list[str] | None = None
    #: namerefs in this shell, at least as many as there are (while 0, ``$name`` needs no
    #: nameref check and the compiled runners run): counted up as they are made, recounted when
    #: a function's scope with one ends (``scope_ended``)
    namerefs = 0
    #: namerefs hidden by a ``VAR=x cmd`` binding (in no scope while the command runs)
    namerefs_hidden = 0

    def scope_ended(self, scope: dict[str, Var]) -> None:
        """A function's scope was taken off ``scopes``: its `local -n` namerefs end with it
        (so one such call leaves the compiled runners on)."""
        if self.namerefs and any(v.nameref for v in scope.values()):
            self.namerefs = self.namerefs_hidden + sum(v.nameref for v in self.globals.values()) + \
                sum(v.nameref for s in self.scopes for v in s.values())
        self.release_scope(scope)

    def notice(self, message: str) -> None:
        """An error message from code that cannot write (a lookup): reported at the next
        expansion; the command goes on."""
        self.pending_warnings = (self.pending_warnings or []) + [message]

    def warn(self, message: str) -> None:
        self.notice(f"warning: {message}")

    async def flush_warnings(self) -> None:
        """Say the pending messages. An error among them (not a warning) ends the shell under
        errexit, wherever it is (bash's report_error), with the last status or 1."""
        messages, self.pending_warnings = self.pending_warnings or [], None
        for message in messages:
            await self.report(self.fds_for_subst(), message)
        if self.options["errexit"] and any(not m.startswith("warning: ") for m in messages):
            raise ExitShell(self.last_status or 1)
