v="it's"; echo "${v@Q}"
