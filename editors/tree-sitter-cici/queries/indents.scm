; Blocks indent their bodies; the closing brace goes back out.
[
  (scenario)
  (meeting)
  (ticket)
  (attribute)
  (rubric)
  (rules)
  (oracle)
] @indent.begin

"}" @indent.end @indent.branch
