cat > app.conf <<'EOF'
# settings
host=localhost
port=8080
debug=false
EOF
while IFS='=' read -r key value; do
  [[ $key =~ ^#.*$ || -z $key ]] && continue
  echo "key=$key value=$value"
done < app.conf
sed -i 's/^port=.*/port=9090/' app.conf
grep port app.conf
