date +%Y >/dev/null && echo date-ok
