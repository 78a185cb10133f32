v=$'a\nb\nc'; while read -r l; do echo "<$l>"; done <<< "$v"
