#!/usr/bin/env python3
"""Both tails of the noncentral t at 80 digits (mpmath), for the small tails
that scipy's Boost code computes as 1 minus the other tail (good to about
1e-16 absolute only). Prints the table of TestNoncentralTSmallTails in
significance/uncertainty_test.go:

    parity/stats/.venv/bin/pip install mpmath==1.4.1
    parity/stats/.venv/bin/python parity/stats/nct_mpmath.py

The cdf is the series of Guenther (1978) (as significance/nct.go), summed
in 80-digit arithmetic from the mode of the Poisson weights outward until
they fall below 1e-90, so that 1 - cdf keeps its digits down to 1e-60; for
t < 0, F(t; df, ncp) = 1 - F(-t; df, -ncp).
"""
import mpmath as mp

mp.mp.dps = 80

# (t, df, ncp): every branch of significance.NoncentralT (t and ncp of
# either sign), large ncp and df, df below 1.
CASES = [
    (29.67, 999, 25), (45, 999, 25), (60, 5000, 40), (20, 5000, 40),
    (0.5, 10, -8), (3, 2, -5), (0.8, 0.5, -2), (5, 1, -1),
    (-2, 29, 6), (-9.56872774148163, 10, 9.774338355293011),
    (-3.689436891072485, 5000, 1.6541141414711609),
    (-44.094291402604405, 999, -25.028529076742494),
    (17.078285264423158, 3000, 4.276720473703875),
    (-1.730549107113296, 5, -13.645270970253982), (1, 1, 3), (-30, 2000, -33),
]


def cdf(t, df, ncp):
    t, df, ncp = mp.mpf(t), mp.mpf(df), mp.mpf(ncp)
    if t < 0:
        return 1 - cdf(-t, df, -ncp)
    x = t * t / (t * t + df)
    m, c, b = ncp * ncp / 2, ncp / mp.sqrt(2), df / 2
    tiny = mp.mpf(10) ** -90

    def term(j):
        lp = -m + j * mp.log(m) - mp.loggamma(j + 1)
        lq = -m + j * mp.log(m) - mp.loggamma(j + mp.mpf(1.5))
        p, q = mp.exp(lp), mp.exp(lq)
        return (p * mp.betainc(j + mp.mpf(0.5), b, 0, x, regularized=True)
                + c * q * mp.betainc(j + 1, b, 0, x, regularized=True),
                p + abs(c) * q)

    mode = int(mp.floor(m))
    s, j = mp.mpf(0), mode
    while True:
        v, w = term(j)
        s += v
        if w < tiny and j > mode:
            break
        j += 1
    for j in range(mode - 1, -1, -1):
        v, w = term(j)
        s += v
        if w < tiny:
            break
    return mp.ncdf(-ncp) + s / 2


for t, df, ncp in CASES:
    f = cdf(t, df, ncp)
    print("\t\t{%r, %r, %r, %s, %s}," % (float(t), float(df), float(ncp),
          mp.nstr(f, 17), mp.nstr(1 - f, 17)))
