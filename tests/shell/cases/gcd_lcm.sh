gcd() { local a=$1 b=$2; while (( b )); do local t=$b; b=$((a % b)); a=$t; done; echo $a; }
lcm() { echo $(( $1 / $(gcd $1 $2) * $2 )); }
echo "gcd(48,18)=$(gcd 48 18) lcm(4,6)=$(lcm 4 6)"
