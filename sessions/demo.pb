# Patchbay demo: ./dev run shows this, then stays interactive. Type 'help' for the commands.
load expressions.pb
load diamond.pb
reset
load patches.pb
reset
load todos.pb
reset
load wireframe.pb
