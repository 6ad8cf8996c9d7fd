extension CommandCatalog {
    /// The commands `help` lists under General: expressions, help, scripts and the session.
    static let general: [CommandInfo] = [
        CommandInfo(
            name: "=",
            synopsis: "= EXPR",
            summary: "evaluate an expression and print its value",
            details: [
                "Values are JSON with integers apart from decimals; literals also take 'single quotes',",
                "bare keys ({title: \"x\"}), trailing commas and interpolation (\"n is \\(n)\").",
                "Operators, lowest first: ?:  ??  ||  &&  == !=  < <= > >=  + -  * / %  ! -  .x [i] f()",
                "See 'help functions' for the functions and 'help values' for the rules.",
            ],
            examples: ["= 1 + 2 * 3", "= {count: 2, user: {name: 'Max'}}.user.name", "= map(range(4), x => x * x)"]
        ),
        CommandInfo(
            name: "help",
            synopsis: "help [COMMAND [SUBCOMMAND] | functions | values | patch TYPE]",
            summary: "list the commands by area, or show one command's syntax and an example",
            details: ["help                     every command with its synopsis, by area, wrapped to the terminal",
                      "help COMMAND             the syntax, details and an example",
                      "help COMMAND SUBCOMMAND  the lines about one form first (help history commit), then the rest",
                      "help functions           the functions expressions can call",
                      "help values              values, operators and statements",
                      "help patch TYPE          one patch type's ports and parameters ('help patch types': that form)",
                      "?, COMMAND?              the same as help and help COMMAND (as in IPython)"],
            examples: ["help load", "help route add", "help functions", "history?"]
        ),
        CommandInfo(
            name: "apropos",
            synopsis: "apropos WORD",
            summary: "find the commands and functions with WORD in their synopsis, summary or details",
            details: ["Ignores case and finds WORD inside longer words too; prints one line each."],
            examples: ["apropos branch", "apropos json"]
        ),
        CommandInfo(
            name: "load",
            synopsis: "load FILE",
            summary: "run the commands of a script file",
            details: ["Runs FILE's commands in order and stops at the first error, naming the file and line.",
                      "FILE is a regular file, read line by line; a line over 1 MiB stops it there.",
                      "Quote a path that has spaces: load \"my demo.pb\"."],
            examples: ["load sessions/demo.pb"]
        ),
        CommandInfo(
            name: "save",
            synopsis: "save FILE [--force]",
            summary: "write the current definitions as a script that load rebuilds them from",
            details: ["Writes patch types, nodes with their current values, wires, pipes, bindings, probes, routes,",
                      "presenters, and stores with their current states and reducers, in an order that rebuilds",
                      "them when the file is loaded in a fresh shell. What a script cannot rebuild (the clock,",
                      "pending timers, the navigation stack, store histories, patches' internal state) is noted",
                      "in # comments. An existing FILE is kept unless --force is given; then it is replaced whole",
                      "or not at all. A file in use (being recorded, or read by this session as a script, load or",
                      "replay) is never written, --force or not. Quote a path that has spaces."],
            examples: ["save graph.pb", "load graph.pb"]
        ),
        CommandInfo(
            name: "reset",
            synopsis: "reset",
            summary: "forget everything defined in this session",
            details: ["Clears all definitions and values; history of the line editor is kept."],
            examples: ["reset"]
        ),
        CommandInfo(
            name: "quit",
            synopsis: "quit | exit",
            summary: "leave the shell (Ctrl-D on an empty line does the same)",
            details: ["In a script, stops the script with the status it has so far."],
            examples: ["quit"],
            aliases: ["exit"]
        ),
    ]
}
