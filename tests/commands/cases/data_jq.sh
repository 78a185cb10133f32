# jq: filters, options and output formatting as jq 1.6 prints them
cat > people.json <<'JSON'
{"users":[{"name":"ann","age":31,"tags":["a","b"]},{"name":"bob","age":19,"tags":[]},{"name":"cy","age":45,"tags":["b"]}],"meta":{"count":3,"ok":true,"ratio":0.5}}
JSON
jq . people.json; jq -c '.users[0]' people.json; jq -r '.users[].name' people.json
jq '.users | map(select(.age > 30)) | map(.name)' people.json
jq -c '.users | sort_by(.age) | reverse | map({name, age})' people.json
jq -r '.users[] | "\(.name) is \(.age)"' people.json
jq '[.users[].tags[]] | unique | length' people.json
jq -c '.users | group_by(.tags | length > 0) | map(length)' people.json
jq -r '.users[] | [.name, .age] | @csv' people.json; jq -r '.users[] | [.name, .age] | @tsv' people.json
jq '.meta | keys, has("ok"), .ratio * 4' people.json
jq -c '.meta | to_entries | map(select(.value != true)) | from_entries' people.json
jq -c '.users[0] | with_entries(.key |= ascii_upcase)' people.json
jq -c 'reduce .users[] as $u ({}; .[$u.name] = $u.age)' people.json
jq -c '[.users[] | .age] | add, length, min, max, (add / length)' people.json
jq -c '.users[1].tags += ["new"] | .users[1]' people.json
jq -c 'del(.users) | .meta.count |= . + 1' people.json
jq -c '[paths(type == "number")]' people.json
jq -n '1, 2 | . * 10'; jq -nc '[range(5)] | .[1:3], .[-2:]'; jq -nc '{a: 1} + {b: 2} | keys'
jq -n --arg name Ann '"hi \($name)"'; jq -nc --argjson v '{"x":[1,2]}' '$v.x | add'
echo '1 2 3' | jq -s add; echo '1 2 3' | jq -c -s 'map(. * 2)'
printf 'a,b\nc,d\n' | jq -R 'split(",")' -c; printf 'x\ny\n' | jq -Rs .
echo '{"b":2,"a":{"d":1,"c":3}}' | jq -S .; echo '[1,[2]]' | jq --tab .; echo '{"a":[1]}' | jq --indent 4 .
echo '"caf\u00e9"' | jq -a .; echo '["a","b"]' | jq -j '.[]'; echo
echo '[1.0, 100, 1e17, 0.1, 1e-5, 3.14159, -0, 1e1000]' | jq -c .
echo '{"a":"x"}' | jq '.a.b'; echo "status $?"
echo '{"a":false}' | jq -e .a; echo "status $?"
echo 'null' | jq -e 'empty'; echo "status $?"
echo '{"a":1} {"b":' | jq -c . 2>/dev/null; echo "status $?"
jq -n '{' 2>/dev/null; echo "status $?"
jq -n 'nosuchfunction' 2>/dev/null; echo "status $?"
echo '"a-b-c"' | jq -c 'split("-"), test("b"), sub("-"; "+"), gsub("-"; "+"), [scan("[a-c]")]'
echo '"2015-03-05T23:51:47Z"' | jq 'fromdate, (fromdate | todate)'
jq -n '[limit(3; repeat(1))], first(range(10; 0; -3)), [.[]?]' -c
jq -nc 'def fib: if . < 2 then . else (. - 1 | fib) + (. - 2 | fib) end; [range(10) | fib]'
jq -nc '[1,[2,[3,[4]]]] | flatten, flatten(1)'
jq -nc '{"a":[{"b":1},{"b":2}]} | [.a[] | .b] , (.a | map(.b * 10))'
jq -nc '"x" as $x | [1,2] | map([$x, .])'
jq -nc '[{"k":"a","v":1},{"k":"b","v":2}] | map({(.k): .v}) | add'
jq -nc 'try error("boom") catch ("caught " + .)'
jq -nc '[.[]?], (null | length), ("abc" | length), ([1,2] | contains([1]))'
jq -nc 'label $f | range(10) | ., (select(. == 2) | break $f)'
echo '{"a":[1,{"b":2}],"c":[]} 3 []' | jq -c --stream .
echo '{"a":[1,{"b":2}]}' | jq -c --stream -n '[inputs | select(length == 2)]'
echo '{"a":[1,{"b":2}]}' | jq -c 'fromstream(tostream)'
