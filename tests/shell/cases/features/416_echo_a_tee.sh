echo a | tee /dev/null
