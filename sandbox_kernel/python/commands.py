"""`python3`, `python`, `pip`: Python in the sandbox (the Python engine does the work)."""
from __future__ import annotations

from ..commands.registry import CommandContext, command
from .cmdline import HELP, PIP_HELP


@command("python3", "python", help=HELP)
async def python(ctx: CommandContext) -> int:
    return await _engine_command(ctx)


@command("pip", "pip3", help=PIP_HELP)
async def pip(ctx: CommandContext) -> int:
    return await _engine_command(ctx)


async def _engine_command(ctx: CommandContext) -> int:
    if ctx.sandbox is None:
        await ctx.error("no sandbox: the Python engine is not available here")
        return 1
    try:
        engine = ctx.sandbox.engine("python")
    except Exception as e:  # EngineUnavailable: the artefacts are missing...
        await ctx.error(str(e))
        return 1
    return await engine.run_command(ctx)
