// The Patchbay shell with the app's stores in it: `swift run todo-inspector` starts it, and
// every argument `patchbay` takes works (scripts, --record, replay FILE --verify, inspect FILE).
import PatchbayHost
import TodoCore

Patchbay.main(hosting: [TodoStores.app(), TodoStores.todos()])
