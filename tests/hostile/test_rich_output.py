"""Rich output is untrusted: what reaches the browser is passive unless the admin allows more.

The red team ran script in JupyterLab (and from there the Jupyter contents API) through
``display --html '<img onerror=...>'`` and ``display -t application/javascript``. The browser
side is proven in tests/kernel/test_browser.py; these check the sanitiser and the kernel path."""
from __future__ import annotations

import re

import pytest

from sandbox_kernel.kernel.sanitize import clean_svg, passive_bundle, UnsafeContent

ACTIVE = re.compile(r"<script|onerror|onload|onclick|javascript:|<iframe|<form|<foreignObject|<animate"
                    r"|<set\b|@import|<object|<embed|<meta|<base|<link", re.IGNORECASE)

HTML_PAYLOADS = [
    '<img src=x onerror="alert(1)">',
    '<script>alert(1)</script>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href=" JaVaScRiPt:alert(1)">x</a>',
    '<a href="data:text/html,<script>alert(1)</script>">x</a>',
    '<iframe src="/lab"></iframe><iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<form action="/api/contents" method="post"><input name="a"><button>go</button></form>',
    '<svg onload=alert(1)><circle r=5 /></svg>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<object data="x.swf"></object><embed src="x">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="javascript:/">',
    '<style>@import url(http://evil/);</style><link rel=stylesheet href=http://evil/>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<details open ontoggle=alert(1)>x</details>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
]


@pytest.mark.parametrize("payload", HTML_PAYLOADS)
def test_html_payloads_are_made_passive(payload):
    data, _, _ = passive_bundle({"text/html": payload})
    assert not ACTIVE.search(data.get("text/html", "")), data


def test_benign_html_survives():
    html = ('<table class="dataframe"><thead><tr><th>a</th></tr></thead><tbody><tr><td style="color: red">1</td>'
            '</tr></tbody></table><b>bold</b> <a href="https://example.org">link</a>'
            '<img src="data:image/png;base64,iVBORw0KGgo=" width="10">')
    out = passive_bundle({"text/html": html})[0]["text/html"]
    for kept in ('class="dataframe"', "<th>a</th>", 'style="color:red"', "<b>bold</b>",
                 'href="https://example.org"', 'src="data:image/png;base64,iVBORw0KGgo="'):
        assert kept.replace(" ", "") in out.replace(" ", ""), (kept, out)


def test_output_cannot_dress_up_as_the_ui():
    out = passive_bundle({"text/html": '<div class="jp-Dialog lm-Widget mine" style="position:fixed;'
                                       'top:0;z-index:9999;color:blue">x</div>'})[0]["text/html"]
    assert "jp-Dialog" not in out and "lm-Widget" not in out and "mine" in out
    assert "position" not in out and "z-index" not in out and "color:blue" in out


def test_markdown_is_rendered_and_cleaned_math_kept():
    data, _, notes = passive_bundle({"text/markdown": "# T\n\n*e* $a_1 * b_<2$ <img src=x onerror=alert(1)> "
                                                      "[c](javascript:alert(1)) [ok](https://x.org)"})
    html = data["text/html"]
    assert "<h1>T</h1>" in html and "<em>e</em>" in html and 'href="https://x.org"' in html
    assert "$a_1 * b_&lt;2$" in html  # MathJax typesets it; markdown did not eat the underscores
    assert "onerror" not in html and "href=\"javascript" not in html and not notes  # the link is text
    assert "text/markdown" not in data and data["text/plain"].startswith("# T")


def test_svg_keeps_drawing_drops_script():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="a()">'
           '<script>alert(1)</script><foreignObject><div/></foreignObject>'
           '<a xlink:href="javascript:alert(2)"><rect width="10" height="10" onclick="x()" fill="url(#g)"/></a>'
           '<animate attributeName="href" to="javascript:alert(3)"/><set attributeName="onload" to="alert(4)"/>'
           '<style>@import url(http://evil/x.css); rect{fill:red}</style><use href="http://evil/x.svg#a"/>'
           '<image href="http://evil/p.png"/><linearGradient id="g"><stop offset="0"/></linearGradient>'
           '<text x="1" y="2">label</text></svg>')
    out = clean_svg(svg)
    assert not ACTIVE.search(out), out
    assert "evil" not in out
    for kept in ("<rect", 'fill="url(#g)"', "<linearGradient", "<stop", ">label</text>"):
        assert kept in out, (kept, out)


@pytest.mark.parametrize("bad", ['<!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><svg>&b;</svg>',
                                 "<svg><unclosed></svg>", "<html><body/></html>"])
def test_svg_that_cannot_be_checked_is_refused(bad):
    with pytest.raises(UnsafeContent):
        clean_svg(bad)
    data, _, notes = passive_bundle({"image/svg+xml": bad, "text/plain": "<SVG>"})
    assert "image/svg+xml" not in data and notes and data["text/plain"] == "<SVG>"


def test_active_types_are_dropped_with_a_note():
    data, metadata, notes = passive_bundle(
        {"application/javascript": "alert(1)", "text/plain": "alert(1)",
         "application/vnd.vegalite.v5+json": {}, "text/latex": r"$\href{javascript:alert(1)}{x}$"},
        {"text/html": {"isolated": False}, "application/javascript": {"x": 1}})
    assert data == {"text/plain": "alert(1)"} and metadata == {}
    assert len(notes) == 3 and all("not shown" in n for n in notes)


def test_only_image_sizes_stay_in_metadata():
    _, metadata, _ = passive_bundle({"image/png": "iVBORw0KGgo=", "text/html": "<b>x</b>"},
                                    {"image/png": {"width": 40, "unconfined": True},
                                     "text/html": {"isolated": False}, "isolated": True})
    assert metadata == {"image/png": {"width": 40}}


def test_kernel_sends_only_passive_output(kc):
    """Through a real kernel: the shell's display and the JS engine's display.mime both go
    through the sanitiser; the user is told what was dropped."""
    from kernelclient import execute, stream_text

    reply, messages = execute(kc, "display --html '<img src=x onerror=alert(1)><b>ok</b>'\n"
                                  "echo 'alert(1)' > a.js; display -t application/javascript a.js")
    assert reply["status"] == "ok"
    shown = [m["content"]["data"] for m in messages if m["msg_type"] == "display_data"]
    assert shown[0]["text/html"] == '<img src="x"><b>ok</b>'  # text/plain is shown as text
    assert shown[1] == {"text/plain": "alert(1)\n"}
    assert "application/javascript not shown" in stream_text(messages, "stderr")
    reply, messages = execute(kc, "%%js\ndisplay.mime({'application/javascript': 'alert(2)', "
                                  "'text/html': '<script>alert(3)</script><i>js</i>'}, {id: 'p'})")
    shown = [m["content"] for m in messages if m["msg_type"] == "display_data"]
    assert shown[0]["data"] == {"text/html": "<i>js</i>"}
    assert shown[0]["transient"]["display_id"] == "sandbox-p"


def test_display_counts_against_the_output_limit(kc):
    """Red team: `display` output was not counted against stdout_bytes (1.2 GB in 16 s)."""
    from kernelclient import execute, run_ok, stream_text

    run_ok(kc, "%limits stdout_bytes=64K")
    try:
        reply, messages = execute(kc, "x=$(printf '%01000d' 0); for i in $(seq 400); "
                                      "do display --html \"<b>$x</b>\"; done",
                                  timeout=120)
        shown = [m for m in messages if m["msg_type"] == "display_data"]
        assert 28 <= len(shown) <= 36, len(shown)  # ~2 KB each (HTML + its text) within 64 KiB, then nothing
        assert stream_text(messages, "stderr").count("stdout truncated") == 1
    finally:
        run_ok(kc, "%limits stdout_bytes=1M")
