[ / -ef /. ] && echo same
