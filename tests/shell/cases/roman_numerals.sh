to_roman() {
  local n=$1 out="" i
  local -a vals=(1000 900 500 400 100 90 50 40 10 9 5 4 1)
  local -a syms=(M CM D CD C XC L XL X IX V IV I)
  for i in "${!vals[@]}"; do
    while (( n >= vals[i] )); do out+=${syms[i]}; (( n -= vals[i] )); done
  done
  echo "$out"
}
for n in 4 9 14 40 90 400 1994 2024; do echo "$n=$(to_roman $n)"; done
