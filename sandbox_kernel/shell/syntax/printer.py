"""Print commands back as text, formatted the way bash shows functions (`declare -f`, `type`)."""
from __future__ import annotations

from .ast import (
    AndOr, ArithCommand, ArithFor, Assign, BraceGroup, Case, CommandList, CondAnd, CondBinary,
    CondCommand, CondExpr, CondNot, CondOr, CondUnary, CondWord, For, FunctionDef, HereDoc, If, Loop,
    Node, Pipeline, Redir, Select, SimpleCommand, Subshell, Word,
)

INDENT = "    "


def format_function(f: FunctionDef) -> str:
    body = f.body
    if isinstance(body, BraceGroup):
        inner = _list(body.body, 1, last_semicolon=False)
        text = f"{f.name} () \n{{ \n{inner}\n}}"
        return text + _redirs(body.redirs)
    return f"{f.name} () \n{{ \n{INDENT}{_command(body, 1)}\n}}"


def format_word(w: Word | Assign) -> str:
    """A word as written (an Assign among declare's words as NAME=value)."""
    if isinstance(w, Assign):
        return _assign(w)
    if w.source is not None:
        return w.source
    return "".join(getattr(p, "text", "") for p in w.parts)


def _assign(a: Assign) -> str:
    op = "+=" if a.append else "="
    target = a.name + (f"[{format_word(a.index)}]" if a.index is not None else "")
    if a.array is not None:
        items = []
        for el in a.array:
            if isinstance(el, tuple):
                items.append(f"[{format_word(el[0])}]{'+=' if el[2] else '='}{format_word(el[1])}")
            else:
                items.append(format_word(el))
        return f"{target}{op}({' '.join(items)})"
    return f"{target}{op}{format_word(a.value) if a.value is not None else ''}"


def _redirs(redirs: list[Redir]) -> str:
    out = []
    for r in redirs:
        fd = "" if r.fd is None else str(r.fd)
        if r.fd_var:
            fd = "{" + r.fd_var + "}"
        if isinstance(r.target, HereDoc):
            out.append(f"{fd}{r.op}{r.target.delimiter}")
        elif r.op in (">&", "<&"):
            out.append(f"{fd}{r.op}{format_word(r.target)}")
        else:
            out.append(f"{fd}{r.op} {format_word(r.target)}")
    return (" " + " ".join(out)) if out else ""


def _heredocs(redirs: list[Redir]) -> list[HereDoc]:
    return [r.target for r in redirs if isinstance(r.target, HereDoc)]


def _list(node: Node, level: int, last_semicolon: bool) -> str:
    """The commands of a list, one per line at ``level``."""
    items = node.items if isinstance(node, CommandList) else [(node, False)]
    lines = []
    pad = INDENT * level
    for k, (cmd, background) in enumerate(items):
        text = _command(cmd, level)
        docs = _all_heredocs(cmd)
        last = k == len(items) - 1
        if background:
            text += " &"
        elif not last or last_semicolon:
            text += "" if docs else ";"
        if docs:
            text += "\n" + "".join(d.raw + d.delimiter + "\n" for d in docs)
        lines.append(pad + text)
    return "\n".join(lines)


def _all_heredocs(cmd: Node) -> list[HereDoc]:
    if isinstance(cmd, SimpleCommand):
        return _heredocs(cmd.redirs)
    if isinstance(cmd, Pipeline):
        return [d for c in cmd.commands for d in _all_heredocs(c)]
    if isinstance(cmd, AndOr):
        return _all_heredocs(cmd.first) + [d for _, c in cmd.rest for d in _all_heredocs(c)]
    return []


def _command(node: Node, level: int) -> str:
    pad = INDENT * level
    if isinstance(node, SimpleCommand):
        parts = [_assign(a) for a in node.assigns] + [format_word(w) for w in node.words]
        return " ".join(parts) + _redirs(node.redirs) if parts else _redirs(node.redirs).lstrip()
    if isinstance(node, Pipeline):
        text = " | ".join(_command(c, level) for c in node.commands)
        return ("! " if node.negate else "") + ("time " if node.timed else "") + text
    if isinstance(node, AndOr):
        text = _command(node.first, level)
        for op, c in node.rest:
            text += f" {op} {_command(c, level)}"
        return text
    if isinstance(node, CommandList):
        return "; ".join(_command(c, level) + (" &" if bg else "") for c, bg in node.items)
    if isinstance(node, If):
        out = []
        for k, (cond, body) in enumerate(node.clauses[:1]):
            out.append(f"if {_inline(cond, level)}; then\n{_list(body, level + 1, True)}\n")
        rest = node.clauses[1:]
        if rest:
            nested = If(rest, node.else_body, [])
            out.append(f"{pad}else\n{INDENT * (level + 1)}{_command(nested, level + 1)};\n")
        elif node.else_body is not None:
            out.append(f"{pad}else\n{_list(node.else_body, level + 1, True)}\n")
        out.append(f"{pad}fi")
        return "".join(out) + _redirs(node.redirs)
    if isinstance(node, Loop):
        word = "until" if node.until else "while"
        return (f"{word} {_inline(node.condition, level)}; do\n{_list(node.body, level + 1, True)}\n"
                f"{pad}done" + _redirs(node.redirs))
    if isinstance(node, (For, Select)):
        word = "for" if isinstance(node, For) else "select"
        words = "" if node.words is None else " in " + " ".join(format_word(w) for w in node.words)
        return (f"{word} {node.var}{words};\n{pad}do\n{_list(node.body, level + 1, True)}\n{pad}done"
                + _redirs(node.redirs))
    if isinstance(node, ArithFor):
        parts = [(format_word(w).strip() if w is not None else "") for w in (node.init, node.condition, node.step)]
        return (f"for (({parts[0]}; {parts[1]}; {parts[2]}))\n{pad}do\n{_list(node.body, level + 1, True)}\n"
                f"{pad}done" + _redirs(node.redirs))
    if isinstance(node, Case):
        out = [f"case {format_word(node.word)} in \n"]
        for item in node.items:
            pats = " | ".join(format_word(p) for p in item.patterns)
            out.append(f"{INDENT * (level + 1)}{pats})\n")
            if item.body is not None:
                out.append(_list(item.body, level + 2, False) + "\n")
            out.append(f"{INDENT * (level + 1)}{item.terminator}\n")
        out.append(f"{pad}esac")
        return "".join(out) + _redirs(node.redirs)
    if isinstance(node, BraceGroup):
        return f"{{ \n{_list(node.body, level + 1, False)}\n{pad}}}" + _redirs(node.redirs)
    if isinstance(node, Subshell):
        return f"( {_inline(node.body, level)} )" + _redirs(node.redirs)
    if isinstance(node, ArithCommand):
        return f"(( {format_word(node.expr).strip()} ))" + _redirs(node.redirs)
    if isinstance(node, CondCommand):
        return f"[[ {format_cond(node.expr)} ]]" + _redirs(node.redirs)
    if isinstance(node, FunctionDef):
        return format_function(node)
    return ""


def format_command(node: Node) -> str:
    """A command on one line, as bash shows a job (`jobs`, its notices): ``sleep 5``,
    ``( exit 3 )``, ``{ echo a; echo b; } > f``, ``while true; do date; done``."""
    text = _command(node, 0)
    if "\n" not in text:
        return text.strip()
    out = ""
    for line in text.split("\n"):
        part = line.strip()
        if not part:
            continue
        if out and (part == "}" or part.startswith("} ")) and not out.endswith((";", "&", "{")):
            out += ";"
        out = f"{out} {part}" if out else part
    return out


def _inline(node: Node, level: int) -> str:
    if isinstance(node, CommandList):
        return "; ".join(_command(c, level) + (" &" if bg else "") for c, bg in node.items)
    return _command(node, level)


def format_cond(e: CondExpr) -> str:
    """A ``[[ ]]`` expression as written (for xtrace and ``declare -f``)."""
    if isinstance(e, CondAnd):
        return f"{format_cond(e.left)} && {format_cond(e.right)}"
    if isinstance(e, CondOr):
        return f"{format_cond(e.left)} || {format_cond(e.right)}"
    if isinstance(e, CondNot):
        return f"! {format_cond(e.expr)}"
    if isinstance(e, CondUnary):
        return f"{e.op} {format_word(e.operand)}"
    if isinstance(e, CondBinary):
        return f"{format_word(e.left)} {e.written or e.op} {format_word(e.right)}"
    if isinstance(e, CondWord):
        return format_word(e.word)
    return ""


__all__ = ["format_command", "format_cond", "format_function", "format_word"]
