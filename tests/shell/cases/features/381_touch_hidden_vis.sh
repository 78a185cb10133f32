touch .hidden vis; echo .* | tr ' ' '\n' | grep -c hidden
