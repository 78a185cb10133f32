a=1; echo "${a:+"alt value"}"
