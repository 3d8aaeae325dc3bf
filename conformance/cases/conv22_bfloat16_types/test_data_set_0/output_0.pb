ByJÍCÎA|À*A¿ÃÙC7ÃAJÃåB6C(ÀÐCCVÂ±ÂC„Ã}ÃõBÐ¾µAŒB_ÂBBD­ÂÂÓÃÚÃÒB@ÃxC]C—B¶BCÈB„B,BÃvCñAÎB}AïÁªÂƒB—C›C©BA–BçÂ|C¥Â´Ã;Ã¯Â#B»C CpBéBµCCÝBàBÔÃ2Ã
AÂ