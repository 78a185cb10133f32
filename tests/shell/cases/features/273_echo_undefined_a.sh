echo "${undefined:-a b}" | wc -w
