echo x > /nonexistent/dir/file; echo "rc=$?"
