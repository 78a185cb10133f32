"""The async interpreter: shell state, and running commands (simple and compound ones,
functions, external commands, substitutions, traps). The variable store is the Shell's base
class (variables.py); word expansion, redirections, pipelines/jobs and [[ ]] are the functions
of word.py, redirect.py, pipeline.py and cond.py over the shell, and the ``Shell`` binds, in one
block ("the rooms, wired"), those that are reached through it (docs/architecture.md, "Rooms").

A ``Shell`` holds one shell's state (variables, functions, options, cwd, positional
parameters, traps). Subshells, pipeline stages and command substitutions run in a
``fork()`` copy that shares the ``Runtime`` (filesystem, limits, cancel token, counters).
"""
from __future__ import annotations

import contextlib
import re
import time
import weakref
from operator import itemgetter

from ... import aio
from ...commands import registry
from ...commands.registry import CommandCancelled, CommandContext
from ...lazy import TYPE_CHECKING, cast, lazy_import
from ...streams import BufferOutput, BytesInput, ClosedInput, ClosedOutput, InputStream, OutputStream, OutputTooLarge
from ...vfs import FSError
from ...vfs.layout import COMMAND_STUB
from ..builtins import BUILTINS, SPECIAL_BUILTINS
from ..builtins.jobs import EXIT_TRAP_SIGNALS, HARMLESS_SIGNALS, SIGNAL_NAMES, SIGNALS, signal_description
from ..builtins.output import out
from ..builtins.resources import ResourceLimits
from ..builtins.variables import valid_nameref_target
from ..histexpand import Memory as HistoryMemory
from ..hints import not_found_message
from ..lookup import CommandHash, is_binary_script, search_path
from ..quoting import shell_quote, single_quote
from ..options import OPTION_DEFAULTS, SHOPT_DEFAULTS, bashopts, option_flags, shellopts
from ..state import (AbortCommand, BreakLoop, ContinueLoop, ControlFlow, ExitShell, LimitExceeded,
    ProcessKilled, ReturnFromFunction, ShellError, TempVar, Var)
from ..syntax.ast import (DQ, ArithFor, Assign, CommandList, FunctionDef, Lit, Loop, Node,
    Pipeline, ProcSub, Quoted, Select, SimpleCommand, Unparsed, Word)
from ..syntax.lexer import KEEP_STATUS, Incomplete, ParseError, is_name
from ..syntax.parser import Parser, is_name_word
from ..syntax.printer import format_command, format_word
from .arith import ArithError, evaluate as arith_evaluate
from .cond import evaluate_test
from . import fastpath, pipeline, redirect, word
from .fastpath import NOT_NOW, NeedsGeneric, commands_exceeded, loop_flow, raise_later, start
from .runs import Job, JobGroup, JobTable
from .variables import FAKE_PID, MemoryAccount, MemoryPool, Variables

if TYPE_CHECKING:
    import random
    from asyncio import Future

    from ...commands._lib.bounded import Bounds
    from ...engine import CancelToken, Streams
    from ...limits import Limits
    from ...vfs import VFS
    from .runs import RunView

if TYPE_CHECKING:
    from collections.abc import Awaitable
    from typing import Any

asyncio = lazy_import("asyncio")  # with the loop (aio.py)
random = lazy_import("random")  # $RANDOM only

#: Seconds between yields to the event loop. Well above CPython's GIL switch interval (5 ms):
#: a thread waiting for the GIL asks the holder to drop it only after a whole interval in which
#: the GIL never changed hands, and each yield releases and retakes it. At 5 ms that never
#: happened, and the kernel's control thread (interrupts) and timers starved for seconds.
YIELD_INTERVAL = 0.02
#: how bash names a trap whose string has a syntax error
TRAP_CONTEXTS = {"ERR": "error trap", "DEBUG": "debug trap", "RETURN": "return trap", "INT": "interrupt trap"}
#: commands that see which process runs them (ps lists it, kill signals by it): a command
#: substitution of one runs in a fork, as in bash
FORK_OBSERVERS = frozenset({"ps", "kill"})
#: how many lookups a waited fork notes (``Shell.hash_uses``) before it counts them in a copy
#: of the table: the list stays small whatever the fork runs
HASH_USES_MAX = 64
#: ``command_substitution``'s default: the caller has no plan, one is looked up
NOT_PLANNED: Any = object()
#: bodies met by the expander (not compiled): their plans, by id (the body kept alive beside)
_PLANS: dict[int, tuple[Node, list | None]] = {}


def _substitution_plan(body: Node) -> list | None:
    known = _PLANS.get(id(body))
    if known is not None and known[0] is body:
        return known[1]
    if len(_PLANS) >= 4096:
        _PLANS.clear()
    plan = fastpath.substitution_plan(body)
    _PLANS[id(body)] = (body, plan)
    return plan


if TYPE_CHECKING:
    #: a process substitution's temporary file: its path (``<(...)``), or what ``>(...)`` runs
    #: when the command ends ("out", path, body, fds)
    ProcsubFile = str | tuple[str, str, Node, dict]


class Frame(tuple):
    """One call-stack entry: a function call, a sourced file, or the script itself
    (FUNCNAME, BASH_SOURCE and BASH_LINENO read the stack). ``Frame((name, source, line,
    function))``: a tuple, made without a call of Python code (every function call makes one)."""

    __slots__ = ()

    name = property(itemgetter(0))
    source = property(itemgetter(1))
    #: the line it was called from (0 for the script)
    line = property(itemgetter(2))
    function = property(itemgetter(3))


class Runtime:
    """What all forks of one shell share during a run."""

    def __init__(self, fs: VFS, sandbox: Any, limits: Limits) -> None:
        self.fs = fs
        self.sandbox = sandbox
        self.limits = limits
        self.cancel: CancelToken | None = None
        self.deadline = float("inf")
        self.commands = 0
        self.last_yield = time.monotonic()
        self.yield_interval = YIELD_INTERVAL
        #: bytes of big strings the current command's expansion made (word.charge_expansion)
        self.expansion_bytes = 0
        #: the Bounds of this run's [[ =~ ]] matches (cond.py)
        self.regex_bounds: Bounds | None = None
        self.next_pid = FAKE_PID + 1
        #: every live background job of the shell and its forks, by pid (kill, ps)
        self.processes: dict[int, Job] = {}
        #: every live shell process by pid (BASHPID), what `kill` signals: the shell, its
        #: subshells, jobs, pipeline stages and nested shells (weak: a shell that ended
        #: without saying so leaves when it is collected)
        self.procs: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        #: the job groups still going (runs.JobGroup), whatever run started them
        self.live_groups: set[JobGroup] = set()
        self._random: random.Random | None = None
        self.start_time = time.monotonic()
        self.start_time_epoch = int(time.time())
        self.procsub_counter = 0
        self.live_jobs = 0
        #: a limit hit where it could not be raised (reported when the run ends)
        self.limit_error: str | None = None
        #: bytes held in variables by all shells of the run (limit shell_memory_bytes)
        self.memory = MemoryPool()
        # what a run's view has of its own (runs.RunView), for a shell run without one
        self.streams: Streams | None = None
        self.display: Any = None
        self.host: Any = None
        self.group: JobGroup | None = None
        self.groups: list[JobGroup] = []
        self.running = True
        self.std_fds: tuple = ()

    @property
    def base(self) -> "Runtime":
        return self

    @property
    def random(self) -> random.Random:
        """$RANDOM's generator, made when first read. Unseeded sandboxes draw from the OS, so
        no two kernels share RANDOM sequences."""
        if self._random is None:
            self._random = random.Random(self.sandbox.seed if self.sandbox is not None else None)
        return self._random

    def new_pid(self) -> int:
        self.next_pid += 1
        return self.next_pid

    def job_ended(self, job: Job) -> None:
        """A job's task finished (whoever started it)."""
        self.live_jobs -= 1
        if self.processes.get(job.pid) is job:
            del self.processes[job.pid]


#: class-level defaults of ``Shell`` and its mixins that hot paths read (see ``Shell.__init__``)
_INSTANCE_DEFAULTS = ("debug_trap_set", "vars_shared", "shared_scopes", "shared_ids", "copied_ids", "owned_ids",
                      "namerefs", "namerefs_hidden", "pending_warnings", "positional_charged", "hash_shared",
                      "hash_uses", "stages_in_shell", "tables_shared", "waited_by", "parent_jobs", "in_assignment_word",
                      "current_fds", "redir_fds", "cmdsub_status")


#: what every fork starts with, whatever its parent had: nothing shared yet (variables, the
#: hash table; its functions, aliases and options tables are its parent's until it changes
#: one), no stages running in it, no signals, jobs or pid of its own (``Shell.pid``), none of
#: its parent's warnings to say (the parent says them), no DEBUG trap unless its traps say so
#: (``sync_debug_trap``); its positional lists and directory stack are its parent's (replaced,
#: never changed in place), charged to the parent
_FORK_STATE = {
    "vars_shared": False, "shared_scopes": (), "shared_ids": frozenset(), "copied_ids": frozenset(),
    "owned_ids": frozenset(), "hash_shared": False, "hash_uses": None, "stages_in_shell": 0,
    "positional_charged": 0, "tables_shared": True, "pending_signals": 0, "killed_by": 0, "signals_blocked": 0,
    "signal_waiter": None, "exec_parent": None, "exec_position": False, "jobtable": None, "parent_jobs": None,
    "_pid": None, "pending_warnings": None, "debug_trap_set": False,
}


class Shell(Variables):
    """One shell's state, and running commands in it. Its variable store is its base class
    (``Variables``); expansion, redirections, pipelines and jobs are word.py's, redirect.py's
    and pipeline.py's functions over it."""

    def __init__(self, rt: Runtime | RunView, fds: dict | None = None) -> None:
        self.rt = rt
        self.fs = rt.fs
        self.globals: dict[str, Var] = {}
        self.scopes: list[dict[str, Var]] = []
        self.memory = MemoryAccount(rt.memory)
        self.positional: list[str] = []
        self.arg0 = "bash"
        self.functions: dict[str, FunctionDef] = {}
        self.aliases: dict[str, str] = {}
        self.options = dict(OPTION_DEFAULTS)
        self.shopts = dict(SHOPT_DEFAULTS)
        self.cwd = "/workspace"
        self.last_status = 0
        self.traps: dict[str, str] = {}
        self.func_depth = 0
        self.loop_depth = 0
        self.subshell_level = 0
        self.errexit_suppress = 0
        self.errexit_exempt = False
        self.last_bg_pid: int | None = None
        #: this shell's background jobs (``own_jobs``): a fork starts with none, as in bash
        self.jobtable: JobTable | None = None
        #: the statuses of the last pipeline, or one status (a simple command's)
        self.pipestatus: list[int] | int = []
        self.lineno = 0
        #: the call stack (functions, sourced files, the script), innermost last
        self.frames: list[Frame] = []
        #: the file each function was defined in (BASH_SOURCE of its frame)
        self.function_files: dict[str, str] = {}
        #: LC_CTYPE's locale as last set (word.py's byte_locale; None until first needed)
        self.ctype: str | None = None
        self.dirstack: list[str] = []
        self.umask = 0o022
        self.fds: dict[int, Any] = fds if fds is not None else {}
        self.source_depth = 0
        self.in_trap = False
        #: which trap is running (bash runs the DEBUG trap inside the ERR trap and the ERR
        #: trap inside the DEBUG trap, neither inside itself; RETURN in neither DEBUG nor itself)
        self.in_debug_trap = self.in_err_trap = self.in_return_trap = False
        #: BASHPID (``pid``)
        self._pid: int | None = FAKE_PID
        #: $$: the shell's pid, which its subshells keep
        self.shell_pid = FAKE_PID
        #: the pid of the process that started this one
        self.ppid = FAKE_PID - 1
        #: signals sent to this process and not yet acted on (bit N: signal N), taken at the
        #: next command's start (``take_signals``) or by the wait or read it is blocked in
        self.pending_signals = 0
        #: the signal this process is dying of (ProcessKilled), 0 while alive
        self.killed_by = 0
        #: signals not taken now (bit N): the one whose trap runs, and those that were
        #: pending when it started (bash takes them after it, in order)
        self.signals_blocked = 0
        #: what wait and read await besides their own event: set when a signal arrives
        self.signal_waiter = None
        #: names of the signals ignored when this shell started, which a non-interactive
        #: shell cannot trap or reset (bash's "hard ignored" signals)
        self.fixed_signals: frozenset[str] = frozenset()
        #: the command the shell runs next is its last: a nested shell it starts replaces it
        #: (exec: the same pid), as a background simple command does in bash
        self.exec_position = False
        #: the shell this one replaced (``exec_position``), its pid's owner again after it
        self.exec_parent: Shell | None = None
        #: (OPTIND, position in the argument, OPTIND's variable, the arguments) where getopts
        #: stopped inside an option group
        self.getopts_state: tuple = (0, 0, None, None)
        self.hash_table = CommandHash()
        self.resource_limits = ResourceLimits()
        self.procsub_files: list[ProcsubFile] = []
        self.arith_depth = 0
        self.arith_current = 0
        #: how many `source`/`.` files are running (return is allowed in them)
        self.sourcing = 0
        self.interactive = False
        #: running a -c string rather than a script file ($- shows "c")
        self.command_string = True
        self.last_arg = "bash"
        self.trace_depth = 0
        #: what BASH_SOURCE names top-level code that is not from a file ("environment" for
        #: a -c string, "main" for standard input)
        self.script_source = "environment"
        #: the traps a subshell lists until it sets one of its own (bash's behaviour)
        self.parent_traps: dict[str, str] | None = None
        #: the command history (interactive shells): entries, the number of the first, and
        #: how many are in HISTFILE already (history -a)
        self.history: list[str] = []
        self.history_base = 1
        self.history_saved = 0
        #: what history expansion remembers between lines (the last ?search? and s/old/new/)
        self.history_memory = HistoryMemory()
        #: set when a run stopped on a syntax error (the engine reports ename SyntaxError)
        self.syntax_error: str | None = None
        # the mixins' defaults, read by every command, made the shell's own: CPython 3.11
        # specialises an attribute read only when the instance holds the attribute
        for name in _INSTANCE_DEFAULTS:
            setattr(self, name, getattr(Shell, name))

    # ================================================================== the rooms, wired
    # The shell's rooms are modules of functions over the shell (word.py, redirect.py,
    # pipeline.py, cond.py ...); the evaluator and interp call them directly where they can
    # import them. What reaches a room through the shell is bound here, once, as a method (no
    # extra call): the runners (fastpath.py, which the rooms import: the evaluator's one
    # cycle), the variable store (subscripts are expanded and evaluated) and the builtins
    # (api.ShellAPI).
    expand_words = word.expand_words
    expand_word = word.expand_word
    expand_pattern = word.expand_pattern
    expand_redirect_target = word.expand_redirect_target
    expand_heredoc = word.expand_heredoc
    finish_fields = word.finish_fields
    param_default = word.param_default
    tilde_pieces = word.tilde_pieces
    check_unset = word.check_unset
    unbound_status = word.unbound_status
    pattern_budget = word.pattern_budget
    parse_extglob = word.parse_extglob
    ifs = word.ifs
    arith = word.arith
    byte_locale = word.byte_locale
    keyed_element_words = word.keyed_element_words
    #: set while the word of a ${x-word} inside an assignment value expands (word.py)
    in_assignment_word = False
    run_pipeline = pipeline.run_pipeline
    run_stages = pipeline.run_stages
    start_background = pipeline.start_background
    wait_job = pipeline.wait_job
    wait_all_jobs = pipeline.wait_all_jobs
    signal_interrupts_wait = pipeline.signal_interrupts_wait
    #: ``test`` and ``[`` (builtins/conditional.py)
    evaluate_test = evaluate_test

    def evaluate_arith(self, text: str) -> int:
        """``let``: the value of an arithmetic expression (raises ArithError, or ShellError)."""
        return arith_evaluate(text, self)

    # ================================================================== forks
    def fork(self) -> "Shell":
        """A copy of this shell that runs beside it (a pipeline stage, a background job)."""
        child = self._forked()
        child.own_tables()
        child.globals = {k: v.copy() for k, v in self.globals.items()}
        child.scopes = [{k: v.copy() for k, v in s.items()} for s in self.scopes]
        child.hash_table = self.commands_hash().copy()
        child.resource_limits = self.resource_limits.copy()
        child.memory = MemoryAccount(self.rt.memory, self.account())
        child.waited_by = None
        weakref.finalize(child, child.memory.end)
        child.take_pid()  # (now: a job's pid is its fork's, in the order they start)
        return child

    def fork_waited(self) -> "Shell":
        """A copy of this shell that this shell waits for (a command substitution, a ( )
        subshell): it shares this shell's variables until it changes one (``own_variables``),
        its functions, aliases and option tables until it changes one (``own_tables``), its
        hash table until it uses it (``commands_hash``) and its ulimits until it sets one,
        which most never do; its memory account and its pid are made when first needed.
        While it runs, this shell changes nothing. The caller ends it (``end_waited``)."""
        if self.hash_uses:
            self.commands_hash()  # (the child shares the table with this shell's uses counted)
        child = self._forked()
        child.vars_shared = True
        scopes = self.scopes
        if scopes:
            child.scopes = list(scopes)
            child.shared_scopes = tuple(scopes)
            child.shared_ids = frozenset(map(id, scopes))
        child.hash_shared = True
        child.memory = None
        child.waited_by = self
        return child

    @staticmethod
    def end_waited(child: "Shell") -> None:
        """A waited fork finished: what it charged is released now (a fork that runs beside
        its parent is released when it is collected: its finalizer queues it)."""
        if child.memory is not None:
            child.memory.settle()
        child.end_process()

    def exec_into(self, child: "Shell") -> None:
        """This shell's last command is ``child`` (a nested shell or a subshell), which
        replaces it as bash's exec would: the same pid and parent, what ``kill $!`` reaches."""
        self.exec_position = False
        procs = self.rt.procs
        if child._pid is not None and procs.get(child._pid) is child:
            del procs[child._pid]
        child.pid, child.ppid = self.pid, self.ppid
        child.exec_parent = self
        procs[child.pid] = child

    def end_process(self) -> None:
        """This process ended: its pid is no longer signalled (the shell it replaced, if it
        was exec'd, owns the pid again)."""
        pid = self._pid
        if pid is None:
            return  # (nobody asked for it: nobody can signal it)
        procs = self.rt.procs
        if procs.get(pid) is self:
            parent = self.exec_parent
            if parent is not None:
                procs[pid] = parent
            else:
                del procs[pid]

    @property
    def pid(self) -> int:
        """BASHPID, what `kill` reaches this process by. A fork takes one (and enters the
        process table) when first asked: most command substitutions and ( ) never are."""
        pid = self._pid
        return pid if pid is not None else self.take_pid()

    @pid.setter
    def pid(self, pid: int) -> None:
        self._pid = pid

    def take_pid(self) -> int:
        """A new pid for this process, in the process table."""
        pid = self._pid = self.rt.new_pid()
        self.rt.procs[pid] = self
        return pid

    #: the fd table of the command being run (command substitutions and traps write there)
    current_fds: dict | None = None
    #: the fd table being redirected (what /dev/stdout or /dev/fd/N names meanwhile: redirect.py)
    redir_fds: dict | None = None
    #: the status of the command substitution the running command's words made last (None: none)
    cmdsub_status: int | None = None
    #: a waited fork's hash table is still its parent's
    hash_shared = False
    #: pipeline stages are running in this shell itself (``pipeline._start_stages``): what
    #: they look up is not remembered, as in bash, where each stage is a forked child
    stages_in_shell = 0
    #: a waited fork's functions, aliases and option tables are still its parent's
    tables_shared = False

    def own_tables(self) -> None:
        """Copy the parent's functions, aliases, options and shopts (a waited fork shares them)
        before changing one of them: every writer of those tables calls this first."""
        if self.tables_shared:
            self.tables_shared = False
            self.functions = dict(self.functions)
            self.function_files = dict(self.function_files)
            self.aliases = dict(self.aliases)
            self.options = dict(self.options)
            self.shopts = dict(self.shopts)

    #: a waited fork's lookups in its parent's table, (name, path, PATH) each: counted in a
    #: table of its own only if it ever needs one (``commands_hash``), as bash counts them in
    #: its copy
    hash_uses: list[tuple[str, str, str]] | None = None

    def commands_hash(self) -> CommandHash:
        """This shell's hash table, to read or change (hits count as uses)."""
        if self.hash_shared:
            self.hash_shared = False
            table = self.hash_table = self.hash_table.copy()
            uses = self.hash_uses
            if uses:
                self.hash_uses = None
                for name, path, path_var in uses:
                    table.sync(path_var)
                    table.count_use(name, path)
        return self.hash_table

    def _forked(self) -> "Shell":
        child = Shell.__new__(Shell)
        state = child.__dict__
        state.update(self.__dict__)
        state.update(_FORK_STATE)
        traps = self.traps
        if traps:
            child.traps = self.inherited_traps()
            child.parent_traps = traps
            child.sync_debug_trap()
        else:
            child.traps = {}
        child.frames = list(self.frames)
        child.subshell_level = self.subshell_level + 1
        child.fds = dict(self.fds)
        child.procsub_files = []
        child.ppid = self.pid
        return child

    def own_jobs(self) -> JobTable:
        """This shell's job table (what `jobs`, `wait`, `fg` and ``%N`` see)."""
        table = self.jobtable
        if table is None:
            table = self.jobtable = JobTable()
        return table

    #: a command substitution lists its shell's jobs (`jobs`, ``%N``), as in bash
    parent_jobs: JobTable | None = None

    @property
    def job_notices(self) -> bool:
        """Ended jobs stay listed until reported before the next prompt (an interactive
        shell's own jobs; a script's shell reaps them quietly)."""
        return self.interactive and self.subshell_level == 0

    def new_process(self, env: dict[str, str] | None = None) -> "Shell":
        """A fresh shell for a script run as a command: its environment (the exported
        variables, or ``env``) and the variables bash sets at startup."""
        child = Shell(self.rt)
        child.memory = MemoryAccount(self.rt.memory, self.account())
        weakref.finalize(child, child.memory.end)
        if env is None:
            env = self.exported_env()
        for name, value in env.items():
            child.globals[name] = Var(value, True)
        child.cwd = self.cwd
        pwd = env.get("PWD")
        if pwd is None or not pwd.startswith("/") or not self._same_dir(pwd, self.cwd):
            # bash starts in getcwd()'s physical directory unless $PWD names the same one
            try:
                child.cwd = self.fs.realpath(self.cwd)
            except FSError:
                pass
        child._pid = None
        child.ppid = self.pid
        child.take_pid()
        if self.exec_position:
            self.exec_into(child)
        child.shell_pid = child.pid
        # the signals ignored on entry stay ignored: trap cannot change them
        ignored = {name for name, action in self.traps.items() if action == "" and name in SIGNALS}
        ignored |= self.fixed_signals
        if ignored:
            child.fixed_signals = frozenset(ignored)
            child.traps = dict.fromkeys(ignored, "")
        child.init_shell_vars(str(child.ppid))
        child.byte_locale()  # the locale it starts in
        child.umask = self.umask
        child.resource_limits = self.resource_limits.copy()
        child.func_depth = self.func_depth
        child.source_depth = self.source_depth
        child.interactive = False
        return child

    def option_flags(self) -> str:
        return option_flags(self.options, self.interactive, self.command_string)

    def sync_option_vars(self) -> None:
        """Bring SHELLOPTS and BASHOPTS (readonly variables) up to date with the options."""
        self.own_variables()
        for name, value in (("SHELLOPTS", shellopts(self.options)), ("BASHOPTS", bashopts(self.shopts))):
            var = self.globals.get(name)
            if var is None:
                var = self.globals[name] = Var(value)
            var.value = value
            var.readonly = True

    # ================================================================== run loop helpers
    async def checkpoint(self) -> None:
        """Count a command, enforce the limits, honour cancellation, and yield now and then."""
        rt = self.rt
        rt.commands += 1
        if rt.commands > rt.limits.commands or rt.limit_error is not None:
            raise commands_exceeded(rt)
        if self._time_to_yield():
            await self._yield_now()

    def check_cancel(self) -> None:
        cancel = self.rt.cancel
        if cancel is not None and cancel.reason is not None:
            raise CommandCancelled(cancel.reason)
        if time.monotonic() > self.rt.deadline:
            if cancel is not None:
                cancel.set("timeout")
            raise CommandCancelled("timeout")

    async def command_checkpoint(self) -> None:
        """For commands (ctx.checkpoint): no command counting."""
        if self.rt.cancel is not None:
            self.rt.cancel.check_memory()  # the memory safety net (memory.py)
        self.check_cancel()
        now = time.monotonic()
        if now - self.rt.last_yield > YIELD_INTERVAL:
            self.rt.last_yield = now
            if not aio.loopless():  # with no event loop yet, nothing else waits to run
                await asyncio.sleep(0)

    async def err(self, fds: dict, message: str) -> None:
        stream = fds.get(2)
        if stream is None or not isinstance(stream, OutputStream):
            return
        try:
            await stream.write(message.encode("utf-8", "surrogateescape"))
        except (BrokenPipeError, OSError):
            pass

    def error_prefix(self) -> str:
        """``NAME: line N: `` as bash starts an error message; NAME is the file the running
        code comes from (BASH_SOURCE[0]: a script, a sourced file, "environment" for functions
        of a -c string), else $0."""
        name = self.arg0
        if self.frames and not self.interactive:
            name = self.frames[-1].source or name
        return f"{name}: line {self.lineno}: "

    def current_source(self) -> str:
        """What BASH_SOURCE[0] would name for the code running now."""
        return self.frames[-1].source if self.frames else self.script_source

    def push_frame(self, name: str, source: str, function: bool = False) -> None:
        """Enter a call-stack frame (a function, or a sourced file named ``source``), called
        from the current line; the caller pops ``frames`` when it ends."""
        self.frames.append(Frame((name, source, self.lineno, function)))

    @property
    def funcnames(self) -> list[str]:
        """The functions being run, outermost first."""
        return [f.name for f in self.frames if f.function]

    async def handle_error(self, e: ShellError, fds: dict) -> int:
        """Report ``e``; a fatal error ends a script shell (status 127 at the top, 1 in a
        subshell or under errexit, like bash), an aborting one the top-level command;
        otherwise the command's status."""
        await self.report(fds, e.message)
        if e.errexit and self.options["errexit"] and not self.interactive:
            raise ExitShell(e.status)
        if e.fatal and not self.interactive:
            raise ExitShell(1 if self.options["errexit"] or self.subshell_level else e.status)
        if e.fatal or e.abort:
            raise AbortCommand(e.status)
        return e.status

    async def report(self, fds: dict, message: str) -> None:
        if self.pending_warnings:  # what lookups noticed comes first, as bash says it then
            await self.flush_warnings()
        await self.err(fds, f"{self.error_prefix()}{message}\n")

    # ================================================================== running source text
    async def run_source(self, text: str, fds: dict, first_line: int = 1, context: str | None = None,
                         sourced: bool = False) -> int:
        """Parse and run ``text`` command by command (like bash reading a script). A syntax
        error ends a script shell; in a sourced file (``sourced``) or a trap string (``context``,
        named in the message: "exit trap") it ends only the text, with status 2."""
        parser = Parser(text, self.active_aliases, first_line, self.parse_extglob)
        status = self.last_status
        while True:
            try:
                node = parser.next_command()
            except ParseError as e:
                status = self.last_status if e.status == KEEP_STATUS else e.status
                self.last_status = status
                if e.discards_line:
                    parser.skip_past_line(e.line)
                    self.lineno = e.line
                    if self.command_string and not self.frames and not self.interactive:
                        await self.err(fds, f"{self.arg0}: -c: line {e.line}: {e.message}\n")
                    else:
                        await self.report(fds, e.message)
                    continue
                if context is not None:
                    name = self.arg0 if self.interactive or not self.frames else self.frames[-1].source
                    await self.err(fds, f"{name}: {context}: line {e.line - first_line + 1}: {e.message}\n")
                    return status
                self.lineno = e.line
                if self.command_string and not self.frames and not self.interactive:
                    await self.err(fds, f"{self.arg0}: -c: line {e.line}: {e.message}\n")
                else:
                    await self.report(fds, e.message)
                if sourced:
                    return status
                self.syntax_error = f"line {e.line}: {e.message}"
                if self.interactive:
                    return status
                raise ExitShell(status)
            if parser.warnings:
                for line, message in parser.warnings:
                    self.lineno = line
                    await self.report(fds, f"warning: {message}")
                parser.warnings.clear()
            if node is None:
                break
            if self.options["noexec"] and not self.interactive:
                continue
            try:
                status = await self.run_node(node, fds)
                if self.pending_warnings:  # noticed by its last command (`(( a[-9] ))`): said before the next
                    await self.flush_warnings()
            except AbortCommand as e:
                status = self.last_status = e.status
            except ShellError as e:
                # an expansion error outside a simple command (a case word, a for list ...)
                # ends that command; errexit then exits (no ERR trap, as in bash)
                try:
                    status = await self.handle_error(e, fds)
                except AbortCommand as abort:
                    status = abort.status
                self.last_status = status
                if status and self.options["errexit"] and not self.errexit_suppress:
                    raise ExitShell(status) from None
        return status

    def active_aliases(self) -> dict | None:
        """The aliases the parser expands (only with ``shopt -s expand_aliases``)."""
        return self.aliases if self.shopts["expand_aliases"] else None

    # ================================================================== execution
    def start(self, node, fds: dict):
        """Run ``node``: its status, or an awaitable of it (``fastpath.start``)."""
        return start(self, node, fds)

    async def run_node(self, node, fds: dict) -> int:
        """Run ``node`` through its compiled runner where it has one."""
        status = start(self, node, fds)
        return status if type(status) is int else await status

    async def after_failure(self, status: int) -> int:
        """``_on_failure`` as an awaitable of the failed status (for a list's continuation)."""
        await self._on_failure(status)
        self.errexit_exempt = True
        return status

    async def _on_failure(self, status: int) -> None:
        """A command failed: the ERR trap, then errexit (unless in a condition)."""
        if self.errexit_suppress:
            return
        if self.traps.get("ERR") and not self.in_err_trap:
            await self.run_trap("ERR")
            self.last_status = status
        if self.options["errexit"]:
            raise ExitShell(status)

    async def run_as_child(self, node, fds: dict) -> int:
        """Run ``node`` as a subshell, pipeline stage or command substitution does: an exit, an
        error, or a break/return with nothing to catch it becomes the status."""
        try:
            status = start(self, node, fds)
        except BaseException as e:
            status = raise_later(e)  # met by finish_as_child's handlers
        return await self.finish_as_child(status, fds)

    async def finish_as_child(self, status, fds: dict) -> int:
        """``run_as_child`` of a node already started: ``status`` is its status or the
        awaitable of it."""
        try:
            status = status if type(status) is int else await status
        except (ExitShell, AbortCommand, ReturnFromFunction) as e:
            status = e.status
        except ShellError as e:
            await self.report(fds, e.message)
            status = e.status
        except (BreakLoop, ContinueLoop):
            status = 0
        if self.pending_warnings:  # what its last lookups noticed, said before it ends
            await self.flush_warnings()
        return status

    # ------------------------------------------------------------------ compound commands
    async def finish_subshell(self, child: "Shell", status, fds: dict, node=None) -> int:
        """The rest of a ( ) the compiled runner started in ``child``: ``status`` is its status
        or the awaitable of it."""
        try:
            status = await child.finish_as_child(status, fds)
            if child.pending_warnings:  # (its last expansion's: no later one of its own prints them)
                await child.flush_warnings()
            status = await child.run_exit_trap(fds, status)
        finally:
            self.end_waited(child)
        if child.killed_by:
            if child.exec_parent is self:
                self.killed_by = child.killed_by  # ( ... ) & was the job itself
                self.sync_debug_trap()
                raise ProcessKilled(child.killed_by)
            await self.report_killed(fds, child, format_command(node) if node is not None else "( ... )")
        self.pipestatus = status
        return status

    async def run_loop(self, node: Loop, fds: dict) -> int:
        async def body(fds):
            status = 0
            with self._in_loop():
                while True:
                    self.errexit_suppress += 1
                    try:
                        cond, flow = self._loop_step(node.condition, fds)
                        if type(cond) is not int:
                            cond, flow = await self._loop_wait(cond)
                    finally:
                        self.errexit_suppress -= 1
                    if flow == "break":
                        # bash 5.2: a `break` in a while condition ends with 0, in an until
                        # condition with the last body status
                        return status if node.until else 0
                    if flow == "continue":
                        continue
                    if (cond == 0) == node.until:
                        # the loop's status is its body's, whose failure was handled there
                        self.errexit_exempt = True
                        return status
                    self.errexit_exempt = False
                    status, flow = self._loop_step(node.body, fds)
                    if type(status) is not int:
                        status, flow = await self._loop_wait(status)
                    if flow == "break":
                        return status
                    if self._time_to_yield():
                        await self._yield_now()
        return await redirect.with_redirs(self, node, fds, body)

    @contextlib.contextmanager
    def _in_loop(self):
        """Count a loop level while the loop runs (what `break N` may reach)."""
        self.loop_depth += 1
        try:
            yield
        finally:
            self.loop_depth -= 1

    async def _loop_body(self, body, fds: dict) -> tuple[int, str | None]:
        """Run a loop's body (or condition) once: (status, flow) with flow ``"break"``,
        ``"continue"`` or None. ``break``/``continue`` aimed at this loop give status 0; aimed
        further out they propagate with one level used up."""
        status, flow = self._loop_step(body, fds)
        if type(status) is not int:
            return await self._loop_wait(status)
        return status, flow

    def _loop_step(self, body, fds: dict) -> tuple[Any, str | None]:
        """``_loop_body`` as far as it runs without waiting: the status may be an awaitable
        (then ``_loop_wait`` finishes it)."""
        try:
            return start(self, body, fds), None
        except (BreakLoop, ContinueLoop) as e:
            return 0, loop_flow(e)

    async def _loop_wait(self, pending) -> tuple[int, str | None]:
        try:
            return await pending, None
        except (BreakLoop, ContinueLoop) as e:
            return 0, loop_flow(e)

    async def _check_loop_name(self, name: str, fds: dict) -> bool:
        # bash checks a for/select variable name when the loop runs, not when it is parsed
        if is_name(name):
            return True
        await self.report(fds, f"`{name}': not a valid identifier")
        return False

    def _bind_loop_var(self, name: str, value: str, select: bool = False) -> str | None:
        """Bind a for/select variable: None, or why nothing was bound (a readonly variable; a
        for loop's word that a nameref cannot name), which ends the loop (status 1), not the script."""
        if self.namerefs:
            var = self.lookup_raw(name)
            if var is not None and var.nameref:
                # bash: the loop makes the reference itself name each word in turn
                if var.readonly:
                    return f"{name}: readonly variable"
                if not select and not valid_nameref_target(value):
                    return f"`{value}': not a valid identifier"
                self.own_variables()
                self.set_raw(cast(Var, self.lookup_raw(name)), value, name)  # (this shell's copy of var)
                return None
            var = self._var_for_write(name)[1]
            if var is not None and var.readonly:
                return f"{name}: readonly variable"
            self.set_var(name, value)
            return None
        var = self.lookup_raw(name)
        if var is not None and var.readonly:
            return f"{name}: readonly variable"
        self.assign_scalar(name, value, False, var)
        return None

    async def _set_loop_var(self, name: str, value: str, fds: dict) -> bool:
        failed = self._bind_loop_var(name, value, select=True)
        if failed is not None:
            await self.report(fds, failed)
        return failed is None

    async def _loop_tick(self) -> None:
        """Honour cancellation and the deadline, and yield to the event loop now and then."""
        if self._time_to_yield():
            await self._yield_now()

    def _time_to_yield(self) -> bool:
        """Raise on cancellation or a passed deadline; True when the run should let others run
        (synchronous: it runs for every command)."""
        rt = self.rt
        cancel = rt.cancel
        if cancel is not None and cancel.reason is not None:
            raise CommandCancelled(cancel.reason)
        now = time.monotonic()
        if now - rt.last_yield <= rt.yield_interval:
            return False
        if now > rt.deadline:
            if cancel is not None:
                cancel.set("timeout")
            raise CommandCancelled("timeout")
        if cancel is not None:
            cancel.check_memory()  # the memory safety net (memory.py): _yield_now raises
        rt.last_yield = now
        return True

    async def _yield_now(self) -> None:
        if not aio.loopless():  # with no event loop yet, nothing else waits to run
            await asyncio.sleep(0)
        cancel = self.rt.cancel
        if cancel is not None and cancel.reason is not None:
            raise CommandCancelled(cancel.reason)

    async def run_select(self, node: Select, fds: dict) -> int:
        async def body(fds):
            self.lineno = node.line
            if not await self._check_loop_name(node.var, fds):
                return 1
            if self.options["xtrace"]:
                words = '"$@"' if node.words is None else " ".join(format_word(w) for w in node.words)
                await self.err(fds, f"{self._ps4()}select {node.var} in {words}\n")
            items = list(self.positional) if node.words is None else await self.expand_words(node.words)
            if not items:
                return 0
            show_menu = True
            with self._in_loop():
                while True:
                    self.lineno = node.line
                    choice = await self._select_query(items, fds, show_menu)
                    if choice is None or not await self._set_loop_var(node.var, choice, fds):
                        return 1
                    status, flow = await self._loop_body(node.body, fds)
                    if flow == "break":
                        return status
                    await self._loop_tick()
                    # like ksh, the menu shows again only after an empty reply
                    show_menu = self.get_scalar("REPLY") == ""
        return await redirect.with_redirs(self, node, fds, body)

    async def _select_query(self, items: list[str], fds: dict, show_menu: bool) -> str | None:
        """Prompt until a non-empty line is read: the chosen item, "" for a reply that is no
        item's number, None at end of input."""
        ps3 = self.get_scalar("PS3")
        while True:
            if show_menu:
                await self.err(fds, select_menu(items, _columns(self.get_scalar("COLUMNS"))))
            await self.err(fds, "#? " if ps3 is None else ps3)
            # no command name: bash's read errors inside select name none
            if await BUILTINS["read"](self, [""], fds) != 0:
                try:
                    await out(fds, "\n")
                except OSError:
                    pass
                return None
            reply = self.get_scalar("REPLY") or ""
            if reply == "":
                show_menu = True
                continue
            number = _c_integer(reply)
            return items[number - 1] if number is not None and 1 <= number <= len(items) else ""

    async def run_arith_for(self, node: ArithFor, fds: dict, heads: tuple | None = None) -> int:
        """``for ((init; condition; step))``. ``heads``: the three expressions compiled
        (``fastpath.compile_arith``, None where not compiled), evaluated without a coroutine."""
        self.current_fds = fds  # (as execute does: a runner handing on calls this directly)
        async def head(expr):
            # each of init, condition and step is a command of its own for LINENO and DEBUG
            self.lineno = node.line
            if self.traps.get("DEBUG"):
                await self.debug_trap(node.line)
            if expr is None:
                return None
            text = await self.expand_word(expr)
            try:
                return arith_evaluate(text, self)
            except ArithError as e:  # (an assignment to a readonly name is said without "((: ")
                raise ShellError(f"((: {e.message}", 1, abort=True) from None
            except RecursionError:
                raise ShellError(f"((: {text}: expression recursion level exceeded", 1, abort=True) from None

        def head_now(compiled):
            """A compiled condition or step's value without a coroutine (as ``head`` would
            give it: without a DEBUG trap, LINENO the loop's line), or NOT_NOW when only
            ``head`` can."""
            if compiled is None or self.debug_trap_set:
                return NOT_NOW
            self.lineno = node.line
            try:
                return compiled(self)
            except ArithError as e:
                raise ShellError(f"((: {e.message}", 1, abort=True) from None
            except (NeedsGeneric, RecursionError):
                return NOT_NOW

        async def body(fds):
            status = 0
            condition, step = (heads[1], heads[2]) if heads is not None else (None, None)
            rt = self.rt
            loop_body = node.body
            try:
                await head(node.init)
                with self._in_loop():
                    while True:
                        value = head_now(condition)
                        if value is NOT_NOW:
                            value = await head(node.condition)
                        if value == 0:
                            break
                        try:
                            status = start(self, loop_body, fds)
                            if type(status) is not int:
                                status = await status
                        except (BreakLoop, ContinueLoop) as e:
                            status = 0
                            if loop_flow(e) == "break":
                                break
                        if head_now(step) is NOT_NOW:
                            await head(node.step)
                        cancel = rt.cancel
                        if time.monotonic() - rt.last_yield > rt.yield_interval or (
                                cancel is not None and cancel.reason is not None):
                            if self._time_to_yield():
                                await self._yield_now()
            except ShellError as e:
                if e.fatal:
                    raise
                # an arithmetic error in a head ends the loop, not the script
                await self.report(fds, e.message)
                return 1
            return status
        return await redirect.with_redirs(self, node, fds, body)

    async def run_funcdef(self, node: FunctionDef, fds: dict) -> int:
        if not is_name_word(node.name):
            self.lineno = node.line
            await self.report(fds, f"`{node.name}': not a valid identifier")
            return 1
        if node.name in SPECIAL_BUILTINS and self.options["posix"]:
            self.lineno = node.line
            return await self.handle_error(ShellError(f"`{node.name}': is a special builtin", 2, fatal=True), fds)
        self.own_tables()
        self.functions[node.name] = node
        self.function_files[node.name] = self.current_source()
        return 0

    # ------------------------------------------------------------------ simple commands
    # (a simple command runs in fastpath.py's runner; these are the parts of it that wait)
    async def run_assignments(self, node: SimpleCommand, fds: dict, cmdsub_status) -> int:
        """A simple command whose words expanded to nothing: its assignments, kept, and its
        redirections, made and closed; the status is the last command substitution's."""
        status = await self._assignments_only(node, fds, cmdsub_status)
        self.pipestatus = status
        return status

    async def exec_redirections(self, node: SimpleCommand, fds: dict) -> int:
        """``exec`` with redirections only: they apply to the shell from here on."""
        self.pipestatus = 0
        try:
            await redirect.apply_redirs(self, node.redirs, fds, permanent=True)
        except ShellError as e:
            self.pipestatus = e.status
            return await self.handle_error(e, fds)
        if fds is not self.fds and self.fds is not None:
            for k, v in fds.items():
                if k > 2:
                    self.fds[k] = v
        return 0

    async def run_with_temporaries(self, node: SimpleCommand, argv: list, cmd_fds: dict, fds: dict,
                                   opened: list | None) -> int:
        """``VAR=x cmd`` where the bindings need the expander, report a readonly name, or stay
        after a special builtin; ``opened``: what the command's redirections opened."""
        try:
            status = await self._run_with_temp_env(node, argv, cmd_fds, fds)
            self.pipestatus = status
            return status
        finally:
            if opened:
                redirect.close_now(opened)

    async def _assignments_only(self, node: SimpleCommand, fds: dict, cmdsub_status, first: int = 0) -> int:
        status = 0
        trace = self.options["xtrace"]
        try:
            for a in node.assigns[first:] if first else node.assigns:
                await self.assign(a)
                if trace:
                    await self.err(fds, f"{self._ps4()}{self._traced_assign(a)}\n")
        except ShellError as e:
            return await self._assignment_error(a, e, fds)
        self.last_arg = ""  # $_ after assignments, as in bash
        if self.cmdsub_status is not None:
            status = self.cmdsub_status
        elif cmdsub_status is not None:
            status = cmdsub_status
        if node.redirs:
            try:
                _, opened = await redirect.apply_redirs(self, node.redirs, fds)
            except ShellError as e:
                return await self.handle_error(e, fds)
            await redirect.close_opened(opened)
        return status

    async def _assignment_error(self, a: Assign, e: ShellError, fds: dict) -> int:
        var = self.lookup_raw(a.name)
        if var is not None and var.readonly and not e.fatal:
            await self.report(fds, e.message)
            await self._readonly_assignment_failed()
        return await self.handle_error(e, fds)

    # ------------------------------------------------------------------ fastpath continuations
    # A compiled runner (fastpath.py) that cannot finish without waiting returns one of these:
    # each finishes the command from where the runner stopped, as the generic handler would.
    async def redirection_failed(self, e: ShellError, fds: dict) -> int:
        self.pipestatus = e.status
        return await self.handle_error(e, fds)

    async def finish_redirected(self, pending, opened: list) -> int:
        try:
            return await pending
        finally:
            redirect.close_now(opened)

    async def simple_expansion_failed(self, e: ShellError, fds: dict) -> int:
        """The runner's expansion raised ``e`` (before the command was counted)."""
        await self.checkpoint()
        self.pipestatus = e.status
        return await self.handle_error(e, fds)

    async def finish_command(self, pending) -> int:
        status = await pending
        self.pipestatus = status
        return status

    async def finish_builtin(self, builtin, argv: list[str], fds: dict) -> int:
        try:
            status = await builtin(self, argv, fds)
        except ShellError as e:
            status = await self.handle_error(e, fds)
        self.pipestatus = status
        return status

    async def assignments_from(self, node: SimpleCommand, fds: dict, k: int, flush: bool = False) -> int:
        """Assignments ``k`` on (``flush``: first report the warnings the one before made)."""
        if flush:
            await self.flush_warnings()
        status = await self._assignments_only(node, fds, None, k)
        self.pipestatus = status
        return status

    async def assignment_failed(self, a: Assign, e: ShellError, fds: dict) -> int:
        status = await self._assignment_error(a, e, fds)
        self.pipestatus = status
        return status

    async def _cond_error(self, e: ShellError, fds: dict) -> int:
        """The status of ``[[ ]]`` whose evaluation raised ``e`` (reported)."""
        if e.fatal or e.abort:
            return await self.handle_error(e, fds)
        if e.message:  # an invalid regex fails silently, as in bash
            await self.report(fds, e.message)
        return e.status

    async def cond_failed(self, e: ShellError, fds: dict) -> int:
        status = await self._cond_error(e, fds)
        self.pipestatus = status
        return status

    async def report_status(self, fds: dict, message: str, status: int) -> int:
        """Report ``message``; the command's status (and PIPESTATUS) is ``status``."""
        await self.report(fds, message)
        self.pipestatus = status
        return status

    def _traced_assign(self, a: Assign) -> str:
        """An assignment as xtrace shows it once done: NAME=value quoted, arrays as written."""
        if a.array is not None:
            return format_word(a)
        target = a.name + (f"[{format_word(a.index)}]" if a.index is not None else "")
        var = self.lookup_var(a.name)
        value = ""
        if var is not None and a.index is None:
            value = var.scalar() or ""
        elif a.value is not None:
            value = format_word(a.value)
        return f"{target}{'+=' if a.append and a.index is not None else '='}{shell_quote(value)}"

    async def _readonly_assignment_failed(self) -> None:
        """After ``x=v`` failed on a readonly x: a POSIX-mode script exits (127), errexit
        exits (1, even in `|| true` or an `if` test: bash's report_error), otherwise the rest of
        the top-level command is skipped."""
        if self.options["posix"] and not self.interactive:
            raise ExitShell(127)
        if self.options["errexit"]:
            raise ExitShell(1)
        raise AbortCommand(1)

    async def _run_with_temp_env(self, node: SimpleCommand, words: list[str], fds: dict, shell_fds: dict) -> int:
        """``VAR=x cmd``: the assignments hold (exported) while the command runs, each seeing
        the ones before it; in POSIX mode those before a special builtin stay afterwards
        (unless the builtin unset them). Errors go to ``shell_fds`` (before the command's
        redirections)."""
        name = words[0]
        persist = self.options["posix"] and name in SPECIAL_BUILTINS and name not in self.functions
        saved: list[tuple[dict[str, Var], str, Var | None, Var]] = []
        if len(words) > 1 and any(type(w) is Assign for w in words):
            # `FOO=x declare v=$FOO`: the arguments expand before the bindings are made
            words = [await self.expanded_assign(w) if type(w) is Assign else w for w in words]
        try:
            for a in node.assigns:
                if a.index is not None:
                    # bash binds no element for a command's duration
                    await self.report(shell_fds, f"`{a.name}[{format_word(a.index)}]': not a valid identifier")
                    continue
                if a.array is not None:
                    # NAME=(...) before a command: the text, a string (bash exports "(b b)")
                    items = []
                    for el in a.array:
                        if isinstance(el, tuple):
                            items.append(f"[{await self.expand_word(el[0])}]{'+=' if el[2] else '='}"
                                         f"{await self.expand_word(el[1])}")
                        else:
                            items.append(await self.expand_word(el))
                    text = f"({' '.join(items)})"
                    binding = self.bind_temporary(a.name, text, a.append)
                    if binding is None:
                        await self.report(shell_fds, f"{a.name}: readonly variable")
                else:
                    binding = await self._temp_binding(a, shell_fds)
                if binding is not None:
                    saved.append(binding)
            return await self.run_command(words, fds)
        finally:
            self.unbind_temporaries(saved, persist)

    async def expanded_assign(self, a: Assign) -> Assign:
        """A declaration argument ``NAME=value`` with its value expanded now (kept quoted)."""
        if a.array is not None or a.value is None:
            return a
        value = await self.expand_word(a.value, assignment=True)
        return Assign(a.name, Word([Quoted(value)]), a.index, None, a.append)

    def unbind_temporaries(self, saved: list, persist: bool = False) -> None:
        """Undo ``bind_temporary``s, last first (with ``persist``, a binding the command kept
        set stays)."""
        for scope, var_name, before, temp in reversed(saved):
            if before is not None and before.nameref:
                self.namerefs_hidden -= 1
            if temp.uncovered:
                continue
            now = scope.get(var_name)
            if persist and now is not None and now.value is not None:
                continue
            if now is not None and now is not before:
                self.release_scope({var_name: now})
            if before is None:
                scope.pop(var_name, None)
            else:
                scope[var_name] = before

    async def finish_with_temporaries(self, pending, saved: list) -> int:
        """A command the compiled runner started with ``VAR=x`` bindings: awaited, then unbound."""
        try:
            return await pending
        finally:
            self.unbind_temporaries(saved)

    async def _temp_binding(self, a: Assign, fds: dict):
        """Bind ``a`` for the duration of a command, in the scope where its name lives:
        (scope, name, the variable it hides or None, the temporary one); None (after an
        error message) for a readonly variable."""
        value = await self.expand_word(a.value, assignment=True) if a.value is not None else ""
        binding = self.bind_temporary(a.name, value, a.append)
        if binding is None:
            await self.report(fds, f"{a.name}: readonly variable")
            if self.options["errexit"] and not self.errexit_suppress:
                raise ExitShell(1)
        return binding

    def bind_temporary(self, name: str, value: str, append: bool):
        """``_temp_binding`` of an expanded value: the binding, or None for a readonly name
        (nothing bound)."""
        scope = self.find_scope(name)
        if self.shares_scope(scope):
            self.own_variables()
            scope = self.find_scope(name)
        before = scope.get(name)
        if before is not None and before.readonly:
            return None
        if append and before is not None:
            value = (before.scalar() or "") + value
        temp = TempVar(None, exported=True)
        temp.hides = before
        temp.uncovered = False
        self.set_raw(temp, value, name)
        scope[name] = temp
        if before is not None and before.nameref:
            self.namerefs_hidden += 1
        return scope, name, before, temp

    async def _trace(self, node: SimpleCommand, words: list[str | Assign], fds: dict) -> None:
        parts = []
        for a in node.assigns:
            if a.array is None:
                parts.append(f"{a.name}={shell_quote(await self.expand_word(a.value) if a.value else '')}")
        lines = []
        for w in words:
            if isinstance(w, str):
                parts.append(shell_quote(w))
            elif w.array is not None:
                # declare NAME=(...): the array assignment first, then the command with NAME
                op = "+=" if w.append else "="
                items = " ".join(single_quote(_literal_text(el)) for el in w.array if not isinstance(el, tuple))
                lines.append(f"{self._ps4()}{w.name}{op}({items})\n")
                parts.append(w.name)
            else:
                value = "" if w.value is None else _literal_text(w.value)
                parts.append(shell_quote(f"{w.name}{'+=' if w.append else '='}{value}"))
        await self.err(fds, "".join(lines) + self._ps4() + " ".join(parts) + "\n")

    def _ps4(self) -> str:
        ps4 = self.get_scalar("PS4")
        if ps4 is None:
            ps4 = "+ "
        if ps4 and self.trace_depth:
            # command substitutions repeat the first character: "++ cmd"
            ps4 = ps4[0] * self.trace_depth + ps4
        return ps4

    async def run_command(self, argv: list[str], fds: dict, env: dict | None = None,
                          allow_functions: bool = True) -> int:
        """Dispatch a command by name: function, builtin, registered command, VFS file."""
        name = argv[0]
        if allow_functions:
            fdef = self.functions.get(name)
            if fdef is not None and (name not in SPECIAL_BUILTINS or not self.options["posix"]):
                return await self.call_function(fdef, argv, fds)
        builtin = BUILTINS.get(name)
        if builtin is not None:
            try:
                return await builtin(self, argv, fds)
            except ShellError as e:
                return await self.handle_error(e, fds)
        return await self.run_external(argv, fds, env)

    async def call_function(self, fdef: FunctionDef, argv: list[str], fds: dict) -> int:
        status = self.start_function(fdef, argv, fds)
        return status if type(status) is int else await status

    def start_function(self, fdef: FunctionDef, argv: list[str], fds: dict):
        """Call a function: its status, or an awaitable of it when its body must wait."""
        limit = self.rt.limits.function_depth
        if self.func_depth >= limit:
            raise LimitExceeded(f"{argv[0]}: maximum function nesting level exceeded ({limit}; limit function_depth)",
                                "function_depth")
        name = argv[0]
        self.exec_position = False  # a function runs more than one command
        saved_positional = self.enter_positional(argv[1:], name)
        self.scopes.append({})
        line = self.lineno
        self.frames.append(Frame((name, self.function_files.get(name, self.script_source), line, True)))
        self.func_depth += 1
        hidden = self.hide_traps_for_function() if self.traps else None
        frame = (line, saved_positional, hidden)
        try:
            status = start(self, fdef.body, fds)
        except ReturnFromFunction as r:
            status = r.status
        except BaseException:
            self._leave_function(frame)
            raise
        if type(status) is not int or (self.traps and self.traps.get("RETURN") and self.return_trap_allowed) \
                or self.pending_warnings:
            return self._finish_function(status, frame)
        self._leave_function(frame)
        # a failure inside was handled there; the call itself is a failing command
        self.errexit_exempt = False
        return status

    async def _finish_function(self, pending, frame: tuple) -> int:
        """The rest of a function call: its body's status to await (or the status), the
        RETURN trap, leaving the function."""
        try:
            if type(pending) is int:
                status = pending
            else:
                try:
                    status = await pending
                except ReturnFromFunction as r:
                    status = r.status
            if self.pending_warnings:  # (its last expansion's: said where the function's code is)
                await self.flush_warnings()
            if self.traps.get("RETURN") and self.return_trap_allowed:
                self.last_status = status
                await self.run_trap("RETURN")
        finally:
            self._leave_function(frame)
        self.errexit_exempt = False
        return status

    def _leave_function(self, frame: tuple) -> None:
        call_line, saved_positional, hidden = frame
        self.lineno = call_line
        self.func_depth -= 1
        self.frames.pop()
        scope = self.scopes.pop()
        if scope:
            self.scope_ended(scope)
        self.leave_positional(saved_positional)
        if hidden:
            self.restore_hidden_traps(hidden)

    # ------------------------------------------------------------------ external commands
    def make_context(self, argv: list[str], fds: dict, env: dict | None, cwd: str | None = None) -> CommandContext:
        stdin = fds.get(0)
        if not isinstance(stdin, InputStream):
            stdin = ClosedInput()
        stdout = fds.get(1)
        if not isinstance(stdout, OutputStream):
            stdout = ClosedOutput()
        stderr = fds.get(2)
        if not isinstance(stderr, OutputStream):
            stderr = ClosedOutput()
        return CommandContext(argv[0].rsplit("/", 1)[-1], argv[1:], stdin, stdout, stderr, self.fs,
                              cwd or self.cwd, env if env is not None else self.exported_env,
                              shell=CommandHost(self, fds), sandbox=self.rt.sandbox,
                              extra={"fds": fds, "umask": self.umask})

    def run_external(self, argv: list[str], fds: dict, env: dict | None = None,
                     cwd: str | None = None) -> Awaitable[int]:
        """Run ``argv`` as a file found on PATH (or named by a path): the awaitable of its
        status (found without a coroutine: one less per command)."""
        name = argv[0]
        if "/" not in name:
            # a lookup that only reads the table (a stage's, a waited fork's) leaves checking
            # the file to opening it
            quick = self.stages_in_shell > 0 or self.hash_shared
            path = self.find_command(name, env, check=not quick)
            if path is None:
                return self._failed(fds, not_found_message(name), 127)
            if quick:
                try:
                    data = self.fs.program(path, self.cwd)
                except FSError:
                    uses = self.hash_uses
                    if uses and uses[-1][:2] == (name, path):
                        uses.pop()
                    path = self.find_command(name, env)  # gone since the last search: search again
                    if path is None:
                        return self._failed(fds, not_found_message(name), 127)
                    return self._run_path(path, argv, fds, env, cwd)
                return self._run_data(data, path, argv, fds, env, cwd)
            name = path
        return self._run_path(name, argv, fds, env, cwd)

    async def _failed(self, fds: dict, message: str, status: int) -> int:
        await self.report(fds, message)
        return status

    def find_command(self, name: str, env: dict | None = None, check: bool = True) -> str | None:
        """Where NAME runs from: bash's hash table, else a PATH search (ENV's PATH, when it
        has its own, is searched without the table). ``check``: see ``CommandHash.resolve``."""
        path_var = self.get_scalar("PATH") or ""
        if env is not None and env.get("PATH", path_var) != path_var:
            hits = search_path(self.fs, self.cwd, name, env["PATH"])
            return hits[0] if hits else None
        if self.stages_in_shell:
            # a stage's lookup only reads the table: a waited fork need not copy its parent's
            return self.hash_table.resolve(self.fs, self.cwd, name, path_var, False, check)
        if self.hash_shared and self.hash_table.path_var in (path_var, None):
            # a waited fork reads its parent's table (as it is for this PATH, or still unused)
            # and notes the use (commands_hash)
            path = self.hash_table.resolve(self.fs, self.cwd, name, path_var, False, check)
            if path is not None:
                uses = self.hash_uses
                if uses is None:
                    uses = self.hash_uses = []
                uses.append((name, path, path_var))
                if len(uses) >= HASH_USES_MAX:
                    self.commands_hash()  # (a long-running fork counts in a table of its own)
            return path
        return self.commands_hash().resolve(self.fs, self.cwd, name, path_var)

    async def _invoke(self, spec, argv: list[str], fds: dict, env: dict | None, cwd: str | None = None) -> int:
        ctx = self.make_context(argv, fds, env, cwd)
        try:
            status = await registry.invoke(spec, ctx)
        except BrokenPipeError:
            return 141
        except (CommandCancelled, LimitExceeded, ControlFlow, asyncio.CancelledError):
            raise
        except OSError as e:
            if e.errno == 9:
                await self.err(fds, f"{ctx.name}: write error: Bad file descriptor\n")
                return 1
            await self.err(fds, f"{ctx.name}: {e.strerror or e}\n")
            return 1
        except OutputTooLarge:
            raise
        except RecursionError:
            await self.err(fds, f"{ctx.name}: recursion too deep\n")
            return 1
        except Exception as e:  # noqa: BLE001 - a buggy command must not kill the shell
            await self.err(fds, f"{ctx.name}: internal error: {type(e).__name__}: {e}\n")
            return 1
        return status if isinstance(status, int) else 0

    def _run_path(self, path: str, argv: list[str], fds: dict, env: dict | None,
                  cwd: str | None = None) -> Awaitable[int]:
        try:
            data = self.fs.program(path, self.cwd)
        except FSError as e:
            return self._failed(fds, f"{path}: {e.strerror}", 127 if e.errno == 2 else 126)
        return self._run_data(data, path, argv, fds, env, cwd)

    def _run_data(self, data: bytes, path: str, argv: list[str], fds: dict, env: dict | None,
                  cwd: str | None) -> Awaitable[int]:
        """The file at ``path`` run, ``data`` its content."""
        if data == COMMAND_STUB:
            base = path.rstrip("/").rsplit("/", 1)[-1]
            spec = registry.lookup(base)
            if spec is not None:
                return self._invoke(spec, [base] + argv[1:], fds, env, cwd)
            if base in BUILTINS:
                return BUILTINS[base](self, [base] + argv[1:], fds)
            return self._failed(fds, f"{argv[0]}: command not found", 127)
        return self._run_program(data, path, argv, fds, env, cwd)

    async def _run_program(self, data: bytes, path: str, argv: list[str], fds: dict, env: dict | None,
                           cwd: str | None) -> int:
        """A file that is no registered command: a script (its #! line may name a command)."""
        text = data.decode("utf-8", "surrogateescape")
        if text.startswith("#!"):
            line = text.split("\n", 1)[0][2:].strip()
            interp = line.split()
            if interp:
                prog = interp[0].rsplit("/", 1)[-1]
                extra = interp[1:]
                if prog == "env" and extra:
                    prog, extra = extra[0], extra[1:]
                if prog not in ("sh", "bash", "dash", "ash", "zsh", "ksh"):
                    spec = registry.lookup(prog)
                    if spec is None:
                        await self.report(fds, f"{argv[0]}: {interp[0]}: bad interpreter: No such file or directory")
                        return 126
                    return await self._invoke(spec, [prog] + extra + [path] + argv[1:], fds, env, cwd)
        if is_binary_script(data):
            # execve's ENOEXEC, then bash's look at the file (or the #! shell's own refusal)
            if text.startswith("#!"):
                await self.err(fds, f"{path}: {path}: cannot execute binary file\n")
            else:
                await self.report(fds, f"{argv[0]}: cannot execute binary file: Exec format error")
            return 126
        return await self.run_script_file(text, path, argv[1:], fds, env)

    def set_script_mode(self, mode: str, name: str) -> None:
        """What this shell runs: "command" (a -c string: $- has c, BASH_SOURCE says
        "environment"), "file" (the script ``name``: the bottom "main" frame) or "stdin"."""
        self.command_string = mode == "command"
        self.frames = [Frame(("main", name, 0, False))] if mode == "file" else []
        self.script_source = "environment" if mode == "command" else "main"

    async def run_script_file(self, text: str, name: str, args: list[str], fds: dict,
                              env: dict | None = None, options: dict | None = None,
                              shopts: dict | None = None, mode: str = "file",
                              interactive: bool = False) -> int:
        """Run script text in a new shell process (no functions or unexported variables).
        ``mode``: "file" (``name`` is the script: the bottom "main" frame), "command" (a -c
        string) or "stdin"."""
        if mode != "command" and "\0" in text:
            text = text.replace("\0", "")  # bash's reader skips NUL bytes (a -c string has none)
        child = self.new_process(env)
        child.set_script_mode(mode, name)
        if interactive:
            child.interactive = True
            child.options["emacs"] = child.options["histexpand"] = True
            child.init_interactive_vars()
        if shopts:
            child.shopts.update(shopts)
        child.arg0 = name
        child.positional = list(args)
        if mode == "command":
            child.globals["BASH_EXECUTION_STRING"] = Var(text)
        if options:
            child.options.update(options)
        child.sync_option_vars()
        child.fds = dict(fds)
        if self.source_depth + self.func_depth > self.rt.limits.function_depth:
            raise LimitExceeded(f"{name}: maximum nesting of shells exceeded (limit function_depth)", "function_depth")
        child.source_depth = self.source_depth + 1
        try:
            try:
                status = await child.run_source(text, child.fds)
            except (ExitShell, AbortCommand) as e:
                status = e.status
            except ShellError as e:
                await child.report(child.fds, e.message)
                status = e.status
            except (BreakLoop, ContinueLoop):
                status = 0
            except ReturnFromFunction as e:
                status = e.status
            status = await child.run_exit_trap(child.fds, status)
        finally:
            child.end_process()
        if child.killed_by:
            if child.exec_parent is self:
                # it had replaced this shell: the process died
                self.killed_by = child.killed_by
                self.sync_debug_trap()
                raise ProcessKilled(child.killed_by)
            await self.report_killed(fds, child, name if mode != "command" else f"{name} -c {shell_quote(text)}")
        return status

    # ------------------------------------------------------------------ substitutions
    async def command_substitution(self, body: Node, plan: list | None | object = NOT_PLANNED) -> str:
        """``$(body)``'s output. ``plan``: ``fastpath.substitution_plan(body)``, when the caller
        has it: a body that may run in the shell itself does (without a fork) when nothing of
        this shell would tell the difference: no traps, namerefs or xtrace, no errexit for the
        fork to turn off, and every stage a command that may run in a pipeline's shell
        (``pipeline.runs_in_shell``)."""
        if plan is NOT_PLANNED:
            plan = _substitution_plan(body)
        plan = cast("list | None", plan)
        if plan is None:  # (a plan's command has words: it is no $(< file))
            fast = self._read_file_subst(body)
            if fast is not None:
                return await fast
        hold = self.hold_memory("command substitution")
        out = BufferOutput(self.rt.limits.string_bytes, hold)
        fds = dict(self.fds_for_subst())
        fds[1] = out
        options = self.options
        if plan is not None and not self.traps and not self.namerefs and not options["xtrace"] \
                and (not options["errexit"] or self.shopts["inherit_errexit"]) \
                and self._plan_runs_here(plan):
            child = self
            # what running a command changes of a shell, the shell's again when it is done
            saved = (self.lineno, self.current_fds, self.last_arg, self.pipestatus, self.errexit_exempt)
            self.stages_in_shell += 1
            self.subshell_level += 1  # (what its errors' statuses depend on)
        else:
            child = self.fork_waited()
            child.trace_depth = self.trace_depth + 1
            child.parent_jobs = self.jobtable or self.parent_jobs  # bash: `kill $(jobs -p)`
            if not self.shopts["inherit_errexit"] and child.options["errexit"]:
                child.own_tables()
                child.options["errexit"] = False
                child.sync_option_vars()
        try:
            try:
                try:
                    status = start(child, body, fds)
                except BaseException as e:
                    status = raise_later(e)  # met by finish_as_child's handlers
                if type(status) is not int or child.pending_warnings:
                    status = await child.finish_as_child(status, fds)
                if child.pending_warnings:  # (its last expansion's: no later one of its own prints them)
                    await child.flush_warnings()
            except BrokenPipeError:
                status = 141
            except OutputTooLarge:
                raise LimitExceeded(f"command substitution output exceeds {self.rt.limits.string_bytes} bytes "
                                    "(limit string_bytes)",
                                    "string_bytes")
            if child is not self and (child.traps.get("EXIT") or child.pending_signals):
                status = await child.run_exit_trap(fds, status)
            self.cmdsub_status = status
            self.last_status = status
            data = bytes(out.buf)
            text = data.decode("utf-8", "surrogateescape") if b"\0" not in data else \
                await self._substituted_text(data)
        finally:
            out.buf = bytearray()
            hold.release()
            if child is self:
                self.stages_in_shell -= 1
                self.subshell_level -= 1
                self.lineno, self.current_fds, self.last_arg, self.pipestatus, self.errexit_exempt = saved
            else:
                self.end_waited(child)
        return text.rstrip("\n")

    def _plan_runs_here(self, plan: list) -> bool:
        """Whether every stage of a substitution's plan may run in this shell: commands that
        may (``pipeline.runs_anywhere``, found once for the plan) and no function of their name."""
        names, anywhere = plan
        if anywhere is None:
            anywhere = plan[1] = all(pipeline.runs_anywhere(name) and name not in FORK_OBSERVERS for name in names)
        if not anywhere:
            return False
        functions = self.functions
        return not functions or not any(name in functions for name in names)

    async def _substituted_text(self, data: bytes) -> str:
        """A command substitution's output as a string: like bash, without its NUL bytes (a
        C string cannot hold them), with a warning."""
        if b"\0" in data:
            data = data.replace(b"\0", b"")
            await self.report(self.fds_for_subst(), "warning: command substitution: ignored null byte in input")
        return data.decode("utf-8", "surrogateescape")

    def _read_file_subst(self, body, strip: bool = True):
        """``$(< file)``: the file's content (without its trailing newlines when ``strip``)
        without running a command."""
        if type(body) is not CommandList or len(body.items) != 1:
            return None
        node, background = body.items[0]
        if background or type(node) is not SimpleCommand or node.words or node.assigns \
                or len(node.redirs) != 1 or node.redirs[0].op != "<" or node.redirs[0].fd not in (None, 0):
            return None

        async def read() -> str:
            target = await self.expand_word(cast(Word, node.redirs[0].target))  # (<'s target is a Word)
            try:
                data = self.fs.read_bytes(target, self.cwd)
            except FSError as e:
                await self.report(self.fds_for_subst(), f"{target}: {e.strerror}")
                self.cmdsub_status = self.last_status = 1
                return ""
            if len(data) > self.rt.limits.string_bytes:
                raise LimitExceeded(f"$(< {target}): file exceeds {self.rt.limits.string_bytes} bytes "
                                    "(limit string_bytes)",
                                    "string_bytes")
            self.cmdsub_status = self.last_status = 0
            text = await self._substituted_text(data)
            return text.rstrip("\n") if strip else text
        return read()

    def fds_for_subst(self) -> dict:
        return getattr(self, "current_fds", None) or self.fds

    async def process_substitution(self, p: ProcSub) -> str:
        self.rt.base.procsub_counter += 1
        path = f"/tmp/.sh-procsub-{self.pid}-{self.rt.procsub_counter}"
        fds = dict(self.fds_for_subst())
        if p.direction == "<":
            fast = self._read_file_subst(p.body, strip=False)
            if fast is not None:
                # <(< file) is the file, like $(< file)
                self.fs.write_bytes(path, (await fast).encode("utf-8", "surrogateescape"))
                self.procsub_files.append(path)
                return path
            child = self.fork()
            hold = self.hold_memory("process substitution")
            out = BufferOutput(self.rt.limits.string_bytes, hold)
            fds[1] = out
            try:
                try:
                    await child.run_node(p.body, fds)
                except ExitShell:
                    pass
                except ShellError as e:
                    await child.report(fds, e.message)
                self.fs.write_bytes(path, out.getvalue())
            finally:
                out.buf = bytearray()
                hold.release()
                child.end_process()
            self.procsub_files.append(path)
        else:
            self.fs.write_bytes(path, b"")
            self.procsub_files.append(("out", path, p.body, fds))
        return path

    async def finish_procsubs(self, mark: int = 0) -> None:
        """Feed ``>(...)`` files to their commands and remove the temporary files made by
        process substitutions since ``mark``."""
        items, self.procsub_files = self.procsub_files[mark:], self.procsub_files[:mark]
        for item in items:
            if isinstance(item, tuple):
                _, path, body, fds = item
                try:
                    data = self.fs.read_bytes(path)
                except FSError:
                    data = b""
                child = self.fork()
                fds = dict(fds)
                fds[0] = BytesInput(data)
                try:
                    await child.run_node(body, fds)
                except (ExitShell, ShellError):
                    pass
                finally:
                    child.end_process()
            else:
                path = item
            try:
                self.fs.unlink(path)
            except FSError:
                pass

    # ------------------------------------------------------------------ redirections
    # ------------------------------------------------------------------ traps
    def inherited_traps(self) -> dict[str, str]:
        """The traps a subshell keeps: ignored signals, ERR with errtrace, DEBUG and RETURN
        with functrace."""
        kept = {}
        for name, action in self.traps.items():
            if action == "" or (name == "ERR" and self.options["errtrace"]) \
                    or (name in ("DEBUG", "RETURN") and self.options["functrace"]):
                kept[name] = action
        return kept

    def hide_traps_for_function(self) -> dict[str, str] | None:
        """Take away the traps a function does not inherit (ERR without errtrace, DEBUG and
        RETURN without functrace); returns them for ``restore_hidden_traps``."""
        hidden = {}
        traps = self.traps
        for name in ("ERR", "DEBUG", "RETURN"):
            action = traps.get(name)
            if action and not self.options["errtrace" if name == "ERR" else "functrace"]:
                hidden[name] = traps.pop(name)
        if "DEBUG" in hidden:
            self.sync_debug_trap()
        return hidden

    def restore_hidden_traps(self, hidden: dict[str, str]) -> None:
        """After a function: its hidden traps come back unless it set its own."""
        for name, action in hidden.items():
            self.traps.setdefault(name, action)
        self.sync_debug_trap()

    def sync_debug_trap(self) -> None:
        """Keep ``debug_trap_set`` (what ``fastpath.start`` checks) true exactly while a DEBUG
        trap is set or a signal waits to be taken (``take_signals``, at the same place)."""
        self.debug_trap_set = bool(self.traps.get("DEBUG")) or bool(self.pending_signals or self.killed_by)

    @property
    def return_trap_allowed(self) -> bool:
        """The RETURN trap runs (bash: not inside the DEBUG trap, nor inside itself)."""
        return not (self.in_debug_trap or self.in_return_trap)

    async def debug_trap(self, line: int) -> None:
        """The DEBUG trap, before a simple command, [[ ]], (( )) and the heads of for, select
        and case: $? is kept, LINENO is the command's line; errexit and exit in it apply.
        Signals that arrived are taken first (their traps run before the command's DEBUG)."""
        if self.pending_signals or self.killed_by:
            await self.take_signals()
        action = self.traps.get("DEBUG")
        if not action or self.in_debug_trap:
            return
        self.lineno = line
        saved = self.last_status
        saved_flags = self.in_trap, self.in_debug_trap
        self.in_trap = self.in_debug_trap = True
        try:
            await self.run_source(action, self.fds_for_subst(), first_line=line, context="debug trap")
        except (ShellError, BreakLoop, ContinueLoop, ReturnFromFunction):
            pass
        finally:
            self.in_trap, self.in_debug_trap = saved_flags
        self.last_status = saved
        self.lineno = line

    async def run_trap(self, name: str) -> None:
        action = self.traps.get(name)
        if not action:
            return
        saved = self.last_status
        flag = "in_err_trap" if name == "ERR" else "in_return_trap" if name == "RETURN" else "in_trap"
        saved_flags = self.in_trap, getattr(self, flag)
        self.in_trap = True
        setattr(self, flag, True)
        try:
            await self.run_source(action, self.fds_for_subst(), first_line=self.lineno,
                                  context=TRAP_CONTEXTS.get(name, "trap"))
        except ExitShell:
            raise
        except (ShellError, ControlFlow):
            pass
        finally:
            self.in_trap = saved_flags[0]
            setattr(self, flag, saved_flags[1])
        self.last_status = saved

    async def run_exit_trap(self, fds: dict | None = None, status: int | None = None) -> int:
        """Run the EXIT trap (once); returns the shell's exit status (changed only by an
        ``exit`` inside the trap). Signals still waiting are taken first, as bash runs its
        pending traps after each command; a shell dying of a signal runs it only when bash
        would have caught the signal (``EXIT_TRAP_SIGNALS``)."""
        if status is None:
            status = self.last_status
        if self.pending_signals and not self.killed_by:
            saved_fds = self.fds
            if fds is not None:
                self.fds = self.current_fds = fds
            try:
                self.last_status = status
                await self.take_signals()
            except ExitShell as e:  # a trap's exit, or death by a signal
                status = e.status
            finally:
                self.fds = saved_fds
        if self.killed_by and self.killed_by not in EXIT_TRAP_SIGNALS:
            self.traps.pop("EXIT", None)
        action = self.traps.pop("EXIT", None)
        if not action:
            return status
        saved_fds = self.fds
        if fds is not None:
            self.fds = fds
        self.in_trap = True
        self.last_status = status
        try:
            await self.run_source(action, self.fds, context="exit trap")
        except ExitShell as e:
            status = e.status
        except (ShellError, ControlFlow):
            pass
        finally:
            self.in_trap = False
            self.fds = saved_fds
        self.last_status = status
        return status

    # ------------------------------------------------------------------ signals
    def signal_action(self, signum: int) -> str | None:
        """What this process does with signal ``signum``: its trap's text, "" (ignored: by a
        trap, since it started, or by default) or None (it dies)."""
        if signum == 9:  # KILL: nobody catches or ignores it
            return None
        name = SIGNAL_NAMES.get(signum)
        action = self.traps.get(name) if name is not None else None
        if action is not None:
            return action
        if signum in HARMLESS_SIGNALS or name == "QUIT" or name in self.fixed_signals:
            return ""  # (bash ignores SIGQUIT in all cases)
        if self.interactive and self.subshell_level == 0 and name in ("TERM", "INT"):
            return ""  # an interactive shell: kill $$ does not end it; INT is the interrupt's
        return None

    def send_signal(self, pid: int, signum: int) -> bool:
        """``kill -SIGNUM PID`` from this shell: False when no such process lives. A signal
        the process ignores does nothing; one it traps waits until the process takes it (the
        start of its next command, or at once in wait and read); one it dies of ends a job at
        once (its task) and any other process where it takes it."""
        target = self.rt.procs.get(pid)
        if target is None:
            job = self.rt.processes.get(pid)
            return job is not None and not job.done()
        if signum == 0:
            return True
        action = target.signal_action(signum)
        if action == "":
            return True
        job = self.rt.processes.get(pid)
        if action is None and job is not None:
            # a job (or the shell it exec'd) dies now, however it is waiting
            job.kill(signum)
            return True
        target.post_signal(signum)
        return True

    def post_signal(self, signum: int) -> None:
        """Mark ``signum`` pending in this process and wake the wait or read it is blocked in."""
        self.pending_signals |= 1 << signum
        self.debug_trap_set = True
        waiter = self.signal_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def signal_future(self) -> Future[None]:
        """The future a blocking builtin (wait, read) awaits beside its own event: it is done
        when a signal arrives."""
        waiter = self.signal_waiter
        if waiter is None or waiter.done():
            waiter = self.signal_waiter = asyncio.get_running_loop().create_future()
        if self.first_pending_signal() and not waiter.done():
            waiter.set_result(None)
        return waiter

    def first_pending_signal(self) -> int:
        """The lowest signal waiting to be taken (bash takes them in that order), or 0."""
        pending = self.pending_signals & ~self.signals_blocked
        return (pending & -pending).bit_length() - 1 if pending else 0

    async def take_signals(self) -> None:
        """Act on the signals that arrived: run their traps (in signal order; one arriving
        while its own trap runs waits for it), or die of one (ProcessKilled, raised again at
        each command until the process ends)."""
        if self.killed_by and not self.in_trap:
            raise ProcessKilled(self.killed_by)
        while True:
            signum = self.first_pending_signal()
            if not signum:
                break
            self.pending_signals &= ~(1 << signum)
            action = self.signal_action(signum)
            if action is None:
                self.killed_by = signum
                self.sync_debug_trap()
                raise ProcessKilled(signum)
            if action:
                await self._run_signal_trap(signum, action)
        self.sync_debug_trap()

    async def _run_signal_trap(self, signum: int, action: str) -> None:
        """A signal's trap: $? and LINENO are kept around it, its lines count from 1 (bash
        resets the line number for pending traps); exit ends the shell, return its function."""
        saved_status, saved_line, saved_in_trap = self.last_status, self.lineno, self.in_trap
        saved_blocked = self.signals_blocked
        self.signals_blocked |= (1 << signum) | self.pending_signals
        self.in_trap = True
        try:
            await self.run_source(action, self.fds_for_subst(), first_line=1, context="trap")
        except ReturnFromFunction:
            if self.func_depth:
                raise
        except (ShellError, BreakLoop, ContinueLoop):
            pass
        finally:
            self.signals_blocked = saved_blocked
            self.in_trap = saved_in_trap
        self.last_status = saved_status
        self.lineno = saved_line

    async def report_killed(self, fds: dict, child: "Shell", text: str) -> None:
        """A foreground child died of a signal: bash says so, as for a job (``PID Hangup
        COMMAND``), but "Terminated" alone for TERM and nothing for INT and PIPE."""
        signum = child.killed_by
        if signum in (2, 13):
            return
        if signum == 15:
            await self.err(fds, "Terminated\n")
            return
        await self.report(fds, f"{child.pid:>5} {signal_description(signum):<24}{text}")

    debug_trap_set = False






def _literal_text(word: Word) -> str:
    """A word's text for xtrace without expanding it again: the value of a literal (quoted or
    not), else the word as written."""
    text = []
    for part in word.parts:
        if isinstance(part, (Lit, Quoted)):
            text.append(part.text)
        elif isinstance(part, DQ) and all(type(p) is Lit for p in part.parts):
            text.extend(cast(Lit, p).text for p in part.parts)
        else:
            return format_word(word)
    return "".join(text)


def select_menu(items: list[str], columns: int) -> str:
    """The ``select`` menu laid out as bash does: numbered items down then across in as many
    columns as fit; a cell's padding uses tabs (stops of 8) counted from the cell's start."""
    count = len(items)
    number_width = min(len(str(count)), 6)
    cell = max(len(item) for item in items) + number_width + 4
    cols = max(columns // cell, 1)
    rows = -(-count // cols)
    cols = -(-count // rows)
    if rows == 1:
        # everything would fit on one line: bash lists it as one column instead
        rows, cols = cols, 1
    first_width = len(str(rows))
    lines = []
    for row in range(rows):
        line = []
        index, pos = row, 0
        while True:
            text = f"{index + 1:>{first_width if pos == 0 else number_width}}) {items[index]}"
            line.append(text)
            index += rows
            if index >= count:
                break
            line.append(_indent(pos + len(text), pos + cell))
            pos += cell
        lines.append("".join(line) + "\n")
    return "".join(lines)


def _indent(col: int, to: int) -> str:
    pad = []
    while col < to:
        if to // 8 > col // 8:
            pad.append("\t")
            col += 8 - col % 8
        else:
            pad.append(" ")
            col += 1
    return "".join(pad)


def _columns(value: str | None) -> int:
    """The screen width from COLUMNS read like C ``atoi``; 80 when unset or not positive."""
    m = re.match(r"[ \t\n\v\f\r]*([+-]?[0-9]{1,18})", value or "")
    width = int(m.group(1)) if m else 0
    return width if width > 0 else 80


def _c_integer(text: str) -> int | None:
    """A select reply as a number the way bash accepts one (leading white space and a sign,
    trailing blanks; nothing out of the 64-bit range)."""
    m = re.fullmatch(r"[ \t\n\v\f\r]*([+-]?[0-9]+)[ \t]*", text)
    if m is None or len(m.group(1)) > 20:
        return None
    value = int(m.group(1))
    return value if -2**63 <= value < 2**63 else None






class CommandHost:
    """What commands see as ``ctx.shell`` (commands.registry's ShellHost): cancellation checks,
    running other commands, the run's limits, token, display and deadline, the shell's pid and
    live jobs (ps, kill)."""

    __slots__ = ("shell", "fds")

    def __init__(self, shell: Shell, fds: dict) -> None:
        self.shell = shell
        self.fds = fds

    def check_cancel(self) -> None:
        self.shell.check_cancel()

    async def checkpoint(self) -> None:
        await self.shell.command_checkpoint()

    @property
    def limits(self):
        return self.shell.rt.limits

    @property
    def cancel(self):
        return self.shell.rt.cancel

    @property
    def display(self):
        """Where rich output goes: the display of the run that started the command (for a
        background job, that of the cell it belongs to), or None."""
        return self.shell.rt.display

    @property
    def deadline(self) -> float:
        return self.shell.rt.deadline

    @property
    def pid(self) -> int:
        return self.shell.pid

    @property
    def processes(self) -> dict[int, Job]:
        """Every live background job of the shell and its forks, by pid."""
        return self.shell.rt.processes

    def send_signal(self, pid: int, signum: int) -> bool:
        """``kill``: signal ``signum`` to the sandbox's process ``pid`` (False: none lives)."""
        return self.shell.send_signal(pid, signum)

    async def run_argv(self, argv: list[str], stdin, stdout, stderr, env=None, cwd=None) -> int:
        if not argv:
            return 0
        fds = dict(self.fds)
        fds[0], fds[1], fds[2] = stdin, stdout, stderr
        shell = self.shell
        await shell.checkpoint()
        try:
            # a builtin that is also a program of its own (echo, printf, pwd, kill, true: their
            # coreutils versions) runs as that program, found on PATH as exec(3) would; the
            # others (sh, test, and xargs cd) run as the builtin, in ENV
            if argv[0] in BUILTINS and registry.lookup(argv[0]) is None:
                child = shell.fork()
                if cwd is not None:
                    child.cwd = cwd
                if env is not None:
                    # ENV is the whole environment (env -u, env -i): exported variables it
                    # lacks are gone, its own are exported
                    for scope in (*child.scopes, child.globals):
                        for name in [n for n, var in scope.items() if var.exported or n in env]:
                            del scope[name]
                    for k, v in env.items():
                        child.globals[k] = Var(v, True)
                try:
                    return await child.run_command(argv, fds, allow_functions=False)
                finally:
                    child.end_process()
            return await shell.run_external(argv, fds, env, cwd)
        except ExitShell as e:
            return e.status


def _handler(method):
    """A coroutine handler as a runner: the command's fds current first (``current_fds`` is
    what expansions inside it write errors to)."""
    def run(sh: Shell, node, fds: dict):
        sh.current_fds = fds
        return method(sh, node, fds)
    return run


async def _run_unparsed(sh: Shell, node: Unparsed, fds: dict) -> int:
    return await sh.run_source(node.text, fds, node.line, context="command substitution")


fastpath.HANDLERS.update({kind: _handler(method) for kind, method in {
    Unparsed: _run_unparsed,
    Pipeline: pipeline.run_pipeline,
    Loop: Shell.run_loop,
    Select: Shell.run_select,
    ArithFor: Shell.run_arith_for,
    FunctionDef: Shell.run_funcdef,
}.items()})

__all__ = ["Shell", "Runtime", "Incomplete", "ParseError"]
