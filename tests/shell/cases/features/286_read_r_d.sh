read -r -d '' multi <<'EOF'
l1
l2
EOF
echo "$multi"
