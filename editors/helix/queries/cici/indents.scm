; Helix indentation: a block indents its body; its closing brace goes back.
[
  (scenario)
  (meeting)
  (ticket)
  (attribute)
  (rubric)
  (rules)
  (oracle)
] @indent

"}" @outdent
