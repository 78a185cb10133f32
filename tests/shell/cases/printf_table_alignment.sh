printf '%-10s|%8s|\n' Name Score
printf '%-10s|%8.2f|\n' Alice 93.5 Bob 78.25 Christopher 100
printf '%s\n' '----------'
printf '%3d. %s\n' 1 first 2 second
