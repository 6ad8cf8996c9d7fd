extension CommandCatalog {
    /// The commands of SPEC section 6.
    static let stores: [CommandInfo] = [
        CommandInfo(name: "store", synopsis: "store NAME = EXPR", summary: "a store with its initial state (VISPER-Redux, ReSwift)",
                    details: ["A store is a node: input dispatch (an action object), outputs state and action.",
                              "A wire into NAME.dispatch dispatches after the current transaction, never nested."],
                    examples: ["store app = {count: 0, items: []}", "wire clicks.out -> app.dispatch : {type: 'Click', x: $}"]),
        CommandInfo(name: "reducer",
                    synopsis: "reducer STORE on TYPE [at PATH] [when EXPR] [after MS] : STATEMENTS | reducer list [STORE] | reducer rm ID",
                    summary: "add a reducer for an action type (or *), list them, or remove one",
                    details: ["Reducers of an action run in registration order, each on the previous one's result.",
                              "`at PATH` scopes `state` to that sub-tree; `when` guards; `after MS` waits on the virtual clock.",
                              "A failing reducer aborts the whole action: the state stays, the action is kept marked failed."],
                    examples: ["reducer app on AddTodo at todos : state.items = append(state.items, action.item)",
                               "reducer app on * when action.type != 'Tick' : state.actions += 1",
                               "reducer list", "reducer rm r2"]),
        CommandInfo(name: "dispatch", synopsis: "dispatch [STORE] TYPE [EXPR]",
                    summary: "send the action {type: TYPE, ...EXPR} to a store (STORE may be left out with one store)",
                    details: ["Prints the action's index and what changed: #3 AddTodo  items[2]: + {title: \"milk\"}."],
                    examples: ["dispatch app AddTodo {item: {title: 'milk', done: false}}", "dispatch Increment {by: 2}"]),
        CommandInfo(name: "state", synopsis: "state [STORE][.PATH]", summary: "print a store's state, or one path of it",
                    details: [], examples: ["state", "state app.items[0]", "state .user.name"]),
    ]
}
