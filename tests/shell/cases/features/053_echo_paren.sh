[ "(" ] && echo paren
