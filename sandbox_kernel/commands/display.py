"""display: rich output (images, HTML, Markdown, JSON) in the notebook, from VFS files or text."""
from __future__ import annotations

from ..chars import isdigits
from ._lib.mimebundle import DisplayError, guess_type, make_bundle, resolve_type
from .options import UsageError, getopt
from .registry import CommandContext, command

DISPLAY_HELP = """Usage: display [OPTION]... FILE...
  or:  display --html TEXT | --markdown TEXT | --svg TEXT | --json TEXT | --latex TEXT
  or:  display --clear [--wait]
Show files or text as rich output in the notebook (as display_data).

FILE types come from the name (.png .jpg .jpeg .gif .svg .html .md .json .tex .txt ...)
or from the contents; with FILE -, read standard input (give its type with -t).

  -t, --type=TYPE     show FILEs as TYPE: png, jpeg, gif, svg, html, markdown, json,
                        latex, text, pdf, or a MIME type such as image/png
      --html=TEXT     show TEXT as HTML (TEXT - reads standard input)
      --markdown=TEXT show TEXT as Markdown
      --svg=TEXT      show TEXT as an SVG image
      --json=TEXT     show TEXT as JSON
      --latex=TEXT    show TEXT as LaTeX
      --width=N       display images N pixels wide
      --id=ID         name this output so that a later --update replaces it
  -u, --update        replace the output named by --id instead of adding one
      --clear         clear the output of the current cell
      --wait          with --clear: clear only when new output arrives
      --help          display this help and exit

Examples:
  display plot.svg
  display --html '<b>bold</b>'
  display --id progress --markdown '**0 %**'; display --id progress -u --markdown '**50 %**'
"""

_TEXT_OPTIONS = {"html": "text/html", "markdown": "text/markdown", "svg": "image/svg+xml",
                 "json": "application/json", "latex": "text/latex"}


@command("display", help=DISPLAY_HELP)
async def display(ctx: CommandContext) -> int:
    long = {name + "=": name for name in _TEXT_OPTIONS}
    long.update({"type=": "t", "width=": "width", "id=": "id", "update": "u",
                 "clear": "clear", "wait": "wait"})
    opts, operands = getopt(ctx.args, "t:u", long)
    mime_option = None
    texts: list[tuple[str, str]] = []  # (mime, text or "-")
    width = display_id = None
    update = clear = wait = False
    try:
        for key, value in opts:
            if key == "t":
                mime_option = resolve_type(value or "")
            elif key in _TEXT_OPTIONS:
                texts.append((_TEXT_OPTIONS[key], value or ""))
            elif key == "width":
                if not isdigits(value or "") or int(value) <= 0:
                    raise UsageError(f"invalid width '{value}': a positive number of pixels")
                width = int(value)
            elif key == "id":
                if not value:
                    raise UsageError("--id needs a non-empty ID")
                display_id = value
            elif key == "u":
                update = True
            elif key == "clear":
                clear = True
            elif key == "wait":
                wait = True
    except DisplayError as e:
        raise UsageError(str(e)) from None
    if update and display_id is None:
        raise UsageError("--update needs --id ID (the output to replace)")
    if update and len(texts) + len(operands) != 1:
        raise UsageError("--update replaces one output: give one FILE or TEXT")
    if wait and not clear:
        raise UsageError("--wait only goes with --clear")
    if not clear and not texts and not operands:
        raise UsageError("missing file operand")

    hook = getattr(ctx.shell, "display", None) or getattr(ctx.sandbox, "current_display", None)
    if hook is None:
        await ctx.error("no notebook to display in (rich output needs the Jupyter kernel)")
        return 1

    if clear:
        clear_output = getattr(hook, "clear", None)
        if clear_output is None:
            await ctx.error("--clear is not supported by this front end")
            return 1
        clear_output(wait)

    bundles: list[dict] = []
    status = 0
    for mime, text in texts:
        data = await ctx.stdin.read() if text == "-" else text.encode("utf-8", "surrogateescape")
        try:
            bundles.append(make_bundle(data, mime, "standard input" if text == "-" else mime.split("/")[-1]))
        except DisplayError as e:
            await ctx.error(str(e))
            status = 1
    for path in operands:
        label = "standard input" if path == "-" else path
        try:
            data = await ctx.stdin.read() if path == "-" else ctx.read_file(path)
        except OSError as e:
            await ctx.file_error(path, e)
            status = 1
            continue
        mime = mime_option or (guess_type(path, data) if path != "-" else "text/plain")
        try:
            bundles.append(make_bundle(data, mime, label))
        except DisplayError as e:
            await ctx.error(str(e))
            status = 1
    for bundle in bundles:
        metadata: dict = {}
        if width is not None:
            for mime in bundle:
                if mime.startswith("image/"):
                    metadata[mime] = {"width": width}
        hook(bundle, metadata, display_id, update)
    return status
