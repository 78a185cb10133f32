words=(the quick brown); echo "${words[@]^}"
