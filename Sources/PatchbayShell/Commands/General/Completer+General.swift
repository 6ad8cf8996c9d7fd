extension Completer {
    /// The candidates after a general command's word, or `nil` for other commands.
    func generalArguments(_ command: String, word: String, after earlier: [String]) -> [String]? {
        let position = earlier.count
        switch command {
        case "help" where position == 1:
            return CommandCatalog.words.filter { $0 != "=" } + Help.topics
        case "help" where position == 2:
            return Help.subcommands(of: earlier[1])
        case "load" where position == 1, "save" where position == 1:
            return fileNames.names(matching: word)
        case "save":
            return ["--force"]
        default:
            return nil
        }
    }
}
