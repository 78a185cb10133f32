while read -r a; do echo "[$a]"; done <<'EOF'
  spaced
	tabbed
EOF
