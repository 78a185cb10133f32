"""What the host keeps for a JS context is bounded: host-call buffers, answers, descriptors,
display bundles. Each bound is a clear error in JS, and the context goes on working.
(Host memory itself is measured in tests/hostile/test_js_hostile.py.)"""
import zlib

from sandbox_kernel.limits import Limits

from .jshelp import run_js

SMALL = Limits(wasm_memory_bytes=32 << 20, wall_time=20)


def value(sandbox, code, limits=SMALL):
    r = run_js(sandbox, code, limits=limits)
    assert r.status == 0, (r.error, r.err.text)
    return r.value


def test_junk_written_to_the_call_fds_fails_one_call_and_not_the_next(sandbox):
    # 40M of junk on the payload fd: refused past the memory limit, the next call says so
    got = value(sandbox, "const qos = await import('qjs:os'); const b = new Uint8Array(8 << 20);"
                         "const r = []; for (let i = 0; i < 5; i++) r.push(qos.write(1001, b.buffer, 0, b.length));"
                         "let e; try { fs.writeFileSync('/tmp/a', 'x') } catch (x) { e = x }"
                         "[r.join(), e && e.name, e && e.code, fs.readFileSync('/etc/hostname', "
                         "'utf8').length > 0].join(' ')")
    assert got == "'8388608,8388608,8388608,8388608,-22 RangeError ERR_BUFFER_TOO_LARGE true'"
    assert value(sandbox, "fs.writeFileSync('/tmp/a', 'ok'); fs.readFileSync('/tmp/a', 'utf8')") == "'ok'"


def test_a_half_written_call_does_not_poison_the_next_cell(sandbox):
    value(sandbox, "const qos = await import('qjs:os'); const j = new TextEncoder().encode('{\"op\": \"junk');"
                   "qos.write(1000, j.buffer, 0, j.length); qos.write(1001, j.buffer, 0, j.length)")
    assert value(sandbox, "fs.writeFileSync('/tmp/b', 'clean'); fs.readFileSync('/tmp/b', 'utf8')") == "'clean'"


def test_many_calls_in_one_write_to_the_control_fd(sandbox):
    # one line per call: each is answered in turn, none recursively
    assert value(sandbox, "const qos = await import('qjs:os'); const n = new TextEncoder().encode('\\n'.repeat(20000));"
                          "qos.write(1000, n.buffer, 0, n.length) + ' ' + fs.existsSync('/tmp')") == "'20000 true'"


def test_display_arguments_are_bounded(sandbox):
    big = run_js(sandbox, "let e; try { display.text('x'.repeat(17 << 20)) } catch (x) { e = x }; [e.name, e.code]",
                 limits=Limits(wall_time=20, wasm_memory_bytes=128 << 20))
    assert big.value == "[ 'RangeError', 'ERR_BUFFER_TOO_LARGE' ]"
    many = run_js(sandbox, "let e2; try { display.mime({'application/json': new Array(2e6).fill(0)}) } catch (x) "
                           "{ e2 = x }; e2.message")
    assert "1000000 items" in many.value
    r = run_js(sandbox, "display.text('fine'); 1")
    assert r.value == "1" and r.displays[-1][0] == {"text/plain": "fine"}


def test_display_waits_until_the_kernel_loop_has_the_bundle(sandbox):
    # one bundle in flight at a time: each is delivered before display() returns
    sandbox.fs.mkdir("/tmp/shown")
    r = run_js(sandbox, "let late = 0; for (let i = 0; i < 100; i++) { display.text(String(i));"
                        " if (fs.readdirSync('/tmp/shown').length !== i + 1) late++ } late",
               display=lambda data, *rest: sandbox.fs.write_bytes(f"/tmp/shown/{data['text/plain']}", b""))
    assert r.value == "0" and len(r.displays) == 100


def test_a_file_bigger_than_the_heap_is_a_range_error_before_the_host_reads_it(sandbox):
    sandbox.fs.write_bytes("/tmp/big", bytes(40 << 20))
    got = value(sandbox, "let e; try { fs.readFileSync('/tmp/big') } catch (x) { e = x }; "
                         "[e.name, e.code, e.message].join(' ')")
    assert "RangeError ERR_FS_FILE_TOO_LARGE" in got and "32M: wasm_memory_bytes" in got
    got = value(sandbox, "try { require('/tmp/big') } catch (x) { x.code }")
    assert got == "'ERR_FS_FILE_TOO_LARGE'"


def test_decompression_bomb_is_a_range_error(sandbox):
    c = zlib.compressobj(1, zlib.DEFLATED, 31)
    sandbox.fs.write_bytes("/tmp/bomb.gz", b"".join(c.compress(bytes(1 << 20)) for _ in range(64)) + c.flush())
    got = value(sandbox, "const z = require('zlib'); "
                         "try { z.gunzipSync(fs.readFileSync('/tmp/bomb.gz')).length } catch (x) { [x.name, x.code] }")
    assert got == "[ 'RangeError', 'ERR_BUFFER_TOO_LARGE' ]"
    ok = value(sandbox, "z.gunzipSync(z.gzipSync('small')).toString()")
    assert ok == "'small'"


def test_random_bytes_beyond_the_heap(sandbox):
    got = value(sandbox, "try { require('crypto').randomBytes(1e9) } catch (x) { [x.name, x.code] }")
    assert got == "[ 'RangeError', 'ERR_OUT_OF_RANGE' ]"


def test_open_descriptors_are_bounded(sandbox):
    got = value(sandbox, "const fds = []; let e; try { for (;;) fds.push(fs.openSync('/etc/hostname', 'r')) }"
                         " catch (x) { e = x } fds.forEach(fd => fs.closeSync(fd)); [e.code, fds.length]")
    assert got == "[ 'EMFILE', 1024 ]"
    got = value(sandbox, "const std = await import('qjs:std'); const files = [];"
                         " for (let f; files.length < 5000 && (f = std.open('/etc/hostname', 'r'));) files.push(f);"
                         " const n = files.length; files.forEach(f => f.close()); "
                         "n + ' ' + !!std.open('/etc/hostname', 'r')")
    assert got.startswith("'10") and got.endswith(" true'") and int(got[1:-6]) < 1024


def test_recursive_readdir_is_breadth_first_and_deep_trees_work(sandbox):
    deep = "/tmp/d" + "/a" * 1500
    sandbox.fs.mkdir(deep, parents=True)
    got = value(sandbox, "fs.mkdirSync('/tmp/r/a/b', {recursive: true}); fs.mkdirSync('/tmp/r/c');"
                         "for (const f of ['a/x', 'a/b/y', 'c/z', 'w']) fs.writeFileSync('/tmp/r/' + f, '');"
                         "fs.readdirSync('/tmp/r', {recursive: true}).join() + ' ' + fs.readdirSync('/tmp/d', "
                         "{recursive: true}).length")
    assert got == "'a,c,w,a/b,a/x,c/z,a/b/y 1500'"  # node's order


def test_wasi_reads_check_the_linear_memory_bounds():
    # the shim reads guest memory by address: a pointer past the end must be EFAULT, not a
    # read of host memory
    import struct

    import wasmtime

    from sandbox_kernel.js import wasi
    from sandbox_kernel.vfs.wasi import W_EFAULT

    store = wasmtime.Store(wasmtime.Engine())
    memory = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(1, 1)))
    host = wasi.WasiHost(None, None)
    host.attach(memory, store)
    memory.write(store, struct.pack("<II", 65536 - 4, 64), 0)  # one iovec running off the end
    call = host._guard("fd_write", host.fd_write)
    assert call(1, 0, 1, 16) == W_EFAULT
    memory.write(store, b"ok", 100)
    assert host.read(100, 2) == b"ok" and host.read(65536, 0) == b""
