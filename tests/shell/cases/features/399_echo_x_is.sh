echo ${x:?is required}
