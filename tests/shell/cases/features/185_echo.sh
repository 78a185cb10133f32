echo ${HOME:0:1}
