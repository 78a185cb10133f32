a=(1 2 3); unset a[0]; echo "${a[@]}"; a=("${a[@]}"); echo ${!a[@]}
