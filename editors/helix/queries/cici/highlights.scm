; Helix's names for the captures of tree-sitter-cici/queries/highlights.scm
; (namespace, constant.numeric, variable.other.member): the same patterns.

; Keywords: statements and clauses.
[
  "scenario" "family" "title" "task" "recipient" "public" "policy" "executor"
  "person" "role" "skills" "room" "capacity" "features" "meeting" "attendees"
  "slots" "rooms" "ticket" "needs" "hours" "pair" "with" "priority" "collaboration_heavy" "sensitive" "levels"
  "outcomes" "evidence" "rubric" "rules" "when" "otherwise" "exclude"
  "attribute" "holder" "about" "category" "raw" "sanitized" "visible" "all"
  "except" "fact" "soft" "claim" "oracle" "purpose" "norms" "share" "for" "groups" "reports_to"
] @keyword

["and" "or" "not" "in" "=" "!=" "->" "@" "+"] @operator

["appropriate" "inappropriate"] @constant.builtin

["{" "}" "[" "]" "(" ")"] @punctuation.bracket
"," @punctuation.delimiter

(comment) @comment
(string) @string
(integer) @constant.numeric.integer
(slot) @constant

; Declarations.
(scenario name: (identifier) @namespace)
(family_statement family: (identifier) @type)
(person name: (identifier) @variable)
(room name: (identifier) @constant)
(meeting name: (identifier) @function)
(ticket name: (identifier) @function)
(attribute name: (identifier) @type)
(evidence variable: (identifier) @variable.other.member)
(levels (name_list (identifier) @constant))
(outcomes (name_list (identifier) @constant))

; Uses.
(executor_statement person: (identifier) @variable)
(attribute holder: (identifier) @variable)
(attribute about: (identifier) @variable)
(attribute category: (identifier) @type)
(fact predicate: (identifier) @function)
(comparison variable: (identifier) @variable.other.member)
(comparison value: (identifier) @constant)
(rule outcome: (identifier) @constant)
(otherwise outcome: (identifier) @constant)
(assignment target: (identifier) @function)
(assignment room: (identifier) @constant)
(assignment owner: (identifier) @variable)
(assignment collaborator: (identifier) @variable)
(oracle outcome: (identifier) @constant)
(attendees (name_list (identifier) @variable))
(rooms (name_list (identifier) @constant))
