unset x; echo ${x:?}
