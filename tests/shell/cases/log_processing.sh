cat > app.log <<'EOF'
2024-01-01 10:00:01 INFO started
2024-01-01 10:00:05 WARN disk low
2024-01-01 10:01:00 ERROR failed to connect
2024-01-01 10:02:00 INFO retry
2024-01-01 10:03:00 ERROR timeout
EOF
errors=0; warns=0
while read -r d t level msg; do
  case $level in
    ERROR) errors=$((errors+1)); echo "E: $msg" ;;
    WARN) warns=$((warns+1)) ;;
  esac
done < app.log
echo "errors=$errors warnings=$warns"
grep -c ERROR app.log
