
ByJ0FúDºH}FÃ;¿Ö>JFJD“CICÈC@'H°E]CEu7i>|@UC¡CùC´C