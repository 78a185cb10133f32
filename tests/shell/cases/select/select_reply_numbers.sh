# how a reply counts as a number: white space, signs, leading zeros, junk, overflow
for reply in 010 ' 3 ' $'\t2' '2 ' +1 ' +2' -1 0 -0 1a 0x1 '1 2' '  ' 99999999999999999999 18446744073709551617; do
  printf '%s\n' "$reply" | select x in a b c d e f g h i j k l; do
    printf '[%s] -> [%s]\n' "$REPLY" "$x"
    break
  done 2>/dev/null
done
