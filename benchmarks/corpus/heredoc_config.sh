# config edit with here-docs and sed
cat > app.conf <<CONF
name = demo
port = 8080
debug = false
CONF
for i in $(seq 1 200); do
  sed -i "s/^port = .*/port = $((8000 + i))/" app.conf
done
grep port app.conf
