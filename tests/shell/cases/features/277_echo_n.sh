echo - -n
