echo "$(exit 5)"; echo $?
