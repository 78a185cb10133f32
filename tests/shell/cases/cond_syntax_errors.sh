# a syntax error inside [[ ]] ends the shell with the status before it; one in $(...) with 127
nl='
'
for code in '[[ ]]' '[[ ) ]]' '[[ -z ]]' '[[ a b ]]' "[[ b '<' a ]]" '[[ a 3< b ]]' '[[ a == ]]' \
            '[[ ( a ]]' '[[ && ]]' '[[ -z > a ]]' '[[ ; =~ ; ]]' '[[ a =~ [a b] ]]' '[[ a =~ c a ]]'; do
  bash -c "(exit 3)
$code
echo not reached" 2>/dev/null
  echo "$code => $?"
done
bash -c '[[ -f == ]]; echo "unary on ==: $?"'
bash -c '[[ "(" =~ (\() ]]; echo "paren: $?"; [[ "|" =~ | ]]; echo "pipe: $?"'
for re in '*' '{' 'a{1' 'a{1}' '(*a)' 'a|*b' 'x{a}' 'a{,2}' '()'; do
  [[ a =~ $re ]]; echo "regex $re => $?"
done
bash -c 'false; echo $(if true); echo reached' 2>/dev/null; echo "cmdsub => $?"
bash -c 'f() g() { echo hi; }; echo reached' 2>/dev/null; echo "nested function => $?"
