[ ! ] && echo bang
