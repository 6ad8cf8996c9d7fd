extension Completer {
    /// The candidates after a store command's word, or `nil` for other commands.
    func storeArguments(_ command: String, word: String, after earlier: [String]) -> [String]? {
        let position = earlier.count
        switch command {
        case "reducer" where earlier.count > 2 && earlier[2] == "=", "middleware" where earlier.count > 2 && earlier[2] == "=":
            // `reducer ID = STORE on ...` completes as `reducer STORE on ...` from the store on.
            return pool(for: word, after: [command] + earlier.dropFirst(3))
        case "dispatch":
            // With a store selected, its types come first: `dispatch TYPE` goes to it.
            if position == 1, let selected = context.selectedStore {
                return context.storeNames + (context.actionTypesByStore[selected] ?? [])
            }
            if position == 1 { return context.storeNames + context.actionTypes }
            if position == 2, context.storeNames.contains(earlier[1]) { return context.actionTypesByStore[earlier[1]] ?? [] }
            return expressionNames
        case "state":
            return (position == 1 ? context.storeNames : []) + ["--tree"]
        case "use":
            return position == 1 ? context.storeNames : []
        case "edit":
            return position == 1 ? context.reducerIDs : []
        case "reducer":
            switch position {
            case 1: return ["list", "rm"] + context.storeNames + context.reducerIDs  // an id: `reducer r1 : ...`
            case 2 where earlier[1] == "list": return context.storeNames
            case 2 where earlier[1] == "rm": return context.reducerIDs
            case 2 where context.reducerIDs.contains(earlier[1]): return []
            case 2: return ["on"]
            case 3 where earlier[2] == "on": return context.actionTypesByStore[earlier[1]] ?? []
            default: return ["at", "when", "after"] + expressionNames
            }
        case "middleware":
            switch position {
            case 1: return ["list", "rm"] + context.storeNames
            case 2 where earlier[1] == "list": return context.storeNames
            case 2 where earlier[1] == "rm": return context.middlewareIDs
            case 2: return ["on"]
            case 3 where earlier[2] == "on": return ["*"] + (context.actionTypesByStore[earlier[1]] ?? [])
            default: return ["drop", "dispatch"] + expressionNames
            }
        default:
            return nil
        }
    }
}
