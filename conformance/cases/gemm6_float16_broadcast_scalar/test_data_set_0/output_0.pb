
ByJBÂFóÂ<I