declare -A m=([k]=v); declare -p m | cut -c1-12
