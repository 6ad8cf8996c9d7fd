import PatchbayCore
import PatchbayGraph

/// Computes Tab completions: command words first, then what each command takes (node names,
/// `NODE.PORT`, patch types, file names), and node and function names inside expressions.
///
/// A plain function of the line, the cursor and what the session defines, so it is tested
/// without a terminal.
struct Completer {
    var fileNames: FileNameLister
    /// What the session defines.
    var context = CompletionContext()

    func complete(_ line: String, cursor: Int) -> Completion {
        let bytes = Array(line.utf8.prefix(cursor))
        // Paths, URLs and patterns are whole words; elsewhere operators and brackets end words too.
        let command = String(decoding: bytes.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }, as: UTF8.self)
        let wholeWords = ["load", "save", "route", "graph", "record", "replay", "inspect", "export", "import", "history"].contains(command)
        var wordStart = bytes.count
        while wordStart > 0, !(wholeWords ? Self.isBlank(bytes[wordStart - 1]) : Self.isWordBoundary(bytes[wordStart - 1])) {
            wordStart -= 1
        }
        let word = String(decoding: bytes[wordStart...], as: UTF8.self)
        let earlier = String(decoding: bytes[..<wordStart], as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let candidates = Set(pool(for: word, after: earlier).filter { $0.hasPrefix(word) }).sorted()
        return Completion(range: wordStart..<bytes.count, candidates: candidates)
    }

    private func pool(for word: String, after earlier: [String]) -> [String] {
        guard let command = earlier.first else {
            return CommandCatalog.words.filter { $0 != "=" }
        }
        if word.contains(".") { return context.ports }
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
        case "graph":
            return position == 1 ? ["--dot"] : position == 2 ? fileNames.names(matching: word) : ["--force"]
        case "record":
            return position == 1 ? ["stop"] + fileNames.names(matching: word) : ["--force", "--sync"]
        case "replay":
            return position == 1 ? fileNames.names(matching: word) : ["--verify", "--step", "--until", "--allow-files", "--force"]
        case "inspect":
            if position == 1 { return fileNames.names(matching: word) }
            return earlier.last == "--idle" ? [] : ["--force", "--follow", "--idle"]
        case "export", "import":
            if position == 1 { return ["devtools"] }
            if command == "export", position == 2 { return context.storeNames }
            return position == (command == "export" ? 3 : 2) ? fileNames.names(matching: word) : context.storeNames
        case "history":
            if position == 1 { return ["commit", "revert", "sweep", "recompute", "router", "--last", "--type", "--path"] + context.storeNames }
            if earlier.last == "--type" { return context.actionTypes }
            return ["--last", "--type", "--path"] + (["commit", "revert", "sweep", "recompute"].contains(earlier[1]) ? context.storeNames : [])
        case "jump":
            return position == 1 ? ["end"] + context.storeNames : ["end"]
        case "diff", "skip", "unskip", "blame", "branch", "find", "break":
            return position == 1 ? context.storeNames + (command == "break" ? ["when"] : command == "find" ? expressionNames : [])
                : command == "break" && position == 2 ? ["when"] : expressionNames
        case "checkout":
            return context.storeNames + context.branchNames
        case "patch" where position == 1:
            return ["types"]
        case "patch" where position == 2:
            return context.patchTypes
        case "send", "close", "touch", "rm", "show", "why", "tap", "set":
            return position == 1 ? context.nodeNames : expressionNames
        case "bind" where position <= 2, "unbind" where position <= 2:
            return context.nodeNames
        case "dispatch":
            if position == 1 { return context.storeNames + context.actionTypes }
            if position == 2, context.storeNames.contains(earlier[1]) { return context.actionTypesByStore[earlier[1]] ?? [] }
            return expressionNames
        case "state" where position == 1:
            return context.storeNames
        case "route":
            if position == 1 { return ["add", "explain", "list", "rm", "check"] + context.routePatterns }
            if position == 2, earlier[1] == "rm" { return context.routePatterns }
            if earlier[1] == "add" { return ["view=", "option=", "priority=", "when"] }
            return ["option="] + expressionNames
        case "presenter" where position == 1:
            return context.viewNames
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
        case "connector":
            if position == 1 { return ["end", "list"] + context.connectorNames }
            if position == 2 { return ["add", "disconnect"] }
            return earlier[2] == "add" ? context.ports : []
        case "probe":
            return position == 1 ? context.nodeNames : ["--future"]
        case "unprobe" where position == 1:
            return context.probeTargets + ["all"]
        case "wire", "unwire", "pipe":
            if earlier.last == "->" && command == "pipe" { return context.nodeNames }
            if position == 1 || earlier.last == "->" || earlier.last == "~>" { return context.nodeNames }
            if command == "wire", position == 4, earlier[2] == "->" { return ["--future", "when"] + expressionNames }
            return expressionNames
        default:
            return expressionNames
        }
    }

    /// Names an expression can use: nodes and functions.
    private var expressionNames: [String] {
        context.nodeNames + Builtin.allCases.map(\.rawValue)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func isWordBoundary(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"),
            UInt8(ascii: ","), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"),
            UInt8(ascii: "%"), UInt8(ascii: "!"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: ";"):
            true
        default:
            false
        }
    }
}

/// What the session defines, as completion offers it.
struct CompletionContext {
    var nodeNames: [String] = []
    /// Every `NODE.PORT`.
    var ports: [String] = []
    var patchTypes: [String] = []
    var probeTargets: [String] = []
    var storeNames: [String] = []
    /// The action types reducers handle, across stores and per store.
    var actionTypes: [String] = []
    var actionTypesByStore: [String: [String]] = [:]
    var reducerIDs: [String] = []
    var routePatterns: [String] = []
    var viewNames: [String] = []
    /// The branches of every store's history.
    var branchNames: [String] = []
    var connectorNames: [String] = []
}
