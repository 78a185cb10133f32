"""`vm CMD ARGS...`: run one command in the notebook's microVM with the pipeline's streams."""
from __future__ import annotations

from ..commands.registry import CommandContext, command

VM_HELP = """\
Usage: vm [--root | --user] [--keep] COMMAND [ARG]...
Run COMMAND in the notebook's Linux microVM (started on first use) with this pipeline's
standard input and output, as the VM's user 'user' (--root: as root; the default follows
%vm config user=). The sandbox's /workspace is synced into the VM before the command and the
VM's changes are synced back after it. What COMMAND leaves running in the background ends
with it, unless --keep (or %vm config daemons=on).

  cat data.csv | vm python3 -c 'import sys; print(len(sys.stdin.read()))'

Exit status is COMMAND's (128+N when killed by signal N, 124 on time-out, 127 not found)."""


@command("vm", help=VM_HELP, own_help=True)  # `vm grep --help` is grep's help, not ours
async def vm(ctx: CommandContext) -> int:
    if ctx.sandbox is None:
        await ctx.error("no sandbox: the VM is not available here")
        return 1
    if ctx.args[:1] == ["--help"]:
        await ctx.out(VM_HELP + "\n")
        return 0
    from ..sandbox import EngineUnavailable

    try:
        engine = ctx.sandbox.engine("vm")
    except EngineUnavailable as e:
        await ctx.error(str(e))
        return 1
    return await engine.run_command(ctx)
