echo 'echo sourced $1' > s.sh; . ./s.sh arg1
