s=abc; echo "${s/b/$'\t'}" | od -c | head -1
