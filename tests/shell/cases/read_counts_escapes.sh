# read -n counts characters after backslash processing, -N ignores IFS and the delimiter,
# backslash-newline goes with any -d, NUL bytes are dropped, -t 0 only tests for input
echo 'a b c' > readn.txt
read -n 5 A B C < readn.txt; echo "'$A' '$B' '$C'"
read -n 4 A B C < readn.txt; echo "'$A' '$B' '$C'"
read -N 5 A B C < readn.txt; echo "'$A' '$B' '$C'"
read -N 4 A B C < readn.txt; echo "'$A' '$B' '$C'"
echo 'a\b\c\d\e\f' | (read -n 5; echo "[$REPLY]")
echo 'a\ \ \ \ \ ' | (read -n 5; echo "[$REPLY]")
echo 'abc\def\ghijklmn' | (read -n 4; echo "[$REPLY]")
echo '   \xxx\xxxxxxxx' | (read -n 4; echo "[$REPLY]")
printf 'abc\\\ndefg\n' | (read -n 4; echo "[$REPLY]")
printf '%s\n' 'a b\' 'c d' | (read; echo "[$REPLY]")
printf '%s\n' 'a b\,c d' | (read; echo "[$REPLY]")
printf '%s\n' 'a b\' 'c d' | (read -d ,; echo "[$REPLY]")
printf '%s\n' 'a b\,c d' | (read -d ,; echo "[$REPLY]")
printf '.\000.' | (read s; echo "len=${#s}")
printf '.\000.' | (read -n 3 s; echo "len=${#s}")
printf '%s\0' 1 3 5 | (mapfile -d '' arr; echo "n=${#arr[@]}"; printf '[%s]\n' "${arr[@]}")
read -t 0 < /dev/null; echo "t0 eof: $?"
