# Time travel: a todo store moved through its history, skipped, blamed, branched and squashed.

store todos = {items: [], filter: "all", user: {name: "unknown"}}
reducer todos on Add : state.items = append(state.items, {title: action.title, done: false})
reducer todos on Toggle when action.index < len(state.items) : state.items[action.index].done = !state.items[action.index].done
reducer todos on Rename : state.user.name = action.name
reducer todos on Filter : state.filter = action.filter
derive remaining = len(filter(todos.state.items, item => !item.done))
probe remaining --future

dispatch todos Add {title: "milk"}
dispatch todos Add {title: "bread"}
dispatch todos Rename {name: "Max"}
dispatch todos Toggle {index: 0}
dispatch todos Filter {filter: "open"}
dispatch todos Toggle {index: 7}             # the guard declines: no change
history
diff 0 4
blame items[0].done
find state.filter == "open"

# Back to #2: `remaining` follows the store.
jump 2
= remaining
diff

# Turn the Rename off and on: later states are recomputed with the reducers.
skip 3
state .user
unskip 3

# Dispatching in the past starts a branch; the old future stays on main.
dispatch todos Add {title: "eggs"}
branch
history
checkout main
state .items

# The guarded Toggle changed nothing: skip it, then sweep it away.
skip 6
history sweep
history --last 3
