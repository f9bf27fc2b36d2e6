#!/usr/bin/env python3
"""rename.py DEV.jsonl > RENAMED.jsonl

Writes a variant of the conflicts dev set (../shared/eval/conflicts/dev.jsonl, which stays where it is:
this script copies nothing into the repository) in which every value and product is replaced by one no
table of ours lists, so that a reversal between two things the claim parser has never heard of is
measured: "we lint with biome now" becomes "we lint with Quorvel now". Shapes are kept: a number stays a
number with its unit, a version a version, a time a time, a path a path; only the words and the digits
change, the same way everywhere in a scenario. Deterministic: the same input gives the same output.

Run:  python3 testdata/conflicts-renamed/rename.py ../shared/eval/conflicts/dev.jsonl > /tmp/renamed.jsonl
      python3 ../shared/eval/conflicts/run.py bin /tmp/renamed.jsonl
"""
import hashlib, json, re, sys

# Words of a value that are ordinary English (units, kinds), not names: kept.
COMMON = set("""retries requests streams commits merge latest pages types install version catalogs manager
changes schema migrations config env orders order service api assets east west central us eu node squash
sql database required""".split())

SYL_C = "bdfgklmnprstvz"
SYL_V = "aeiou"


def pseudo(token):
    """A made-up word for token, stable across runs, with token's capitalisation."""
    h = hashlib.sha256(token.lower().encode()).digest()
    n = 2 + h[0] % 2
    w = "".join(SYL_C[h[1 + 2 * i] % len(SYL_C)] + SYL_V[h[2 + 2 * i] % len(SYL_V)] for i in range(n)) + SYL_C[h[9] % len(SYL_C)]
    if token[:1].isupper():
        w = w.capitalize()
    if token.isupper() and len(token) > 1:
        w = w.upper()
    return w


def digits(s):
    """s with each digit shifted, keeping a time a valid time."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", s)
    if m:
        return "%02d:%02d" % ((int(m.group(1)) + 5) % 24, (int(m.group(2)) + 17) % 60)
    return re.sub(r"\d", lambda d: str((int(d.group()) + 3) % 10), s)


# A word: a run of ASCII letters and digits, or a run of other letters. Split at the change of script so that a
# name glued to a Korean particle ("Heroku에서", "10초") is renamed like the same name standing alone.
WORD = r"\d{1,2}:\d{2}|[A-Za-z0-9]+|[^\W_A-Za-z0-9]+"


def renamer(values):
    """The replacements for a scenario's values: each value's words and numbers, renamed."""
    subs = {}
    for v in values:
        for tok in re.findall(WORD, v):
            if re.fullmatch(r"\d{1,2}:\d{2}", tok) or tok.isdigit():
                subs[tok] = digits(tok)
            elif re.search(r"\d", tok):  # "v2", "10초", "30s": digits shifted, letters kept
                subs[tok] = digits(tok)
            elif tok.lower() not in COMMON and len(tok) >= 2:
                subs[tok.lower()] = pseudo(tok)
    return subs


def apply(text, subs):
    def one(m):
        tok = m.group()
        if re.search(r"\d", tok):
            return subs.get(tok, tok)
        r = subs.get(tok.lower())
        if r is None:
            return tok
        return r.capitalize() if tok[:1].isupper() else r.lower() if tok.islower() else r
    return re.sub(WORD, one, text)


def deep(v, subs):
    """v with apply done to every string in it (turns are lists of objects)."""
    if isinstance(v, str):
        return apply(v, subs)
    if isinstance(v, list):
        return [deep(x, subs) for x in v]
    if isinstance(v, dict):
        return {k: deep(x, subs) for k, x in v.items()}
    return v


def main():
    for line in open(sys.argv[1], encoding="utf-8"):
        o = json.loads(line)
        subs = renamer([o["a"], o["b"]])
        for k, v in list(o.items()):
            if k not in ("id", "conflict", "tags"):
                o[k] = deep(v, subs)
        print(json.dumps(o, ensure_ascii=False))


if __name__ == "__main__":
    main()
