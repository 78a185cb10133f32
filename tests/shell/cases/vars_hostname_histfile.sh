# bash sets HOSTNAME (the host's name, what hostname prints; not exported) in every shell, and
# an interactive one (-i) also HISTFILE, PS1, PS2 and MAILCHECK; a non-interactive one none of these
test "$HOSTNAME" = "$(hostname)"; echo "hostname=$?"
bash -c 'echo "nested=${HOSTNAME:+set}"'
bash --norc --rcfile /dev/null -c 'echo "histfile=${HISTFILE:+yes} ps1=${PS1:+yes} ps2=${PS2:+yes} mailcheck=${MAILCHECK:-}"'
bash --norc --rcfile /dev/null -i -c 'echo "histfile=${HISTFILE:+yes} ps1=${PS1:+yes} ps2=${PS2:+yes} mailcheck=${MAILCHECK:-}"' 2>/dev/null
HOME=/nowhere bash -i -c 'echo "$HISTFILE"' 2>/dev/null
