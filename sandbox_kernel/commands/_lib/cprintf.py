"""C's printf(3) conversions as glibc writes them on x86-64, for bash's printf builtin: integers
(intmax_t, uintmax_t), byte strings, and long doubles -- the x87 80-bit format (a 64-bit
significand, exponents from 2**-16445 to 2**16383) that bash reads with strtold(3) and prints
with ``%L``. Every value is kept exact (an integer significand and a power of two) and every
digit is rounded from the exact value, half to even, as glibc does; nothing here goes through a
Python float, whose 53-bit significand prints ``0.1`` as ``0.1000000000000000055511``."""
from __future__ import annotations

from typing import NamedTuple

C_SPACE = " \t\n\v\f\r"
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_NAN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")

SIGNIFICAND_BITS = 64
_TOP = 1 << SIGNIFICAND_BITS
_HALF_TOP = 1 << (SIGNIFICAND_BITS - 1)
#: the exponent of a subnormal's unit: the least value is 2**MIN_EXPONENT
MIN_EXPONENT = -16445
#: the largest exponent of a finite value's leading bit (the largest is just below 2**16384)
MAX_LEADING = 16383


class LongDouble(NamedTuple):
    """``(-1)**negative * significand * 2**exponent``; ``special`` "inf" or "nan" instead."""
    negative: bool
    significand: int = 0
    exponent: int = 0
    special: str = ""


ZERO = LongDouble(False)


def from_int(value: int) -> LongDouble:
    """An integer as a long double (rounded to 64 bits: exact below 2**64)."""
    return _from_ratio(value < 0, abs(value), 1)[0]


def from_ratio(negative: bool, num: int, den: int) -> LongDouble:
    """The long double nearest NUM/DEN (NUM >= 0, DEN > 0), negated with NEGATIVE."""
    return _from_ratio(negative, num, den)[0]


#: Python's str(int) and int(str) refuse numbers of more digits (sys.int_info); a long double
#: has up to 4933 integer digits and 16500 decimals
_DIGITS_AT_ONCE = 4000


def decimal_text(value: int) -> str:
    """str(VALUE) (>= 0) of any length, in halves of at most _DIGITS_AT_ONCE digits."""
    if value.bit_length() < 13000:  # under 4000 digits
        return str(value)
    half = (value.bit_length() * 3 // 10) // 2  # about half its digits
    high, low = divmod(value, 10 ** half)
    return decimal_text(high) + decimal_text(low).rjust(half, "0")


def decimal_value(digits: str) -> int:
    """int(DIGITS) (ASCII digits only) of any length."""
    if len(digits) <= _DIGITS_AT_ONCE:
        return int(digits)
    half = len(digits) // 2
    return decimal_value(digits[:-half]) * 10 ** half + decimal_value(digits[-half:])


def _round_half_even(q: int, r: int, d: int) -> int:
    """q + r/d (0 <= r < d) rounded to an integer, a tie to the even one."""
    twice = 2 * r
    if twice > d or (twice == d and q & 1):
        return q + 1
    return q


def _from_ratio(negative: bool, num: int, den: int) -> tuple[LongDouble, bool]:
    """NUM/DEN (>= 0) rounded to the nearest long double, ties to even: (value, whether it is
    out of range: an overflow to infinity, or a non-zero value below the normal range that
    rounding changed)."""
    if num == 0:
        return LongDouble(negative), False
    e = max(num.bit_length() - den.bit_length() - SIGNIFICAND_BITS, MIN_EXPONENT)
    while True:
        if e >= 0:
            q, r = divmod(num, den << e)
            d = den << e
        else:
            q, r = divmod(num << -e, den)
            d = den
        if q >= _TOP:
            e += 1
            continue
        break
    q = _round_half_even(q, r, d)
    if q == _TOP:
        q >>= 1
        e += 1
    if e + SIGNIFICAND_BITS - 1 > MAX_LEADING:
        return LongDouble(negative, special="inf"), True
    return LongDouble(negative, q, e), bool(r) and q < _HALF_TOP


def strtold(text: str) -> tuple[LongDouble, int, bool]:
    """TEXT's leading number as glibc's strtold reads it in the C locale: (value, characters
    read -- 0 when there is no number --, whether the value is out of range (ERANGE))."""
    n = len(text)
    i = 0
    while i < n and text[i] in C_SPACE:
        i += 1
    negative = False
    if i < n and text[i] in "+-":
        negative = text[i] == "-"
        i += 1
    low = text[i:i + 8].lower()
    if low.startswith("inf"):
        return LongDouble(negative, special="inf"), i + (8 if low == "infinity" else 3), False
    if low.startswith("nan"):
        j = i + 3
        if j < n and text[j] == "(":
            k = j + 1
            while k < n and text[k] in _NAN_CHARS:
                k += 1
            if k < n and text[k] == ")":
                j = k + 1
        return LongDouble(negative, special="nan"), j, False
    if low[:2] == "0x" and (text[i + 2:i + 3] in _HEX or text[i + 2:i + 3] == "." and text[i + 3:i + 4] in _HEX):
        return _hex_float(text, i + 2, negative)
    j = i
    while j < n and text[j] in _DIGITS:
        j += 1
    int_digits = text[i:j]
    frac_digits = ""
    if j < n and text[j] == ".":
        k = j + 1
        while k < n and text[k] in _DIGITS:
            k += 1
        frac_digits = text[j + 1:k]
        if int_digits or frac_digits:
            j = k
    if not int_digits and not frac_digits:
        return ZERO, 0, False
    exp10, j = _exponent(text, j, "eE")
    digits = (int_digits + frac_digits).lstrip("0")
    exp10 -= len(frac_digits)
    if not digits:
        return LongDouble(negative), j, False
    # outside the range by far: no exact arithmetic on a power of ten with a huge exponent
    magnitude = len(digits) + exp10  # the value is below 10**magnitude, at least 10**(magnitude-1)
    if magnitude - 1 > 4933:
        return LongDouble(negative, special="inf"), j, True
    if magnitude < -4952:
        return LongDouble(negative), j, True
    mantissa = decimal_value(digits)
    if exp10 >= 0:
        value, erange = _from_ratio(negative, mantissa * 10 ** exp10, 1)
    else:
        value, erange = _from_ratio(negative, mantissa, 10 ** -exp10)
    return value, j, erange


def _exponent(text: str, j: int, letters: str) -> tuple[int, int]:
    """An exponent part at TEXT[j] (a letter of LETTERS, an optional sign, digits), when one is
    there: (its value, the index after it); else (0, j)."""
    n = len(text)
    if j < n and text[j] in letters:
        k = j + 1
        if k < n and text[k] in "+-":
            k += 1
        start = k
        while k < n and text[k] in _DIGITS:
            k += 1
        if k > start:
            # a huge exponent only has to stay huge: clamp it before it becomes a power
            digits = text[start:k].lstrip("0")
            value = int(digits or "0") if len(digits) < 12 else 10 ** 11
            return (-value if text[start - 1] == "-" else value), k
    return 0, j


def _hex_float(text: str, i: int, negative: bool) -> tuple[LongDouble, int, bool]:
    n = len(text)
    j = i
    while j < n and text[j] in _HEX:
        j += 1
    int_digits = text[i:j]
    frac_digits = ""
    if j < n and text[j] == ".":
        k = j + 1
        while k < n and text[k] in _HEX:
            k += 1
        frac_digits = text[j + 1:k]
        j = k
    exp2, j = _exponent(text, j, "pP")
    digits = (int_digits + frac_digits).lstrip("0")
    exp2 -= 4 * len(frac_digits)
    if not digits:
        return LongDouble(negative), j, False
    mantissa = int(digits, 16)
    leading = mantissa.bit_length() + exp2 - 1
    if leading > MAX_LEADING + 1:
        return LongDouble(negative, special="inf"), j, True
    if leading < MIN_EXPONENT - 2:
        return LongDouble(negative), j, True
    if exp2 >= 0:
        value, erange = _from_ratio(negative, mantissa << exp2, 1)
    else:
        value, erange = _from_ratio(negative, mantissa, 1 << -exp2)
    return value, j, erange


# ---- writing


def _ratio(v: LongDouble) -> tuple[int, int]:
    if v.exponent >= 0:
        return v.significand << v.exponent, 1
    return v.significand, 1 << -v.exponent


def _fixed_digits(num: int, den: int, prec: int) -> str:
    """NUM/DEN (DEN a power of two) with PREC decimals, rounded half to even: ``"12.50"``,
    ``"0"`` (PREC 0)."""
    # 1/2**k has k decimals: past them the digits are zeros, written without arithmetic
    exact = den.bit_length() - 1
    zeros = max(prec - exact, 0)
    prec -= zeros
    q, r = divmod(num * 10 ** prec, den)
    q = _round_half_even(q, r, den)
    digits = decimal_text(q)
    if prec == 0:
        return digits + ("." + "0" * zeros if zeros else "")
    digits = digits.rjust(prec + 1, "0")
    return digits[:-prec] + "." + digits[-prec:] + "0" * zeros


def _decimal_exponent(num: int, den: int) -> int:
    """floor(log10(NUM/DEN)) of a positive ratio."""
    x = int((num.bit_length() - den.bit_length()) * 0.30102999566398120)
    while True:
        if x >= 0:
            low, high = num >= den * 10 ** x, num < den * 10 ** (x + 1)
        else:
            scaled = num * 10 ** -x
            low, high = scaled >= den, scaled < den * 10
        if not low:
            x -= 1
        elif not high:
            x += 1
        else:
            return x


def _scientific_digits(num: int, den: int, prec: int) -> tuple[str, int]:
    """NUM/DEN rounded to PREC+1 significant digits: (the digits, the decimal exponent of the
    first)."""
    if num == 0:
        return "0" * (prec + 1), 0
    x = _decimal_exponent(num, den)
    # the exact value has at most x+1+k significant digits (DEN = 2**k): zeros after them
    zeros = max(prec - (x + den.bit_length() - 1), 0)
    prec -= zeros
    shift = prec - x
    if shift >= 0:
        q, r = divmod(num * 10 ** shift, den)
        q = _round_half_even(q, r, den)
    else:
        d = den * 10 ** -shift
        q, r = divmod(num, d)
        q = _round_half_even(q, r, d)
    if q == 10 ** (prec + 1):  # 9.99 rounded up to 10.0
        q //= 10
        x += 1
    return decimal_text(q) + "0" * zeros, x


def _exponent_text(x: int, letter: str) -> str:
    return f"{letter}{'-' if x < 0 else '+'}{abs(x):02d}"


def _float_body(v: LongDouble, alt: bool, prec: int | None, conv: str) -> tuple[str, str]:
    """(prefix, digits) of a finite value's magnitude: the prefix (``0x``) goes before the
    zeros of the ``0`` flag."""
    upper = conv in "EFGA"
    if conv in "aA":
        return ("0X" if upper else "0x"), _hex_body(v, alt, prec, upper)
    num, den = _ratio(v)
    p = 6 if prec is None else prec
    if conv in "fF":
        text = _fixed_digits(num, den, p)
        return "", text + "." if alt and p == 0 else text
    if conv in "eE":
        digits, x = _scientific_digits(num, den, p)
        mantissa = digits[0] + ("." + digits[1:] if p or alt else "")
        return "", mantissa + _exponent_text(x, "E" if upper else "e")
    # gG
    p = p or 1
    digits, x = _scientific_digits(num, den, p - 1)
    if -4 <= x < p:
        text = _fixed_digits(num, den, p - 1 - x)
        if not alt and "." in text:
            text = text.rstrip("0").rstrip(".")
        elif alt and "." not in text:
            text += "."
        return "", text
    fraction = digits[1:]
    if not alt:
        fraction = fraction.rstrip("0")
    mantissa = digits[0] + ("." + fraction if fraction or alt else "")
    return "", mantissa + _exponent_text(x, "E" if upper else "e")


def _hex_body(v: LongDouble, alt: bool, prec: int | None, upper: bool) -> str:
    """glibc's %La of the 80-bit format: the significand's top four bits as the leading digit
    (8 to f, or 0 for zero and subnormals), the other 60 bits as 15 hex digits."""
    if v.significand == 0:
        leading, frac, exp = 0, 0, 0
    else:
        leading, frac = v.significand >> 60, v.significand & ((1 << 60) - 1)
        exp = v.exponent + 60
    digits = f"{frac:015x}"
    if prec is None:
        digits = digits.rstrip("0")
    elif prec < 15:
        whole = (leading << (4 * prec)) | (frac >> (4 * (15 - prec)))
        rest = frac & ((1 << (4 * (15 - prec))) - 1)
        whole = _round_half_even(whole, rest, 1 << (4 * (15 - prec)))
        if whole >> (4 * prec) > 15:  # f.ff rounded up: 0x1 and four more bits of exponent
            whole = 1 << (4 * prec)
            exp += 4
        leading = whole >> (4 * prec)
        digits = f"{whole & ((1 << (4 * prec)) - 1):0{prec}x}" if prec else ""
    else:
        digits = digits.ljust(prec, "0")
    text = f"{leading:x}" + ("." + digits if digits or alt else "") + f"p{'-' if exp < 0 else '+'}{abs(exp)}"
    return text.upper() if upper else text


def format_float(v: LongDouble, flags: str, width: int, prec: int | None, conv: str) -> str:
    """One of ``%e %E %f %F %g %G %a %A`` of V (a long double) with FLAGS (of ``-+ #0``),
    WIDTH (0: none) and PREC (None: the default)."""
    sign = "-" if v.negative else "+" if "+" in flags else " " if " " in flags else ""
    if v.special:
        prefix, body = "", v.special.upper() if conv in "EFGA" else v.special
        zero = False
    else:
        prefix, body = _float_body(v, "#" in flags, prec, conv)
        zero = "0" in flags
    return _pad(sign + prefix, body, flags, width, zero)


def format_decimal(text: str, flags: str, width: int, prec: int | None) -> str | None:
    """``format_float(strtold(TEXT), ..., "f")`` without the exact arithmetic, for a plain
    decimal TEXT (``[+-]digits[.digits]``) with at most PREC decimals whose integer digits and
    PREC decimals are at most 18: the long double nearest it is within 2**-64 of it relatively,
    less than half a unit of the last decimal printed, so what is printed is the number itself,
    with zeros after it. None for any other TEXT."""
    p = 6 if prec is None else prec
    negative = text[:1] == "-"
    body = text[1:] if negative or text[:1] == "+" else text
    whole, _, frac = body.partition(".")
    if len(frac) > p or not body.isascii() or (frac and not frac.isdigit()):
        return None
    if whole:
        if not whole.isdigit():
            return None
        whole = whole.lstrip("0") or "0"
        if len(whole) + p > 18:
            return None
    elif frac:
        whole = "0"
    else:
        return None
    digits = whole + "." + frac.ljust(p, "0") if p else (whole + "." if "#" in flags else whole)
    if not flags:
        text = "-" + digits if negative else digits
        return text.rjust(width) if width > len(text) else text
    sign = "-" if negative else "+" if "+" in flags else " " if " " in flags else ""
    return _pad(sign, digits, flags, width, "0" in flags)


def _pad(head: str, body: str, flags: str, width: int, zero: bool) -> str:
    size = len(head) + len(body)
    if size >= width:
        return head + body
    if "-" in flags:
        return head + body + " " * (width - size)
    if zero:
        return head + "0" * (width - size) + body
    return " " * (width - size) + head + body


def format_int(value: int, flags: str, width: int, prec: int | None, conv: str) -> str:
    """One of ``%d %i %o %u %x %X`` of VALUE (signed for d and i, else 0 to 2**64-1)."""
    sign = ""
    if conv in "di":
        sign = "-" if value < 0 else "+" if "+" in flags else " " if " " in flags else ""
        value = abs(value)
    if conv == "o":
        digits = f"{value:o}"
    elif conv in "xX":
        digits = f"{value:x}" if conv == "x" else f"{value:X}"
    else:
        digits = str(value)
    if prec is not None:
        if prec == 0 and value == 0:
            digits = ""
        digits = digits.rjust(prec, "0")
    prefix = ""
    if "#" in flags:
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and value:
            prefix = "0x" if conv == "x" else "0X"
    return _pad(sign + prefix, digits, flags, width, "0" in flags and prec is None)


def format_bytes(data: bytes, flags: str, width: int, prec: int | None) -> bytes:
    """``%s`` of a byte string: PREC bytes at most, padded with spaces to WIDTH bytes."""
    if prec is not None and prec < len(data):
        data = data[:prec]
    if len(data) >= width:
        return data
    pad = b" " * (width - len(data))
    return data + pad if "-" in flags else pad + data
