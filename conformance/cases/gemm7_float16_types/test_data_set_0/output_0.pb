
ByJ<>jхKаlFbхцы>ХG.б2е╫JCCФд╞╩