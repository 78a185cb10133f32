echo a > f; echo b >> f; cat f
: > f; wc -c < f
echo c >> f; echo d >> f; wc -l < f
> g; [ -f g ] && echo created
