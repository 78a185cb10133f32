cmd="echo hello | tr a-z A-Z"; eval "$cmd"
