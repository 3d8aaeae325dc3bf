
ByJþ