#!/usr/bin/env python3
"""Builds the real-reply corpus from public judge-output files.

Each label is the source's own parser applied to the reply (the parser is
reproduced below, with the file and commit it comes from). Replies whose
parse is doubtful (several distinct verdict marks, a verdict found only by
a fallback pattern, or none) are written with "review": true; their labels
were then fixed by a careful read, before proctor was run, and the reason
is in the entry's note.

Usage: extract.py MIRROR_ROOT OUT_DIR (MIRROR_ROOT holds bare git copies
named owner+repo/repo).
"""
import ast, json, re, subprocess, sys

ROOT, OUT = sys.argv[1], sys.argv[2]

def show(repo, commit, path):
    d = f"{ROOT}/{repo.replace('/', '+')}/repo"
    return subprocess.run(["git", "-C", d, "show", f"{commit}:{path}"], check=True, capture_output=True, text=True).stdout

def every(xs, n):
    """n items spread evenly over xs, in order."""
    if len(xs) <= n:
        return xs
    step = len(xs) / n
    return [xs[int(i * step)] for i in range(n)]

# FastChat fastchat/llm_judge/common.py (same in both forks used).
one = re.compile(r"\[\[(\d+\.?\d*)\]\]")
one_backup = re.compile(r"\[(\d+\.?\d*)\]")

def mtbench_single(repo, commit, path, n, shape_of, grader="llm_score 1-10"):
    rows = [json.loads(l) for l in show(repo, commit, path).splitlines() if l.strip()]
    out = []
    for d in every(rows, n):
        j = d["judgment"]
        m = one.search(j)
        backup = False
        if not m:
            m = one_backup.search(j)
            backup = m is not None
        score = ast.literal_eval(m.groups()[0]) if m else -1
        distinct = set(one.findall(j))
        e = dict(source=repo, path=path, commit=commit, shape=shape_of(d), grader=grader,
                 reply=j, label="score" if score != -1 else "none", note="")
        if score != -1:
            e["score"] = score
        if backup or score == -1 or len(distinct) > 1:
            e["review"] = True
        out.append(e)
    return out

def fastchat_pair(repo, commit, path, n):
    rows = [json.loads(l) for l in show(repo, commit, path).splitlines() if l.strip()]
    out = []
    for d in every(rows, n):
        for g in ("g1", "g2"):
            j = d[g + "_judgment"]
            # common.py run_judge_pair, output_format "[[A]]"
            w = "A" if "[[A]]" in j else "B" if "[[B]]" in j else "tie" if "[[C]]" in j else "error"
            marks = sum(x in j for x in ("[[A]]", "[[B]]", "[[C]]"))
            e = dict(source=repo, path=path, commit=commit, shape="mt-bench pair [[A]]", grader="llm_pairwise",
                     reply=j, label={"A": "pass", "B": "fail", "tie": "abstain", "error": "none"}[w], note="")
            if marks != 1:
                e["review"] = True
            out.append(e)
    return out

# arena-hard-auto config/judge_config.yaml regex_pattern \[\[([AB<>=]+)\]\]
# and gen_judgment.py get_score (this fork: one distinct match, else none).
arena = re.compile(r"\[\[([AB<>=]+)\]\]")
ARENA = {"A>>B": "pass", "A>B": "pass", "A=B": "abstain", "B>A": "fail", "B>>A": "fail"}

def arena_hard(repo, commit, path, n):
    rows = [json.loads(l) for l in show(repo, commit, path).splitlines() if l.strip()]
    games = [(g, d) for d in rows for g in d["games"]]
    out = []
    for g, d in every(games, n):
        j = g["judgment"]
        ms = set(arena.findall(j.upper()))
        s = ms.pop() if len(ms) == 1 else None
        e = dict(source=repo, path=path, commit=commit, shape="arena-hard [[A>B]]", grader="llm_pairwise",
                 reply=j, label=ARENA.get(s, "none"), note="", verdict=s or "")
        if len(set(arena.findall(j.upper()))) != 1 or s not in ARENA:
            e["review"] = True
        out.append(e)
    return out

def alpaca_rank(repo, commit, path, n):
    rows = json.loads(show(repo, commit, path))
    out = []
    for d in every(rows, n):
        raw = d.get("raw_completion")
        if not isinstance(raw, str):
            continue
        # src/alpaca_eval/completion_parsers.py ranking_parser
        try:
            ranked = ast.literal_eval(raw)
            rank = [c for c in ranked if c["model"] == "model_1"][0]["rank"]
            label = {1: "pass", 2: "fail"}[rank]
        except Exception:
            label = "none"
        out.append(dict(source=repo, path=path, commit=commit, shape="alpaca_eval ranking list", grader="llm_pairwise",
                        reply=raw, label=label, note=""))
    return out

# A user's own prompt on FastChat's harness (qzy03715/FastChat
# data/judge_prompts.jsonl): "Only answer True or False: \"[[rating]]\", for
# example: \"Rating: [[False:]]\"". FastChat's number pattern finds nothing
# (score -1); a careful read finds the judge's True or False.
tf = re.compile(r"\[\[(True|False):?\]\]")

def true_false(repo, commit, path, n):
    rows = [json.loads(l) for l in show(repo, commit, path).splitlines() if l.strip()]
    out = []
    for d in every(rows, n):
        j = d["judgment"]
        ms = set(tf.findall(j))
        label = {"True": "pass", "False": "fail"}[ms.pop()] if len(ms) == 1 else "none"
        out.append(dict(source=repo, path=path, commit=commit, shape="user prompt [[True]]/[[False]]", grader="llm_judge",
                        reply=j, label=label,
                        note="the source's parser (FastChat's [[N]] pattern) records -1, no score: it was not written for this prompt; the judge answered the prompt's True/False"))
    return out

def mt_shape(d):
    s = d["judge"][1]
    return "mt-bench single [[N]]" + (" (reference)" if "math" in s else "") + (" multi-turn" if "multi-turn" in s else "")

sets = {
    "mtbench-single-dreaming-panda": mtbench_single("dreaming-panda/MTBench", "f4bb6e404342e4be01ee8608b5943bb8952ec91f",
        "fastchat/llm_judge/data/mt_bench/model_judgment/gpt-4_single-origin.jsonl", 130, mt_shape)
      + mtbench_single("dreaming-panda/MTBench", "f4bb6e404342e4be01ee8608b5943bb8952ec91f",
        "fastchat/llm_judge/data/mt_bench/model_judgment/gpt-4_single.jsonl", 50, mt_shape),
    "mtbench-single-stefanstud": mtbench_single("Stefanstud/FastChat", "1f5a7b81d3b219f12c18b37511de898556dfa90f",
        "fastchat/llm_judge/data/mt_bench/model_judgment/gpt-4_single.jsonl", 60, mt_shape),
    "mtbench-pair-stefanstud": fastchat_pair("Stefanstud/FastChat", "1f5a7b81d3b219f12c18b37511de898556dfa90f",
        "fastchat/llm_judge/data/mt_bench/model_judgment/gpt-4_pair.jsonl", 60),
    "arena-hard-zeppombal": arena_hard("zeppombal/arena-hard-auto", "dff24accd12bdb6172bde18856b8f2622c5c79c2",
        "data/arena-hard-v0.1/model_judgment/gpt-3.5-turbo-0125/Nexusflow__Athene-V2-Chat.jsonl", 130),
    "alpaca-eval-ranking": alpaca_rank("tatsu-lab/alpaca_eval", "cd543a149df89434d8a54582c0151c0b945c3d20",
        "results/Mistral-7B-ReMax-v0.1/alpaca_eval_gpt4_turbo_fn/annotations.json", 50),
    "user-prompt-true-false-qzy": true_false("qzy03715/FastChat", "2b47c621489dad899c7e10b902709b4b5680b70d",
        "fastchat/llm_judge/data/mt_bench/model_judgment/Qwen-72B-Chat_single.jsonl", 68),
    "mtbench-100-qzy": mtbench_single("qzy03715/FastChat", "2b47c621489dad899c7e10b902709b4b5680b70d",
        "fastchat/llm_judge/data/mt_bench/model_judgment/gpt-3.5-turbo_single.jsonl", 10, lambda d: "user prompt [[N]] on 1-100", "llm_score 1-100")
      + mtbench_single("qzy03715/FastChat", "2b47c621489dad899c7e10b902709b4b5680b70d",
        "fastchat/llm_judge/data/mt_bench/model_judgment/gpt-4_single.jsonl", 25, lambda d: "user prompt [[N]] on 1-100", "llm_score 1-100"),
    "mtbench-multilingual-gpt4o": sum((mtbench_single("jpacifico/multilingual_mt_bench", "61218df4055547c5afe20bb1f1604f69e78b1b4c",
        f"fastchat/llm_judge/data/{lang}mt_bench/model_judgment/gpt-4o_single.jsonl", 25, mt_shape) for lang in ("", "fr_", "de_", "ja_", "zh_")), []),
}
# The careful read of every reply flagged for review, fixed before proctor
# was run: id -> (label, note).
NONE = "careful read: no verdict at all (the reply is cut off, or is the harness's error string); the source's parser finds none either"
READ = {
    "arena-hard-zeppombal-011": ("none", NONE),
    "arena-hard-zeppombal-012": ("none", NONE),
    "mtbench-pair-stefanstud-119": ("none", NONE),
    "mtbench-single-dreaming-panda-000": ("none", NONE),
    "mtbench-single-dreaming-panda-001": ("none", NONE),
}
for name, es in sets.items():
    with open(f"{OUT}/{name}.jsonl", "w") as f:
        for i, e in enumerate(es):
            e = {"id": f"{name}-{i:03d}", **e}
            if e.pop("review", False):
                e["label"], e["note"] = READ[e["id"]]
            f.write(json.dumps(e, ensure_ascii=False) + "\n")
    print(name, len(es), sum(1 for e in es if e.get("review")))
