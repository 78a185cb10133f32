printf 'b\0a\0c\0' | sort -z | tr '\0' '\n'
printf 'x Mar\ny jan\nz DEC\nw ???\n' | sort -k2M
printf '3 c\n1 a\n2 b\n' | sort -k1,1n -o sorted.txt; cat sorted.txt
printf 'a 1\nb 2\nc 3\n' > A; printf 'a x\nc y\nd z\n' > B
join A B; join -a1 A B; join -v1 A B; join -o 1.2,2.2 A B; join -j 1 -e '?' -a2 -o 0,1.2,2.2 A B
join -t ' ' -1 1 -2 1 A B; join -i A B
comm -12 A B; comm -3 A B; comm --output-delimiter=: A B
printf 'a b c\ndd e f\n' | column -t -o ' | '
printf '#x\ny\n#z\n' | nl -b 'p^#'
printf 'a1b22c333d' | tac -r -s '[0-9]\+'; echo
printf 'x\ny\n' | tac -b
seq 30 > s30; split -a 3 -l 10 s30 q_; ls q_*; split -l 12 -d s30 n_; ls n_*
seq 5 | xargs -t -n 2 echo 2>&1
printf 'one two three four\n' | xargs -s 15 echo
printf 'a\nb\nSTOP\nc\n' | xargs -E STOP echo
printf 'x y\n' | xargs -L 1 echo
echo 'HELLO world 123' | tr '[:upper:][:digit:]' '[:lower:]#'
echo 'a-b_c' | tr -- '-_' '  '
echo 'aaa bbb' | tr -s 'ab'
echo 'hello' | tr 'a-y' 'b-z'
echo 'x=1;y=2' | tr ';=' '\n '
printf 'a\tb\n' | expand -t 1; printf '  x\n' | unexpand -t 2
printf 'line one\nline two\n' | fmt -w 5
printf 'abcdefghij\n' | fold -w 3 -b
seq -f 'item-%03g' 3; seq -s ' ' -w 1 3 10
echo "[$(seq -s '' 3)]"
printf '3\n1\n2\n' | sort -n | tee out.txt | tail -1; cat out.txt | wc -l
expr match 'abc123' '[a-z]*'; expr 'x' = 'x' \& 1 = 1; expr \( 2 + 3 \) \* 4
