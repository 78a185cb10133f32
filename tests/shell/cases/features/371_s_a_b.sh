s="a:b:c"; echo "${s//:/$'\n'}"
