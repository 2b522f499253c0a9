# Extracts the true- and false-positive examples of gitleaks' provider rules
# (cmd/generate/config/rules/*.go at the commit below) into
# gitleaks-examples.jsonl, read by internal/detect's TestGitleaksExamples.
# Literal examples are copied verbatim; an example built from a random
# secret of a given shape (utils.AlphaNumeric("32"), utils.Hex("40"), ...)
# gets a value of that shape from a seeded generator, and an example built
# by utils.GenerateSampleSecret(s) is written as `<id>_api_token = "<s>"`
# and `<id>Token: <s>` (two of gitleaks' own sample formats). Examples whose
# expression this script cannot evaluate are skipped.
# Run: python3 gitleaks_examples.py DIR_WITH_RULE_FILES > gitleaks-examples.jsonl
import json, os, random, re, sys
COMMIT = "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b"
R = random.Random(12)
AN = "abcdefghijklmnopqrstuvwxyz0123456789"  # utils.AlphaNumeric is [a-z0-9]
SETS = {"AlphaNumeric": AN, "Hex": "0123456789abcdef", "Numeric": "0123456789",
        "AlphaNumericExtendedShort": AN + "_-", "AlphaNumericExtended": AN + "=_-",
        "AlphaNumericExtendedLong": AN + "/=_+-"}  # as utils/patterns.go

def rnd(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))

class Skip(Exception):
    pass

def split_top(s, sep=","):
    out, depth, cur, i = [], 0, "", 0
    while i < len(s):
        c = s[i]
        if c in "\"`":
            j = i + 1
            while j < len(s) and s[j] != c:
                j += 2 if (c == '"' and s[j] == "\\") else 1
            cur += s[i:j + 1]; i = j + 1; continue
        if c == "/" and s[i:i + 2] == "//":
            j = s.find("\n", i); j = len(s) if j < 0 else j
            i = j; continue
        if c in "([{": depth += 1
        if c in ")]}": depth -= 1
        if c == sep and depth == 0:
            out.append(cur); cur = ""
        else:
            cur += c
        i += 1
    if cur.strip(): out.append(cur)
    return [x.strip() for x in out if x.strip()]

def unq(lit):
    if lit.startswith("`"): return lit[1:-1]
    return json.loads(lit) if "\\x" not in lit else bytes(lit[1:-1], "utf-8").decode("unicode_escape")

def ev(e):
    """Evaluates a string expression; returns a str."""
    parts = split_top(e, "+")
    out = ""
    for p in parts:
        p = p.strip()
        if p[:1] in "\"`": out += unq(p); continue
        m = re.fullmatch(r'(?:secrets\.NewSecret\()?utils\.(\w+)\("(\d+)"\)\)?', p)
        if m and m.group(1) in SETS: out += rnd(SETS[m.group(1)], int(m.group(2))); continue
        m = re.fullmatch(r'(?:secrets\.NewSecret\()?utils\.Hex8_4_4_4_12\(\)\)?', p)
        if m:
            h = SETS["Hex"]; out += "-".join(rnd(h, n) for n in (8, 4, 4, 4, 12)); continue
        raise Skip(p)
    return out

def ev_list(e):
    e = e.strip()
    m = re.fullmatch(r'utils\.GenerateSampleSecrets?\((.*)\)', e, re.S)
    if m:
        a = split_top(m.group(1))
        ident, sec = ev(a[0]), ev(a[1])
        return [f'{ident}_api_token = "{sec}"', f"{ident}Token: {sec}"]
    m = re.fullmatch(r'\[\]string\{(.*)\}', e, re.S)
    if m: return [x for el in split_top(m.group(1)) for x in ev_list(el)]
    if e.startswith("append("):
        return [x for el in split_top(e[7:-1])[1:] for x in ev_list(el)]
    if e.endswith("..."): return ev_list(e[:-3])
    return [ev(e)]

def stmt(body, start):
    # Expression from start to the end of its line, following brackets.
    depth, i = 0, start
    while i < len(body):
        c = body[i]
        if c in "\"`":
            j = i + 1
            while j < len(body) and body[j] != c:
                j += 2 if (c == '"' and body[j] == "\\") else 1
            i = j + 1; continue
        if c in "([{": depth += 1
        elif c in ")]}": depth -= 1
        elif c == "\n" and depth == 0: break
        i += 1
    return body[start:i]

rows = []
d = sys.argv[1]
for fn in sorted(os.listdir(d)):
    src = open(os.path.join(d, fn)).read()
    for fb in re.split(r"\nfunc ", src)[1:]:
        ids = re.findall(r'RuleID:\s*"([^"]+)"', fb)
        if len(ids) != 1: continue
        rid = ids[0]
        for m in re.finditer(r'\b(tps|fps)\s*(:=|=)\s*', fb):
            e = stmt(fb, m.end())
            try:
                vals = ev_list(e)
            except Skip:
                continue
            except Exception:
                continue
            for v in vals:
                rows.append({"rule": rid, "tp": m.group(1) == "tps", "text": v, "file": "cmd/generate/config/rules/" + fn, "commit": COMMIT})
for r in rows:
    print(json.dumps(r))
