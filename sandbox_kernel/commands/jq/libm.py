"""jq 1.6's math builtins: the C library's functions, called through ctypes so the digits jq
prints are the ones the same libm gives (cbrt, lgamma, the Bessel functions ...); Python's
math where the library or a function is missing. Every one refuses a non-number with
"number required"; a C builtin with several arguments takes its last one as the outer loop."""
from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import Any, Callable

from .formats import describe
from .values import JqError, is_number


def _load():
    try:
        return ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:
        return None


_LIBM = _load()

#: (name, arity) -> a function of numbers returning a number or a list
FUNCTIONS: dict[tuple[str, int], Callable[..., Any]] = {}

#: what Python's math gives when the C library has no such function
_FALLBACK: dict[str, Callable[..., float]] = {
    "acos": math.acos, "acosh": math.acosh, "asin": math.asin, "asinh": math.asinh,
    "atan": math.atan, "atanh": math.atanh, "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "ceil": math.ceil, "cos": math.cos, "cosh": math.cosh, "erf": math.erf, "erfc": math.erfc, "exp": math.exp,
    "exp10": lambda x: 10.0 ** x, "exp2": lambda x: 2.0 ** x, "expm1": math.expm1,
    "fabs": math.fabs, "floor": math.floor, "gamma": math.lgamma, "lgamma": math.lgamma,
    "log": math.log, "log10": math.log10, "log1p": math.log1p, "log2": math.log2,
    "logb": lambda x: float(math.frexp(x)[1] - 1), "nearbyint": round, "rint": round,
    "round": lambda x: math.copysign(math.floor(abs(x) + 0.5), x),
    "significand": lambda x: math.frexp(x)[0] * 2, "sin": math.sin, "sinh": math.sinh,
    "sqrt": math.sqrt, "tan": math.tan, "tanh": math.tanh, "tgamma": math.gamma,
    "trunc": math.trunc, "atan2": math.atan2, "copysign": math.copysign,
    "drem": math.remainder, "fdim": lambda x, y: max(x - y, 0.0), "fmax": max, "fmin": min,
    "fmod": math.fmod, "hypot": math.hypot, "nextafter": math.nextafter,
    "nexttoward": math.nextafter, "pow": math.pow, "remainder": math.remainder,
    "scalb": lambda x, y: math.ldexp(x, int(y)), "fma": lambda x, y, z: x * y + z,
}

_D = ctypes.c_double


def _c_function(name: str, argtypes: list):
    fn = getattr(_LIBM, name, None) if _LIBM is not None else None
    if fn is None:
        return None
    fn.restype = _D
    fn.argtypes = argtypes
    return fn


def _c_int(x: float) -> int:
    """A double converted to a C int (clamped where C's conversion is undefined)."""
    if x != x:
        return 0
    return int(max(-2147483648.0, min(2147483647.0, x)))


def _define(name: str, signature: str) -> None:
    """signature: one letter an argument -- d double, i int, l long, L long double."""
    kinds = {"d": _D, "i": ctypes.c_int, "l": ctypes.c_long, "L": ctypes.c_longdouble}
    fn = _c_function(name, [kinds[k] for k in signature])
    if fn is not None:
        def call(*xs: float, _fn=fn) -> float:
            return _fn(*(_c_int(x) if k in "il" else x for k, x in zip(signature, xs)))
    else:
        fallback = _FALLBACK[name]

        def call(*xs: float, _fb=fallback) -> float:
            try:
                return float(_fb(*xs))
            except (ValueError, OverflowError, ZeroDivisionError):
                return math.nan
    FUNCTIONS[(name, 0 if len(signature) == 1 else len(signature))] = call


for _name in ("acos acosh asin asinh atan atanh cbrt ceil cos cosh erf erfc exp exp10 exp2 expm1 fabs "
              "floor gamma j0 j1 lgamma log log10 log1p log2 logb nearbyint rint round "
              "significand sin sinh sqrt tan tanh tgamma trunc y0 y1").split():
    if _name in _FALLBACK or _c_function(_name, [_D]) is not None:
        _define(_name, "d")
for _name in "atan2 copysign drem fdim fmax fmin fmod hypot nextafter pow remainder scalb".split():
    _define(_name, "dd")
_define("nexttoward", "dL")
_define("ldexp", "di")
_define("scalbln", "dl")
_define("fma", "ddd")
for _name in ("jn", "yn"):
    if _c_function(_name, [ctypes.c_int, _D]) is not None:
        _define(_name, "id")


def _frexp(x: float) -> list:
    m, e = math.frexp(x)
    return [m, float(e)]


def _modf(x: float) -> list:
    frac, whole = math.modf(x)
    return [frac, whole]


def _lgamma_r(x: float) -> list:
    fn = getattr(_LIBM, "lgamma_r", None) if _LIBM is not None else None
    if fn is not None:
        fn.restype = _D
        fn.argtypes = [_D, ctypes.POINTER(ctypes.c_int)]
        sign = ctypes.c_int(0)
        return [fn(x, ctypes.byref(sign)), float(sign.value)]
    try:
        value = math.lgamma(x)
    except ValueError:
        value = math.inf
    return [value, -1.0 if x < 0 and math.floor(x) % 2 and x != math.floor(x) else 1.0]


FUNCTIONS[("frexp", 0)] = _frexp
FUNCTIONS[("modf", 0)] = _modf
FUNCTIONS[("lgamma_r", 0)] = _lgamma_r

#: jq 1.6 names them but Debian's build has none: calling them is a run-time error
MISSING_AT_BUILD = {("pow10", 0)}


def number_required(v: Any) -> float:
    if not is_number(v):
        raise JqError(f"{describe(v)} number required")
    return v
