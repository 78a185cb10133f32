a=3 b=a
echo $(( b + 1 ))
c="a * 2"; echo $(( c + 1 ))
arr=(10 20 30); i=1
echo $(( arr[i] + arr[2] ))
(( arr[0] += 5 )); echo ${arr[0]}
echo $(( ${#arr[@]} * 2 ))
