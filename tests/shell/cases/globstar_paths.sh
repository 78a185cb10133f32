# globstar: `**` includes the directory itself where bash does (`g/**/` -> g/, `g/**` -> g/,
# `./**` -> ./), lists symlinks to directories without walking them, collapses `**/**`
shopt -s globstar
mkdir -p g/h/i .d/e g/h/j k
touch g/h/i/f g/.x g/h/.y k/file
ln -s h g/lnk; ln -s ../.d g/h/dl; ln -s ../k g/kl
echo 1 g/**/
echo 2 **
echo 3 g/**
echo 4 **/f
echo 5 **/
echo 6 g/*/**
echo 7 **/**
echo 8 g/**/**
echo 9 ./**
echo 10 g/**/i g/**/*
echo 11 g/h/**/ g/h/i/f/** g/lnk/**
echo 12 **/i/ g/**/.y g/**/.*
echo 13 nomatch/** g/h/i/**
echo 14 **/*/**
echo 15 g/**/**/ **/g/** g/**/h/**
echo 16 ./**/ ./**/*
echo 17 **/file **/kl/**
echo 18 g//** g/**//f
echo 19 g/\h/** "g"/**/f '**' "g/**"
shopt -s nocaseglob; echo 20 G/**/I g/**/I g/**/[I]; shopt -u nocaseglob
shopt -s extglob
echo 21 g/**/@(i|j) **/!(f)
shopt -u globskipdots; echo 22 g/**/.*; shopt -s globskipdots
shopt -s dotglob
echo 23 g/**/ **/**/
echo 24 g/**/*
echo 25 **
echo 26 g/**
shopt -u dotglob
for p in g/**/; do echo "[$p]"; done
shopt -s nullglob; echo 27 x/** g/**/zz
