"""rand()/srand() giving gawk's numbers.

gawk keeps its own copy of BSD random(): the degree-63 additive feedback generator (a
256-byte initstate), its state seeded by the Park-Miller "minimal standard" sequence and
warmed up by 10*63 outputs. Every output goes through a 512-slot Bays-Durham shuffle, which
each srandom() refills. rand() takes two outputs: (d1 / 2^31 + d2) / 2^31. All this was
checked against gawk 5.2 output (tests/commands/test_awk.py).
"""
from __future__ import annotations

_DEG = 63
_SHUFFLE = 512
_MASK32 = 0xFFFFFFFF
_DIVISOR = 2147483648.0  # RANDOM_MAX + 1


def _park_miller(x: int) -> int:
    """x * 16807 mod (2^31 - 1) computed as C does (Schrage), x a signed 32-bit value."""
    if x == 0:
        x = 123459876  # 0 would be a fixed point
    hi = abs(x) // 127773
    if x < 0:
        hi = -hi  # C division truncates toward zero
    lo = x - hi * 127773
    x = 16807 * lo - 2836 * hi
    return x + 0x7FFFFFFF if x < 0 else x


def seed_of(value: float) -> int:
    """The C ``(long) value`` gawk keeps as the seed (LONG_MIN when out of range, as x86-64)."""
    if value != value or abs(value) >= 9.223372036854775808e18:
        return -(1 << 63)
    return int(value)


class GawkRandom:
    __slots__ = ("state", "rear", "table", "last")

    def __init__(self, seed: int = 1) -> None:
        self.seed(seed)

    def seed(self, seed: int) -> None:
        x = seed & _MASK32
        state = [x]
        for _ in range(1, _DEG):
            x = _park_miller(x - (1 << 32) if x >= 1 << 31 else x)
            state.append(x)
        self.state = state
        self.rear = 0  # the front index is always rear + 1 (BSD's separation for degree 63)
        self.table = [self._next() for _ in range(_SHUFFLE)]
        self.last = self._next()
        for _ in range(10 * _DEG):
            self.random()

    def _next(self) -> int:
        state = self.state
        rear = self.rear
        front = rear + 1 if rear < _DEG - 1 else 0
        value = (state[front] + state[rear]) & _MASK32
        state[front] = value
        self.rear = front
        return value >> 1

    def random(self) -> int:
        slot = self.last & (_SHUFFLE - 1)
        out = self.table[slot]
        self.table[slot] = self._next()
        self.last = out
        return out

    def rand(self) -> float:
        while True:
            d1 = self.random()
            d2 = self.random()
            value = 0.5 + ((d1 / _DIVISOR + d2) / _DIVISOR)
            value -= 0.5  # rounds to the 2^-53 grid the way gawk's double does
            if value != 1.0:
                return value
