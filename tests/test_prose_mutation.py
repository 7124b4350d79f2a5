"""The prose-number check catches wrong numbers (issue 29 #6): a mutation self-test of `tests/test_prose_numbers.py`.

From every number the notebooks' and index.ipynb's prose quote and the check accepts, 200 are drawn at random (fixed
seed) and changed the way a wrong number is typed: one digit changed (0.853 -> 0.863), two neighbouring digits swapped
(2.3 -> 3.2, 0.83 -> 0.38) or the last digit off by one (11 -> 12). Each changed copy of its markdown cell (in memory)
is checked against the same cells, and at least 95 % of the changes must be reported (a strict xfail while the rate is
below: `test_catch_rate_does_not_fall` holds the rate reached, MEASURED).

A change that turns a number into another number the described cells print (0.83 -> 0.85 where the cell prints both
CART's 0.83 and TAO's 0.85) cannot be told from a right quote by any check that reads numbers, not meaning: it is
counted as missed, not skipped (every miss is of this kind).

    python tests/test_prose_mutation.py        # the catch rate and the missed changes
"""
import functools
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import test_prose_numbers as P  # noqa: E402

N_MUTATIONS, SEED, MIN_CAUGHT, MEASURED = 200, 0, 0.95, 0.85   # MEASURED: a floor under seed 0's rate now (0.86)


def mutate(s, rng):
    """`s` with one of its significant digits changed, two neighbouring ones swapped or the last digit off by one (same
    format). A leading zero is not a digit one mistypes (0.1 -> 1.0 is a different quantity, not a typo of it), and a
    number is not typed as zero (0.05 -> 0.00)."""
    mant = s.lower().partition('e')[0]
    pos = [i for i, ch in enumerate(mant) if ch.isdigit()]
    pos = pos[next((k for k, i in enumerate(pos) if mant[i] != '0'), 0):]               # significant digits
    for _ in range(50):
        t, op = list(s), rng.choice(['digit', 'swap', 'last'])
        if op == 'digit':
            i = rng.choice(pos); t[i] = rng.choice([d for d in '0123456789' if d != s[i]])
        elif op == 'swap' and len(pos) > 1:
            k = rng.randrange(len(pos) - 1); i, j = pos[k], pos[k + 1]
            t[i], t[j] = s[j], s[i]
        else:
            i = pos[-1]; t[i] = str((int(s[i]) + rng.choice([1, -1])) % 10)
        t = ''.join(t)
        m = t.replace(',', '').lower().partition('e')[0]
        if t != s and float(m) != 0 and not (len(m.partition('.')[0]) > 1 and m[0] == '0'): return t
    return None


def _index_units(cells):
    return [(i, u) for i, c in enumerate(cells) if c['cell_type'] == 'markdown' for u in P._units(''.join(c['source']))]


def candidates():
    "[(notebook, cell index, number)] of the quoted numbers the check accepts as they stand."
    out = []
    for nb in P.NOTEBOOKS:
        cells, name = P._cells(nb), nb.stem
        skip = {*P.ALLOWED.get(name, {}), *P.PENDING_MERGE.get(name, ('', []))[1]}
        for i, c in enumerate(cells):
            if c['cell_type'] != 'markdown': continue
            bad = {s for s, _, _ in P.unprinted(nb, cells[:i] + [c] + cells[i + 1:])} if name == 'index' else \
                {s for s, _, _ in P.cell_unprinted(cells, i)}
            out += [(nb, i, s) for s, _, _ in P.quoted(''.join(c['source'])) if s not in bad and s not in skip]
    return out


def caught(nb, i, s, rng):
    "(changed number, whether the check reports it), or None if no occurrence of `s` in the cell is a quoted number."
    cells = P._cells(nb)
    src = ''.join(cells[i]['source'])
    spots = [m for m in re.finditer(rf'(?<![\w.\-/\[]){re.escape(s)}(?![\w\[]|\.\d)', src)]
    rng.shuffle(spots)
    new = mutate(s, rng)
    for m in spots:
        text = src[:m.start()] + new + src[m.end():]
        if sum(q == new for q, _, _ in P.quoted(text)) <= sum(q == new for q, _, _ in P.quoted(src)): continue
        cells[i] = {**cells[i], 'source': [text]}
        if nb.name == 'index.ipynb':
            own = P.printed_numbers(P.outputs_text(cells) + P.code_text(cells))
            unit = next(u for u in P._units(text) if any(q == new for q, _, _ in P.quoted(u)))
            found, printed = [q for q, _, _ in P.index_unit_unprinted(unit, own)], P.index_unit_printed(unit, own) or {}
        else: found, printed = [q for q, _, _ in P.cell_unprinted(cells, i)], {k: v for d in P.scope_printed(cells, i) for k, v in d.items()}
        kind = next(k for q, k, _ in P.quoted(text) if q == new)
        return new, new in found, P.matches(new, kind, printed)
    return None


@functools.lru_cache
def run(n=N_MUTATIONS, seed=SEED):
    rng, pool, results = random.Random(seed), candidates(), []
    for nb, i, s in rng.sample(pool, len(pool)):
        r = caught(nb, i, s, rng)
        if r: results.append((nb.name, i, s, *r))
        if len(results) == n: break
    return len(pool), results


@pytest.mark.xfail(strict=True, reason='86 % caught: index rows checked against whole cited notebooks, prose restating '
                                       'a grid of parameters, PENDING_MERGE skips (issue 29 #6, remaining)')
def test_wrong_numbers_are_caught():
    pool, results = run()
    assert len(results) >= 50, f"only {len(results)} numbers could be changed (of {pool} quoted)"
    missed = [r for r in results if not r[4]]
    rate = 1 - len(missed) / len(results)
    assert rate >= MIN_CAUGHT, f"{rate:.1%} of {len(results)} changed numbers caught; missed:\n" + '\n'.join(
        f"  {nb} cell {i}: {s} -> {new}" for nb, i, s, new, *_ in missed)


def test_catch_rate_does_not_fall():
    pool, results = run()
    rate = sum(r[4] for r in results) / len(results)
    assert len(results) >= 50 and rate >= MEASURED, f"{rate:.1%} of {len(results)} changed numbers caught"


def test_mutations_are_realistic():
    rng = random.Random(1)
    for s in ['0.853', '2.3', '11', '1,797', '7.5e-9', '54']:
        for _ in range(20):
            t = mutate(s, rng)
            assert t != s and len(t) == len(s) and re.sub(r'\d', '0', t) == re.sub(r'\d', '0', s), (s, t)
            assert sum(a != b for a, b in zip(s, t)) <= 2


if __name__ == '__main__':
    pool, results = run()
    missed = [r for r in results if not r[4]]
    print(f"{pool} quoted numbers accepted; {len(results)} changed; caught {len(results) - len(missed)} "
          f"({1 - len(missed) / len(results):.1%})")
    for nb, i, s, new, *_ in missed: print(f"  missed: {nb} cell {i}: {s} -> {new}")
