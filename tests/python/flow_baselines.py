"""Baselines that try to answer cici's flow items without the judgement.

Each flow triplet gives three items (anchor, flipped, held), each with a
`yes`/`no` answer. The items are split into a training and a test half by
seed (no seed in both), and these baselines are scored on the test half:

- `bag_of_words`: logistic regression on the item's words;
- `statement`: the same on the statement alone;
- `norms`: the same on the item's norms alone (the lines under "Who may
  receive what");
- `recipient_line`: the same on the recipient's one line of the team list;
- `recipient_groups`: `yes` iff the recipient's team line shows groups (or
  the reverse, whichever the training half prefers), with no training;
- `nearest`: the label of the training item with the most words in common
  (cosine over word counts);
- `recipient_count`: a rule on how often the recipient's name appears in
  the item (threshold and direction chosen on the training half).

Usage: python flow_baselines.py FLOW_JSONL [...] [--max 0.62] [--json]
Exits 1 when a baseline scores above --max on the test half, or when the
labels are outside 40-60% `yes`.
"""

import argparse
import hashlib
import json
import re
import sys

STATEMENT = re.compile(r"holds this statement:\n\n> (.*)\n")
RECIPIENT = re.compile(r"worded exactly as above, to (.+?) \(")
NORMS = re.compile(r"## Who may receive what\n\n(.*?)\n(?:## |\Z)", re.S)
BASELINES = ("bag_of_words", "statement", "norms", "recipient_line", "recipient_groups",
             "nearest", "recipient_count")


def team_line(item, name):
    """The recipient's line of the item's team list."""
    for line in item.split("\n"):
        if line.startswith(f"- {name}, "):
            return line
    raise SystemExit(f"{name} has no line in the team list")


def norms_text(item):
    m = NORMS.search(item)
    return m.group(1) if m else ""


def items(paths):
    """(seed, item, statement, recipient, label, team line, norms) for every
    side of every row."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                for side in ("anchor", "flipped", "held"):
                    item = row[f"{side}_item"]
                    statement = STATEMENT.search(item)
                    recipient = RECIPIENT.search(item)
                    if not statement or not recipient:
                        raise SystemExit(f"{path}: row {row['id']} {side}: not a flow item")
                    out.append(
                        (
                            row["scenario"],
                            item,
                            statement.group(1),
                            recipient.group(1),
                            row[f"{side}_answer"] == "yes",
                            team_line(item, recipient.group(1)),
                            norms_text(item),
                        )
                    )
    return out


def split(data):
    """Halves by seed: the seeds ordered by a hash of their id."""
    seeds = sorted({d[0] for d in data}, key=lambda s: hashlib.sha256(s.encode()).hexdigest())
    train_seeds = set(seeds[: len(seeds) // 2])
    train = [d for d in data if d[0] in train_seeds]
    test = [d for d in data if d[0] not in train_seeds]
    return train, test


def logistic(train_x, train_y, test_x, test_y):
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    vec = CountVectorizer(lowercase=True, token_pattern=r"(?u)\b\w+\b")
    model = LogisticRegression(solver="liblinear", max_iter=1000)
    model.fit(vec.fit_transform(train_x), train_y)
    predicted = model.predict(vec.transform(test_x))
    return sum(int(p == y) for p, y in zip(predicted, test_y)) / len(test_y)


def recipient_count(train, test):
    def count(d):
        return d[1].count(d[3])

    best = (0.0, 0, True)
    for threshold in sorted({count(d) for d in train}):
        for above in (True, False):
            right = sum(int((count(d) >= threshold) == above) == int(d[4]) for d in train)
            acc = right / len(train)
            if acc > best[0]:
                best = (acc, threshold, above)
    _, threshold, above = best
    right = sum(int((count(d) >= threshold) == above) == int(d[4]) for d in test)
    return right / len(test)


def recipient_groups(train, test):
    """`yes` iff the recipient's line shows `(groups: `, or the reverse."""

    def shown(d):
        return "(groups: " in d[5] and "(groups: none)" not in d[5]

    right = sum(int(shown(d) == d[4]) for d in train)
    direct = right * 2 >= len(train)
    return sum(int((shown(d) == direct) == d[4]) for d in test) / len(test)


def nearest(train, test):
    """The label of the most similar training item (cosine over counts)."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.neighbors import KNeighborsClassifier

    vec = CountVectorizer(lowercase=True, token_pattern=r"(?u)\b\w+\b")
    model = KNeighborsClassifier(n_neighbors=1, metric="cosine", algorithm="brute")
    model.fit(vec.fit_transform([d[1] for d in train]), [d[4] for d in train])
    predicted = model.predict(vec.transform([d[1] for d in test]))
    return sum(int(p == d[4]) for p, d in zip(predicted, test)) / len(test)


def scores(data):
    train, test = split(data)
    if not train or not test:
        raise SystemExit("too few seeds to split")
    ys = [d[4] for d in train]
    ty = [d[4] for d in test]
    return {
        "items": len(data),
        "seeds": len({d[0] for d in data}),
        "yes_share": sum(d[4] for d in data) / len(data),
        "majority": max(sum(ty), len(ty) - sum(ty)) / len(ty),
        "bag_of_words": logistic([d[1] for d in train], ys, [d[1] for d in test], ty),
        "statement": logistic([d[2] for d in train], ys, [d[2] for d in test], ty),
        "norms": logistic([d[6] for d in train], ys, [d[6] for d in test], ty),
        "recipient_line": logistic([d[5] for d in train], ys, [d[5] for d in test], ty),
        "recipient_groups": recipient_groups(train, test),
        "nearest": nearest(train, test),
        "recipient_count": recipient_count(train, test),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--max", type=float, default=0.62)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    s = scores(items(args.paths))
    if args.json:
        print(json.dumps(s))
    else:
        for k, v in s.items():
            print(f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}")
    failed = [k for k in BASELINES if s[k] > args.max]
    if not 0.4 <= s["yes_share"] <= 0.6:
        failed.append("yes_share")
    if failed:
        print(f"above the bar: {', '.join(failed)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
