extension Completer {
    /// The candidates after a routing command's word, or `nil` for other commands.
    func routingArguments(_ command: String, word: String, after earlier: [String]) -> [String]? {
        let position = earlier.count
        switch command {
        case "route":
            if position == 1 { return ["add", "explain", "list", "rm", "check"] + context.routePatterns }
            if position == 2, earlier[1] == "rm" || earlier[1] == "explain" { return context.routePatterns }
            if position == 3, earlier[1] == "rm" { return ["view=", "handler"] }
            if earlier[1] == "list" || earlier[1] == "check" || earlier[1] == "rm" { return [] }
            if earlier[1] == "add" { return ["view=", "option=", "priority=", "when"] }
            return ["option="] + expressionNames
        case "feature":
            if position == 1 { return ["end", "list", "show", "rm"] + context.featureNames }
            if position == 2, ["show", "rm"].contains(earlier[1]) { return context.featureNames }
            return position == 2 ? ["begin"] : []
        case "presenter":
            switch position {
            case 1: return ["list", "rm"] + context.viewNames
            case 2 where earlier[1] == "list": return context.viewNames
            case 2 where earlier[1] == "rm": return context.presenterIDs
            default: return ["--live", "when"]
            }
        default:
            return nil
        }
    }
}
