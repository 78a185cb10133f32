declare -A A B C
n=2
A[0,0]=1; A[0,1]=2; A[1,0]=3; A[1,1]=4
B[0,0]=5; B[0,1]=6; B[1,0]=7; B[1,1]=8
for ((i=0;i<n;i++)); do for ((j=0;j<n;j++)); do
  s=0; for ((k=0;k<n;k++)); do (( s += A[$i,$k] * B[$k,$j] )); done
  C[$i,$j]=$s
done; done
echo "${C[0,0]} ${C[0,1]}"
echo "${C[1,0]} ${C[1,1]}"
