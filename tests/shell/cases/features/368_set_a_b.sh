set -- a b c; n=2; echo "${!n}"
