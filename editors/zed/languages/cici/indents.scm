; Zed indentation: a block indents its body; its closing brace goes back.
(scenario "}" @end) @indent
(meeting "}" @end) @indent
(ticket "}" @end) @indent
(attribute "}" @end) @indent
(rubric "}" @end) @indent
(rules "}" @end) @indent
(oracle "}" @end) @indent
