arr=("x y" z); echo "${arr[0]}"; echo ${arr[0]}
