cat > .env <<'EOF'
# comment
DB_HOST=localhost
DB_PORT=5432
export APP_MODE=production
QUOTED="with spaces"
EOF
while IFS= read -r line || [[ -n $line ]]; do
  [[ $line =~ ^[[:space:]]*# || -z $line ]] && continue
  line=${line#export }
  key=${line%%=*}; value=${line#*=}
  value=${value%\"}; value=${value#\"}
  printf -v "$key" '%s' "$value"
done < .env
echo "$DB_HOST:$DB_PORT mode=$APP_MODE quoted=[$QUOTED]"
