# jq: contains/inside as jq 1.6 checks them: kinds must match at the top only (inside arrays
# and objects a different kind is just not contained), true and false are different kinds,
# strings compare up to a NUL
echo '{"foo": 12, "bar":[1,2,{"barp":12, "blip":13}]}' | jq -c 'contains({foo: 12, bar: [{barp: 12}]}), contains({foo: 12, bar: [{barp: 15}]})'
echo '{"foo": 12, "bar": [{"barp": 12}]}' | jq -c 'inside({"foo": 12, "bar":[1,2,{"barp":12, "blip":13}]})'
echo '[1,"a",null,[1,2],{"a":1}]' | jq -c 'contains([null]), contains(["a", 1]), contains([[1]]), contains([1,[3]]), contains([{}])'
jq -nc '(true | try contains(false) catch .), (1 | try contains("a") catch .), ({"a":1} | contains({"a":null}))'
jq -nc '"foo\u0000bar" | contains("bar"), contains("foo"), ("foobar" | contains(""))'
jq -nc '[1,{"a":1}] | inside([{"a":1,"b":2},1]), inside([{"a":1,"b":2},"x"])'
