; A scenario is the scope of every name it declares.
(scenario) @local.scope

(person name: (identifier) @local.definition)
(room name: (identifier) @local.definition)
(meeting name: (identifier) @local.definition)
(ticket name: (identifier) @local.definition)
(attribute name: (identifier) @local.definition)
(evidence variable: (identifier) @local.definition)
(levels (name_list (identifier) @local.definition))
(outcomes (name_list (identifier) @local.definition))

(identifier) @local.reference
