[ -z ] && echo zempty
