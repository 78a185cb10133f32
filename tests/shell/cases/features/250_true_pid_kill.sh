true & pid=$!; kill $pid 2>/dev/null; wait $pid; echo done
