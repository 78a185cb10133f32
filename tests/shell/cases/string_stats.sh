text="The rain in Spain stays mainly in the plain"
vowels=${text//[^aeiouAEIOU]/}
upper=${text//[^A-Z]/}
echo "chars=${#text} vowels=${#vowels} upper=${#upper}"
words=($text); echo "words=${#words[@]}"
ain=0; for w in "${words[@]}"; do [[ $w == *ain* ]] && ((ain++)); done; echo "ain-words=$ain"
