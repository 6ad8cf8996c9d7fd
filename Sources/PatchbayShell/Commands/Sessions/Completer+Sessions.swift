extension Completer {
    /// The candidates after a session command's word, or `nil` for other commands.
    func sessionArguments(_ command: String, word: String, after earlier: [String]) -> [String]? {
        let position = earlier.count
        switch command {
        case "record":
            return position == 1 ? ["stop"] + fileNames.names(matching: word) : ["--force", "--sync"]
        case "replay":
            return position == 1 ? fileNames.names(matching: word) : ["--verify", "--step", "--until", "--allow-files", "--force"]
        case "inspect":
            if position == 1 { return fileNames.names(matching: word) + ["--listen"] }
            if ["--idle", "--listen", "--token"].contains(earlier.last) { return [] }
            return earlier.contains("--listen") ? ["--token", "--force", "--idle"] : ["--force", "--follow", "--idle"]
        case "export" where earlier.count > 1 && earlier[1] == "swift-test":
            if position == 2 { return fileNames.names(matching: word) }
            if ["--from", "--to", "--reducer", "--module"].contains(earlier.last ?? "") { return [] }
            return (position == 3 ? context.storeNames : []) + ["--reducer", "--from", "--to", "--module", "--force"]
        case "export", "import":
            if position == 1 { return command == "export" ? ["devtools", "swift-test"] : ["devtools"] }
            if command == "export", position == 2 { return context.storeNames }
            if position == (command == "export" ? 3 : 2) { return fileNames.names(matching: word) }
            return command == "export" ? ["--lifted", "--force"] : context.storeNames + ["--force"]
        case "break":
            return position == 1 ? context.storeNames + ["when"] : position == 2 ? ["when"] : expressionNames
        default:
            return nil
        }
    }
}
