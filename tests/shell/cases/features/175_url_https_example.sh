url="https://example.com:8080/path?q=1"; proto=${url%%://*}; rest=${url#*://}; host=${rest%%/*}; echo "$proto $host ${host%:*} ${host#*:}"
