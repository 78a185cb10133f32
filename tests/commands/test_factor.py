"""factor: the arithmetic (products, primality at the edges of the tests used), the output
and the bounds on its work."""
import asyncio
import random
import time

import pytest

from sandbox_kernel.commands.factor import factorize, is_prime
from sandbox_kernel.commands.registry import CommandCancelled
from sandbox_kernel.streams import BufferOutput, BytesInput

from .helpers import DEFAULT_ENV, DirectRunner, new_fs, run_cmd


def _factors(n):
    return asyncio.run(factorize(n))


def test_factors_multiply_back_and_are_prime():
    rng = random.Random(5)
    for _ in range(2000):
        n = rng.randrange(2, 10 ** rng.randint(2, 24))
        found = _factors(n)
        product = 1
        for p in found:
            product *= p
            assert asyncio.run(is_prime(p)), (n, p)
        assert product == n and found == sorted(found)


@pytest.mark.parametrize("n, want", [
    # strong pseudoprimes to several bases, Carmichael numbers
    (3215031751, [151, 751, 28351]), (3825123056546413051, [149491, 747451, 34233211]),
    (318665857834031151167461, [399165290221, 798330580441]),
    (3317044064679887385961981, [1287836182261, 2575672364521]),
    (561, [3, 11, 17]), (2 ** 127 - 1, [2 ** 127 - 1]), ((2 ** 61 - 1) ** 2, [2 ** 61 - 1] * 2),
    (1000003 ** 5, [1000003] * 5),
    # a 56-bit factor (rho alone would take minutes) and two 64-bit primes: ECM
    (2 ** 128 + 1, [59649589127497217, 5704689200685129054721]),
    (18446744073709551533 * 18446744073709551557, [18446744073709551533, 18446744073709551557]),
])
def test_hard_cases(n, want):
    assert _factors(n) == want


def test_lucas_side_of_baillie_psw():
    # above the deterministic Miller-Rabin range: primes pass, composites that pass base 2 fail
    assert asyncio.run(is_prime(2 ** 521 - 1))
    assert not asyncio.run(is_prime((2 ** 89 - 1) * (2 ** 107 - 1)))
    spsp2 = 3825123056546413051 * 3317044064679887385961981   # composite, odd
    assert not asyncio.run(is_prime(spsp2))


def test_command_output_and_errors():
    assert run_cmd(["factor", "12", "97", "0", "1", "+012"]) == ("12: 2 2 3\n97: 97\n0:\n1:\n12: 2 2 3\n", "", 0)
    out, err, status = run_cmd(["factor", "x", "6", "-", "1 2"])
    assert (out, status) == ("6: 2 3\n", 1)
    assert err == ("factor: 'x' is not a valid positive integer\nfactor: '-' is not a valid positive integer\n"
                   "factor: '1 2' is not a valid positive integer\n")
    assert run_cmd(["factor"], stdin="4 9\n\t10 x\n25")[0] == "4: 2 2\n9: 3 3\n10: 2 5\n25: 5 5\n"
    assert run_cmd(["factor", "-x"])[1:] == ("factor: invalid option -- 'x'\n"
                                             "Try 'factor --help' for more information.\n", 1)
    assert run_cmd(["factor", "--he"])[0].startswith("Usage: factor [NUMBER]...\n")


def test_a_long_search_ends_on_interrupt():
    # two 30-digit primes: far beyond what ECM finds in a test's time
    n = 1000000000000000000000000000057 * 1000000000000000000000000000099
    runner = DirectRunner(new_fs(), dict(DEFAULT_ENV))

    async def go():
        out, err = BufferOutput(), BufferOutput()
        task = asyncio.ensure_future(runner.run_argv(["factor", str(n)], BytesInput(b""), out, err))
        await asyncio.sleep(0.5)
        start = time.monotonic()
        runner.cancel.set("interrupt")
        with pytest.raises(CommandCancelled):
            await task
        return time.monotonic() - start

    assert asyncio.run(asyncio.wait_for(go(), 20)) < 1
