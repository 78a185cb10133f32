v=PATH; echo "${!v}" | grep -c bin
