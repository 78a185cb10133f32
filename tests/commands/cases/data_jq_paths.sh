# jq: lookups, slices and path updates as jq 1.6 does them (messages, fractional slice ends,
# del of several paths at once, getpath's errors)
for t in null true 1 '"s"' '[1,2,3]' '{"a":1}'; do
  for k in null 1 1.5 '"a"' '"abcdefghijabcdefghijabcdefghij"' '[1]' '[]' '{"start":1}' '{"start":1,"end":null}'; do
    jq -nc "try ($t | .[$k]) catch ." 
  done
done
jq -nc '[range(10)] | .[1.2:3.5], .[1.7:3.5], .[:-0.5], .[-2.5:], .[infinite:], .[-infinite:2]'
jq -nc '"abcdef" | .[1.5:3.5], (try .["a":] catch .)'
jq -nc '[range(10)] | (.[1.5:3.5] = ["xyz"]), del(.[1], .[-6], .[2], .[-3:9]), del(.[1:3], .[2:5])'
jq -nc '{"a":[1,2,3],"b":2} | del(.a[0], .b), del(.a, .a[0]), (try del(.a.x) catch .), delpaths([["a",0],["a",2]])'
jq -nc '{"a":[1,2,3]} | (try delpaths([["a",0],1]) catch .), (try delpaths([[null]]) catch .)'
jq -nc '[1,2,3] | (try delpaths([[true]]) catch .), (try setpath([[1]]; 1) catch .), (try setpath([true]; 1) catch .)'
jq -nc '1 | (try getpath(["a"]) catch .), (try delpaths([["a"]]) catch .)'
jq -nc '{"a":[1]} | (try getpath(["a","b"]) catch .), (null | getpath(["a",1,"b"]))'
jq -nc '[null,{"b":0},{"a":0},{"a":null},{"a":[0,1]},{"a":{"b":1}},{"a":[{}]}] | .[] | try (getpath(["a",0,"b"]) |= 5) catch .'
jq -nc '"aéb" | indices("b"), index("é"), ("aaaa" | indices("aa")), ([1,2,3] | .[[5]], .[[]])'
for s in '1.7:-4294967296' '1.7:1' '1.7:1.5' '-1.5:' ':-9.5' ':-10.5' '3.5:3.2' ':0.1'; do
  jq -nc "[range(10)] | .[$s], (.[$s] = [\"x\"]), del(.[$s])"
done
