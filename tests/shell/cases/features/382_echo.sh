echo ./*
