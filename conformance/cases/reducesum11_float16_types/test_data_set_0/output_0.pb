
BreducedJÖ<	F}Ä