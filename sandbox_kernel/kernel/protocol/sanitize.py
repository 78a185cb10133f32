"""Rich output from the sandbox, made passive before it reaches the browser.

Everything a cell displays is untrusted, and JupyterLab renders live output as trusted: HTML
with an event handler or a script would run with the user's Jupyter token (contents API, new
host kernels). So by default only passive content leaves the kernel:

- HTML is cleaned by nh3 (an allow-list: no scripts, event handlers, ``javascript:`` URLs,
  iframes, forms, ``<style>``; inline styles keep only layout-neutral properties);
- Markdown is rendered to HTML here (markdown-it, math kept for MathJax) and cleaned the same way;
- SVG keeps an allow-list of drawing elements and attributes (no script, foreignObject,
  animation, event handlers or external references);
- LaTeX that uses MathJax's link, HTML or style macros is shown as text;
- nothing loads a resource by itself: an attribute the browser fetches (``src``, ``srcset``,
  ``poster``, SVG ``href``...) keeps only an inline raster ``data:`` image, and CSS that could
  fetch (``url()`` but to ``#fragment``, ``image-set()``, ``@import``, escapes) is dropped. Relative
  URLs go too: they would reach the Jupyter server with the user's cookie (``/files/``, the
  API). Only links (``<a href>``), which load nothing until clicked, keep remote URLs;
- ``application/javascript`` and any MIME type not listed here are dropped.

An admin may allow active output for a kernelspec (``--allow-active-output``); a cell cannot.
"""
from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from typing import Any

import nh3

#: MIME types passed on unchanged: the frontends render them without running anything.
PASSIVE_TYPES = {"text/plain", "application/json", "image/png", "image/jpeg", "image/gif",
                 "application/pdf"}
#: At most this many characters of one display id (they name outputs, nothing else).
MAX_DISPLAY_ID = 256

# ------------------------------------------------------------------ CSS
#: CSS functions that compute a value and load nothing; any other (``url``, ``image-set``,
#: ``image``, ``cross-fade``, ``src``, ``element``, ``paint``, ``expression``...) may fetch.
_CSS_FUNCTIONS = {
    "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color", "color-mix",
    "calc", "min", "max", "clamp", "var", "linear-gradient", "radial-gradient", "conic-gradient",
    "repeating-linear-gradient", "repeating-radial-gradient", "repeating-conic-gradient",
    "translate", "translatex", "translatey", "rotate", "scale", "scalex", "scaley", "skew",
    "skewx", "skewy", "matrix", "blur", "brightness", "contrast", "drop-shadow", "grayscale",
    "hue-rotate", "invert", "saturate", "sepia",
}
_CSS_FUNCTION = re.compile(r"(-?[A-Za-z_\x80-\U0010ffff][-\w\x80-\U0010ffff]*)\s*\(")
_CSS_LOCAL_URL = re.compile(r"\burl\(\s*(['\"]?)#[-\w]*\1\s*\)", re.IGNORECASE)


def css_may_load(css: str) -> bool:
    """Whether a style sheet or ``style`` attribute could make the browser fetch anything:
    any at-rule (``@import``, ``@font-face``...), any CSS escape (``\\75 rl(`` is ``url(``),
    or a function not in ``_CSS_FUNCTIONS``; ``url(#id)`` (a reference inside the same
    document) is the one URL allowed. Comments and strings are not skipped: a function name
    cannot hold a comment, and a ``/*`` inside a string would hide what follows it."""
    if "\\" in css or "@" in css:
        return True
    css = _CSS_LOCAL_URL.sub("", css)
    return any(f.lower() not in _CSS_FUNCTIONS for f in _CSS_FUNCTION.findall(css))


# ------------------------------------------------------------------ HTML
_HTML_TAGS = set(nh3.ALLOWED_TAGS) | {"tfoot", "font"}
_HTML_ATTRIBUTES: dict[str, set[str]] = {tag: set(attrs) for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items()}
_HTML_ATTRIBUTES.setdefault("tfoot", set()).update({"align", "char", "charoff"})
_HTML_ATTRIBUTES["font"] = {"color", "size"}
_HTML_ATTRIBUTES["*"] = {"class", "id", "style", "title", "lang", "dir", "align", "valign",
                         "border", "cellpadding", "cellspacing", "width", "height"}
_HTML_ATTRIBUTES["img"] = _HTML_ATTRIBUTES["img"] | {"src", "alt", "title"}
_URL_SCHEMES = {"http", "https", "mailto", "data"}
#: CSS properties kept in ``style=``: what tables and text use, nothing that positions an
#: element over the notebook's UI or fetches a URL.
_STYLE_PROPERTIES = {
    "color", "background-color", "font", "font-family", "font-size", "font-style", "font-weight",
    "font-variant", "line-height", "letter-spacing", "word-spacing", "text-align", "text-decoration",
    "text-indent", "text-transform", "vertical-align", "white-space", "word-break", "word-wrap",
    "overflow-wrap", "direction", "border", "border-top", "border-right", "border-bottom",
    "border-left", "border-color", "border-style", "border-width", "border-collapse",
    "border-spacing", "border-radius", "padding", "padding-top", "padding-right", "padding-bottom",
    "padding-left", "margin", "margin-top", "margin-right", "margin-bottom", "margin-left",
    "width", "height", "min-width", "max-width", "min-height", "max-height", "display",
    "table-layout", "caption-side", "empty-cells", "list-style-type", "opacity", "text-overflow",
    "overflow", "overflow-x", "overflow-y", "visibility", "float", "clear",
}
#: Class names JupyterLab's own widgets use: output may not dress up as the UI.
#: MathJax's own classes too: ``mathjax_process`` would re-enable it inside ``_TEX_IGNORED``.
_UI_CLASS = re.compile(r"(?:jp|lm|p|bp3|mod)-|(?:tex2jax|mathjax)_", re.IGNORECASE)
_RASTER_DATA_URL = re.compile(r"data:image/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z", re.IGNORECASE)


#: Attributes whose URL a browser loads by itself, on any element (images, media, frames,
#: objects, image buttons, ``ping`` beacons, SVG references, form targets).
_RESOURCE_ATTRIBUTES = {"src", "srcset", "lowsrc", "dynsrc", "poster", "background", "data", "codebase",
                        "archive", "longdesc", "manifest", "icon", "profile", "action", "formaction",
                        "imagesrcset", "ping", "xlink:href", "usemap", "itemtype"}
#: Elements whose ``href`` is a link the user may click: it loads nothing until then.
_LINK_ELEMENTS = {"a", "area"}


def _html_attribute(tag: str, name: str, value: str) -> str | None:
    name = name.lower()
    if name == "class":
        kept = [c for c in value.split() if not _UI_CLASS.match(c)]
        return " ".join(kept) or None
    if name in _RESOURCE_ATTRIBUTES or (name == "href" and tag not in _LINK_ELEMENTS):
        # inline raster images only: any other URL, relative ones too, would be fetched
        return value if tag == "img" and name == "src" and _RASTER_DATA_URL.match(value.strip()) else None
    if name in ("href", "cite") and value.strip().lower().startswith("data:"):
        return None  # no data: documents to navigate to
    if name == "style" and css_may_load(value):
        return None
    return value


def clean_html(text: str) -> str:
    """``text`` as passive HTML (nh3 with the allow-lists above)."""
    return _tex_inert(_nh3_clean(text))


def _nh3_clean(text: str) -> str:
    return nh3.clean(text, tags=_HTML_TAGS, clean_content_tags={"script", "style"},
                     attributes=_HTML_ATTRIBUTES, attribute_filter=_html_attribute,
                     url_schemes=_URL_SCHEMES, filter_style_properties=_STYLE_PROPERTIES,
                     link_rel="noopener noreferrer nofollow", id_prefix="user-content-")


# ------------------------------------------------------------------ Markdown
_MATH = re.compile(r"\$\$.+?\$\$|\\\[.+?\\\]|\\\(.+?\\\)|\\begin\{([a-z*]+)\}.+?\\end\{\1\}"
                   r"|(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$(?!\d)", re.DOTALL)


def markdown_to_html(text: str) -> str:
    """CommonMark (+ tables, strikethrough) to passive HTML; math regions are kept verbatim
    (HTML-escaped) so MathJax typesets them as it does in Markdown cells."""
    from markdown_it import MarkdownIt

    maths: list[str] = []

    def stash(m: re.Match) -> str:
        maths.append(m.group(0))
        return f"MATHPLACEHOLDER{len(maths) - 1}X"

    protected = _MATH.sub(stash, text)
    rendered = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(protected)
    cleaned = _nh3_clean(rendered)
    return _tex_inert(re.sub(r"MATHPLACEHOLDER(\d+)X",
                             lambda m: html.escape(maths[int(m.group(1))], quote=False), cleaned))


# ------------------------------------------------------------------ SVG
_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_SVG_ELEMENTS = {
    "svg", "g", "defs", "desc", "title", "symbol", "use", "image", "switch", "a",
    "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
    "text", "tspan", "textPath", "linearGradient", "radialGradient", "stop", "pattern",
    "clipPath", "mask", "marker", "style", "filter", "feBlend", "feColorMatrix",
    "feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting",
    "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncB",
    "feFuncG", "feFuncR", "feGaussianBlur", "feMerge", "feMergeNode", "feMorphology", "feOffset",
    "fePointLight", "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence",
}


class UnsafeContent(ValueError):
    """Content that cannot be made passive (the message says why)."""


def _local(tag: str) -> tuple[str | None, str]:
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return ns, name
    return None, tag


def _safe_reference(element: str, value: str) -> bool:
    v = re.sub(r"[\s\x00-\x1f]", "", value)
    if v.startswith("#"):
        return True
    if element == "image" and _RASTER_DATA_URL.match(value.strip()):
        return True
    return element == "a" and v.lower().startswith(("http://", "https://"))


def clean_svg(text: str) -> str:
    """An SVG document with only drawing elements and attributes; raises UnsafeContent when
    it is not well-formed XML or declares entities."""
    if re.search(r"<!ENTITY|<!DOCTYPE[^>]*\[", text, re.IGNORECASE):
        raise UnsafeContent("SVG with entity declarations is not shown")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise UnsafeContent(f"SVG is not well-formed XML ({e})") from None
    if _local(root.tag)[1] != "svg":
        raise UnsafeContent("not an SVG document (the root element is not <svg>)")
    _clean_svg_element(root)
    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", _XLINK_NS)
    return ET.tostring(root, encoding="unicode")


def _clean_svg_element(element: ET.Element) -> None:
    ns, name = _local(element.tag)
    element.tag = f"{{{_SVG_NS}}}{name}"
    for key in list(element.attrib):
        value = element.attrib.pop(key)
        attr_ns, attr = _local(key)
        if attr_ns not in (None, _XLINK_NS) or attr.lower().startswith("on"):
            continue
        if attr.lower() == "href" and not _safe_reference(name, value):
            continue  # lower: inlined in HTML, ``HREF`` is ``href``
        if attr.lower() in _RESOURCE_ATTRIBUTES:
            continue  # SVG loads through href alone: no other attribute may name a URL
        if (attr == "style" or "(" in value) and css_may_load(value):
            continue  # presentation attributes (fill, filter, mask...) take url() too
        element.set(f"{{{_XLINK_NS}}}{attr}" if attr_ns == _XLINK_NS else attr, value)
    if name == "style":
        for child in list(element):
            element.remove(child)  # a child's tail is style sheet text too
        if css_may_load(element.text or ""):
            element.text = ""
    for child in list(element):
        child_ns, child_name = _local(child.tag) if isinstance(child.tag, str) else (None, "")
        if child_ns not in (None, _SVG_NS) or child_name not in _SVG_ELEMENTS:
            element.remove(child)
            continue
        _clean_svg_element(child)


# ------------------------------------------------------------------ LaTeX
#: MathJax macros that make links, set HTML attributes or CSS (``\\bbox[...]`` with a ``prop:value``
#: option is CSS too), or load code.
_LATEX_ACTIVE = re.compile(r"\\(?:href|url|html\w*|class|cssId|style|data|unicode|require|tip|mmlToken)\b"
                           r"|\\bbox\s*\[[^\]]*:")
#: JupyterLab typesets math in HTML output too (``$\\style{...}{x}$`` in a ``<p>``), across
#: inline tags: HTML whose text uses an active macro is wrapped in MathJax's ignore class.
_TEX_IGNORED = '<div class="tex2jax_ignore mathjax_ignore">{}</div>'


def _tex_inert(cleaned: str) -> str:
    """``cleaned`` (nh3's output: every ``<`` and ``>`` in text is escaped) with its math
    left untypeset when its text, tags removed, holds an active MathJax macro."""
    if _LATEX_ACTIVE.search(html.unescape(re.sub(r"<[^>]*>", "", cleaned))):
        return _TEX_IGNORED.format(cleaned)
    return cleaned


# ------------------------------------------------------------------ bundles
def passive_bundle(data: dict[str, Any], metadata: dict[str, Any] | None = None
                   ) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """(data, metadata, notes): the bundle with every part made passive or dropped; each note
    says what was dropped and why."""
    out: dict[str, Any] = {}
    notes: list[str] = []
    for mime, value in data.items():
        if not isinstance(mime, str):
            continue
        try:
            if mime in PASSIVE_TYPES:
                if mime != "application/json" and not isinstance(value, str):
                    raise UnsafeContent("not text")
                out[mime] = value
            elif mime == "text/html":
                out[mime] = clean_html(_text(value))
            elif mime == "text/markdown":
                if "text/html" not in data:  # a given HTML rendering wins
                    out["text/html"] = markdown_to_html(_text(value))
                out.setdefault("text/plain", _text(value))
            elif mime == "image/svg+xml":
                out[mime] = clean_svg(_text(value))
            elif mime == "text/latex":
                if _LATEX_ACTIVE.search(_text(value)):
                    raise UnsafeContent("it uses MathJax link/HTML/style macros")
                out[mime] = value
            else:
                raise UnsafeContent("active or unknown output type")
        except UnsafeContent as e:
            notes.append(f"{mime} not shown: {e}")
    return out, _passive_metadata(metadata or {}, out), notes


def _text(value: Any) -> str:
    if isinstance(value, list):  # nbformat allows multi-line strings as lists
        value = "".join(str(v) for v in value)
    if not isinstance(value, str):
        raise UnsafeContent("not text")
    return value


def _passive_metadata(metadata: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Only image sizes: other keys (``isolated``, ``unconfined``, widget state) change how a
    frontend treats the content."""
    kept: dict[str, Any] = {}
    for mime, value in metadata.items():
        if mime in data and mime.startswith("image/") and isinstance(value, dict):
            size = {k: v for k, v in value.items()
                    if k in ("width", "height") and isinstance(v, int) and not isinstance(v, bool) and 0 < v < 100_000}
            if size:
                kept[mime] = size
    return kept


def safe_display_id(display_id: Any) -> str | None:
    """Sandbox display ids live in their own namespace, so a cell cannot update outputs the
    kernel itself created."""
    if display_id is None:
        return None
    return "sandbox-" + str(display_id)[:MAX_DISPLAY_ID]
