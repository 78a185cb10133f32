s=aAbB; echo "${s//[A-Z]/_}" "${s//[[:lower:]]/-}"
