echo $(( 0x7fffffffffffffff ))
