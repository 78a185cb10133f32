"""The guest's half of the Python engine: runs INSIDE the sandboxed CPython (wasm), never in
the kernel. The host sends this file's text in the instance's first turn; it becomes the module
``_sandbox``, and every later turn is ``__import__('_sandbox').main()``.

Everything between the guest and the host goes through the module's one door, ``_host.call``:
a JSON request, a JSON answer. ``main`` asks for the job (a cell, a command line, a completion),
does it, and ends with a ``done`` message. Display bundles, ``input()``, ``time.sleep`` and
figures go through the same door while the job runs. The host bounds every frame; nothing
here is trusted by the host.
"""
import ast
import base64
import builtins
import io
import json
import linecache
import os
import sys
import time
import traceback
import types

import _host

SELF = "<sandbox>"
_orig_sleep = time.sleep
_state = {"cells": 0, "mpl": False}


def call(op, **fields):
    fields["op"] = op
    try:
        raw = _host.call(json.dumps(fields, default=str).encode("utf-8", "surrogatepass"))
    except OSError as e:
        raise OSError(f"the sandbox refused this request ({op}): {e}") from None
    answer = json.loads(raw) if raw else {}
    if answer.get("interrupted"):
        raise KeyboardInterrupt()
    if answer.get("error"):
        raise OSError(answer["error"])
    return answer


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


# --------------------------------------------------------------------------- rich output
_MIME_METHODS = (
    ("text/html", "_repr_html_"), ("text/markdown", "_repr_markdown_"), ("image/svg+xml", "_repr_svg_"),
    ("image/png", "_repr_png_"), ("image/jpeg", "_repr_jpeg_"), ("text/latex", "_repr_latex_"),
    ("application/json", "_repr_json_"), ("application/javascript", "_repr_javascript_"),
)


def _plain(obj):
    try:
        import pprint
        text = pprint.pformat(obj) if isinstance(obj, (dict, list, tuple, set)) else repr(obj)
    except Exception as e:  # a broken __repr__
        text = f"<{type(obj).__name__} object (repr failed: {type(e).__name__}: {e})>"
    return text


def _figure_png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def mime_bundle(obj, include=None, exclude=None):
    """(data, metadata) for obj, as IPython's display formatter makes it."""
    data, metadata = {}, {}
    method = getattr(type(obj), "_repr_mimebundle_", None)
    if method is not None:
        try:
            got = obj._repr_mimebundle_(include=include, exclude=exclude)
            if isinstance(got, tuple):
                got, md = got
                metadata.update(md or {})
            data.update(got or {})
        except Exception:
            pass
    mpl_figure = _is_figure(obj)
    if mpl_figure and "image/png" not in data:
        data["image/png"] = _figure_png(obj)
    for mime, name in _MIME_METHODS:
        if mime in data:
            continue
        method = getattr(type(obj), name, None)
        if method is None:
            continue
        try:
            value = getattr(obj, name)()
        except Exception:
            continue
        if value is None:
            continue
        if isinstance(value, tuple):
            value, md = value
            metadata[mime] = md
        if isinstance(value, bytes):
            value = base64.b64encode(value).decode("ascii") if mime.startswith("image/") else value.decode()
        data[mime] = value
    if "text/plain" not in data:
        data["text/plain"] = _plain(obj)
    if include:
        data = {k: v for k, v in data.items() if k in include}
    if exclude:
        data = {k: v for k, v in data.items() if k not in exclude}
    return data, metadata


def _is_figure(obj):
    mpl = sys.modules.get("matplotlib.figure")
    return mpl is not None and isinstance(obj, mpl.Figure)


def display(*objs, include=None, exclude=None, metadata=None, transient=None, display_id=None,
            raw=False, clear=False, update=False, **kwargs):
    """IPython's display(): each object as a display_data message."""
    _flush()
    if display_id is True:
        display_id = f"sk-{time.monotonic_ns()}"
    for obj in objs:
        if raw:
            data, md = dict(obj), {}
        else:
            data, md = mime_bundle(obj, include, exclude)
        if metadata:
            md.update(metadata)
        call("display", data=data, metadata=md, id=display_id, update=update)
    if display_id:
        return DisplayHandle(display_id)
    return None


def update_display(obj, *, display_id, **kwargs):
    display(obj, display_id=display_id, update=True, **kwargs)


def clear_output(wait=False):
    _flush()
    call("clear", wait=bool(wait))


class DisplayHandle:
    def __init__(self, display_id=None):
        self.display_id = display_id or f"sk-{time.monotonic_ns()}"

    def display(self, obj, **kwargs):
        display(obj, display_id=self.display_id, **kwargs)

    def update(self, obj, **kwargs):
        update_display(obj, display_id=self.display_id, **kwargs)


class _Rich:
    mime = "text/plain"

    def __init__(self, data=None, url=None, filename=None, metadata=None, **kwargs):
        if filename is not None and data is None:
            with open(filename, "rb" if self.mime.startswith("image/") and self.mime != "image/svg+xml" else "r") as f:
                data = f.read()
        self.data, self.url, self.metadata = data, url, metadata

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = self.data
        if isinstance(data, bytes) and self.mime.startswith("image/") and self.mime != "image/svg+xml":
            data = base64.b64encode(data).decode("ascii")
        elif isinstance(data, bytes):
            data = data.decode("utf-8", "replace")
        elif self.mime == "application/json" and not isinstance(data, str):
            pass
        out = {self.mime: data, "text/plain": f"<{type(self).__name__} object>"}
        return (out, {self.mime: self.metadata}) if self.metadata else out


class HTML(_Rich):
    mime = "text/html"


class Markdown(_Rich):
    mime = "text/markdown"


class SVG(_Rich):
    mime = "image/svg+xml"


class Latex(_Rich):
    mime = "text/latex"


class Math(_Rich):
    mime = "text/latex"

    def __init__(self, data=None, **kwargs):
        super().__init__(f"$\\displaystyle {data}$" if data is not None else None, **kwargs)


class JSON(_Rich):
    mime = "application/json"


class Javascript(_Rich):
    mime = "application/javascript"


class Pretty(_Rich):
    mime = "text/plain"


class Image(_Rich):
    def __init__(self, data=None, url=None, filename=None, format=None, metadata=None, width=None,
                 height=None, **kwargs):
        fmt = (format or (filename or "").rsplit(".", 1)[-1] or "png").lower()
        self.mime = "image/jpeg" if fmt in ("jpg", "jpeg") else "image/svg+xml" if fmt == "svg" else "image/png"
        md = dict(metadata or {})
        if width:
            md["width"] = width
        if height:
            md["height"] = height
        super().__init__(data, url, filename, md or None)


def _ipython_modules():
    ipython = types.ModuleType("IPython")
    disp = types.ModuleType("IPython.display")
    names = dict(display=display, update_display=update_display, clear_output=clear_output, HTML=HTML,
                 Markdown=Markdown, SVG=SVG, Latex=Latex, Math=Math, JSON=JSON, Javascript=Javascript,
                 Image=Image, Pretty=Pretty, DisplayHandle=DisplayHandle)
    disp.__dict__.update(names)
    ipython.display = disp
    ipython.__dict__.update(display=display, get_ipython=lambda: None, version_info=(8, 30, 0),
                            __version__="8.30.0")
    ipython.__path__ = []
    disp.__file__ = ipython.__file__ = SELF
    return {"IPython": ipython, "IPython.display": disp}


class _ShimFinder:
    """`from IPython.display import display, HTML, ...` as in IPython, for notebooks written
    there; made on first import only (matplotlib looks for an imported IPython)."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name not in ("IPython", "IPython.display"):
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(name, cls, is_package=name == "IPython")

    @staticmethod
    def create_module(spec):
        made = _state.setdefault("ipython", _ipython_modules())
        return made[spec.name]

    @staticmethod
    def exec_module(module):
        if module.__name__ == "IPython.display":
            sys.modules["IPython"].display = module


def _install_ipython_shim():
    if _ShimFinder not in sys.meta_path:
        sys.meta_path.append(_ShimFinder)


# --------------------------------------------------------------------------- matplotlib
def _setup_matplotlib_env():
    os.environ.setdefault("MPLBACKEND", "agg")


def _flush_figures():
    """Every open pyplot figure as an inline PNG, then closed (matplotlib-inline's behaviour)."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        nums = plt.get_fignums()
    except Exception:
        return
    for num in nums:
        try:
            fig = plt.figure(num)
            display(fig)
        except KeyboardInterrupt:
            raise
        except Exception as e:
            print(f"figure {num} could not be drawn: {type(e).__name__}: {e}", file=sys.stderr)
    try:
        plt.close("all")
    except Exception:
        pass


def _patch_pyplot():
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None or getattr(plt, "_sandbox_patched", False):
        return
    plt._sandbox_patched = True

    def show(*args, **kwargs):
        _flush_figures()
    plt.show = show


# --------------------------------------------------------------------------- input, sleep
def _input(prompt=""):
    _flush()
    answer = call("input", prompt=str(prompt), password=False)
    if answer.get("eof"):
        raise EOFError("EOF when reading a line")
    return answer.get("line", "")


def _getpass(prompt="Password: ", stream=None):
    _flush()
    answer = call("input", prompt=str(prompt), password=True)
    if answer.get("eof"):
        raise EOFError("EOF when reading a line")
    return answer.get("line", "")


def _sleep(seconds):
    seconds = float(seconds)
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    if seconds < 0.01:
        return _orig_sleep(seconds)
    _flush()
    call("sleep", seconds=seconds)


# --------------------------------------------------------------------------- errors
def _frames_of_user(tb):
    while tb is not None and tb.tb_frame.f_code.co_filename == SELF:
        tb = tb.tb_next
    return tb


def error_info(e):
    """(ename, evalue, traceback lines) with the helper's own frames left out."""
    tb = _frames_of_user(e.__traceback__)
    lines = traceback.format_exception(type(e), e, tb)
    text = "".join(lines).rstrip("\n")
    try:
        evalue = str(e)
    except Exception:
        evalue = "<exception str() failed>"
    return type(e).__name__, evalue, text.split("\n")


# --------------------------------------------------------------------------- the jobs
def _prepare(job):
    os.environ.clear()
    os.environ.update(job.get("env") or {})
    _setup_matplotlib_env()
    cwd = job.get("cwd") or "/"
    try:
        os.chdir(cwd)
    except OSError:
        os.chdir("/")


def _run_cell(job):
    _state["cells"] += 1
    code, filename = job["code"], job.get("filename") or f"<cell {_state['cells']}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    main = sys.modules["__main__"].__dict__
    result = {"status": 0}
    try:
        try:
            tree = ast.parse(code, filename, "exec")
        except SyntaxError as e:
            ename, evalue, lines = error_info(e)
            return {"status": 1, "error": {"ename": ename, "evalue": evalue, "traceback": lines}}
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr) and not code.rstrip().endswith(";"):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, filename, "exec"), main)
        if last is not None:
            value = eval(compile(last, filename, "eval"), main)
            _patch_pyplot()
            if value is not None:
                main["_"] = value
                _flush()
                data, metadata = mime_bundle(value)
                if _is_figure(value):
                    try:
                        sys.modules["matplotlib.pyplot"].close(value)
                    except Exception:
                        pass
                result["value"], result["metadata"] = data, metadata
        _patch_pyplot()
        _flush_figures()
    except SystemExit as e:
        code = e.code
        if code is None or code == 0:
            return result
        ename, evalue, lines = error_info(e)
        result = {"status": code if isinstance(code, int) else 1,
                  "error": {"ename": ename, "evalue": evalue, "traceback": lines}}
    except BaseException as e:
        ename, evalue, lines = error_info(e)
        result = {"status": 1, "error": {"ename": ename, "evalue": evalue, "traceback": lines}}
        try:
            _flush_figures()
        except BaseException:
            pass
    finally:
        _flush()
    return result


def _exit_status(e):
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except Exception:
        pass
    return 1


def _run_main(job):
    """`python3 ARGS`: -c, -m, a script path or a script on stdin, as CPython's main does."""
    import runpy
    argv = job["argv"]
    mode, target = job["mode"], job.get("target")
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    sys.argv = list(argv)
    try:
        try:
            if mode == "c":
                sys.path.insert(0, "")
                exec(compile(target, "<string>", "exec"), main.__dict__)
            elif mode == "m":
                sys.path.insert(0, os.getcwd())
                runpy.run_module(target, run_name="__main__", alter_sys=True)
            elif mode == "stdin":
                sys.path.insert(0, "")
                exec(compile(job.get("code", ""), "<stdin>", "exec"), main.__dict__)
            else:
                sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
                runpy.run_path(target, run_name="__main__")
            _flush_figures_silently()
            status = 0
        except SystemExit as e:
            status = _exit_status(e)
        except KeyboardInterrupt:
            traceback.print_exc()
            status = 130
        except BaseException as e:
            tb = _frames_of_user(e.__traceback__)
            # runpy's own frames are the interpreter's, not the script's
            while tb is not None and tb.tb_frame.f_code.co_filename.endswith("runpy.py"):
                tb = tb.tb_next
            sys.stderr.write("".join(traceback.format_exception(type(e), e, tb)))
            status = 1
    finally:
        _flush()
    return {"status": status}


def _flush_figures_silently():
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        try:
            plt.close("all")
        except Exception:
            pass


def _complete(job):
    import rlcompleter
    code, cursor = job["code"], job["cursor"]
    text = code[:cursor]
    start = cursor
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    word = text[start:]
    matches = []
    if word or (start > 0 and text[start - 1] not in " \t\n(,[{=:+-*/"):
        pass
    namespace = sys.modules["__main__"].__dict__
    completer = rlcompleter.Completer(namespace)
    if "." in word:
        # attribute completion evaluates the expression before the last dot: only a chain of
        # plain names, never a call or subscript (nothing of the user's runs beyond getattr)
        head = word.rsplit(".", 1)[0]
        if not all(part.isidentifier() for part in head.split(".")):
            return {"start": cursor, "matches": []}
    k = 0
    while len(matches) < 500:
        try:
            m = completer.complete(word, k)
        except Exception:
            break
        if m is None:
            break
        matches.append(m)
        k += 1
    matches = [m[:-1] if m.endswith("(") else m for m in matches]
    if "." in word:
        prefix = word.rsplit(".", 1)[0] + "."
        matches = [m[len(prefix):] if m.startswith(prefix) else m for m in matches]
        start = start + len(prefix)
    return {"start": start, "matches": sorted(set(matches), key=lambda n: (n.startswith("_"), n.lower()))}


def _inspect(job):
    import inspect
    import pydoc
    code, cursor = job["code"], job["cursor"]
    end = cursor
    while end < len(code) and (code[end].isalnum() or code[end] == "_"):
        end += 1
    start = cursor
    while start > 0 and (code[start - 1].isalnum() or code[start - 1] in "_."):
        start -= 1
    word = code[start:end].strip(".")
    if not word:  # inside a call: the function before the opening bracket
        depth, k = 0, cursor - 1
        while k >= 0:
            ch = code[k]
            if ch == ")":
                depth += 1
            elif ch == "(":
                if depth == 0:
                    break
                depth -= 1
            k -= 1
        if k < 0:
            return {"text": None}
        e = k
        s = e
        while s > 0 and (code[s - 1].isalnum() or code[s - 1] in "_."):
            s -= 1
        word = code[s:e]
    parts = word.split(".")
    if not word or not all(p.isidentifier() for p in parts):
        return {"text": None}
    namespace = sys.modules["__main__"].__dict__
    if parts[0] in namespace:
        obj = namespace[parts[0]]
    elif hasattr(builtins, parts[0]):
        obj = getattr(builtins, parts[0])
    else:
        return {"text": None}
    for p in parts[1:]:
        obj = inspect.getattr_static(obj, p) if not hasattr(obj, p) else getattr(obj, p)
    lines = [f"Type:      {type(obj).__name__}"]
    try:
        sig = str(inspect.signature(obj))
        lines.insert(0, f"Signature: {parts[-1]}{sig}")
    except (TypeError, ValueError):
        pass
    if not callable(obj) or isinstance(obj, (int, float, str, list, dict, tuple, set)):
        r = _plain(obj)
        lines.append(f"Value:     {r[:500]}")
    doc = inspect.getdoc(obj)
    if doc:
        lines.append("Docstring:\n" + pydoc.plain(doc)[:3000])
    return {"text": "\n".join(lines)}


def _setup_once():
    if _state.get("ready"):
        return
    _state["ready"] = True
    builtins.input = _input
    builtins.display = display
    time.sleep = _sleep
    try:
        import getpass
        getpass.getpass = _getpass
    except Exception:
        pass
    try:
        import pydoc
        pydoc.pager = pydoc.plainpager  # no "-- more --" prompt: the notebook is not a terminal
    except Exception:
        pass
    os.environ["TERM"] = "dumb"
    _install_ipython_shim()
    sys.ps1, sys.ps2 = ">>> ", "... "


def main():
    _setup_once()
    job = call("job")
    kind = job.get("kind")
    outcome = {"status": 1}
    try:
        if kind in ("cell", "main"):
            _prepare(job)
        if kind == "cell":
            outcome = _run_cell(job)
        elif kind == "main":
            outcome = _run_main(job)
        elif kind == "complete":
            outcome = _complete(job)
        elif kind == "inspect":
            outcome = _inspect(job)
    except BaseException as e:  # the helper's own failure: reported, never a dead instance
        ename, evalue, lines = error_info(e)
        outcome = {"status": 1, "error": {"ename": ename, "evalue": evalue, "traceback": lines}}
    try:
        call("done", **outcome)
    except Exception as e:
        call("done", status=1, error={"ename": "ValueError", "evalue": f"the result could not be sent: {e}",
                                      "traceback": []})
