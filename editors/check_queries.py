"""Checks the Helix and Zed queries against the grammar and their scope names.

Every query must compile against tree-sitter-cici and match in every seed
(`tree-sitter query`), every capture must be one the editor knows (a
highlight scope its themes style, or a child of one, which both editors
fall back from), and each editor's highlights (and Helix's locals) must be
tree-sitter-cici's own queries under the editor's names, so that a change
to one is made to all. Run from editors/tree-sitter-cici with the
tree-sitter CLI on PATH.
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
# The captures Zed's language-extension documentation lists for themes.
ZED_SCOPES = {
    "attribute", "boolean", "comment", "comment.doc", "constant",
    "constructor", "embedded", "emphasis", "emphasis.strong", "enum",
    "function", "hint", "keyword", "label", "link_text", "link_uri", "number",
    "operator", "predictive", "preproc", "primary", "property", "punctuation",
    "punctuation.bracket", "punctuation.delimiter", "punctuation.list_marker",
    "punctuation.special", "string", "string.escape", "string.regex",
    "string.special", "string.special.symbol", "tag", "text.literal", "title",
    "type", "variable", "variable.special", "variant",
}

EDITORS = {
    "helix": {
        "queries": "../helix/queries/cici/",
        "captures": {
            "highlights.scm": HELIX_SCOPES,
            "indents.scm": {"indent", "outdent", "indent.always", "outdent.always",
                            "align", "anchor", "extend", "extend.prevent-once"},
            "locals.scm": {"local.scope", "local.definition", "local.reference"},
        },
        "renames": {"@module": "@namespace", "@number": "@constant.numeric.integer",
                    "@property": "@variable.other.member", "@function.call": "@function",
                    "@type.definition": "@type"},
        "same": ["highlights.scm", "locals.scm"],
    },
    "zed": {
        "queries": "../zed/languages/cici/",
        "captures": {
            "highlights.scm": ZED_SCOPES,
            "indents.scm": {"indent", "end"},
            "brackets.scm": {"open", "close"},
            "outline.scm": {"item", "name", "context", "context.extra"},
        },
        "renames": {"@module": "@title", "@constant.builtin": "@boolean",
                    "@function.call": "@function", "@type.definition": "@type"},
        "same": ["highlights.scm"],
    },
}


def patterns(text):
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith(";")]
    return "\n".join(lines)


def check(editor, spec, seeds):
    failed = False
    for name, known in spec["captures"].items():
        path = spec["queries"] + name
        text = open(path).read()
        captures = set(re.findall(r"@([a-z][a-z_.\-]*)", text))
        unknown = captures - known
        if unknown:
            print(f"{path}: captures {editor} does not know: {sorted(unknown)}")
            failed = True
        run = subprocess.run(["tree-sitter", "query", path, *seeds],
                             capture_output=True, text=True)
        if run.returncode != 0 or "capture:" not in run.stdout:
            print(f"{path}: does not run against the grammar:\n{run.stderr}")
            failed = True
        else:
            print(f"{path}: {run.stdout.count('capture:')} captures over {len(seeds)} seeds")
    for name in spec["same"]:
        upstream = open("queries/" + name).read()
        for old, new in spec["renames"].items():
            upstream = upstream.replace(old, new)
        if patterns(upstream) != patterns(open(spec["queries"] + name).read()):
            print(f"{editor} {name} is not queries/{name} under {editor}'s names")
            failed = True
    return failed


def main():
    seeds = sorted(glob.glob("../../seeds/*.cici"))
    failed = [editor for editor, spec in EDITORS.items() if check(editor, spec, seeds)]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
