extension Completer {
    /// The candidates after a dataflow command's word, or `nil` for other commands.
    func dataflowArguments(_ command: String, word: String, after earlier: [String]) -> [String]? {
        let position = earlier.count
        switch command {
        case "graph":
            return position == 1 ? ["--dot"] : position == 2 ? fileNames.names(matching: word) : ["--force"]
        case "patch" where position == 1:
            return ["types"]
        case "patch" where position == 2:
            return context.patchTypes
        case "set" where position == 1:
            return context.nodeNames + ShellSettings.names
        case "set" where position == 2 && ShellSettings.names.contains(earlier[1]):
            return ["width": ["auto"], "pager": ["on", "off"], "color": ["on", "off"], "truncate": ["off"], "identity": ["id", "none"]][earlier[1]] ?? []
        case "send", "close", "touch", "rm", "show", "why", "tap", "set":
            return position == 1 ? context.nodeNames : expressionNames
        case "bind" where position <= 2, "unbind" where position <= 2:
            return context.nodeNames
        case "connector":
            if position == 1 { return ["end", "list"] + context.connectorNames }
            if position == 2 { return ["add", "disconnect"] }
            return earlier[2] == "add" ? context.ports : []
        case "probe":
            return position == 1 ? context.nodeNames : ["--future"]
        case "unprobe" where position == 1:
            return context.probeTargets + ["all"]
        case "unwire":
            // `unwire DST.PORT`, or `unwire SRC.PORT -> DST.PORT` for one of several wires.
            if position == 1 || (position == 3 && (earlier[2] == "->" || earlier[2] == "~>")) { return context.nodeNames }
            return position == 2 ? ["->"] : []
        case "wire", "pipe":
            if earlier.last == "->" && command == "pipe" { return context.nodeNames }
            if position == 1 || earlier.last == "->" || earlier.last == "~>" { return context.nodeNames }
            if command == "wire", position == 4, earlier[2] == "->" { return ["--future", "when"] + expressionNames }
            return expressionNames
        default:
            return nil
        }
    }
}
