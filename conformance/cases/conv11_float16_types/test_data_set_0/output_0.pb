
ByJÂ8ÈÕÁýJnË	ÔXÃË.ÐKDFœB²C}HO»¯FCLFLÎ^QÎI¿ÅÚIEñAØ¿«C¦;nÂACSÈ^Ë¬9ó>‘Àõ»aÅL£Ä"·¦½”ÈˆÁAÄÊ
Ä|Jþ<L‡A#IçF½ýKô³B0ÃûH~DçGTÌÕINÅ£Ä—@U8@2±iH±ºÔÀ¬¿