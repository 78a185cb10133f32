printf 'a\nb\n' > f1
printf '1\n2\n' > f2
while read -r x <&3 && read -r y <&4; do echo "$x$y"; done 3<f1 4<f2
