if [[ -d /tmp ]]; then echo dir; elif [[ -f /tmp ]]; then echo file; fi
