"""Writes the kernelspec's logo-32x32.png and logo-64x64.png (stdlib only: zlib + struct).

The logo: a dark rounded square with a shell prompt ``>_`` in teal. A development script, kept
out of the package. Run: python scripts/make_logos.py
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

BACKGROUND = (32, 36, 48)
PROMPT = (64, 200, 180)


def pixel(x: float, y: float) -> tuple[int, int, int, int]:
    """Colour at (x, y) in the unit square (centre of a pixel)."""
    r = 0.18  # corner radius
    cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return (0, 0, 0, 0)
    # ">": two strokes meeting at (0.5, 0.5)
    def near_segment(ax, ay, bx, by, width):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        px, py = ax + t * dx, ay + t * dy
        return (x - px) ** 2 + (y - py) ** 2 <= width * width
    stroke = 0.065
    if near_segment(0.22, 0.28, 0.48, 0.5, stroke) or near_segment(0.48, 0.5, 0.22, 0.72, stroke):
        return (*PROMPT, 255)
    if 0.54 <= x <= 0.80 and 0.66 <= y <= 0.76:  # "_"
        return (*PROMPT, 255)
    return (*BACKGROUND, 255)


def png(size: int) -> bytes:
    samples = 4  # supersampling per axis, for smooth edges
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    c = pixel((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size)
                    acc[3] += c[3]
                    for i in range(3):
                        acc[i] += c[i] * c[3]
            alpha = acc[3]
            n = samples * samples
            row += bytes([acc[i] // alpha if alpha else 0 for i in range(3)] + [alpha // n])
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def main() -> None:
    # the repository's kernelspec/ (what the package ships as sandbox_kernel.kernelspec)
    spec_dir = Path(__file__).resolve().parents[1] / "kernelspec"
    for size in (32, 64):
        (spec_dir / f"logo-{size}x{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
