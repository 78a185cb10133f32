cat > lib.sh <<'EOF'
helper() { echo "helper: $1"; }
LIBVAR=loaded
EOF
source ./lib.sh
helper x
echo $LIBVAR
. ./lib.sh
echo ok
