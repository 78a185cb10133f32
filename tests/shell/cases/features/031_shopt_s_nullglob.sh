shopt -s nullglob; a=(*.nothing); echo ${#a[@]}
