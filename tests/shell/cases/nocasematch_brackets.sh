# nocasematch folds the character, the listed ones and the range ends; a [:class:] sees the
# character as it is; an unclosed [. matches nothing
shopt -s nocasematch
for t in "A [!a]" "[ [Z-a]" "B [[:upper:]]" "b [[:upper:]]" "a [[:upper:]]" "a [B-Z]" "b [A-Z]" "Q [q]" "q [!Q]"; do
  set -- $t
  [[ $1 == $2 ]] && echo "$t yes" || echo "$t no"
  case $1 in $2) echo "case $t yes";; esac
done
shopt -u nocasematch
for n in . "[" x; do [[ $n == [[.] ]] && echo "$n matches [[.]"; done
echo end
