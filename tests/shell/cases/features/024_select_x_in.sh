select x in a b; do echo $x; break; done <<< "2"
