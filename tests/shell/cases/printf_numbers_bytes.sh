# printf reads numbers as strtoimax/strtoumax do; %c is a byte; %q quotes raw bytes; echo -e octal is \0NNN
for a in ' 12' '12 ' ' -42 ' ' +0xff' '+077' '08' '0x' '  ' '' "'a" '1e3' '- 5'; do
  printf '[%d] [%u] [%x]\n' "$a" "$a" "$a" 2>&1; echo "status=$?"
done
for fmt in '%u\n' '%d\n' '%x\n'; do
  for n in 18446744073709551615 18446744073709551616 -18446744073709551615 -18446744073709551616 -42 9223372036854775808; do
    printf "$fmt" "$n" 2>&1; echo "status=$?"
  done
done
printf '[%#o][%#o] [%#x][%#x] [%#X][%#X]\n' 0 42 0 42 0 42
printf '%c' "$(printf '\316\274\316\274')" | od -A n -t x1
printf '%q\n' "$(printf '\377')" "$(printf 'a\316')" 'a b' $'tab\there'
export TZ=Asia/Tokyo; printf '%(%Y-%m-%d)T [%10.5(%Y-%m-%d)T]\n' 1557978599 1557978599
export TZ=US/Eastern; printf '%(%Y-%m-%d %H)T\n' 1557978599
TZ=Portugal; printf '%(%H)T not exported\n' 1557978599
long=$(printf '%%Y%.0s' $(seq 32)); printf "[%($long)T]\n" 0
echo -e '\101|\1|\0101|\08|\18|\x41' | od -c
printf '%b\n' '\101|\1|\0101|\08|\x41' | od -c
