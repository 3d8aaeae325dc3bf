
BreducedJ(>¿Ä^º