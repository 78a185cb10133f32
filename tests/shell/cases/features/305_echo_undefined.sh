echo ${#undefined} ${#}
