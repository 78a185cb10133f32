"""The line-diff engine shared by diff (and usable by others): Myers' O(ND) algorithm in
linear space, then GNU diff's boundary shifting so hunks land where GNU puts them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass
class Change:
    """Lines a[a_start:a_start+a_count] replaced by b[b_start:b_start+b_count] (0-based)."""
    a_start: int
    a_count: int
    b_start: int
    b_count: int


def diff_sequences(a: Sequence, b: Sequence, check: Callable[[], None] | None = None,
                   raw_a: Sequence | None = None, raw_b: Sequence | None = None,
                   horizon: int = 0) -> list[Change]:
    """Minimal edit script between two sequences of hashable items, as change blocks.

    ``raw_a``/``raw_b`` are the unnormalised lines (when ``a``/``b`` are e.g. case-folded):
    like GNU, the identical prefix and suffix are cut off on the raw text first, and changes
    never slide into them, except for ``horizon`` lines at each end (GNU keeps the context
    length there, so context output can move a change down among equal lines)."""
    raw_a = a if raw_a is None else raw_a
    raw_b = b if raw_b is None else raw_b
    prefix = 0
    limit = min(len(a), len(b))
    while prefix < limit and raw_a[prefix] == raw_b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and raw_a[len(a) - 1 - suffix] == raw_b[len(b) - 1 - suffix]:
        suffix += 1
    prefix -= min(prefix, horizon)
    suffix -= min(suffix, horizon)
    mid_a = a[prefix:len(a) - suffix]
    mid_b = b[prefix:len(b) - suffix]
    changed_a = bytearray(len(mid_a) + 2)  # index i+1 is line i; both ends are sentinels
    changed_b = bytearray(len(mid_b) + 2)
    _mark_changes(mid_a, mid_b, changed_a, changed_b, check)
    _shift_boundaries(mid_a, changed_a, changed_b)
    _shift_boundaries(mid_b, changed_b, changed_a)
    changes = _changes_from_flags(changed_a, changed_b, len(mid_a), len(mid_b))
    for c in changes:
        c.a_start += prefix
        c.b_start += prefix
    return changes


def _mark_changes(a, b, changed_a, changed_b, check) -> None:
    """Divide and conquer on the middle point of an optimal path (Myers, linear space)."""
    # GNU's cost cap (about the square root of the input size) past which it settles for a
    # good rather than a minimal split; its floor is lower here (1024, GNU: 4096) because an
    # interpreter pays far more per step.
    too_expensive = 1
    diags = len(a) + len(b) + 3
    while diags:
        too_expensive <<= 1
        diags >>= 2
    too_expensive = max(1024, too_expensive)
    stack = [(0, len(a), 0, len(b))]
    while stack:
        xoff, xlim, yoff, ylim = stack.pop()
        while xoff < xlim and yoff < ylim and a[xoff] == b[yoff]:
            xoff += 1
            yoff += 1
        while xoff < xlim and yoff < ylim and a[xlim - 1] == b[ylim - 1]:
            xlim -= 1
            ylim -= 1
        if xoff == xlim:
            for j in range(yoff, ylim):
                changed_b[j + 1] = 1
            continue
        if yoff == ylim:
            for i in range(xoff, xlim):
                changed_a[i + 1] = 1
            continue
        xmid, ymid = _midpoint(a, b, xoff, xlim, yoff, ylim, check, too_expensive)
        stack.append((xmid, xlim, ymid, ylim))
        stack.append((xoff, xmid, yoff, ymid))


def _midpoint(a, b, xoff, xlim, yoff, ylim, check=None, too_expensive: int = 1 << 30) -> tuple[int, int]:
    """Where the forward and backward searches for a shortest edit path meet.

    Diagonals are numbered k = x - y in absolute coordinates and kept inside the box; each
    round scans them from the highest down, so ties resolve the way GNU diff resolves them."""
    dmin, dmax = xoff - ylim, xlim - yoff
    fmid, bmid = xoff - yoff, xlim - ylim
    odd = (fmid - bmid) & 1
    base = -dmin + 1  # list index of diagonal k is k + base
    size = dmax - dmin + 3
    fd = [0] * size
    bd = [0] * size
    fd[fmid + base] = xoff
    bd[bmid + base] = xlim
    fmin = fmax = fmid
    bmin = bmax = bmid
    infinity = xlim + ylim + 1
    rounds = 0
    while True:
        rounds += 1
        if check is not None and rounds % 16 == 0:
            check()
        if rounds >= too_expensive:
            return _best_effort_midpoint(fd, bd, base, fmin, fmax, bmin, bmax, xoff, xlim, yoff, ylim)
        if fmin > dmin:
            fmin -= 1
            fd[fmin - 1 + base] = -1
        else:
            fmin += 1
        if fmax < dmax:
            fmax += 1
            fd[fmax + 1 + base] = -1
        else:
            fmax -= 1
        for k in range(fmax, fmin - 1, -2):
            tlo, thi = fd[k - 1 + base], fd[k + 1 + base]
            x = thi if tlo < thi else tlo + 1
            y = x - k
            while x < xlim and y < ylim and a[x] == b[y]:
                x += 1
                y += 1
            fd[k + base] = x
            if odd and bmin <= k <= bmax and bd[k + base] <= x:
                return x, y
        if bmin > dmin:
            bmin -= 1
            bd[bmin - 1 + base] = infinity
        else:
            bmin += 1
        if bmax < dmax:
            bmax += 1
            bd[bmax + 1 + base] = infinity
        else:
            bmax -= 1
        for k in range(bmax, bmin - 1, -2):
            tlo, thi = bd[k - 1 + base], bd[k + 1 + base]
            x = tlo if tlo < thi else thi - 1
            y = x - k
            while xoff < x and yoff < y and a[x - 1] == b[y - 1]:
                x -= 1
                y -= 1
            bd[k + base] = x
            if not odd and fmin <= k <= fmax and x <= fd[k + base]:
                return x, y


def _best_effort_midpoint(fd, bd, base, fmin, fmax, bmin, bmax, xoff, xlim, yoff, ylim):
    """GNU's give-up rule: the furthest-reaching forward or backward diagonal so far."""
    fxybest, fxbest = -1, xoff
    for k in range(fmax, fmin - 1, -2):
        x = min(fd[k + base], xlim)
        y = x - k
        if ylim < y:
            x, y = ylim + k, ylim
        if fxybest < x + y:
            fxybest, fxbest = x + y, x
    bxybest, bxbest = None, xlim
    for k in range(bmax, bmin - 1, -2):
        x = max(xoff, bd[k + base])
        y = x - k
        if y < yoff:
            x, y = yoff + k, yoff
        if bxybest is None or x + y < bxybest:
            bxybest, bxbest = x + y, x
    if (xlim + ylim) - bxybest < fxybest - (xoff + yoff):
        return fxbest, fxybest - fxbest
    return bxbest, bxybest - bxbest


def _shift_boundaries(lines, changed, other_changed) -> None:
    """Slide each run of changed lines up, then down, to merge with neighbouring runs and to
    line up with a change in the other file, preferring the lowest position otherwise (the
    placement GNU diff uses)."""
    end = len(lines)
    i = j = 0  # 0-based line indexes; flags are at index+1

    def ch(k):
        return changed[k + 1]

    def och(k):
        return other_changed[k + 1]

    while True:
        while i < end and not ch(i):
            while och(j):
                j += 1
            j += 1
            i += 1
        if i == end:
            break
        start = i
        i += 1
        while ch(i):
            i += 1
        while och(j):
            j += 1
        while True:
            run_length = i - start
            while start and lines[start - 1] == lines[i - 1]:
                start -= 1
                changed[start + 1] = 1
                i -= 1
                changed[i + 1] = 0
                while ch(start - 1):
                    start -= 1
                j -= 1
                while och(j):
                    j -= 1
            corresponding = i if och(j - 1) else end
            while i != end and lines[start] == lines[i]:
                changed[start + 1] = 0
                start += 1
                changed[i + 1] = 1
                i += 1
                while ch(i):
                    i += 1
                j += 1
                while och(j):
                    corresponding = i
                    j += 1
            if run_length == i - start:
                break
        while corresponding < i:
            start -= 1
            changed[start + 1] = 1
            i -= 1
            changed[i + 1] = 0
            j -= 1
            while och(j):
                j -= 1


def _changes_from_flags(changed_a, changed_b, len_a, len_b) -> list[Change]:
    changes = []
    i = j = 0
    while i < len_a or j < len_b:
        if (i < len_a and changed_a[i + 1]) or (j < len_b and changed_b[j + 1]):
            i0, j0 = i, j
            while i < len_a and changed_a[i + 1]:
                i += 1
            while j < len_b and changed_b[j + 1]:
                j += 1
            changes.append(Change(i0, i - i0, j0, j - j0))
        else:
            i += 1
            j += 1
    return changes
