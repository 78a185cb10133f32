eval "echo 'unterminated"; echo rc=$?
