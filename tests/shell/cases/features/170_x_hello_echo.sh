x=hello; echo "${x:1:3}" "${x::2}"
