printenv HOME
