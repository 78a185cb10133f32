# jq: JSON text read as jq 1.6 reads it: NaN/Infinity and strtod's numbers, a byte-order mark,
# 256 levels at most, values ended by the next one's start, a NUL, invalid UTF-8 per string,
# its messages and exit status; output nested deeper than 256 levels is cut; input_line_number
for t in 'nan' 'NaN' '-NaN' 'inf' 'Infinity' '-infinity' '+1' '1.' '.5' '01' '0x10' '1e' 'tru' 'true1' \
         '[1,]' '[,1]' '{"a"}' '{"a":1,}' '{1:2}' ']' '"\u00"' '"\x"' '"a' '[1 2]' '"\ud800"' '"\udc00"' \
         "'a'" '123abc' '[nan]' 'infinit' '1e400' 'NaN1' '[1,null,Infinity,-Infinity,NaN,-NaN]' \
         '1[2]' '[1]2' '1"a"' '1{' '1:' '1,' '[1]x' '{"a":1}{"b":' '[1:2]' 'truex'; do
  printf '%s' "$t" | jq -c . 2>e; echo "status $? $(cat e)"
done
printf '\xef\xbb\xbf"byte order mark"' | jq -c .; printf '\xef\xbb1' | jq . 2>e; echo "status $? $(cat e)"
printf ' \xef\xbb\xbf1' | jq . 2>e; echo "status $? $(cat e)"; printf '\xef\xbb\xbf' | jq .; echo "status $?"
printf '"\x01"' | jq . 2>e; cat e; printf '"\x1f" "a\x00b"\n1' | jq -c .; printf '"\x00"' | jq . 2>e; cat e
printf '1\n2\x003\n' | jq -c .; printf '"\x9e\xe9e" "\xed\xa0\x80" "\xc0\xaf" "a\xffb" "\xe2\x82x" "\xf5\x80\x80\x80"' | jq -c '[., length]'
printf '[1\n2' | jq . 2>e; cat e; printf '"a\n' | jq . 2>e; cat e; printf '[1\n' | jq . 2>e; cat e
awk 'BEGIN { for (i = 0; i < 257; i++) printf "["; for (i = 0; i < 257; i++) printf "]" }' | jq -c 'length' 2>e; cat e
awk 'BEGIN { for (i = 0; i < 256; i++) printf "["; for (i = 0; i < 256; i++) printf "]" }' | jq -c 'tojson | length'
awk 'BEGIN { for (i = 0; i < 128; i++) printf "{\"a\":"; printf "1"; for (i = 0; i < 128; i++) printf "}" }' | jq -c 'length' 2>e; cat e
jq -nc '("NaN","-NaN","NaN1","nan","1 2","","[1","[1] x"," 5 ","1\u0000x") | try fromjson catch .'
jq -nc '("1.5", " 2 ", "nan", "abc", "[1]", "") | try tonumber catch .'
jq -nc 'reduce range(10000) as $_ ([];[.]) | tojson | try (fromjson) catch . | (contains("<skipped: too deep>") | not) and contains("Exceeds depth limit for parsing")'
jq -nc 'reduce range(257) as $x (1; [.]), reduce range(256) as $x ({"x":1}; {a:.}), reduce range(300) as $x (null; [.]) | tojson | length'
jq -n 'reduce range(258) as $x ([1]; [.])' | sed -n '255,262p'
printf '1 2\n3\n[4,\n5]\n"x"' | jq -c '[., input_line_number]'; printf 'a\nb\nc' | jq -R -c '[., input_line_number]'
printf '1\n2\n' | jq -c -n '[inputs, input_line_number]'; jq -n 'input_line_number'; printf '1\n2' | jq '.a' 2>e; cat e
jq -n -c --indent 1 '[1]'; jq -n --indent 1 -c '[1]'; jq -n --indent -1 '[1]'; jq -n --indent 2x '[1]'; jq -n --indent 8 1 2>e; echo "status $? $(cat e)"
