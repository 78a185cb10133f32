e='a=5'; eval $e; echo $a
