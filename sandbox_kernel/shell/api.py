"""What the builtins may use of the shell that runs them: ``ShellAPI``.

A builtin is ``async def name(sh: ShellAPI, argv, fds: Fds) -> int`` (builtins/registry.py).
The interpreter's ``Shell`` (eval/interp.py) is the one implementation; the builtins import
nothing of ``shell/eval`` (tests/shell/test_layout.py), so what they reach of the evaluator
(running code, expanding words, test's and let's evaluation, the variable store, the job
table) is named here, and mypy checks both sides: each builtin against this list, the Shell
against it where it calls a builtin.

The names below are grouped as the shell's rooms are (docs/architecture.md): the state a
builtin reads or changes, the variable store, expansion, running code, jobs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Protocol

if TYPE_CHECKING:
    from asyncio import Future

    from ..vfs import VFS
    from .builtins.resources import ResourceLimits
    from .eval.interp import Frame, Runtime
    from .eval.runs import JobTable, RunView
    from .eval.variables import MemoryHold
    from .histexpand import Memory as HistoryMemory
    from .lookup import CommandHash
    from .state import Var
    from .syntax.ast import Assign, FunctionDef, Node, Word

#: a shell's open file descriptors: number -> stream (an InputStream, an OutputStream, or one
#: that is both; a closed descriptor is absent)
Fds = dict[int, Any]
#: an array subscript once resolved: an index, an associative array's key, or "@"/"*"
Key = int | str


class ShellAPI(Protocol):
    """The shell as a builtin sees it (see the module's docstring)."""

    # ------------------------------------------------------------------ state
    fs: VFS
    cwd: str
    #: the run's view of the runtime: limits, cancel token, the live jobs, start times
    rt: Runtime | RunView
    options: dict[str, bool]
    shopts: dict[str, bool]
    positional: list[str]
    arg0: str
    pid: int
    last_status: int
    #: $_
    last_arg: str
    umask: int
    dirstack: list[str]
    resource_limits: ResourceLimits
    functions: dict[str, FunctionDef]
    #: the file each function was defined in (``declare -F`` with extdebug)
    function_files: dict[str, str]
    #: what BASH_SOURCE names code that is not from a file ("environment", "main")
    script_source: str
    aliases: dict[str, str]
    traps: dict[str, str]
    #: the traps a subshell lists until it sets one of its own
    parent_traps: dict[str, str] | None
    lineno: int
    func_depth: int
    loop_depth: int
    source_depth: int
    sourcing: int
    in_trap: bool
    interactive: bool
    command_string: bool
    #: the call stack (functions, sourced files, the script), innermost last
    frames: list[Frame]
    #: where getopts stopped inside an option group
    getopts_state: tuple[int, int, Var | None, list[str] | None]
    history: list[str]
    history_base: int
    history_saved: int
    history_memory: HistoryMemory

    @property
    def funcnames(self) -> list[str]: ...

    async def err(self, fds: Fds, message: str) -> None: ...

    async def report(self, fds: Fds, message: str) -> None: ...

    def error_prefix(self) -> str: ...

    def sync_option_vars(self) -> None: ...

    def sync_debug_trap(self) -> None: ...

    def commands_hash(self) -> CommandHash: ...

    def own_tables(self) -> None: ...

    # ------------------------------------------------------------------ the variable store
    globals: dict[str, Var]
    scopes: list[dict[str, Var]]
    #: a waited fork still shares its parent's variables (``own_variables`` before a change)
    vars_shared: bool
    namerefs: int
    pending_warnings: list[str] | None

    def lookup_var(self, name: str) -> Var | None: ...

    def lookup_raw(self, name: str) -> Var | None: ...

    def get_scalar(self, name: str) -> str | None: ...

    def all_vars(self) -> dict[str, Var]: ...

    def all_variable_names(self) -> list[str]: ...

    def exported_env(self) -> dict[str, str]: ...

    def set_var(self, name: str, value: str, append: bool = False, export: bool | None = None) -> None: ...

    def set_raw(self, var: Var, value: str, name: str) -> None: ...

    def set_array(self, name: str, values: Any, assoc: bool = False, append: bool = False) -> None: ...

    def set_element(self, name: str, index: Key, value: str, append: bool = False) -> None: ...

    def assign_scalar(self, name: str, value: str, append: bool, var: Var | None = ...) -> None: ...

    async def assign(self, a: Assign) -> None: ...

    async def assign_expanded(self, a: Assign, value: str) -> None: ...

    def unset_var(self, name: str) -> bool: ...

    def unset_raw(self, name: str) -> None: ...

    def unset_element(self, name: str, key: Key) -> bool: ...

    async def subscript_key(self, name: str, sub: str, label: str | None = None, var: Var | None = None) -> Key: ...

    def set_positional(self, args: list[str], name: str) -> None: ...

    def own_variables(self) -> None: ...

    def shares_scope(self, scope: dict[str, Var]) -> bool: ...

    def check_string(self, value: str | bytes) -> None: ...

    def hold_memory(self, name: str, size: int = 0, owner: object = None) -> MemoryHold: ...

    async def flush_warnings(self) -> None: ...

    # ------------------------------------------------------------------ expansion and evaluation
    def ifs(self) -> str: ...

    async def expand_word(self, word: Word, assignment: bool = False) -> str: ...

    async def expanded_assign(self, a: Assign) -> Assign: ...

    def parse_extglob(self) -> bool: ...

    def active_aliases(self) -> dict[str, str] | None: ...

    def evaluate_test(self, args: list[str]) -> bool: ...

    def evaluate_arith(self, text: str) -> int: ...

    # ------------------------------------------------------------------ running code
    async def run_source(self, text: str, fds: Fds, first_line: int = 1, context: str | None = None,
                         sourced: bool = False) -> int: ...

    async def run_node(self, node: Node, fds: Fds) -> int: ...

    async def run_command(self, argv: list[str], fds: Fds, env: dict[str, str] | None = None,
                          allow_functions: bool = True) -> int: ...

    def run_external(self, argv: list[str], fds: Fds, env: dict[str, str] | None = None,
                     cwd: str | None = None) -> Awaitable[int]: ...

    async def run_script_file(self, text: str, name: str, args: list[str], fds: Fds,
                              env: dict[str, str] | None = None, options: dict[str, bool] | None = None,
                              shopts: dict[str, bool] | None = None, mode: str = "file",
                              interactive: bool = False) -> int: ...

    async def call_function(self, fdef: FunctionDef, argv: list[str], fds: Fds) -> int: ...

    async def run_trap(self, name: str) -> None: ...

    def push_frame(self, name: str, source: str, function: bool = False) -> None: ...

    # ------------------------------------------------------------------ jobs
    jobtable: JobTable | None
    #: a command substitution lists its shell's jobs
    parent_jobs: JobTable | None

    @property
    def job_notices(self) -> bool: ...

    def own_jobs(self) -> JobTable: ...

    async def wait_job(self, pid: int, fds: Fds | None = None, signals: bool = False) -> int: ...

    async def wait_all_jobs(self, fds: Fds | None = None, signals: bool = False) -> int: ...

    # ------------------------------------------------------------------ signals
    #: signals this shell may not trap (ignored on entry: a job's INT and QUIT)
    fixed_signals: frozenset[str]

    @property
    def return_trap_allowed(self) -> bool: ...

    def send_signal(self, pid: int, signum: int) -> bool: ...

    def signal_future(self) -> Future[None]: ...

    async def take_signals(self) -> None: ...

    async def signal_interrupts_wait(self) -> None: ...
