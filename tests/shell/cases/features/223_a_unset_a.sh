a=1; unset a b c; echo ${a-gone}
