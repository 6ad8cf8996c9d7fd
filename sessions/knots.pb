# Knots (state nodes fed by events) and GlueKit-style variables and connections.

signal keys
knot typed = {text: "", count: 0}
pipe keys.out -> typed when $.key != "" : state.text = state.text + $.key; state.count += 1
knot last = {key: "-"}
pipe keys.out -> last : state.key = $.key
derive summary = "\(typed.text) (\(typed.count) keys, last \(last.key))"
probe summary --future

send keys {key: "h"}
send keys {key: "i"}
send keys {key: ""}          # typed ignores it; last follows
send keys {key: "!"}
= typed

# A variable feeding a knot through a wire transform.
var volume = 3
knot mixer = {level: 0, changes: 0}
pipe volume.value -> mixer : state.level = $ * 10; state.changes += 1
set volume = 5
set volume = 5               # equal values stop: no change
set volume = 8
= mixer
nodes
