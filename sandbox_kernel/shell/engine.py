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
from .builtins.history import history_entries, remember
from .eval.interp import Runtime, Shell
from .syntax.lexer import RESERVED
from .syntax.parser import check_complete
from .state import ControlFlow, ExitShell, IndexedArray, LimitExceeded, ShellError, Var

asyncio = lazy_import("asyncio")  # with the loop (aio.py)

SANDBOX_ENV = {
    "HOME": "/home/user", "USER": "user", "LOGNAME": "user", "PWD": "/workspace",
    "PATH": "/usr/local/bin:/usr/bin:/bin", "SHELL": "/bin/bash", "HOSTNAME": "sandbox",
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
        weakref.finalize(self.shell, self.shell.memory.end)  # a closed terminal's share goes back
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
        before running it (so that a cell's own ``history`` shows itself, as in bash)."""
        sh = self.shell
        if sh.interactive and sh.options["history"]:
            remember(sh, history_entries(code))

    def builtin_help(self, name: str) -> str | None:
        return help_text(name)

    # ------------------------------------------------------------------ running
    async def run(self, cell: str, streams: Streams, limits: Limits) -> RunResult:
        rt = self.rt
        sh = self.shell
        rt.limits = limits
        rt.commands = 0
        rt.limit_error = None
        rt.cancel = streams.cancel
        rt.deadline = time.monotonic() + limits.wall_time
        rt.last_yield = time.monotonic()
        stdin = self.next_stdin
        self.next_stdin = None
        if stdin is None:
            stdin = KernelInput(streams.input) if streams.input is not None else EmptyInput()
        fds = {k: v for k, v in sh.fds.items() if k > 2 and isinstance(v, (InputStream, OutputStream))}
        fds[0] = stdin
        fds[1] = SinkOutput(streams.stdout)
        fds[2] = SinkOutput(streams.stderr)
        sh.fds = fds
        sh.syntax_error = None
        if self.execution_string_next:
            self.execution_string_next = False
            sh.globals["BASH_EXECUTION_STRING"] = Var(cell)
        cell_run = self._run_cell(cell, fds)
        if aio.loopless():
            # a run that never waits ends here without an event loop (aio.py)
            finished, outcome = aio.step(cell_run)
            if finished:
                return await self._finish(outcome, streams, fds)
            await aio.need_loop()
            cell_run = aio.resumed(cell_run)
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
                    outcome = ("cancelled", streams.cancel.reason or "interrupt")
                else:
                    outcome = main.result()
            else:
                outcome = main.result()
        except Exception as e:  # noqa: BLE001 - never let an exception escape run()
            outcome = ("internal", f"{type(e).__name__}: {e}")
        finally:
            cancel_wait.cancel()
        return await self._finish(outcome, streams, fds)

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
            if self.rt.cancel is not None and self.rt.cancel.reason is not None:
                return ("cancelled", self.rt.cancel.reason)
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
            return ("cancelled", self.rt.cancel.reason if self.rt.cancel and self.rt.cancel.reason else "interrupt")

    async def _wait_jobs(self) -> None:
        if self.rt.job_order:
            await self.shell.wait_all_jobs()

    async def _finish(self, outcome, streams: Streams, fds: dict) -> RunResult:
        sh = self.shell
        kind, value = outcome
        if kind == "status" and self.rt.limit_error is not None:
            kind, value = "limit", self._limit_message(self.rt.limit_error, "commands")
        if kind != "status":
            # background jobs of a failed run end with it
            pending = [t for t in self.rt.jobs.values() if not t.done()]
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=CANCEL_GRACE)
            self.rt.jobs.clear()
            self.rt.job_order.clear()
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
                msg = (f"bash: wall time limit exceeded ({self.rt.limits.wall_time:g} s; limit wall_time; "
                       f"{self.rt.limits.raise_hint('wall_time', ceilings=self._ceilings())})")
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
        return limit_message(message, limit, self.rt.limits, self._ceilings())

    async def _run_int_trap(self, streams: Streams, fds: dict) -> None:
        sh = self.shell
        action = sh.traps.get("INT")
        if not action:
            return
        rt = self.rt
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
        tasks = [t for t in self.rt.jobs.values() if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.rt.jobs.clear()
        self.rt.job_order.clear()
