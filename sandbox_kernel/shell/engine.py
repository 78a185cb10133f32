"""ShellEngine: the sandbox's bash-compatible shell as an engine (``sandbox.engine("sh")``).

State (variables, functions, aliases, cwd, options, ``$?``) persists across runs.
"""
from __future__ import annotations

import sys
import time
import weakref

from .. import aio
from ..commands import registry
from ..commands.registry import CommandCancelled
from ..engine import ErrorInfo, RunResult, Streams
from ..lazy import lazy_compile, lazy_import
from ..limits import Limits
from ..stack import recursion_limit
from ..streams import EmptyInput, InputStream, OutputStream, OutputTooLarge, SinkOutput
from ..vfs.layout import COMMAND_STUB
from .builtins import BUILTINS, help_text
from .builtins.history import record
from .complete import Completer
from .eval.interp import Runtime, Shell
from .eval.runs import RunView
from .eval.word import decode_prompt
from .histexpand import expand
from .syntax.lexer import RESERVED
from .syntax.parser import check_complete
from .state import ControlFlow, ExitShell, IndexedArray, LimitExceeded, ShellError, Var

asyncio = lazy_import("asyncio")  # with the loop (aio.py)

SANDBOX_ENV = {
    "HOME": "/home/user", "USER": "user", "LOGNAME": "user", "PWD": "/workspace",
    "PATH": "/usr/local/bin:/usr/bin:/bin", "SHELL": "/bin/bash",
    "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHLVL": "1",
}
#: what an interactive shell (the notebook) sets on top of the startup variables (init_shell_vars)
INTERACTIVE_VARS = {"PS1": "\\s-\\v\\$ ", "PS2": "> ", "HISTFILE": "/home/user/.bash_history",
                    "HISTSIZE": "500", "HISTFILESIZE": "500"}
#: How long a cancelled run may take to notice at its next checkpoint before its task is cancelled.
CANCEL_GRACE = 0.3


#: "limit NAME" in a limit message: the limit that stopped the run (the last one named: what
#: comes before may be the user's words, such as a function's or a file's name)
_NAMED_LIMIT = lazy_compile(r"\blimit ([a-z_]+)")
#: Messages that name a limit for what is a fixed cap: no setting raises it, so no hint
#: (the shell's 1000 background jobs alive at once; "limit commands" is the closest limit).
_FIXED_CAPS = ("fork: ",)


def limit_message(message: str, limit: str, limits: Limits, ceilings: Limits | None) -> str:
    """A shell limit's message (``LimitExceeded.message``) ending with how to raise the limit,
    once: ``too many commands: 20 executed (limit commands; raise it with %limits commands=40)``.
    The limit is the one the message names (a background job's error reaches the shell as
    text and is raised again as ``commands``), else ``limit``; a message that already says how
    (shell_memory_bytes) stays as it is."""
    named = [n for n in _NAMED_LIMIT.findall(message) if n in Limits.field_names()]
    name = named[-1] if named else limit
    if name not in Limits.field_names() or message.startswith(_FIXED_CAPS):
        return message
    tail = message[message.rfind("("):] if "(" in message else ""
    if any(said in tail for said in ("raise it with", "raise them with", "ceiling", "allows no more")):
        return message
    hint = limits.raise_hint(name, ceilings=ceilings)
    if named and message.endswith(")") and f"limit {name}" in tail:  # "(...; limit NAME)"
        return f"{message[:-1]}; {hint})"
    return f"{message} (limit {name}; {hint})"


def exit_summary(status: int) -> str:
    """The error box's text for a run whose message is already on stderr."""
    return f"exit status {status}"


class KernelInput(InputStream):
    """stdin from the kernel's ``input()`` request: one line per request."""

    interactive = True

    def __init__(self, request) -> None:
        self.request = request
        self.prompt = ""
        #: set by `read -s`: the frontend hides the answer (input_request password)
        self.password = False

    async def read_chunk(self) -> bytes:
        prompt, self.prompt = self.prompt, ""
        try:
            line = await self.request(prompt, self.password)
        except Exception:  # noqa: BLE001 - no stdin available (e.g. allow_stdin false)
            return b""
        if line is None:
            return b""
        return (line + "\n").encode("utf-8", "surrogateescape")


class ShellEngine:
    name = "sh"

    def __init__(self, sandbox, interactive: bool = True) -> None:
        # each shell function level costs ~10 frames: the default function_depth (1000) fits
        # a 64 MiB stack, and deeper recursion ends in RecursionError (reported as a limit)
        # before the C stack would overflow (stack.py)
        limit = recursion_limit()
        if sys.getrecursionlimit() < limit:
            sys.setrecursionlimit(limit)
        self.sandbox = sandbox
        self.rt = Runtime(sandbox.fs, sandbox, sandbox.limits)
        # one shell_memory_bytes for the notebook's shell and every terminal's
        if getattr(sandbox, "shell_memory", None) is None:
            sandbox.shell_memory = self.rt.memory
        self.rt.memory = sandbox.shell_memory
        self.shell = Shell(self.rt)
        self.rt.procs[self.shell.pid] = self.shell  # what kill $$ reaches
        #: the running (or last) run's part of the runtime (eval/runs.py)
        self.view: RunView | Runtime = self.rt
        weakref.finalize(self.shell, self.shell.account().end)  # a closed terminal's share goes back
        self.shell.interactive = interactive
        self.shell.command_string = not interactive
        self.shell.script_source = "main" if interactive else "environment"
        self.shell.shopts["expand_aliases"] = interactive
        # notebook cells get extglob (as an interactive bash with bash-completion has it);
        # scripts and `bash -c` start without it, as bash does
        self.shell.shopts["extglob"] = interactive
        #: stdin for the next run (the CLI and run_script set it); None means the kernel's input()
        self.next_stdin: InputStream | None = None
        #: the next run's text is the ``bash -c`` string (configure_script)
        self.execution_string_next = False
        self._init_variables()
        self._install_stubs()

    def _init_variables(self) -> None:
        sh = self.shell
        sh.init_shell_vars("4241")
        for k, v in SANDBOX_ENV.items():
            sh.globals[k] = Var(v, exported=True)
        if sh.interactive:
            for k, v in INTERACTIVE_VARS.items():
                sh.globals[k] = Var(v)
            sh.options["history"] = True
            sh.sync_option_vars()
        sh.byte_locale()  # the locale it starts in
        sh.cwd = "/workspace"

    def _install_stubs(self) -> None:
        fs = self.sandbox.fs
        # the nested shells, and builtins that also exist as programs in /usr/bin
        for name in ("bash", "sh", "echo", "printf", "test", "[", "true", "false", "pwd", "kill"):
            path = f"/usr/bin/{name}"
            if not fs.exists(path):
                try:
                    fs.install_file_as_root(path, COMMAND_STUB, 0o755)
                except Exception:  # noqa: BLE001 - a read-only or odd layout: skip the stub
                    pass

    def configure_script(self, arg0: str = "bash", args: list[str] | None = None, mode: str = "command") -> None:
        """Make this a non-interactive script shell running what ``bash`` runs in ``mode``:
        "command" (``bash -c``: the next run's text is ``$BASH_EXECUTION_STRING``), "file"
        (``bash FILE``, FILE being ``arg0``) or "stdin" (``bash < FILE``)."""
        self.shell.interactive = False
        self.shell.options["history"] = False
        self.shell.set_script_mode(mode, arg0)
        self.shell.shopts["expand_aliases"] = False
        self.shell.shopts["extglob"] = False
        self.shell.sync_option_vars()
        self.shell.arg0 = arg0
        self.shell.positional = list(args or [])
        self.execution_string_next = mode == "command"

    # ------------------------------------------------------------------ kernel interface
    def exported_env(self) -> dict[str, str]:
        return self.shell.exported_env()

    def cwd(self) -> str:
        return self.shell.cwd

    def is_complete(self, code: str) -> tuple[str, str]:
        status = check_complete(code)
        indent = ""
        if status == "incomplete":
            last = code.rstrip("\n").split("\n")[-1]
            indent = last[:len(last) - len(last.lstrip())]
            stripped = last.strip()
            if stripped.endswith(("then", "do", "else", "{", "in", "(")) \
                    or stripped.startswith(("if ", "for ", "while ", "case ")):
                indent += "  "
        return status, indent

    def completion_names(self) -> list[str]:
        names = (set(BUILTINS) | set(self.shell.functions) | set(self.shell.aliases) | set(registry.names())
                 | set(RESERVED))
        return sorted(names)

    def variable_names(self) -> list[str]:
        return self.shell.all_variable_names()

    def get_variable(self, name: str):
        """A variable's value: str, list (indexed array), dict (associative) or None."""
        if name and not (name[0].isalpha() or name[0] == "_"):
            if name in ("@", "*"):
                return list(self.shell.positional)
            return self.shell.param_scalar(name)
        var = self.shell.lookup_var(name)
        if var is None or var.value is None:
            return None
        if type(var.value) is IndexedArray:
            return var.value.values()
        if type(var.value) is dict:
            return dict(var.value)
        return var.value

    def add_history(self, code: str) -> None:
        """Record a cell's commands in the shell's history (what ``history`` lists), as bash
        does for each command line it reads. The kernel calls this for each executed cell,
        before running it (so that a cell's own ``history`` shows itself, as in bash), and the
        terminal for each command typed (a command of several lines is one entry)."""
        sh = self.shell
        if sh.interactive and sh.options["history"]:
            record(sh, code)

    def history(self) -> list[str]:
        """The history entries, oldest first (the list is replaced, never changed, by the shell)."""
        return self.shell.history

    def inherit_history(self, other: "ShellEngine") -> None:
        """Start with ``other``'s history (a terminal opened in a notebook: as a new bash reads
        the history its predecessors left), numbered as there."""
        self.shell.history = list(other.shell.history)
        self.shell.history_base = other.shell.history_base
        self.shell.history_saved = len(self.shell.history)

    def expand_history(self, text: str) -> tuple[str, bool]:
        """``text`` after history expansion (``!!``, ``!N``, ``!prefix`` ..., each line as bash
        expands the lines it reads) when ``set -H`` is on, and whether a ``:p`` asked to
        print it rather than run it. Raises ``HistoryError`` (``.message``: bash's text)."""
        sh = self.shell
        if not sh.options["histexpand"] or ("!" not in text and not text.startswith("^")):
            return text, False
        lines = []
        print_only = False
        for line in text.split("\n"):
            line, printed = expand(line, sh.history, sh.history_base, sh.history_memory, sh.shopts["extglob"])
            lines.append(line)
            print_only = print_only or printed
        return "\n".join(lines), print_only

    def set_option(self, name: str, on: bool) -> None:
        """``set -o NAME`` / ``set +o NAME`` (the terminal's shell has histexpand, as bash -i)."""
        self.shell.options[name] = on
        self.shell.sync_option_vars()

    def set_status(self, status: int) -> None:
        """``$?`` (Ctrl-C at the terminal's prompt gives 130, as in bash)."""
        self.shell.last_status = status

    def prompt(self, name: str) -> str | None:
        """The prompt variable ``name`` (PS1, PS2) with its backslash escapes expanded (``\\w``,
        ``\\u`` ...), or None when it is unset."""
        value = self.shell.get_scalar(name)
        return None if value is None else decode_prompt(value, self.shell)

    def builtin_help(self, name: str) -> str | None:
        return help_text(name)

    def help_of(self, name: str) -> str | None:
        """The help of a builtin, else of a command."""
        text = help_text(name)
        if not text:
            spec = registry.lookup(name)
            text = spec.help if spec is not None and spec.help else None
        return text or None

    def completer(self) -> Completer:
        return Completer(self, self.sandbox.fs, self.cwd(), self.help_of)

    async def complete(self, code: str, cursor: int) -> tuple[int, list[str]]:
        """Tab: commands, builtins, functions and aliases in command position, variables after
        ``$``, a command's options after ``-``, paths elsewhere (``shell/complete.py``)."""
        return self.completer().complete(code, cursor)

    async def inspect(self, code: str, cursor: int) -> str | None:
        """Shift-Tab: the help of the word at the cursor, or a variable's value."""
        return self.completer().inspect(code, cursor)

    # ------------------------------------------------------------------ running
    async def run(self, cell: str, streams: Streams, limits: Limits) -> RunResult:
        """Run ``cell``. It ends when its foreground commands end: in an interactive shell
        (a notebook's, a terminal's) its background jobs go on (runs.JobGroup) and ended jobs
        are reported at the end, as bash does before its next prompt; a script's run (the
        CLI, ``run_script``) waits for its jobs, whose output then is all in its streams."""
        sh = self.shell
        view = RunView(self.rt, limits, streams.cancel, time.monotonic() + limits.wall_time, streams, self)
        self.view = view
        sh.rt = view
        stdin = self.next_stdin
        self.next_stdin = None
        if stdin is None:
            stdin = KernelInput(streams.input) if streams.input is not None else EmptyInput()
        fds = {k: v for k, v in sh.fds.items() if k > 2 and isinstance(v, (InputStream, OutputStream))}
        fds[0] = stdin
        fds[1] = SinkOutput(streams.stdout)
        fds[2] = SinkOutput(streams.stderr)
        view.std_fds = (fds[1], fds[2])
        sh.fds = sh.current_fds = fds  # (a trap run before the first command writes there)
        sh.syntax_error = None
        if self.execution_string_next:
            self.execution_string_next = False
            sh.globals["BASH_EXECUTION_STRING"] = Var(cell)
        cell_run = self._run_cell(cell, fds)
        try:
            finished = False
            if aio.loopless():
                # a run that never waits ends here without an event loop (aio.py)
                finished, outcome = aio.step(cell_run)
                if not finished:
                    await aio.need_loop()
                    cell_run = aio.resumed(cell_run)
            if not finished:
                outcome = await self._race(cell_run, streams)
            result = await self._finish(outcome, streams, fds)
            if sh.job_notices and sh.jobtable is not None:
                # bash says which jobs ended before its next prompt
                report = sh.jobtable.finished_report()
                if report:
                    streams.stderr.write(report.encode("utf-8", "surrogateescape"))
            return result
        finally:
            view.running = False
            if sh.killed_by:  # killed by a signal: the notebook's shell goes on with the next cell
                sh.killed_by = 0
                sh.sync_debug_trap()

    async def _race(self, cell_run, streams: Streams):
        """The run's outcome, its task raced against the cancel token (in the loop)."""
        main = asyncio.ensure_future(cell_run)
        cancel_wait = asyncio.ensure_future(streams.cancel.wait())
        try:
            done, _ = await asyncio.wait([main, cancel_wait], return_when=asyncio.FIRST_COMPLETED)
            if main not in done:
                # give the run a moment to stop at its next checkpoint, then cancel it
                done, _ = await asyncio.wait([main], timeout=CANCEL_GRACE)
                if main not in done:
                    main.cancel()
                    try:
                        await main
                    except BaseException:  # noqa: BLE001 - the cancelled task's own exception
                        pass
                    return ("cancelled", streams.cancel.reason or "interrupt")
            return main.result()
        except Exception as e:  # noqa: BLE001 - never let an exception escape run()
            return ("internal", f"{type(e).__name__}: {e}")
        finally:
            cancel_wait.cancel()

    async def _run_cell(self, cell: str, fds: dict):
        sh = self.shell
        try:
            try:
                status = await sh.run_source(cell, fds)
                if not sh.interactive:
                    status = await sh.run_exit_trap(fds, status)
            except ExitShell as e:
                status = await sh.run_exit_trap(fds, e.status)
            await self._wait_jobs()
            if self.view.cancel is not None and self.view.cancel.reason is not None:
                return ("cancelled", self.view.cancel.reason)
            return ("status", status)
        except CommandCancelled as e:
            return ("cancelled", str(e.args[0]) if e.args else "interrupt")
        except LimitExceeded as e:
            return ("limit", self._limit_message(e.message, e.limit))
        except OutputTooLarge as e:  # a process substitution's output, held as a string
            return ("limit", self._limit_message(str(e), "string_bytes"))
        except ShellError as e:
            await sh.report(fds, e.message)
            return ("status", e.status)
        except ControlFlow:
            return ("status", sh.last_status)
        except RecursionError:
            return ("limit", "nesting too deep (Python recursion limit; limit function_depth)")
        except Exception as e:  # noqa: BLE001 - internal errors become a message, never a traceback
            return ("internal", f"{type(e).__name__}: {e}")
        except asyncio.CancelledError:  # last: naming it imports asyncio (lazy.py)
            cancel = self.view.cancel
            return ("cancelled", cancel.reason if cancel is not None and cancel.reason else "interrupt")

    async def _wait_jobs(self) -> None:
        """A script's run ends when its jobs ended (bash's output of a script's orphans is in
        its output too): the shell's own jobs (reported as bash does), then those of forks."""
        sh = self.shell
        if sh.job_notices:
            return
        if sh.jobtable is not None and sh.jobtable.jobs:
            await sh.wait_all_jobs()
        groups = self.view.groups
        while groups:
            await groups[0].wait()

    async def _end_jobs(self, view: RunView | Runtime) -> None:
        """A run that failed on a limit (or its wall time) ends the jobs it started; they
        leave the table with no notice (the run's error says why)."""
        groups = list(view.groups)
        if not groups:
            return
        tasks = [t for g in groups for t in g.tasks]
        for group in groups:
            group.stop("ended")
        if tasks:
            await asyncio.wait(tasks, timeout=CANCEL_GRACE)
        table = self.shell.jobtable
        if table is not None:
            for job in [j for j in table.jobs.values() if j.group in groups]:
                table.remove(job)

    async def _finish(self, outcome, streams: Streams, fds: dict) -> RunResult:
        sh = self.shell
        view = self.view
        kind, value = outcome
        if kind == "status" and view.limit_error is not None:
            kind, value = "limit", self._limit_message(view.limit_error, "commands")
        if kind != "status" and (kind, value) != ("cancelled", "interrupt"):
            # the jobs of a run that failed on a limit end with it; the interrupt, like Ctrl-C
            # in a terminal, stops only the foreground
            await self._end_jobs(view)
        if kind == "status":
            status = int(value)
            sh.last_status = status
            syntax, sh.syntax_error = sh.syntax_error, None
            # the shell printed its own message on stderr: the error box only sums up (the
            # message stays in evalue, for nbclient/papermill)
            if syntax is not None and status == 2:
                return RunResult(2, ErrorInfo("SyntaxError", syntax, [exit_summary(2)]))
            if status:
                return RunResult(status, ErrorInfo("ExitStatus", str(status), [exit_summary(status)]))
            return RunResult(0)
        if kind == "cancelled":
            if value == "timeout":
                msg = "bash: " + self._wall_time_text(view.limits)
                streams.stderr.write((msg + "\n").encode())
                sh.last_status = 124
                return RunResult(124, ErrorInfo("Timeout", msg, [exit_summary(124)]))
            if value == "memory" and streams.cancel.memory is not None:  # the safety net (memory.py)
                kind, value = "limit", self._limit_message(streams.cancel.memory.message(), "memory_bytes")
            else:
                await self._run_int_trap(streams, fds)
                sh.last_status = 130
                return RunResult(130, ErrorInfo("Interrupted", "interrupted", ["interrupted"]))
        if kind == "limit":
            msg = f"bash: {value}"
            streams.stderr.write((msg + "\n").encode())
            sh.last_status = 1
            return RunResult(1, ErrorInfo("LimitExceeded", value, [exit_summary(1)]))
        msg = f"bash: internal error: {value}"
        streams.stderr.write((msg + "\n").encode())
        sh.last_status = 1
        return RunResult(1, ErrorInfo("InternalError", value, [exit_summary(1)]))

    def _ceilings(self) -> Limits | None:
        return getattr(self.sandbox, "ceilings", None)

    def _limit_message(self, message: str, limit: str) -> str:
        return limit_message(message, limit, self.view.limits, self._ceilings())

    def _wall_time_text(self, limits: Limits) -> str:
        return (f"wall time limit exceeded ({limits.wall_time:g} s; limit wall_time; "
                f"{limits.raise_hint('wall_time', ceilings=self._ceilings())})")

    def job_limit_text(self, message: str, limit: str, limits: Limits) -> str:
        """What ends a job group that hit a limit says (after ``bash: job [N] (TEXT): ``)."""
        if limit == "wall_time":
            return self._wall_time_text(limits)
        return limit_message(message, limit, limits, self._ceilings())

    async def _run_int_trap(self, streams: Streams, fds: dict) -> None:
        sh = self.shell
        action = sh.traps.get("INT")
        if not action:
            return
        rt = self.view
        saved = rt.cancel
        rt.cancel = None
        rt.deadline = time.monotonic() + 5.0
        try:
            await aio.need_loop()
            await asyncio.wait_for(sh.run_source(action, fds), 5.0)
        except ExitShell:
            pass
        except Exception:  # noqa: BLE001 - a failing trap must not break the interrupt reply
            pass
        finally:
            rt.cancel = saved

    async def shutdown(self) -> None:
        """Every background job ends (whichever run started it), and lets go of its streams."""
        groups = list(self.rt.live_groups)
        tasks = [t for g in groups for t in g.tasks]
        for group in groups:
            group.stop("shutdown")
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        for group in groups:
            group.close()
        self.shell.jobtable = None
