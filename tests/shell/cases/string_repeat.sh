repeat() { local s="" i; for ((i=0;i<$2;i++)); do s+=$1; done; echo "$s"; }
repeat ab 3
repeat - 10
printf '=%.0s' {1..5}; echo
