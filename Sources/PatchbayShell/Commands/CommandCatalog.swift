/// Every command of the shell, in the order `help` lists them. Each family's entries are in its
/// folder (`CommandCatalog+General.swift`, `CommandCatalog+Dataflow.swift` ...).
enum CommandCatalog {
    static let commands: [CommandInfo] = general + dataflow + stores + routing + timeTravel + sessions

    /// The commands by area, as `help` and the command reference show them.
    static let groups: [(title: String, commands: [CommandInfo])] = [
        ("General", general), ("Dataflow", dataflow), ("Stores", stores),
        ("Routing", routing), ("Time travel", timeTravel), ("Sessions", sessions),
    ]

    /// The command called `word`, by name or alias.
    static func info(for word: String) -> CommandInfo? {
        commands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// Every word that starts a command.
    static var words: [String] {
        commands.flatMap { [$0.name] + $0.aliases }
    }
}
