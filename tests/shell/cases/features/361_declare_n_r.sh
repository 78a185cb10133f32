declare -n r=target; target=5; echo $r; declare -p r
