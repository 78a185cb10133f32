echo hi > f; x=$(<f); echo "[$x]"
