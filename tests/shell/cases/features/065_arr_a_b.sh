arr=(a b c); echo "${arr[@]/b/X}" "${arr[*]/%/!}"
