"""Web/node globals the QuickJS build lacks and the prelude provides."""
import base64
import hashlib
import hmac
import json
from pathlib import Path

import pytest

from .jshelp import run_js


def test_text_encoder_and_decoder(shared_sandbox):
    sb = shared_sandbox
    assert run_js(sb, "Array.from(new TextEncoder().encode('é€'))").value == "[ 195, 169, 226, 130, 172 ]"
    assert run_js(sb, "new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 104, 105]))").value == "'hi'"
    assert run_js(sb, "const big = 'é😀'.repeat(5000); "
                      "new TextDecoder().decode(new TextEncoder().encode(big)) === big").value == "true"
    r = run_js(sb, "new TextDecoder('utf-8', {fatal: true}).decode(new Uint8Array([0xff]))")
    assert r.error.ename == "TypeError"
    assert run_js(sb, "new TextDecoder().decode(new Uint8Array([0xff, 0x41]))").value == "'\ufffdA'"
    assert run_js(sb, "const dst = new Uint8Array(3); "
                      "JSON.stringify(new TextEncoder().encodeInto('aé€', dst))").value == \
        "'{\"read\":2,\"written\":3}'"


def test_crypto(shared_sandbox):
    sb = shared_sandbox
    assert run_js(sb, "require('crypto').createHash('sha256').update('ab').update('c').digest('hex')").value == \
        repr(hashlib.sha256(b"abc").hexdigest())
    expected = base64.b64encode(hmac.new(b"key", b"data", "md5").digest()).decode()
    assert run_js(sb, "require('node:crypto').createHmac('md5', 'key').update('data').digest('base64')").value == \
        repr(expected)
    uuid4 = "/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/"
    assert run_js(sb, uuid4 + ".test(crypto.randomUUID())").value == "true"
    assert run_js(sb, "crypto.getRandomValues(new Uint32Array(4)).length").value == "4"
    assert run_js(sb, "require('crypto').randomBytes(8).length").value == "8"
    r = run_js(sb, "require('crypto').createHash('whirlpool').digest()")
    assert r.error.evalue == "Digest method not supported"


def test_structured_clone(shared_sandbox):
    sb = shared_sandbox
    r = run_js(sb, "const src = {m: new Map([['k', [1, 2]]]), d: new Date(0), u: new Uint8Array([1, 2])}; "
                   "src.self = src;"
                   "const c = structuredClone(src); "
                   "[c !== src, c.self === c, c.m.get('k')[1], c.d.getTime(), c.u[1], c.m !== src.m]")
    assert r.value == "[ true, true, 2, 0, 2, true ]"
    assert run_js(sb, "structuredClone({f() {}})").error.ename == "DataCloneError"


def test_zlib(shared_sandbox):
    import gzip

    sb = shared_sandbox
    sb.fs.write_bytes("/workspace/data.gz", gzip.compress(b"line\n" * 1000))
    assert run_js(sb, "require('zlib').gunzipSync(fs.readFileSync('data.gz')).toString().split('\\n').length"
                  ).value == "1001"
    r = run_js(sb, "const z = require('zlib'); fs.writeFileSync('out.gz', z.gzipSync('héllo')); "
                   "z.inflateSync(z.deflateSync('abc')).toString()")
    assert r.value == "'abc'"
    assert gzip.decompress(sb.fs.read_bytes("/workspace/out.gz")) == "héllo".encode()
    assert run_js(sb, "require('zlib').gunzipSync(Buffer.from('nope'))").error.evalue


URL_CASES = json.loads(Path(__file__).with_name("url_cases.json").read_text())["cases"]


@pytest.mark.parametrize("case", URL_CASES, ids=[c["expr"][:50] for c in URL_CASES])
def test_url_matches_node(shared_sandbox, case):
    r = run_js(shared_sandbox, f"console.log(JSON.stringify({case['expr']}))")
    assert r.status == 0, r.error
    assert json.loads(r.out.text) == json.loads(case["node"])


def test_url_errors_and_modules(shared_sandbox):
    sb = shared_sandbox
    r = run_js(sb, "new URL('not a url')")
    assert r.error.ename == "TypeError" and r.error.evalue == "Invalid URL"
    assert run_js(sb, "require('url').fileURLToPath('file:///tmp/a%20b')").value == "'/tmp/a b'"
    assert run_js(sb, "require('querystring').parse('a=1&b=x+y').b").value == "'x y'"
