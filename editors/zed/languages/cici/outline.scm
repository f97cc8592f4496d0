; The outline: the scenario, and the people, rooms, meetings, tickets and
; attributes it declares.
(scenario "scenario" @context name: (identifier) @name) @item
(person "person" @context name: (identifier) @name) @item
(room "room" @context name: (identifier) @name) @item
(meeting "meeting" @context name: (identifier) @name) @item
(ticket "ticket" @context name: (identifier) @name) @item
(attribute "attribute" @context name: (identifier) @name) @item
