"""The exact-odds question set of issue 9, answered by icepool (PyPI), for bench/run.mjs.

Prints JSON: for each question its outcome probabilities as exact fractions ("n/d") and as the
nearest float, with the time of a cold (first) and a warm (second) run. Run by the bench in a
venv (target/bench-venv); the tests never need it.
"""
import json
import sys
import time
from fractions import Fraction

import icepool


def tier_pool(n):
    """icon.fortune: poor (1-3), average (4-5), good (one 6), excellent (two or more 6s)."""
    if n == 0:
        low = icepool.d6.pool(2).lowest(1).sum()
        return low.map(lambda v: "poor" if v <= 3 else "average" if v <= 5 else "good")

    def classify(faces):
        top = max(faces)
        if faces.count(6) >= 2:
            return "excellent"
        return "good" if top == 6 else "average" if top >= 4 else "poor"

    return icepool.d6.pool(n).expand().map(classify)


class Tribute(icepool.MultisetEvaluator):
    """Highest FOCUS a, highest BURDEN b; profit = FOCUS dice >= b other than the counted one when
    a >= b, waste = BURDEN dice >= a other than the counted one when b >= a; both 0 on a fail.
    Outcomes are seen from highest to lowest, so each count is known when its max is found."""

    def __init__(self, rank, opposition):
        self.rank, self.opposition = rank, opposition

    def next_state(self, state, order, outcome, focus, burden):
        if order > 0:
            raise icepool.UnsupportedOrder()
        a, b, pf, pb, nf, nb = state or (None, None, 0, 0, 0, 0)
        nf, nb = nf + focus, nb + burden
        if a is None and focus > 0:
            a, pb = outcome, nb
        if b is None and burden > 0:
            b, pf = outcome, nf
        return (a, b, pf, pb, nf, nb)

    def final_outcome(self, state, order, outcomes, *sizes, **kwargs):
        a, b, pf, pb, _, _ = state
        value = self.rank + a - b
        result = "win" if value > self.opposition else "match" if value == self.opposition else "fail"
        if result == "fail":
            return (result, 0, 0)
        return (result, pf - 1 if a >= b else 0, pb - 1 if b >= a else 0)


def attack():
    total = icepool.d20 + icepool.d6.pool(3).highest(1).sum()
    return {"totals": total, "outcomes": {
        "hit": total.map(lambda t: t >= 10 or t >= 20),
        "crit": total.map(lambda t: t >= 20),
        "exceed": total.map(lambda t: t >= 15)}}


def icons():
    effort = icepool.d6 - icepool.d6 + 6
    def label(e):
        effect = e - 5
        return "failure" if effect < 0 else "moderate" if effect <= 2 else "major" if effect <= 4 else "massive"
    return {"totals": effort, "labels": effort.map(label)}


def tribute():
    joint = Tribute(0, 0).evaluate(icepool.d12.pool(6), icepool.d12.pool(6))
    return {"joint": joint}


QUESTIONS = {
    "icon.attack 3 boons vs defense 10": attack,
    **{f"narrative pool {n}": (lambda n=n: {"labels": tier_pool(n)}) for n in range(7)},
    "tribute 6 focus + 6 burden d12": tribute,
    "10d10 keep 3": lambda: {"totals": icepool.d10.pool(10).highest(3).sum()},
    "6d6kh3 - 6d6kh3": lambda: {"totals": icepool.d6.pool(6).highest(3).sum() - icepool.d6.pool(6).highest(3).sum()},
    "100d6": lambda: {"totals": 100 @ icepool.d6},
    "icons.test ability 6 vs difficulty 5": icons,
}


def probabilities(die):
    total = die.denominator()
    out = {}
    for outcome, quantity in die.items():
        key = outcome if isinstance(outcome, (int, str)) else json.dumps(list(outcome))
        if isinstance(outcome, bool):
            key = "true" if outcome else "false"
        f = Fraction(quantity, total)
        out[str(key)] = {"exact": f"{f.numerator}/{f.denominator}", "p": float(f)}
    return out


def answer(build):
    parts = build()
    return {name: probabilities(die) if not isinstance(die, dict) else {k: probabilities(d) for k, d in die.items()}
            for name, die in parts.items()}


results = []
for name, build in QUESTIONS.items():
    times = []
    for _ in range(2):  # cold, then warm (icepool caches what it can)
        start = time.perf_counter()
        value = answer(build)
        times.append((time.perf_counter() - start) * 1000)
    results.append({"name": name, "coldMs": times[0], "warmMs": times[1], "answer": value})
json.dump({"icepool": icepool.__version__, "python": sys.version.split()[0], "questions": results}, sys.stdout)
