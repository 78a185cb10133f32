arr=(a b c); x="${arr[@]}"; echo "$x"; y=${arr[*]}; echo "$y"
