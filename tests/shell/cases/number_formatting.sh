for n in 0 7 42 1234 1234567; do
  out=""; s=$n
  while (( ${#s} > 3 )); do out=",${s: -3}$out"; s=${s:0:${#s}-3}; done
  echo "$s$out"
done
printf '%08.3f\n' 3.14159
printf '%+d %+d\n' 5 -5
printf '%x %o %#x %#o\n' 255 8 255 8
