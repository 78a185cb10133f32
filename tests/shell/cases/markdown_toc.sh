cat > doc.md <<'EOF'
# Title
intro
## Install
### From source
## Usage
text
## License
EOF
while IFS= read -r line; do
  if [[ $line =~ ^(#+)\ (.*)$ ]]; then
    level=${#BASH_REMATCH[1]}
    title=${BASH_REMATCH[2]}
    indent=$(printf '%*s' $(( (level - 1) * 2 )) '')
    anchor=${title,,}; anchor=${anchor// /-}
    echo "$indent- [$title](#$anchor)"
  fi
done < doc.md
