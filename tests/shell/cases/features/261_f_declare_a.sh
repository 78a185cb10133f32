f() { declare -a arr=("$@"); echo "${arr[@]}"; }; f 1 2
