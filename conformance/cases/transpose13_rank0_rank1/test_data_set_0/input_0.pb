
BxJþ