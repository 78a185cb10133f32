a=hello; ref=a
echo "${!ref}"
eval "b=\$a world"; echo "$b"
cmd='echo from eval'; eval "$cmd"
for n in 1 2; do eval "var_$n=$n$n"; done
echo $var_1 $var_2
prefix_x=1 prefix_y=2
echo ${!prefix_*}
