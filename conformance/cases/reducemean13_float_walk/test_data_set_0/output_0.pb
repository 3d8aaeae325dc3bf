BreducedJsû[Àl*‘@º
:@DD¸@