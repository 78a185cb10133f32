bash -c 'echo "nested $1 $2"' _ a b
bash -c 'exit 7'; echo "rc=$?"
out=$(bash -c 'echo captured'); echo "$out"
echo 'echo from stdin script' | bash
