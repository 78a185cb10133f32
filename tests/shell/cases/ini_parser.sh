cat > settings.ini <<'EOF'
[server]
host = example.org
port = 8080

[client]
timeout = 30
retries=3
EOF
section=""
while IFS= read -r line; do
  line="${line%%#*}"
  [[ -z "${line// }" ]] && continue
  if [[ $line =~ ^\[(.*)\]$ ]]; then
    section=${BASH_REMATCH[1]}
  elif [[ $line =~ ^[[:space:]]*([a-z]+)[[:space:]]*=[[:space:]]*(.*)$ ]]; then
    echo "$section.${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
  fi
done < settings.ini
