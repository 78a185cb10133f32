declare -l s; s="MiXeD"; s+="UP"; echo $s
