// The TextMate grammar has one source, `editors/textmate/`; the extension
// carries a copy so that the packaged VSIX is complete on its own.
const fs = require("fs");
const path = require("path");

const from = path.join(__dirname, "..", "..", "textmate", "cici.tmLanguage.json");
const to = path.join(__dirname, "..", "syntaxes", "cici.tmLanguage.json");
fs.mkdirSync(path.dirname(to), { recursive: true });
fs.copyFileSync(from, to);
console.log(`copied ${path.relative(process.cwd(), from)} to ${path.relative(process.cwd(), to)}`);
