
BvarJ€<uFJ