echo ${x?}
