"""Writes the starting corpora of the `lsp` and `import_bundle` targets.

`corpus/lsp/session*`: an editor session per seed (open, completion,
hover and definition across the text, an incremental change, formatting,
symbols, semantic tokens, pulled diagnostics, a rename, shutdown).
`corpus/import_bundle/b*`: the PiSAs bundles `cici export pisas` writes for
the seeds, and `r*`: the JIRA and meeting bundles of the test fixtures;
each bundle's four files joined by 0xFF bytes.
Run from `fuzz/` after `cargo build --release` in the project.
"""

import glob
import json
import os
import subprocess
import tempfile


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def session(text):
    uri = "file:///seed.cici"
    doc = {"uri": uri}
    messages = [{"jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": {"textDocument": {**doc, "languageId": "cici",
                                             "version": 1, "text": text}}}]

    def request(method, params):
        messages.append({"jsonrpc": "2.0", "id": len(messages),
                         "method": method, "params": params})

    for line_no, line in list(enumerate(text.split("\n")))[:40:5]:
        position = {"line": line_no, "character": min(len(line), 6)}
        for method in ("completion", "hover", "definition"):
            request("textDocument/" + method,
                    {"textDocument": doc, "position": position})
    messages.append({"jsonrpc": "2.0", "method": "textDocument/didChange",
                     "params": {"textDocument": {**doc, "version": 2},
                                "contentChanges": [{"range": {
                                    "start": {"line": 3, "character": 0},
                                    "end": {"line": 3, "character": 4}},
                                    "text": "holder "}]}})
    for method in ("formatting", "documentSymbol", "semanticTokens/full",
                   "diagnostic"):
        request("textDocument/" + method,
                {"textDocument": doc,
                 "options": {"tabSize": 2, "insertSpaces": True}})
    request("textDocument/rename",
            {"textDocument": doc, "position": {"line": 5, "character": 10},
             "newName": "zed"})
    request("shutdown", None)
    messages.append({"jsonrpc": "2.0", "method": "exit"})
    return b"".join(frame(m) for m in messages)


def bundle(folder):
    """A bundle's four files, joined by 0xFF bytes."""
    parts = []
    for part in ("scenario", "utility", "visibility", "appropriateness"):
        with open(os.path.join(folder, part + ".json"), "rb") as f:
            parts.append(f.read())
    return b"\xff".join(parts)


def main():
    os.makedirs("corpus/lsp", exist_ok=True)
    os.makedirs("corpus/import_bundle", exist_ok=True)
    for i, path in enumerate(sorted(glob.glob("../seeds/*.cici"))):
        with open(path) as f:
            data = session(f.read())
        with open("corpus/lsp/session%d" % i, "wb") as f:
            f.write(data)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["../target/release/cici", "export", "pisas", "../seeds",
                        "--out", out], check=True, capture_output=True)
        for i, name in enumerate(sorted(os.listdir(out))):
            folder = os.path.join(out, name)
            if not os.path.isdir(folder):
                continue
            with open("corpus/import_bundle/b%d" % i, "wb") as f:
                f.write(bundle(folder))
    fixtures = sorted(glob.glob("../tests/fixtures/import/bundles/*/"))
    for i, folder in enumerate(fixtures):
        with open("corpus/import_bundle/r%d" % i, "wb") as f:
            f.write(bundle(folder))


if __name__ == "__main__":
    main()
