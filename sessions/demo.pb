# Patchbay demo: ./dev run shows this, then stays interactive. Type 'help' for the commands.
load expressions.pb
load diamond.pb
load patches.pb
load todos.pb
