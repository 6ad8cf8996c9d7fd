extension Completer {
    /// The candidates after a time travel command's word, or `nil` for other commands.
    func timeTravelArguments(_ command: String, word: String, after earlier: [String]) -> [String]? {
        let position = earlier.count
        switch command {
        case "history":
            let options = ["--last", "--type", "--not", "--grep", "--failed", "--skipped", "--path", "--from", "--to", "--trace", "--chart", "--spark"]
            if position == 1 {
                return ["commit", "revert", "sweep", "recompute", "minimize", "router"] + options + context.storeNames
            }
            if earlier[1] == "minimize" { return minimizeArguments(word: word, after: earlier) }
            if earlier.last == "--type" || earlier.last == "--not" { return context.actionTypes }
            if earlier.last == "--from" || earlier.last == "--to" { return ["end"] }
            if earlier.last == "--last" || earlier.last == "--grep" { return [] }
            return options + (["commit", "revert", "sweep", "recompute"].contains(earlier[1]) ? context.storeNames : [])
        case "jump":
            return position == 1 ? ["end"] + context.storeNames : ["end"]
        case "diff":
            // Steps are numbers; branches (`diff main b1`) are named.
            return (position == 1 ? context.storeNames : []) + (position <= 3 ? context.branchNames : []) + ["--path"]
        case "find" where earlier.last == "--first" || earlier.last == "--last":
            return []
        case "find" where !earlier.dropFirst().contains { $0 == "--first" || $0 == "--last" } && earlier.count <= 3:
            return (position == 1 ? context.storeNames : []) + ["--first", "--last"] + expressionNames
        case "skip", "unskip", "blame", "branch", "find":
            return position == 1 ? context.storeNames + (command == "find" ? expressionNames : []) : expressionNames
        case "checkout":
            return context.storeNames + context.branchNames
        default:
            return nil
        }
    }

    /// The candidates after `history minimize`: its store, its options, a file after `--to`,
    /// and what an expression can use after `--until` (which runs to the end of the command).
    private func minimizeArguments(word: String, after earlier: [String]) -> [String] {
        if earlier.contains("--until") { return expressionNames }
        switch earlier.last {
        case "--to": return fileNames.names(matching: word)
        case "--budget": return []
        default:
            let options = ["--fails", "--diverges", "--until", "--budget", "--to", "--force"]
            return (earlier.count == 2 ? context.storeNames : []) + options
        }
    }
}
