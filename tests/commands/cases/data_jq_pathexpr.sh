# jq: path expressions that go through something that is not a path, as jq 1.6 reports them:
# at the next lookup ("near attempt to access element / iterate through") or at the end
# ("with result"); a value identical to the one at the path (an equal number, the same string)
# keeps it
echo '{"a":[{"b":0}]}' | jq -c 'try path(.a | map(select(.b == 0)) | .[0]) catch ., try path(.a | map(select(.b == 0)) | .c) catch ., try path(.a | map(select(.b == 0)) | .[]) catch ., try path(.a | map(select(.b == 0))) catch .'
echo '[{"a":0},{"a":1}]' | jq -c 'try ((map(select(.a == 1))[].b) = 10) catch ., try ((map(select(.a == 1))[].a) |= .+1) catch .'
jq -nc '1 | path(1), (try path(2) catch .), (null | path(null)), ({"a":1} | try path(null) catch .), (true | path(true))'
jq -nc '"a" | (try path("a") catch .), path(tostring), ([1,2] | path(.[0] | . + 0), (try path(map(.)) catch .))'
jq -nc '{"a":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"} | try path({} | .["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]) catch .'
jq -nc '{"a":1} | path(.a | tojson | fromjson), (try del(.a | tostring) catch .), ({"a":{"b":1}} | path(.a | getpath(["b"])), (try path({} | getpath(["b"])) catch .))'
jq -nc '[[1,2]] | (try path(.[0] | sort | .[0]) catch .), (try path(map(.) | ..) catch .), [path(..)]'
