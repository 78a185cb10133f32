"""Command-line handling of `js` / `node` (node's own options where they make sense)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .transform import Cell, prepare_cell

VERSION = "v22.0.0 (sandbox: QuickJS-NG in wasmtime)"

HELP = """\
Usage: js [options] [ script.js | - ] [arguments]
       js -e 'code' [arguments]
Run JavaScript (QuickJS-NG in WebAssembly) on the sandbox filesystem; `node` is an alias.
stdin, stdout and stderr are the pipeline's, so `cat data.json | js -e '...' | sort` works.

  -e, --eval CODE    evaluate CODE (top-level await allowed)
  -p, --print CODE   evaluate CODE and print the result
  -v, --version      print the version
  -                  read the script from standard input
      --help         show this help

Scripts are CommonJS (require) unless they end in .mjs or use import/export.
Available: console, process (argv, env, exit, stdin, stdout), fs, path, util, events,
readline, os, crypto, assert, Buffer, TextEncoder, timers, qjs:std and qjs:os."""

_ESM = re.compile(r"^\s*(import\s*[\w*{'\"]|export\s)", re.MULTILINE)


@dataclass
class Plan:
    argv: list[str] = field(default_factory=list)
    code: str | None = None
    path: str | None = None
    stdin_script: bool = False
    print_result: bool = False
    is_module: bool = False
    error_prefix: str = ""


@dataclass
class Exit:
    """Parsing ended the command: print these and return ``status``."""
    status: int
    stdout: str = ""
    stderr: str = ""


def parse_command_line(ctx) -> Plan | Exit:
    """What to run, or an Exit (usage error, --version)."""
    args = list(ctx.args)
    plan = Plan()
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a in ("-e", "--eval", "-p", "--print", "-pe", "-ep"):
            if i + 1 >= len(args):
                return Exit(9, stderr=f"{ctx.name}: {a} requires an argument\n")
            plan.code = args[i + 1]
            plan.print_result = a in ("-p", "--print", "-pe", "-ep")
            i += 2
            continue
        if a.startswith("--eval=") or a.startswith("--print="):
            plan.code = a.split("=", 1)[1]
            plan.print_result = a.startswith("--print=")
            i += 1
            continue
        if a in ("-v", "--version"):
            return Exit(0, stdout=VERSION + "\n")
        if a == "-":
            plan.stdin_script = True
            i += 1
            break
        if a.startswith("-") and len(a) > 1:
            return Exit(9, stderr=f"{ctx.name}: bad option: {a}\n")
        break
    rest = args[i:]
    if plan.code is not None or plan.stdin_script:
        plan.argv = ["/usr/bin/node", *rest]
        return plan
    if not rest:
        plan.stdin_script = True
        plan.argv = ["/usr/bin/node"]
        return plan
    if ctx.is_stdin_operand(rest[0]):
        # `js /dev/stdin`: the script is the command's stdin (the pipeline's, not the host's)
        plan.stdin_script = True
        plan.argv = ["/usr/bin/node", *rest]
        return plan
    path = ctx.resolve(rest[0])
    if not ctx.fs.is_file(path):
        what = "Is a directory" if ctx.fs.is_dir(path) else "No such file or directory"
        return Exit(1, stderr=f"{ctx.name}: cannot open '{rest[0]}': {what}\n")
    plan.path = path
    plan.argv = ["/usr/bin/node", path, *rest[1:]]
    if path.endswith(".mjs"):
        plan.is_module = True
    elif not path.endswith(".cjs"):
        head = ctx.fs.read_bytes(path)[:200_000].decode("utf-8", "replace")
        plan.is_module = bool(_ESM.search(head)) and "require(" not in head
    return plan


def script_source(plan: Plan) -> tuple[Cell, str]:
    """(the async script to evaluate, its file name)."""
    if plan.path is not None:
        if plan.is_module:
            return Cell(f"await import({json.dumps(plan.path)}); undefined"), plan.path
        return Cell(f"__sandbox.runMain({json.dumps(plan.path)}); undefined"), plan.path
    name = "[stdin]" if plan.stdin_script else "[eval]"
    return prepare_cell(plan.code or ""), name
