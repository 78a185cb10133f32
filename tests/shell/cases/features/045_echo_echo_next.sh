echo $(( 5 / 0 )) ; echo next
