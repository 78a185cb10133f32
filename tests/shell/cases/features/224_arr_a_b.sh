arr=(a b c); echo "${arr[@]:1:1}" "${arr[1]:0:1}"
