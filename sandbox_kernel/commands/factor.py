"""factor: prime factors of integers of any size, as GNU factor prints them.

Trial division by the primes below 2000, then Pollard's rho (Brent's variant) on what is left,
each part proved or tested prime first: Miller-Rabin with the bases that decide every number
below 3.3e24, above that Baillie-PSW (a strong base-2 test and a strong Lucas test; no
composite is known to pass both). The rho loop and the modular powers of very large numbers
await ``ctx.checkpoint()`` as they go, so an interrupt, ``timeout`` or the wall time ends a
number that would take too long (a product of two 30-digit primes, say) as they end any loop.
"""
from __future__ import annotations

from math import gcd, isqrt

from ._lib.quoting import quote
from .options import getopt
from .registry import CommandContext, command

FACTOR_HELP = """\
Usage: factor [NUMBER]...
  or:  factor OPTION
Print the prime factors of each specified integer NUMBER.  If none
are specified on the command line, read them from standard input.

      --help        display this help and exit"""

#: the primes trial division tries; a rest below TRIAL_LIMIT ** 2 is then prime
TRIAL_LIMIT = 2000
_SIEVE = bytearray([1]) * TRIAL_LIMIT
_SIEVE[0:2] = b"\0\0"
for _i in range(2, isqrt(TRIAL_LIMIT) + 1):
    if _SIEVE[_i]:
        _SIEVE[_i * _i::_i] = bytearray(len(range(_i * _i, TRIAL_LIMIT, _i)))
SMALL_PRIMES = [i for i in range(TRIAL_LIMIT) if _SIEVE[i]]
del _SIEVE

#: Miller-Rabin with the primes up to 41 as bases decides every n below this
MR_DETERMINISTIC = 3317044064679887385961981
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
#: above this many bits, modular powers run in steps that let the run be interrupted
BIG_BITS = 2048
#: iterations of the rho loop between two gcds (and two checkpoints)
RHO_BATCH = 128
#: rho's steps before ECM takes over (rho finds factors up to about the square of this)
RHO_STEPS = 1 << 14
#: ECM's rounds: stage 1 bound B1 and how many curves (GMP-ECM's table for 15 to 35 digits);
#: stage 2 goes to 100 * B1
ECM_ROUNDS = ((2000, 25), (11000, 90), (50000, 300), (250000, 700), (1000000, 1800))
#: the largest stage 2 bound (its primes are sieved in memory)
ECM_MAX_B2 = 10_000_000
#: bytes of stdout gathered before a write
OUT_CHUNK = 1 << 16
#: GNU factor's numbers in machine words (two): below this; its line buffer's piece size
SINGLE_LIMIT = 1 << 127
PIPE_BUF = 512
_DELIMS = b" \t\n"


@command("factor", help=FACTOR_HELP)
async def factor(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "", {"help": None}, status=1)
    if opts:
        await ctx.out(FACTOR_HELP + "\n")
        return 0
    out = _Output(ctx)
    ok = True
    if operands:
        for word in operands:
            ok = await _one(ctx, out, word) and ok
        await out.flush(end=True)
        return 0 if ok else 1
    pending = b""
    while True:
        chunk = await ctx.stdin.read_some()
        if not chunk:
            break
        data = pending + chunk
        # the last token may go on in the next chunk
        cut = max(data.rfind(d) for d in _DELIMS)
        pending = data[cut + 1:]
        for token in _tokens(data[:cut + 1]):
            ok = await _one(ctx, out, token) and ok
        await out.flush()
    for token in _tokens(pending):
        ok = await _one(ctx, out, token) and ok
    await out.flush(end=True)
    return 0 if ok else 1


def _tokens(data: bytes) -> list[str]:
    for d in b"\t\n":
        data = data.replace(bytes([d]), b" ")
    # a token is a C string: a NUL ends it
    return [t.split(b"\0", 1)[0].decode("utf-8", "surrogateescape") for t in data.split(b" ") if t]


class _Output:
    """GNU factor's two ways out, whose order a pipe shows: a number below 2**127 is factored
    in machine words and its line goes to a buffer handed to stdio in pieces of at most
    PIPE_BUF bytes once it holds that much (and at the end); a larger number's line goes to
    stdio at once, ahead of the buffered ones."""

    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.lbuf = ""
        self.stdio: list[str] = []
        self.size = 0

    async def line(self, n: int, text: str) -> None:
        if n < SINGLE_LIMIT:
            self.lbuf += text
            if len(self.lbuf) < PIPE_BUF:
                return
            cut = self.lbuf.rfind("\n", 0, PIPE_BUF) + 1
            text, self.lbuf = self.lbuf[:cut], self.lbuf[cut:]
        self.stdio.append(text)
        self.size += len(text)
        if self.size >= OUT_CHUNK:
            await self.flush()

    async def flush(self, end: bool = False) -> None:
        if end:
            self.stdio.append(self.lbuf)
            self.lbuf = ""
        text = "".join(self.stdio)
        self.stdio, self.size = [], 0
        if text:
            await self.ctx.out(text)


async def _one(ctx: CommandContext, out: _Output, word: str) -> bool:
    """Factor one NUMBER (spaces, then an optional +, then ASCII digits only)."""
    digits = word.lstrip(" ")
    if digits.startswith("+"):
        digits = digits[1:]
    if not digits or not digits.isascii() or not digits.isdigit():
        await ctx.error(f"{quote(word, 'locale')} is not a valid positive integer")
        return False
    n = int(digits)
    found = await factorize(n, ctx)
    await out.line(n, f"{n}:" + "".join(f" {p}" for p in found) + "\n")
    return True


async def factorize(n: int, ctx: CommandContext | None = None) -> list[int]:
    """The prime factors of n in increasing order, with multiplicity ([] for 0 and 1)."""
    found: list[int] = []
    if n < 2:
        return found
    for p in SMALL_PRIMES:
        if p * p > n:
            break
        while n % p == 0:
            found.append(p)
            n //= p
    if n == 1:
        return found
    if n < TRIAL_LIMIT * TRIAL_LIMIT:
        return found + [n]
    large: list[int] = []
    todo = [n]
    while todo:
        m = todo.pop()
        if await is_prime(m, ctx):
            large.append(m)
            continue
        d = _perfect_power_root(m) or await _rho(m, ctx, RHO_STEPS) or await _ecm(m, ctx)
        todo += [d, m // d]
    return found + sorted(large)


async def _checkpoint(ctx: CommandContext | None) -> None:
    if ctx is not None:
        await ctx.checkpoint()


async def _powmod(a: int, e: int, n: int, ctx: CommandContext | None) -> int:
    if n.bit_length() <= BIG_BITS:
        return pow(a, e, n)
    result = 1
    for i, bit in enumerate(bin(e)[2:]):
        result = result * result % n
        if bit == "1":
            result = result * a % n
        if i % 8 == 7:
            await _checkpoint(ctx)
    return result


async def is_prime(n: int, ctx: CommandContext | None = None) -> bool:
    """Deterministic below MR_DETERMINISTIC, Baillie-PSW above."""
    if n < 2:
        return False
    for p in SMALL_PRIMES[:13]:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _MR_BASES if n < MR_DETERMINISTIC else (2,):
        x = await _powmod(a, d, n, ctx)
        if x == 1 or x == n - 1:
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    if n < MR_DETERMINISTIC:
        return True
    return await _strong_lucas(n, ctx)


def _jacobi(a: int, n: int) -> int:
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


async def _strong_lucas(n: int, ctx: CommandContext | None) -> bool:
    """The strong Lucas probable-prime test with Selfridge's parameters (n odd, > 41)."""
    root = isqrt(n)
    if root * root == n:
        return False
    D = 5
    while True:
        j = _jacobi(D, n)
        if j == -1:
            break
        if j == 0:
            return False
        D = -D - 2 if D > 0 else -D + 2
    P, Q = 1, (1 - D) // 4
    d, s = n + 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1

    def half(x: int) -> int:
        x %= n
        return (x + n if x & 1 else x) // 2

    U, V, Qk = 1, P, Q % n
    for i, bit in enumerate(bin(d)[3:]):
        U, V = U * V % n, (V * V - 2 * Qk) % n
        Qk = Qk * Qk % n
        if bit == "1":
            U, V = half(P * U + V), half(D * U + P * V)
            Qk = Qk * Q % n
        if i % 64 == 63:
            await _checkpoint(ctx)
    if U == 0 or V == 0:
        return True
    for _ in range(s - 1):
        V = (V * V - 2 * Qk) % n
        Qk = Qk * Qk % n
        if V == 0:
            return True
    return False


async def _rho(n: int, ctx: CommandContext | None, steps: int) -> int | None:
    """A proper factor of the composite n (no factor below TRIAL_LIMIT) by Pollard's rho with
    Brent's cycle search, gcds taken over batches of RHO_BATCH steps; None after about
    ``steps`` steps (rho finds a factor p in about sqrt(p) steps: the small ones)."""
    c = 1
    while True:
        y, r, q, g = 2, 1, 1, 1
        x = ys = y
        while g == 1:
            if r > steps:
                return None
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(RHO_BATCH, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = gcd(q, n)
                k += RHO_BATCH
                await _checkpoint(ctx)
            r *= 2
        if g == n:
            # the batch overshot: step again one at a time from its start
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = gcd(abs(x - ys), n)
        if g != n:
            return g
        c += 1


def _iroot(n: int, k: int) -> int:
    """The integer k-th root of n (floor)."""
    x = 1 << -(-n.bit_length() // k)   # above the root
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


def _perfect_power_root(n: int) -> int | None:
    """r when n is r**k for some k > 1 (rho and ECM are poor at prime powers)."""
    for k in range(2, n.bit_length() // 11 + 1):   # no prime factor below TRIAL_LIMIT
        if k > 2 and k not in SMALL_PRIMES:
            continue
        r = _iroot(n, k)
        if r ** k == n:
            return r
    return None


_sieve_cache: dict[int, bytearray] = {}


def _prime_flags(limit: int) -> bytearray:
    """flags[i] == 1 when i is prime, for i <= limit (the last sieve is kept)."""
    cached = next((f for lim, f in _sieve_cache.items() if lim >= limit), None)
    if cached is not None:
        return cached
    flags = bytearray([1]) * (limit + 1)
    flags[0:2] = b"\0\0"
    for i in range(2, isqrt(limit) + 1):
        if flags[i]:
            flags[i * i::i] = bytearray(len(range(i * i, limit + 1, i)))
    _sieve_cache.clear()
    _sieve_cache[limit] = flags
    return flags


async def _ecm(n: int, ctx: CommandContext | None) -> int:
    """A proper factor of the composite n by Lenstra's elliptic curve method (Montgomery
    curves, Suyama's parametrisation, a baby-step giant-step stage 2). Runs until it finds
    one: what bounds it is the checkpoint (interrupt, timeout, wall time)."""
    sigma = 6
    rounds = list(ECM_ROUNDS)
    while True:
        B1, curves = rounds.pop(0) if rounds else (ECM_ROUNDS[-1][0], 1 << 30)
        B2 = min(100 * B1, ECM_MAX_B2)
        flags = _prime_flags(B2)
        k = 1
        for p in range(2, B1 + 1):
            if flags[p]:
                q = p
                while q * p <= B1:
                    q *= p
                k *= q
        for _ in range(curves):
            sigma += 1
            g = await _ecm_curve(n, sigma, k, B1, B2, flags, ctx)
            if g is not None:
                return g


async def _ecm_curve(n: int, sigma: int, k: int, B1: int, B2: int, flags: bytearray,
                     ctx: CommandContext | None) -> int | None:
    u = (sigma * sigma - 5) % n
    v = 4 * sigma % n
    x0, z0 = pow(u, 3, n), pow(v, 3, n)
    den = 16 * pow(u, 3, n) * v % n
    g = gcd(den, n)
    if g != 1:
        return g if g != n else None
    a24 = pow(v - u, 3, n) * (3 * u + v) * pow(den, -1, n) % n

    def double(X: int, Z: int) -> tuple[int, int]:
        s, d = (X + Z) * (X + Z) % n, (X - Z) * (X - Z) % n
        t = s - d
        return s * d % n, t * (d + a24 * t) % n

    def add(X1: int, Z1: int, X2: int, Z2: int, Xd: int, Zd: int) -> tuple[int, int]:
        a, b = (X1 - Z1) * (X2 + Z2), (X1 + Z1) * (X2 - Z2)
        return Zd * pow(a + b, 2, n) % n, Xd * pow(a - b, 2, n) % n

    def ladder(s: int, X: int, Z: int) -> tuple[int, int]:
        X1, Z1 = X, Z
        X2, Z2 = double(X, Z)
        for bit in bin(s)[3:]:
            if bit == "1":
                X1, Z1 = add(X1, Z1, X2, Z2, X, Z)
                X2, Z2 = double(X2, Z2)
            else:
                X2, Z2 = add(X1, Z1, X2, Z2, X, Z)
                X1, Z1 = double(X1, Z1)
        return X1, Z1

    # stage 1: Q = k P by the Montgomery ladder
    X1, Z1 = x0, z0
    X2, Z2 = double(x0, z0)
    for i, bit in enumerate(bin(k)[3:]):
        if bit == "1":
            X1, Z1 = add(X1, Z1, X2, Z2, x0, z0)
            X2, Z2 = double(X2, Z2)
        else:
            X2, Z2 = add(X1, Z1, X2, Z2, x0, z0)
            X1, Z1 = double(X1, Z1)
        if i % 512 == 511:
            await _checkpoint(ctx)
    g = gcd(Z1, n)
    if g != 1:
        return g if g != n else None
    # stage 2: one prime q in (B1, B2] more, q = m D +- j: then x(m D Q) == x(j Q) mod p
    D = 2310
    Q = (X1, Z1)
    Q2 = double(*Q)
    baby = {-1: Q, 1: Q}
    for j in range(3, D // 2, 2):
        baby[j] = add(*baby[j - 2], *Q2, *baby[j - 4])
    js = [j for j in range(1, D // 2, 2) if gcd(j, D) == 1]
    DQ = ladder(D, *Q)
    m = max(1, B1 // D)
    R_prev, R = ladder((m - 1) * D, *Q) if m > 1 else None, ladder(m * D, *Q)
    acc = 1
    while m * D - D // 2 <= B2:
        RX, RZ = R
        base = m * D
        for j in js:
            lo, hi = base - j, base + j
            if (B1 < lo <= B2 and flags[lo]) or (B1 < hi <= B2 and flags[hi]):
                jx, jz = baby[j]
                acc = acc * (RX * jz - jx * RZ) % n
        # (m + 1) D Q = m D Q + D Q, whose difference is (m - 1) D Q
        R_prev, R = R, double(*R) if R_prev is None else add(*R, *DQ, *R_prev)
        m += 1
        if m % 16 == 0:
            await _checkpoint(ctx)
    g = gcd(acc, n)
    return g if 1 < g < n else None
