cat > users.txt <<'EOF'
root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
alice:x:1000:1000:Alice:/home/alice:/bin/bash
bob:x:1001:1001:Bob:/home/bob:/bin/zsh
EOF
while IFS=: read -r user _ uid gid gecos home shell; do
  if (( uid >= 1000 )); then
    printf '%-6s uid=%-5s shell=%s\n' "$user" "$uid" "${shell##*/}"
  fi
done < users.txt
cut -d: -f7 users.txt | sort | uniq -c | sort -rn | head -1
