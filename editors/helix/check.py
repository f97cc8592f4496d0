"""Checks the Helix queries against the grammar and Helix's scope names.

Every query must compile against tree-sitter-cici and match in every seed
(`tree-sitter query`), and every highlight capture must be a scope that
Helix themes style (or a child of one, which Helix falls back from).
Run from editors/tree-sitter-cici with the tree-sitter CLI on PATH.
"""

import glob
import re
import subprocess
import sys

# The scopes Helix's theme documentation lists at the top level, with the
# children this grammar uses.
HELIX_SCOPES = {
    "attribute", "type", "type.builtin", "constructor", "constant",
    "constant.builtin", "constant.numeric", "constant.numeric.integer",
    "string", "comment", "variable", "variable.builtin",
    "variable.parameter", "variable.other.member", "label", "punctuation",
    "punctuation.delimiter", "punctuation.bracket", "keyword",
    "keyword.operator", "operator", "function", "function.builtin",
    "function.method", "tag", "namespace", "special",
}
INDENT_CAPTURES = {"indent", "outdent", "indent.always", "outdent.always",
                   "align", "anchor", "extend", "extend.prevent-once"}
LOCAL_CAPTURES = {"local.scope", "local.definition", "local.reference"}

queries = "../helix/queries/cici/"
seeds = sorted(glob.glob("../../seeds/*.cici"))
allowed = {"highlights.scm": HELIX_SCOPES, "indents.scm": INDENT_CAPTURES,
           "locals.scm": LOCAL_CAPTURES}
failed = False
for name, names in allowed.items():
    path = queries + name
    text = open(path).read()
    captures = set(re.findall(r"@([a-z][a-z.\-]*)", text))
    unknown = captures - names
    if unknown:
        print(f"{path}: captures Helix does not know: {sorted(unknown)}")
        failed = True
    run = subprocess.run(["tree-sitter", "query", path, *seeds],
                         capture_output=True, text=True)
    if run.returncode != 0 or "capture:" not in run.stdout:
        print(f"{path}: does not run against the grammar:\n{run.stderr}")
        failed = True
    else:
        print(f"{path}: {run.stdout.count('capture:')} captures over {len(seeds)} seeds")
# The Helix files are the tree-sitter-cici queries under Helix's names:
# the same patterns, so that a change to one is made to both.
RENAMES = {"@module": "@namespace", "@number": "@constant.numeric.integer",
           "@property": "@variable.other.member", "@function.call": "@function",
           "@type.definition": "@type"}


def patterns(text):
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith(";")]
    return "\n".join(lines)


upstream = open("queries/highlights.scm").read()
for old, new in RENAMES.items():
    upstream = upstream.replace(old, new)
if patterns(upstream) != patterns(open(queries + "highlights.scm").read()):
    print("helix highlights.scm is not queries/highlights.scm under Helix's names")
    failed = True
if patterns(open("queries/locals.scm").read()) != patterns(open(queries + "locals.scm").read()):
    print("helix locals.scm differs from queries/locals.scm")
    failed = True
sys.exit(1 if failed else 0)
