cat > greet.sh <<'EOF'
echo "sourced with $# args: $*"
return 3
echo "not reached"
EOF
source ./greet.sh a b
echo "rc=$?"
echo "outer args: $#"
