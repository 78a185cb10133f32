files=(*); echo ${#files[@]}
