# jq: what jq 1.6 refuses at compile time (exit 3, no output) and what it folds: constant
# object keys that are not strings, break without its label, empty array patterns, $__loc__
# as a binding, object values beyond 1.6's grammar, .a.[0], a format key without its string;
# constant arithmetic (0/0 is null, 1/0 is refused) and a trailing comma in an object
for p in '{(0):1}' '{non_const:., (0):1}' '{(null):1}' '{(true):1}' '{([1,[2]]):1}' '{({a:(1)}):1}' \
         '{(1+1):1}' '{(1 == 1):1}' '{(1 / 3):1}' '. as {(1):$a} | $a' '. as $foo | break $foo' \
         'label $f | break $g' '. as [] | null' '. as [[]] | 1' '. as {a: []} | 1' '{$__loc__}' \
         '. as {$__loc__} | 1' '{a: 1 + 2}' '{a: .b // 1}' '{a: if . then 1 else 2 end}' '{a: try 1}' \
         '.a.["b"]' '{@base64: 1}' '1/0' '(1)/0' '[1/0]' '-1/0'; do
  jq -nc "$p" > out 2>/dev/null; echo "$? $(cat out)"
done
jq -nc '0/0, {a:1,}, {a: - 1 | 2}, {(2 % 3 | tostring):1}, {(-1|tostring):1}, (try (1/-0) catch .), {("a"+"b"):1}'
jq -nc 'label $f | def g: break $f; 1, g, 2'
# assignments bind tighter than // and do not chain; {(e)} needs its value
jq -nc '{} | (.a = .b // 1), (.a // .b = 1), (.a |= . // 5), (.a += 1 // 2), (.a //= 3 // 4)'
for p in '{"a":1} | .a += .a += 1' '{} | .a = .b = 1' '{("c")}'; do jq -nc "$p" > out 2>/dev/null; echo "$? $(cat out)"; done
