function greet {
  echo "Hi $1"
}
function bye() { echo "Bye $1"; }
greet Ann; bye Bob
type greet | head -1
