
BreducedJ*ÌãÄ³=