s="Hello"; echo "${s,,}" "${s^^}" "${s~}" 
