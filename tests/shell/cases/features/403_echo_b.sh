echo $(( 0b101 ))
