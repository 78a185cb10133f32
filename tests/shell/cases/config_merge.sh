declare -A conf=([host]=localhost [port]=80 [debug]=off)
overrides="port=8080
debug=on
extra=1"
while IFS='=' read -r k v; do
  [[ -v conf[$k] ]] || { echo "unknown key: $k"; continue; }
  conf[$k]=$v
done <<< "$overrides"
for k in host port debug; do echo "$k=${conf[$k]}"; done
