trap -p EXIT; trap 'echo x' EXIT; trap -p EXIT
