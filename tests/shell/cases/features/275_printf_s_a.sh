printf '%s|' "" a "" ; echo
