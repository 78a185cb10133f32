if true
then
  echo yes
fi
for i in 1 2
do
  echo $i
done
while false; do :; done; echo done
case x in
  x)
    echo matched
    ;;
esac
