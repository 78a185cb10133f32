printf '%s-%s\n' a b c d e
printf '%d%%\n' 10 20
printf '[%5.1f]\n' 2.25 3.75
printf '%s\n'
printf 'no args\n'
printf '%-3s|%3s|\n' ab cd
