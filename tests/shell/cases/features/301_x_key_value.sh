x="key=value=more"; echo "${x%%=*}" "${x#*=}"
