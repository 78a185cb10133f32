cat > data.txt <<'EOF'
apple 10
banana 20
cherry 5
apricot 7
EOF
grep '^a' data.txt
grep -v an data.txt
grep -c . data.txt
if grep -q cherry data.txt; then echo found; fi
grep -n 'ch' data.txt
