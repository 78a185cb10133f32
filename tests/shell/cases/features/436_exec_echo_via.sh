exec 7>&1; echo via7 >&7; exec 7>&-; echo closed >&7; echo rc=$?
