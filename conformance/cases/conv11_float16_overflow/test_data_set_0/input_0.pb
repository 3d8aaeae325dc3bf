
BxJS{SwSû