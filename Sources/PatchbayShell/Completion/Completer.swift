@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

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
        let wholeWords = ["load", "save", "route", "graph", "record", "replay", "inspect", "export", "import", "history", "state", "blame", "diff"]
            .contains(command)
        var wordStart = bytes.count
        while wordStart > 0, !(wholeWords ? Self.isBlank(bytes[wordStart - 1]) : Self.isWordBoundary(bytes[wordStart - 1])) {
            wordStart -= 1
        }
        let word = String(decoding: bytes[wordStart...], as: UTF8.self)
        let earlier = String(decoding: bytes[..<wordStart], as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        // By Unicode scalars, as object keys are told apart: two keys that differ only in
        // normalisation are two candidates.
        var seen = Set<ObjectKey>()
        let candidates = pool(for: word, after: earlier)
            .filter { $0.unicodeScalars.starts(with: word.unicodeScalars) && seen.insert(ObjectKey($0)).inserted }
            .sorted { ObjectKey($0) < ObjectKey($1) }
        return Completion(range: wordStart..<bytes.count, candidates: candidates)
    }

    /// The candidates for `word` after the words `earlier` (the command's word first): what
    /// every command shares, then what the command's family offers (`Completer+Stores.swift`
    /// ...), tried one by one as the parser tries them, then the names an expression can use.
    func pool(for word: String, after earlier: [String]) -> [String] {
        guard let command = earlier.first else {
            return CommandCatalog.words.filter { $0 != "=" }
        }
        // A command that takes nothing completes nothing after it.
        if let info = CommandCatalog.info(for: command),
           info.synopsis.components(separatedBy: " | ").allSatisfy({ !$0.contains(" ") }) { return [] }
        if let paths = statePaths(for: word, after: earlier) { return paths }
        if word.contains("."), !Self.fileCommands.contains(command) { return context.ports }
        return storeArguments(command, word: word, after: earlier)
            ?? generalArguments(command, word: word, after: earlier)
            ?? dataflowArguments(command, word: word, after: earlier)
            ?? routingArguments(command, word: word, after: earlier)
            ?? timeTravelArguments(command, word: word, after: earlier)
            ?? sessionArguments(command, word: word, after: earlier)
            ?? expressionNames
    }

    /// The commands whose words are file names, where a dot is part of the name.
    private static let fileCommands: Set<String> = ["load", "save", "graph", "record", "replay", "inspect", "export", "import"]

    /// Paths into a store's state, where the command takes one: `state app.user.na`,
    /// `state app user.na`, `blame user.na`, `history --path user.na` (also `--chart`), and
    /// `state.user.na` in `find` and `break` expressions. `nil` where no path goes.
    private func statePaths(for word: String, after earlier: [String]) -> [String]? {
        let command = earlier[0]
        let position = earlier.count
        let named = position >= 2 && context.storeStates[earlier[1]] != nil ? earlier[1] : nil
        // The store a command that leaves out STORE goes to: the selected one, or the only one.
        let impliedStore = context.selectedStore ?? (context.storeNames.count == 1 ? context.storeNames[0] : nil)
        switch command {
        case "state" where position == 1:
            // `app.user.na`: a store, then its path; `.user.na` or `user.na`: the only store's.
            if let dot = word.firstIndex(of: "."), context.storeStates[String(word[..<dot])] != nil {
                let store = String(word[..<dot])
                return Self.paths(String(word[word.index(after: dot)...]), in: context.storeStates[store]!, prefix: store + ".")
            }
            guard let impliedStore, let state = context.storeStates[impliedStore] else { return nil }
            if word.hasPrefix(".") { return Self.paths(String(word.dropFirst()), in: state, prefix: ".") }
            return context.storeNames + ["--tree"] + Self.paths(word, in: state, prefix: "")
        case "state" where position == 2 && named != nil && !word.hasPrefix("-"):
            return Self.paths(word.hasPrefix(".") ? String(word.dropFirst()) : word, in: context.storeStates[named!]!,
                              prefix: word.hasPrefix(".") ? "." : "")
        case "blame":
            if earlier.last == "--first" || earlier.last == "--last" { return [] }
            // The words typed but the bound and its count: the store, then the path.
            var rest: [String] = []
            var words = earlier.dropFirst()
            while let next = words.popFirst() {
                if next == "--first" || next == "--last" { _ = words.popFirst() } else { rest.append(next) }
            }
            let bounds = rest.count == earlier.count - 1 ? ["--first", "--last"] : []
            let store = rest.first.flatMap { context.storeStates[$0] != nil ? $0 : nil }
            guard rest.count == (store == nil ? 0 : 1) else { return bounds }
            let own = (store ?? impliedStore).flatMap { context.storeStates[$0] }.map { Self.paths(word, in: $0, prefix: "") } ?? []
            return (rest.isEmpty ? context.storeNames : []) + bounds + own
        case "history" where earlier.last == "--path" || earlier.last == "--chart", "diff" where earlier.last == "--path":
            guard let store = named ?? impliedStore, let state = context.storeStates[store] else { return [] }
            return Self.paths(word, in: state, prefix: "")
        case "find" where word.hasPrefix("state."), "break" where word.hasPrefix("state."):
            guard let store = named ?? impliedStore, let state = context.storeStates[store] else { return nil }
            return Self.paths(String(word.dropFirst("state.".count)), in: state, prefix: "state.")
        default:
            return nil
        }
    }

    /// The paths of `state` that complete `partial` (`user.na` → `user.name`, `items[` →
    /// `items[0]` ...), each after `prefix`.
    static func paths(_ partial: String, in state: Value, prefix: String) -> [String] {
        let separator = partial.lastIndex { $0 == "." || $0 == "[" }
        let base = separator.map { String(partial[..<$0]) } ?? ""
        let rest = separator.map { String(partial[partial.index(after: $0)...]) } ?? partial
        guard let components = pathComponents(base), let node = state.value(at: components) else { return [] }
        switch node {
        case .object(let members) where separator == nil || partial[separator!] == ".":
            return members.keys.lazy.map(\.string).filter { $0.unicodeScalars.starts(with: rest.unicodeScalars) }.map { key in
                var step = ""
                if Value.isBareKey(key) { step = (base.isEmpty ? "" : ".") + key } else {
                    Value.writeQuoted(key, to: &step)
                    step = "[\(step)]"
                }
                return prefix + base + step
            }
        case .array(let elements) where separator.map({ partial[$0] == "[" }) ?? false:
            return (0..<Swift.min(elements.count, 100)).map { "\($0)" }.filter { $0.hasPrefix(rest) }.map { prefix + base + "[\($0)]" }
        default:
            return []
        }
    }

    /// `user.items[2].title` as path components; `nil` for what is not a plain path.
    private static func pathComponents(_ text: String) -> [ValueChange.PathComponent]? {
        var components: [ValueChange.PathComponent] = []
        var scanner = Substring(text)
        while !scanner.isEmpty {
            if scanner.first == "." { scanner = scanner.dropFirst() }
            if scanner.first == "[" {
                guard let close = scanner.firstIndex(of: "]"), let index = Int(scanner[scanner.index(after: scanner.startIndex)..<close]) else {
                    return nil
                }
                components.append(.index(index))
                scanner = scanner[scanner.index(after: close)...]
                continue
            }
            let key = scanner.prefix { $0 != "." && $0 != "[" }
            guard !key.isEmpty else { return nil }
            components.append(.key(String(key)))
            scanner = scanner[key.endIndex...]
        }
        return components
    }

    /// Names an expression can use: nodes and functions.
    var expressionNames: [String] {
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
    /// The store `use` selected, which commands leaving out STORE go to.
    var selectedStore: String?
    /// Each store's current state, for paths after `state`, `blame` and the like.
    var storeStates: [String: Value] = [:]
    /// The action types reducers handle, across stores and per store.
    var actionTypes: [String] = []
    var actionTypesByStore: [String: [String]] = [:]
    var reducerIDs: [String] = []
    var middlewareIDs: [String] = []
    var routePatterns: [String] = []
    var viewNames: [String] = []
    var presenterIDs: [String] = []
    var featureNames: [String] = []
    /// The branches of every store's history.
    var branchNames: [String] = []
    var connectorNames: [String] = []
}
