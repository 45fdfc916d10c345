# Threat class 8 (shortcuts): c.copy_(a + b): the addition is torch's, hidden in an operator
# and a copy. Both are refused inside solve.
# expect: rejected
def solve(a, b, c, n):
    c.copy_(a + b)
