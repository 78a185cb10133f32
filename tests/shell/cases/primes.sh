primes=()
for ((n=2; n<50; n++)); do
  prime=1
  for p in "${primes[@]}"; do
    (( p*p > n )) && break
    (( n % p == 0 )) && { prime=0; break; }
  done
  (( prime )) && primes+=($n)
done
echo "${primes[*]}"
echo "count=${#primes[@]}"
