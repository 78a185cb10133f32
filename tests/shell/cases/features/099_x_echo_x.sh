x=5; echo ${x@Q} ${x@A}
