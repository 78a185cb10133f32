gen() {
  cat <<EOF
#!/bin/bash
# generated for $1
echo "hello from $1"
exit ${2:-0}
EOF
}
gen alpha 3 > gen.sh
chmod +x gen.sh
./gen.sh; echo "rc=$?"
head -2 gen.sh
