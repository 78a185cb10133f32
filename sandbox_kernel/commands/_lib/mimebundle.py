"""Rich output: turning VFS files or text into Jupyter MIME bundles.

Used by the `display` command; the kernel sends the bundles as display_data.
"""
from __future__ import annotations

import base64
import json
import posixpath
import struct

#: File name extension -> MIME type.
EXTENSION_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".html": "text/html",
    ".htm": "text/html",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".json": "application/json",
    ".geojson": "application/geo+json",
    ".tex": "text/latex",
    ".js": "application/javascript",
    ".pdf": "application/pdf",
    ".txt": "text/plain",
    ".csv": "text/plain",
    ".log": "text/plain",
}

#: Short names accepted by ``display -t``.
TYPE_ALIASES = {
    "png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "gif": "image/gif",
    "svg": "image/svg+xml", "html": "text/html", "markdown": "text/markdown", "md": "text/markdown",
    "json": "application/json", "latex": "text/latex", "text": "text/plain", "pdf": "application/pdf",
}

#: Types whose bundle value is base64 text (binary data).
BINARY_TYPES = {"image/png", "image/jpeg", "image/gif", "application/pdf"}

SUPPORTED_TYPES = set(EXTENSION_TYPES.values())


class DisplayError(ValueError):
    """Content that cannot be shown as the requested type (the message says why)."""


def sniff_type(data: bytes) -> str | None:
    """MIME type from the first bytes (magic numbers), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data.startswith(b"%PDF-"):
        return "application/pdf"
    head = data[:512].lstrip().lower()
    if head.startswith(b"<svg") or (head.startswith(b"<?xml") and b"<svg" in data[:4096].lower()):
        return "image/svg+xml"
    if head.startswith((b"<!doctype html", b"<html")):
        return "text/html"
    return None


def guess_type(name: str, data: bytes) -> str:
    """MIME type of a file: its extension first, then its contents; text/plain otherwise."""
    ext = posixpath.splitext(name)[1].lower()
    if ext in EXTENSION_TYPES:
        return EXTENSION_TYPES[ext]
    sniffed = sniff_type(data)
    if sniffed:
        return sniffed
    return "text/plain"


def resolve_type(text: str) -> str:
    """``png`` or ``image/png`` -> ``image/png``; raises DisplayError for unknown types."""
    mime = TYPE_ALIASES.get(text.lower(), text.lower())
    if mime not in SUPPORTED_TYPES:
        known = ", ".join(sorted(TYPE_ALIASES))
        raise DisplayError(f"unsupported type '{text}' (known: {known}, or a MIME type among them)")
    return mime


def image_size(mime: str, data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG or GIF, read from its header; None when unknown."""
    if mime == "image/png" and len(data) >= 24 and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if mime == "image/gif" and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    return None


def _decode(data: bytes, label: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DisplayError(f"{label}: not UTF-8 text (byte {e.start}); use -t to pick an image type") from None


def make_bundle(data: bytes, mime: str, label: str = "") -> dict:
    """A MIME bundle showing ``data`` as ``mime`` plus a text/plain fallback.

    Raises DisplayError when the data doesn't fit the type (an image that isn't one, bad JSON)."""
    label = label or "output"
    if mime in BINARY_TYPES:
        sniffed = sniff_type(data)
        if sniffed != mime:
            raise DisplayError(f"{label}: not a {mime} file" + (f" (looks like {sniffed})" if sniffed else ""))
        size = image_size(mime, data)
        shape = f" {size[0]}x{size[1]}" if size else ""
        return {mime: base64.b64encode(data).decode("ascii"),
                "text/plain": f"<{mime}{shape}, {len(data)} bytes: {label}>"}
    text = _decode(data, label)
    if mime == "text/plain":
        return {"text/plain": text}
    if mime in ("application/json", "application/geo+json"):
        try:
            value = json.loads(text)
        except ValueError as e:
            raise DisplayError(f"{label}: invalid JSON: {e}") from None
        return {mime: value, "text/plain": json.dumps(value, indent=2, ensure_ascii=False)}
    if mime == "image/svg+xml":
        if "<svg" not in text[:4096].lower():
            raise DisplayError(f"{label}: not an SVG document (no <svg> element)")
        return {mime: text, "text/plain": f"<SVG image, {len(data)} bytes: {label}>"}
    # html, markdown, latex, javascript: the source is a readable fallback
    return {mime: text, "text/plain": text}
