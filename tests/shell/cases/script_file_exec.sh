cat > tool.sh <<'EOF'
#!/bin/bash
echo "tool running: $1"
exit 2
EOF
chmod +x tool.sh
./tool.sh arg; echo "rc=$?"
bash tool.sh other; echo "rc=$?"
chmod -x tool.sh; ./tool.sh 2>/dev/null; echo "rc=$?"
