"""jq: the language (expected outputs measured with jq 1.6), number and string output, options
and exit statuses."""
import json

import pytest

from sandbox_kernel.commands.jq.formats import format_number

from .helpers import new_fs, run_cmd_bytes


def jq(*args, stdin=b"null", fs=None):
    return run_cmd_bytes(["jq", *args], stdin=stdin, fs=fs)


CASES = [
    ('.a.b', '{"a":{"b":[1,2]}}', '[1,2]'),
    ('.[1]', '[1,2,3]', '2'),
    ('.[-1:]', '[1,2,3]', '[3]'),
    ('.[1:3]', '"hello"', '"el"'),
    ('[.[] | . * 2]', '[1,2]', '[2,4]'),
    ('.a, .b', '{"a":1,"b":2}', '1\n2'),
    ('[.[] | select(. > 1)]', '[1,2,3]', '[2,3]'),
    ('map(.+1)', '[1,2]', '[2,3]'),
    ('keys', '{"b":1,"a":2}', '["a","b"]'),
    ('[.[] | length]', '[[1,2],"abc",{"a":1},null,-5]', '[2,3,1,0,5]'),
    ('to_entries', '{"a":1}', '[{"key":"a","value":1}]'),
    ('from_entries', '[{"name":"a","value":1},{"Key":"b","Value":2}]', '{"a":1,"b":2}'),
    ('with_entries(.value += 1)', '{"a":1,"b":2}', '{"a":2,"b":3}'),
    ('has("a"), has("z")', '{"a":1}', 'true\nfalse'),
    ('add', '[[1],[2,3]]', '[1,2,3]'),
    ('sort_by(.a) | map(.a)', '[{"a":2},{"a":1}]', '[1,2]'),
    ('group_by(.k) | map(length)', '[{"k":1},{"k":2},{"k":1}]', '[2,1]'),
    ('unique', '[3,1,3]', '[1,3]'),
    ('min, max', '[3,1,2]', '1\n3'),
    ('join("-")', '["a",1,null]', '"a-1-"'),
    ('split(",")', '"a,b"', '["a","b"]'),
    ('test("B"; "i")', '"abc"', 'true'),
    ('ascii_downcase, ascii_upcase', '"aBc"', '"abc"\n"ABC"'),
    ('tostring, (tojson|fromjson)', '[1,{"a":"b"}]', '"[1,{\\"a\\":\\"b\\"}]"\n[1,{"a":"b"}]'),
    ('tonumber + 1', '"1.5"', '2.5'),
    ('type', '{}', '"object"'),
    ('.x as $v | {a: .x, "b": 2, (.k): 3, $v, @base64 "k": 4}', '{"x":1,"k":"z"}', '{"a":1,"b":2,"z":3,"v":1,"k":4}'),
    ('if . > 1 then "big" elif . == 1 then "one" else "small" end', '1', '"one"'),
    ('.a // "default"', '{"a":null}', '"default"'),
    ('. == 1, . != 1, . < 2, "a" < "b", [] < {}', '1', 'true\nfalse\ntrue\ntrue\ntrue'),
    ('"x: \\(.a + 1)"', '{"a":1}', '"x: 2"'),
    ('@csv, @tsv', '[1,"a\\tb",null]', '"1,\\"a\\tb\\","\n"1\\ta\\\\tb\\t"'),
    ('@base64, (@base64 | @base64d)', '"hi"', '"aGk="\n"hi"'),
    ('@json "v=\\(.)"', '[1]', '"v=[1]"'),
    ('@html, @uri, @sh', '"<a b>"', '"&lt;a b&gt;"\n"%3Ca%20b%3E"\n"\'<a b>\'"'),
    ('reduce .[] as $x (0; . + $x)', '[1,2,3]', '6'),
    ('[foreach .[] as $x (0; . + $x)]', '[1,2,3]', '[1,3,6]'),
    ('[limit(2; .[])], first(.[]), [range(0;10;4)]', '[5,6,7]', '[5,6]\n5\n[0,4,8]'),
    ('. as [$a, {b: $c}] | $a + $c', '[1,{"b":2}]', '3'),
    ('def f(g): [g, g]; def h($x): $x * 2; f(h(3))', 'null', '[6,6]'),
    ('try error("x") catch ., (.a)?', '5', '"x"'),
    ('label $out | .[] | if . > 1 then ., break $out else . end', '[1,2,3]', '1\n2'),
    ('.a.b |= . + 1, .c = 1, .a.b += 10, .z //= 3', '{"a":{"b":1}}',
     '{"a":{"b":2}}\n{"a":{"b":1},"c":1}\n{"a":{"b":11}}\n{"a":{"b":1},"z":3}'),
    ('del(.[] | select(. % 2 == 0))', '[1,2,3,4]', '[1,3]'),
    ('[paths], [leaf_paths]', '{"a":[1]}', '[["a"],["a",0]]\n[["a",0]]'),
    ('getpath(["a",0]), setpath(["a",1]; 9), delpaths([["a"]])', '{"a":[1]}', '1\n{"a":[1,9]}\n{}'),
    ('[.. | numbers]', '{"a":[1,{"b":2}]}', '[1,2]'),
    ('[splits(", *")], sub("(?<x>b)"; "<\\(.x)>"), gsub("a"; "A")', '"a, b,c"', '["a","b","c"]\n"a, <b>,c"\n"A, b,c"'),
    ('[match("a+"; "g").offset], capture("(?<n>[0-9]+)"), [scan("[a-z]")]', '"aa 12 a"',
     '[0,6]\n{"n":"12"}\n["a","a","a"]'),
    ('todate, (todate | fromdate), (gmtime | mktime), strftime("%Y %j")', '1700000000',
     '"2023-11-14T22:13:20Z"\n1700000000\n1700000000\n"2023 318"'),
    ('walk(if type == "array" then sort else . end)', '{"a":[3,1,2]}', '{"a":[1,2,3]}'),
    ('[.[] | tostring]', '[1,"1",[1]]', '["1","1","[1]"]'),
    ('input', '1 2', '2'),
    ('flatten, flatten(1)', '[1,[2,[3]]]', '[1,2,3]\n[1,2,[3]]'),
    ('indices(1), index("b"), contains([1]), inside([1,2,3])', '[1,2,1]', '[0,2]\nnull\ntrue\ntrue'),
    ('any, all, (map(. > 0) | all)', '[1,0]', 'true\ntrue\nfalse'),
    ('to_entries | map("\\(.key)=\\(.value)") | join("&")', '{"a":1,"b":"x"}', '"a=1&b=x"'),
    ('[recurse(.c[]?) | .n]', '{"n":1,"c":[{"n":2,"c":[{"n":3}]}]}', '[1,2,3]'),
    ('[while(. < 20; . * 2)], ([.,1] | until(.[0] > 100; [.[0] * 3, 1]) | .[0])', '1', '[1,2,4,8,16]\n243'),
    ('transpose, combinations', '[[1,2],[3]]', '[[1,3],[2,null]]\n[1,3]\n[2,3]'),
    ('$ENV.HOME, env.USER', 'null', '"/home/user"\n"user"'),
    ('infinite, -infinite, nan', 'null', '1.7976931348623157e+308\n-1.7976931348623157e+308\nnull'),
    ('[.[] | floor], (.[0] | sqrt), (4 % 3), (-5 % 3), (10 / 4)', '[2.5,-2.5]',
     '[2,-3]\n1.5811388300841898\n1\n-2\n2.5'),
]


@pytest.mark.parametrize("program,inp,want", CASES)
def test_language(program, inp, want):
    out, err, status = jq("-c", program, stdin=inp.encode())
    assert (out.decode(), err, status) == (want + "\n", b"", 0)


@pytest.mark.parametrize("value,text", [
    (1.0, "1"), (3.14, "3.14"), (1e17, "1e+17"), (1e16, "1e+16"), (12e15, "12000000000000000"),
    (1e15, "1000000000000000"), (123456789012345678901.0, "123456789012345680000"), (0.1 + 0.2, "0.30000000000000004"),
    (1e-5, "1e-05"), (0.0001, "0.0001"), (-0.0, "-0"), (1.5e300, "1.5e+300"), (2e-7, "2e-07"),
    (float("inf"), "1.7976931348623157e+308"), (1 / 3, "0.3333333333333333"),
])
def test_number_formatting_like_jq_16(value, text):
    assert format_number(value) == text


def test_pretty_printing_and_strings():
    out = jq(".", stdin=b'{"a":[1,2,{"b":null}],"c":{},"d":[],"e":"\\u00e9\\u0001\\u007f"}')[0]
    assert out == (b'{\n  "a": [\n    1,\n    2,\n    {\n      "b": null\n    }\n  ],\n  "c": {},\n'
                   b'  "d": [],\n  "e": "\xc3\xa9\\u0001\\u007f"\n}\n')
    assert jq("--tab", ".", stdin=b'{"a":[1]}')[0] == b'{\n\t"a": [\n\t\t1\n\t]\n}\n'
    assert jq("--indent", "1", ".", stdin=b'[1]')[0] == b'[\n 1\n]\n'
    assert jq("-S", "-c", ".", stdin=b'{"b":1,"a":{"d":1,"c":2}}')[0] == b'{"a":{"c":2,"d":1},"b":1}\n'
    assert jq("-a", ".", stdin='"é☃"'.encode())[0] == b'"\\u00e9\\u2603"\n'
    assert jq("-r", ".[]", stdin=b'["a",1,null]')[0] == b"a\n1\nnull\n"
    assert jq("-j", ".[]", stdin=b'["a",1]')[0] == b"a1"


def test_options_inputs_and_args():
    assert jq("-n", "1,2")[0] == b"1\n2\n"
    assert jq("-s", "add", stdin=b"1 2 3")[0] == b"6\n"
    assert jq("-n", "[inputs]", "-c", stdin=b"1 2")[0] == b"[1,2]\n"
    assert jq("-R", ".", stdin=b"a\nb\n")[0] == b'"a"\n"b"\n'
    assert jq("-Rs", ".", stdin=b"a\nb\n")[0] == b'"a\\nb\\n"\n'
    assert jq("--arg", "x", "hi", "--argjson", "y", '{"a":1}', "-nc", "[$x, $y.a]")[0] == b'["hi",1]\n'
    assert jq("-nc", "$ARGS", "--args", "a", "b")[0] == b'{"positional":["a","b"],"named":{}}\n'
    fs = new_fs()
    fs.write_bytes("/workspace/f.json", b'{"a":1}\n[2]\n')
    fs.write_bytes("/workspace/p.jq", b'.a? // .[0]\n')
    assert jq("-f", "p.jq", "f.json", fs=fs)[0] == b"1\n2\n"
    assert jq("-c", "--slurpfile", "v", "f.json", "-n", "$v", fs=fs)[0] == b'[{"a":1},[2]]\n'
    assert jq("--rawfile", "v", "f.json", "-n", "$v | length", fs=fs)[0] == b"12\n"
    assert jq(stdin=b'{"a":1}')[0] == b'{\n  "a": 1\n}\n'


def test_exit_statuses_and_errors():
    out, err, status = jq(".a", stdin=b"[1]\n")  # (the line count: 1 newline read)
    assert (out, status) == (b"", 5) and err.startswith(b"jq: error (at <stdin>:1): Cannot index array")
    assert jq(".[] | .a", stdin=b'[{"a":1},2,{"a":3}]')[::2] == (b"1\n", 5)
    assert jq("-e", ".a", stdin=b'{"a":false}')[2] == 1
    assert jq("-e", "empty")[2] == 4
    assert jq("-e", ".")[2] == 1
    out, err, status = jq(".", stdin=b'{"a":1} {"b":')
    assert (out, status) == (b'{\n  "a": 1\n}\n', 4) and err.startswith(b"parse error:")
    for bad in ("{", ".a |", "if . then 1 end", "nosuchfn", "$undefined", "1/0"):
        out, err, status = jq(bad)
        assert status == 3 and err.endswith(b"jq: 1 compile error\n"), bad
    assert jq("error(null)") == (b"", b"", 0)
    assert jq("-n", '"bye\\n" | halt_error') == (b"", b"bye\n", 5)
    assert jq("-n", "1, halt, 2")[::2] == (b"1\n", 0)
    assert jq(".", "nosuch.json")[2] == 2
    assert jq("--bogus", ".")[2] == 2


def test_large_inputs_do_not_recurse_deeply():
    data = json.dumps(list(range(20000))).encode()
    assert jq("add", stdin=data)[0] == b"199990000\n"
    assert jq("-n", "[range(100000)] | length")[0] == b"100000\n"
    assert jq("-n", "[limit(5; repeat(1))] | length")[0] == b"5\n"
    assert jq("-n", "last(range(50000))")[0] == b"49999\n"
    assert jq("-n", "[1 | while(. < 1000000; . * 2)] | length")[0] == b"20\n"
