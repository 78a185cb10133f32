set -u; arr=(); echo "${arr[@]}" ok
