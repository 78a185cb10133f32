seq -0.5 0.5 0.5; seq -1 0.5 0; seq -s '\t' 3; seq 0 0.1 0.3; seq 1 -0.25 0
seq -w 0.5 0.25 1.5; seq 5 -1.5 0; seq -f '%+.1e' 1 2
printf 'a b\nc d\n' | xargs -I X echo X-X; printf 'x\n' | xargs -I{} sh -c 'echo {} {}'
printf 'a\n\nb\n' | xargs -L1 echo; printf ' a  b \n' | xargs -I{} echo "[{}]"
printf '%s\n' 3 1 2 | sort -n | paste -sd, -
printf 'a,b\n1,2\n' | paste -d'\t' - - ; printf 'x\ny\nz\n' | paste - - -
printf '1\n2\n3\n4\n5\n' | head -n -2 | tail -n +2
printf 'a\nb\n' | tail -c 2 | od -c | head -1
printf 'foo bar\n' | cut -d' ' -f2- ; printf 'x:y:z\n' | cut -d: --complement -f2
printf 'AbC\n' | tr '[:lower:][:upper:]' '[:upper:][:lower:]'
printf 'a\nb\nc\n' | sed -n p | sort -r | tr '\n' ,; echo
printf '5\n3\n5\n1\n' | sort -nu
printf 'b 2\na 2\nc 1\n' | sort -k2,2n -k1,1r
printf 'x\tz\ty\n' | sort -t "$(printf '\t')" -k3
wc -c < /dev/null; printf '' | wc -l; printf 'no newline' | wc -l
printf 'a\n' | tee; printf 'q\n' | tee -a /dev/null
yes 1 | head -n 1000 | paste -sd+ | wc -c
seq 3 | tac | nl -w1 -s:
