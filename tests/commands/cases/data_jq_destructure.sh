# jq: ?// destructuring alternatives as jq 1.6 binds them: every pattern's variables exist,
# null unless the pattern used binds them; an error moves on to the next pattern
echo '[{"a":1, "b":[2,{"d":3}]}, [4, {"b":5, "c":6}, 7, 8, 9], "foo"]' | jq -c '.[] | . as {$a, b: [$c, {$d}]} ?// [$a, {$b}, $e] ?// $f | [$a, $b, $c, $d, $e, $f]'
echo '[{"a": 1, "b": 2, "c": {"d": 3, "e": 4}}, {"a": 1, "b": 2, "c": [{"d": 3, "e": 4}]}]' | jq -c '.[] as {$a, $b, c: {$d, $e}} ?// {$a, $b, c: [{$d, $e}]} | {$a, $b, $d, $e}'
echo '[{"a": 1, "b": 2, "c": {"d": 3, "e": 4}}, {"a": 1, "b": 2, "c": [{"d": 3, "e": 4}]}]' | jq -c '.[] as {$a, $b, c: {$d}} ?// {$a, $b, c: [{$e}]} | {$a, $b, $d, $e}'
jq -nc '[[3]] | .[] as [$a] ?// [$b] | if $a != null then error("err: \($a)") else {$a,$b} end'
jq -nc '{"a":1} | (. as [$a] ?// {$a} | $a), (try (. as [$a] ?// [$b] | $a) catch .), (null | . as [$a, $b] ?// {$a} | [$a, $b])'
jq -nc '{"a":[1,2]} | [paths(. as [$x] ?// {$a} | true)], path(. as [$x] ?// {$a} | .a[0])'
