# a for loop over a nameref makes the reference name each word in turn; a word no nameref
# can name (3, empty) is "not a valid identifier" and ends the loop with status 1
exec 2>&1
a=(x y); b=B
declare -n r=z
for r in b "a[1]" "" c; do echo "r=$r"; done; echo "status $?"
declare -p r
for r in b 3 c; do echo "r=$r"; done; echo "status $?"
