for i in {1..20}; do
  out=""
  (( i % 3 == 0 )) && out+=Fizz
  (( i % 5 == 0 )) && out+=Buzz
  echo "${out:-$i}"
done
