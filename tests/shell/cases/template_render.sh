render() {
  local tpl=$1 key val
  shift
  for pair in "$@"; do
    key=${pair%%=*}; val=${pair#*=}
    tpl=${tpl//\{\{$key\}\}/$val}
  done
  echo "$tpl"
}
render "Hello {{name}}, you are {{age}}!" name=Ann age=30
render "{{x}}{{x}}" x=ab
