declare -A color
color[apple]=red
color[banana]=yellow
color[grape]=purple
echo "${color[apple]} ${color[banana]}"
echo "${#color[@]}"
for k in "${!color[@]}"; do echo "$k -> ${color[$k]}"; done | sort
unset 'color[banana]'
echo "${#color[@]}"
[[ -v color[grape] ]] && echo has grape
