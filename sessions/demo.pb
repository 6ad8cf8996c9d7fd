# Patchbay demo: ./dev run shows this, then stays interactive. Type 'help' for the commands.
load expressions.pb
load diamond.pb
reset
load patches.pb
reset
load todos.pb
reset
load wireframe.pb
reset

# A recorded session, replayed and checked against its recording. Explore it with
# history, jump, diff, blame, find, branch and checkout (see 'help history').
replay timetravel.jsonl --verify
