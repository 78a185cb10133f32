printf '%b' 'a\nb\c rest'; echo
