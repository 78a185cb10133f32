"""nano, edit, vi, vim: open sandbox files in the JupyterLab editor (through the Sandbox files
panel's comm) and return once their editor tabs are closed. There is no terminal editor: a
notebook cell has no keyboard to give it."""
from __future__ import annotations

import asyncio

from ._lib.quoting import quote
from .processes import cancel_token
from .registry import CommandContext, command

EDIT_HELP = """Usage: nano FILE...
  or:  edit FILE...   (also vi, vim)
Open each FILE (at most 16) in a JupyterLab editor tab (through the Sandbox files panel) and
wait until the tabs are closed: save with Ctrl+S, then close the tab to continue. A FILE that does not
exist yet is created when it is saved. Options for the terminal editors (nano -w, vim +N ...)
are accepted and ignored.

Without JupyterLab's panel (jupyter console, nbclient, papermill) there is no editor: write the
file from a cell instead:
  cat > FILE <<'EOF'
  text
  EOF"""

EDITORS = ("nano", "edit", "vi", "vim")
#: Files one command opens: each is an editor tab in the browser (`nano $(seq 500)` opened 500).
MAX_FILES = 16


def no_panel_message(name: str, path: str) -> str:
    target = quote(path, "shell-escape") if path else "FILE"
    return (f"{name}: no editor here: files open in JupyterLab's editor through the Sandbox files panel "
            "(the sandbox_kernel labextension), and no panel is attached to this kernel.\n"
            "Write the file from a cell instead:\n"
            f"  cat > {target} <<'EOF'\n  your text\n  EOF\n")


async def wait_or_cancel(ctx: CommandContext, work: asyncio.Future):
    """``work``'s result; on interrupt or time-out ``work`` is cancelled and CommandCancelled raised."""
    token = cancel_token(ctx)
    if token is None:
        return await work
    waiter = asyncio.ensure_future(token.wait())
    try:
        await asyncio.wait([work, waiter], return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        if not work.done():
            work.cancel()
    ctx.check()
    return work.result()


@command(*EDITORS, help=EDIT_HELP)
async def edit(ctx: CommandContext) -> int:
    paths = [a for a in ctx.args if not a.startswith(("-", "+"))]
    editors = getattr(ctx.sandbox, "editors", None)
    if editors is None or not editors.available():
        await ctx.err(no_panel_message(ctx.name, paths[0] if paths else ""))
        return 1
    if not paths:
        await ctx.error("give the FILE to edit (it opens in a JupyterLab editor tab)")
        return 1
    if len(paths) > MAX_FILES:
        await ctx.error(f"{len(paths)} files: one command opens at most {MAX_FILES} editor tabs; "
                        "give fewer files")
        return 1
    targets = []
    for path in paths:
        full = ctx.resolve(path)
        if ctx.fs.is_dir(full):
            await ctx.error(f"{quote(path, 'shell-escape')} is a directory")
            return 1
        parent = full.rsplit("/", 1)[0] or "/"
        if not ctx.fs.is_dir(parent):
            await ctx.error(f"directory {quote(parent, 'shell-escape')} does not exist")
            return 1
        targets.append((path, full))
    def told(path: str):
        async def tell() -> None:
            # the cell (or terminal) now waits on a browser tab: say so, or it looks hung
            await ctx.err(f"{ctx.name}: {quote(path, 'shell-escape')} is open in a JupyterLab editor tab; waiting "
                          "until the tab is closed (save with Ctrl+S, then close the tab)\n")
        return tell
    edits = [asyncio.ensure_future(editors.edit(full, told(path))) for path, full in targets]
    problems = await wait_or_cancel(ctx, asyncio.ensure_future(asyncio.gather(*edits)))
    status = 0
    for (path, _), problem in zip(targets, problems):
        if problem is not None:
            await ctx.error(f"{quote(path, 'shell-escape', colon=True)}: {problem}")
            status = 1
    return status
