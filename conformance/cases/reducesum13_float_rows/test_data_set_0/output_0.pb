BreducedJP¼;?ÂÔÁBmBÂœÀžÂ’dIÂìGBi·Aù
ÿÁk4óAèÙÊB†íÀ¨ƒŠBww¶BÁÉB²ŸBX|fA\ÊóÁÖhÓA6š5Â5Ú#B