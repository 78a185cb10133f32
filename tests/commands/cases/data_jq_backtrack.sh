# jq: an error raised downstream of a value goes back into the generator that made it, as jq
# 1.6 runs it: a try there catches it (and may go on); first/limit/isempty stop their
# generator with a break, which such a try catches too; .a? .[k]? .[]? drop only their own
# lookup's error; path(first(f)) and path(limit(n; f))
echo '{"a":[1,2,{"b":3}],"c":"x"}' > in.json
jq -c '[(try .a[] catch "c") | if type=="object" then error("o") else . end]' in.json
jq -nc '[(try (1,2,3) catch "c") as $x | if $x==2 then error("e") else $x end]'
jq -nc '[(try (1,2) catch "c") | error]?, [try (1,2,3) catch . | if .==2 then error("x") else . end]'
jq -c '.a |= map(.+1?)' in.json
jq -c '[(try (1,2) catch "c") | select(. == 1) | error("z")]?' in.json
jq -nc '[first(try (1,2) catch "c")], [isempty(try (1,2) catch 3)], [limit(2; try (1, error("y"), 3) catch "c")]'
jq -nc '[label $f | try break $f catch .], [try (limit(2; 1, error("x"), 3)) catch .], [first(1, error("x"))]'
jq -c '[path(limit(2; .a[]))], [path(limit(0; .a[]))], [path(limit(-1; .a[]))], [path(first(.a[], .c))]' in.json
jq -c '(limit(2; .a[]) |= 0), (first(.a[]) |= 0), del(limit(2; .a[]))' in.json
jq -c '[.a[] | .b?], [.c?.d?], [.c[]?], [(.a[] | .b)?]' in.json
jq -nc '[limit(1.5; 1,2,3)], [limit(null; 1,2)], [try limit("a"; try (1,2) catch .) catch .], [limit("a"; 1,2)]?'
