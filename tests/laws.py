#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""laws.py LAWS MACHINE=JSONFILE... - check conservation laws on pmutop's batch JSON output.

Each line of LAWS is one law (see the head of tests/laws.txt):
    [MACHINE,...:] EXPR OP EXPR [OP EXPR] [within REL]   OP is ==, <=, >= or < (strict)
A term METRIC[PATTERN] is the metric's value for the instance PATTERN names; every%[...]
stands for each metric whose unit is % (or Arm's "percent of ..."), every[...] for each
metric (the law holds for each: shares within 0..100, nothing negative); {x} in a
pattern binds any text without '/', * matches any text; sum(METRIC[PATTERN]) adds every
match. A law holds for every binding of its variables that the output has (each term
present); a law that no machine's output reaches fails (it would check nothing). A
MACHINE prefix scopes a law (MACHINE/anything: the same machine under another model). == holds within
1 % of the larger side (the models' noise is 0.2-0.3 % a counter) or 0.01 absolute,
or within REL of it where the law says.
Prints each failure and 'N passed, N failed' (a law on a machine); exits 1 on a failure.
"""
import json
import re
import sys

TERM = re.compile(r'(sum\()?([A-Za-z_][A-Za-z0-9_.]*)\[([^\]]*)\]\)?')


def pattern_regex(pat, binding):
    out = ''
    for piece in re.split(r'(\{[a-z]+\}|\*)', pat):
        if piece == '*':
            out += '.*'
        elif piece.startswith('{') and piece.endswith('}'):
            name = piece[1:-1]
            out += re.escape(binding[name]) if name in binding else '(?P<%s>[^/]*)' % name
        else:
            out += re.escape(piece)
    return re.compile('^' + out + '$')


def bindings(law, values):
    """Every binding of the law's variables that its first term's pattern reaches."""
    first = TERM.search(law)
    metric, pat = first.group(2), first.group(3)
    rx = pattern_regex(pat, {})
    seen = []
    for inst in values.get(metric, {}):
        m = rx.match(inst)
        if m and m.groupdict() not in seen:
            seen.append(m.groupdict())
    return seen


def evaluate(expr, values, binding):
    def term(m):
        is_sum, metric, pat = m.group(1), m.group(2), m.group(3)
        rx = pattern_regex(pat, binding)
        found = [v for inst, v in values.get(metric, {}).items() if rx.match(inst)]
        if not found or (not is_sum and len(found) != 1):
            raise LookupError('%s[%s]' % (metric, pat))
        return repr(float(sum(found)))
    return eval(TERM.sub(term, expr), {'__builtins__': {}}, {})


def holds(a, op, b, rel):
    if op == '==':
        return abs(a - b) <= max(rel * max(abs(a), abs(b)), 0.01 if rel >= 0.01 else 0)
    if op == '<':
        return a < b
    if op == '<=':
        return a <= b * 1.01 + 0.01
    return a * 1.01 + 0.01 >= b


def check(law, values):
    rel = 0.01
    within = re.search(r'\s+within\s+(\S+)$', law)
    if within:
        rel, law = float(within.group(1)), law[:within.start()]
    parts = re.split(r'\s(==|<=|>=|<)\s', law)
    sides, ops = parts[0::2], parts[1::2]
    bad, n = [], 0
    for b in bindings(law, values):
        try:
            vals = [evaluate(s, values, b) for s in sides]
        except (LookupError, ZeroDivisionError):
            continue
        n += 1
        for i, op in enumerate(ops):
            if not holds(vals[i], op, vals[i + 1], rel):
                bad.append('%s: %s' % (b or '-', ' '.join('%.6g %s' % (v, o) for v, o in zip(vals, ops + [''])).strip()))
    return n, bad


EVERY = re.compile(r'\bevery(%?)\[')


def check_every(law, values, units):
    """A law over every metric (of unit %): checked for each, failures named by metric."""
    pct = EVERY.search(law).group(1) == '%'
    total, bad = 0, []
    for metric in sorted(values):
        if pct and not (units.get(metric) or '').startswith(('%', 'percent')):  # Arm: "percent of slots"
            continue
        n, b = check(EVERY.sub(metric.replace('\\', '\\\\') + '[', law), values)
        total += n
        bad += ['%s %s' % (metric, x) for x in b]
    return total, bad


def main():
    laws_file, runs = sys.argv[1], sys.argv[2:]
    laws = []
    for line in open(laws_file):
        law = line.split('#', 1)[0].strip()
        if law:
            laws.append(law)
    applied = {law: 0 for law in laws}
    passed = failed = 0
    for run in runs:
        machine, data = run.split('=', 1)
        frame = json.loads(open(data).read().splitlines()[-1])
        values, units = {}, {}
        for m in frame['metrics']:
            if isinstance(m.get('value'), (int, float)):
                values.setdefault(m['metric'], {})[m['instance']] = m['value']
                units[m['metric']] = m.get('unit')
        for law in laws:
            body = law
            scope = re.match(r'^([a-z0-9_,-]+):\s', law)
            if scope:
                if machine.split('/')[0] not in scope.group(1).split(','):
                    continue
                body = law[scope.end():]
            n, bad = check_every(body, values, units) if EVERY.search(body) else check(body, values)
            applied[law] += n
            if bad:
                failed += 1
                print('FAIL: %s: %s: %s' % (machine, body, '; '.join(bad[:3])))
            elif n:
                passed += 1
    for law, n in applied.items():  # a law no machine reaches checks nothing
        if not n:
            failed += 1
            print('FAIL: no machine reached the law: %s' % law)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
