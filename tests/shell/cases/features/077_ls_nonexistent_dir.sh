ls /nonexistent_dir; echo "rc=$?"
