@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A command of PatchbayHost.docc/TimeTravel.md: moving a store through its history.
enum TimeTravelCommand: Sendable {
    /// `history [STORE] [--last N] [--type T] [--not T]... [--grep TEXT] [--failed] [--skipped] [--path P] [--from A] [--to B] [--trace]`
    case history(store: Name?, filter: HistoryFilter, trace: Bool)
    /// `history [STORE] --chart PATH [--from A] [--to B] [--spark]`
    case chart(store: Name?, request: ChartRequest)
    /// `history router`
    case routerHistory
    /// `history commit | revert | sweep [STORE] [--force]`
    case rewrite(HistoryRewrite, store: Name?, force: Bool)
    /// `history recompute [STORE]`
    case recompute(store: Name?)
    /// `history minimize [STORE] [--fails | --diverges] [--budget N] [--to FILE [--force]] [--until EXPR]`
    case minimize(store: Name?, request: MinimizeRequest)
    /// `jump [STORE] N | +K | -K | end`
    case jump(store: Name?, to: JumpTarget, range: Range<Int>)
    /// `diff [STORE] [A [B]] [--path P]`
    case diff(store: Name?, from: (Int, Range<Int>)?, to: (Int, Range<Int>)?, path: [ValueChange.PathComponent]?)
    /// `diff [STORE] BRANCH [BRANCH] [--path P]`: from one branch's current state to another's
    /// (to the current state when only one is named).
    case branchDiff(store: Name?, from: Name, to: Name?, path: [ValueChange.PathComponent]?)
    /// `skip [STORE] N` / `unskip [STORE] N`
    case skip(store: Name?, index: Int, range: Range<Int>, skipped: Bool)
    /// `blame [STORE] [--first N | --last N] PATH`
    case blame(store: Name?, path: [ValueChange.PathComponent], pathRange: Range<Int>, bound: SearchBound?)
    /// `find [STORE] [--first N | --last N] EXPR`
    case find(store: Name?, condition: Expression, bound: SearchBound?)
    /// `branch [STORE]`
    case branches(store: Name?)
    /// `checkout [STORE] BRANCH`
    case checkout(store: Name?, branch: Name)
}

extension TimeTravelCommand {
    /// How a recording holds the command (see `RecordedForm`): each as itself, but a
    /// `history minimize` that writes a file, as a note (a replay writes no file).
    var recordedForm: RecordedForm {
        if case .minimize(_, let request) = self, request.file != nil { return .note }
        return .itself
    }

    /// Whether rolling the session back takes back what the command did (see `LastingChanges`).
    var isTakenBackWithItsNodes: Bool {
        switch self {
        // A history rewritten twice cannot go back to where it was before the first time.
        case .rewrite, .recompute, .skip: false
        default: true
        }
    }

    /// The command with `store` for a STORE left out (see `Command.selecting(_:at:)`).
    func selecting(_ store: Name) -> TimeTravelCommand {
        switch self {
        case .history(nil, let filter, let trace): .history(store: store, filter: filter, trace: trace)
        case .chart(nil, let request): .chart(store: store, request: request)
        case .rewrite(let rewrite, nil, let force): .rewrite(rewrite, store: store, force: force)
        case .recompute(nil): .recompute(store: store)
        case .minimize(nil, let request): .minimize(store: store, request: request)
        case .jump(nil, let target, let range): .jump(store: store, to: target, range: range)
        case .diff(nil, let from, let to, let path): .diff(store: store, from: from, to: to, path: path)
        case .skip(nil, let index, let range, let skipped): .skip(store: store, index: index, range: range, skipped: skipped)
        case .branchDiff(nil, let from, let to, let path): .branchDiff(store: store, from: from, to: to, path: path)
        case .blame(nil, let path, let pathRange, let bound): .blame(store: store, path: path, pathRange: pathRange, bound: bound)
        case .find(nil, let condition, let bound): .find(store: store, condition: condition, bound: bound)
        case .branches(nil): .branches(store: store)
        case .checkout(nil, let branch): .checkout(store: store, branch: branch)
        default: self
        }
    }
}

/// How many of the lines `find` or `blame` found are shown: the first or the last N (by
/// default, the last `Shell.historyPageSize` for people, all of them in JSON).
enum SearchBound: Sendable, Equatable {
    case first(Int)
    case last(Int)
}

/// What `history` lists: the actions that pass every filter given (they combine with AND), the
/// last `last` of them when it is set.
struct HistoryFilter: Sendable {
    /// Only the last N actions that pass the filters.
    var last: Int?
    /// Only actions of this type.
    var type: String?
    /// Where the type was typed.
    var typeRange: Range<Int>?
    /// No action of these types (`--not`, which may repeat), each with where it was typed.
    var excludedTypes: [String] = []
    var excludedTypeRanges: [Range<Int>] = []
    /// Only actions whose type or payload, as `history` prints them whole, hold this text
    /// (ignoring case).
    var text: String?
    /// Only failed actions.
    var failed = false
    /// Only skipped actions.
    var skipped = false
    /// Only actions that changed this path (or inside it).
    var path: [ValueChange.PathComponent]?
    /// Where the path was typed.
    var pathRange: Range<Int>?
    /// Only the actions from step `from` (the action that led to it)...
    var from: StepBound?
    /// ...to step `to`.
    var to: StepBound?

    /// Whether any option but `--last` narrows the list.
    var isFiltering: Bool {
        type != nil || !excludedTypes.isEmpty || text != nil || failed || skipped || path != nil || from != nil || to != nil
    }
}

/// A step given to `--from` or `--to`: `N`, `#N` or `end`, with where it was typed.
struct StepBound: Sendable {
    enum Step: Sendable, Equatable {
        case index(Int)
        case end
    }

    var step: Step
    var range: Range<Int>

    /// The step's index in a history of `count` actions.
    func index(count: Int) -> Int {
        switch step {
        case .index(let index): index
        case .end: count
        }
    }
}

/// What `history --chart` plots: a numeric path over the steps `from` to `to`.
struct ChartRequest: Sendable {
    var path: [ValueChange.PathComponent]
    var pathRange: Range<Int>
    var from: StepBound?
    var to: StepBound?
    /// One line of blocks instead of the chart with axes.
    var sparkline = false
}

/// What `history minimize` shrinks a history to: the smallest sequence of its actions that
/// still fails as `failure` says, run again through the reducers as they are now.
struct MinimizeRequest: Sendable {
    /// What it is for a sequence of actions to fail.
    enum Failure: Sendable {
        /// `--fails` (the default): a reducer fails at a step.
        case fails
        /// `--diverges`: a step meets the values it was recorded with (the old values of the
        /// changes it recorded) and now does something else than it recorded.
        case diverges
        /// `--until EXPR`: the condition holds after a step (`state` and `action` as for `find`).
        case until(Expression)
    }

    var failure: Failure = .fails
    /// `--budget N`: how many sequences the reducers may run at most.
    var budget: Int?
    /// `--to FILE`: the recording to write the kept actions to, with where it was typed.
    var file: (path: String, range: Range<Int>)?
    /// `--force`: replace FILE if it exists.
    var force = false
}

/// Redux DevTools' history operations.
enum HistoryRewrite: String, Sendable {
    /// Squash the history into the initial state.
    case commit
    /// Drop every action.
    case revert
    /// Drop the skipped actions.
    case sweep
}

/// Where `jump` goes.
enum JumpTarget: Sendable {
    case index(Int)
    case forward(Int)
    case backward(Int)
    case end
}

extension CommandParser {
    /// Parses the time-travel command that starts with `word`, or returns `nil` for other words.
    static func timeTravel(_ word: String, _ scanner: inout CommandScanner, context: ParserContext) throws(ShellError) -> TimeTravelCommand? {
        let command: TimeTravelCommand
        switch word {
        case "history":
            command = try history(&scanner, context: context)
        case "jump":
            let store = storeName(&scanner, context: context)
            command = try jump(&scanner, store: store, context: context)
        case "diff":
            let store = storeName(&scanner, context: context)
            if store == nil { try refuseUnknownStore(&scanner, context: context, when: { $0.atInteger && !$0.startsFlag }) }
            if let (first, range) = scanner.name() {
                // Branches, by name: `diff main b1`.
                let second = scanner.name().map { Name(text: $0.0, range: $0.1) }
                if second == nil, scanner.atInteger, !scanner.startsFlag {
                    throw usage(word, "compare steps (diff 2 5) or branches (diff main b1), not a branch with a step", at: scanner.restRange)
                }
                command = .branchDiff(store: store, from: Name(text: first, range: range), to: second, path: try diffPath(&scanner))
                break
            }
            var from: (Int, Range<Int>)?, to: (Int, Range<Int>)?
            if scanner.atInteger && !scanner.startsFlag {
                from = try scanner.integer("a step number", command: word)
                if scanner.atInteger && !scanner.startsFlag { to = try scanner.integer("a step number", command: word) }
            }
            command = .diff(store: store, from: from, to: to, path: try diffPath(&scanner))
        case "skip", "unskip":
            let store = storeName(&scanner, context: context)
            if store == nil { try refuseUnknownStore(&scanner, context: context) }
            let (index, range) = try scanner.integer("the action's number (see 'history')", command: word)
            command = .skip(store: store, index: index, range: range, skipped: word == "skip")
        case "blame":
            let store = storeName(&scanner, context: context)
            // `blame cart total` with no store cart: a store misnamed, not a path followed by junk.
            if store == nil { try refuseUnknownStore(&scanner, context: context, when: { !$0.isAtEnd && !$0.startsFlag }) }
            var bound = try searchBound(&scanner, command: word, what: "changes")
            scanner.skipBlanks()
            let start = scanner.offset
            let path = try path(&scanner, command: word)
            let pathRange = start..<scanner.offset
            if bound == nil { bound = try searchBound(&scanner, command: word, what: "changes") }
            command = .blame(store: store, path: path, pathRange: pathRange, bound: bound)
        case "find":
            let store = storeName(&scanner, context: context)
            let bound = try searchBound(&scanner, command: word, what: "matches")
            command = .find(store: store, condition: try scanner.expression(command: word), bound: bound)
        case "branch":
            let store = storeName(&scanner, context: context)
            if store == nil { try refuseUnknownStore(&scanner, context: context) }
            command = .branches(store: store)
        case "checkout":
            let first = try scanner.requireName("the branch (see 'branch')", command: word)
            if context.storeNames.contains(first.text), let (branch, range) = scanner.name() {
                command = .checkout(store: first, branch: Name(text: branch, range: range))
            } else {
                command = .checkout(store: nil, branch: first)
            }
        default:
            return nil
        }
        try expectEnd(&scanner, command: word)
        return command
    }

    /// A store's name, when the next name is one followed by more of the command (or the end).
    private static func storeName(_ scanner: inout CommandScanner, context: ParserContext) -> Name? {
        var probe = scanner
        guard let (name, range) = probe.name(), context.storeNames.contains(name) else { return nil }
        // `find app.count > 1` reads a path of a node, not the store `app`.
        if probe.offset < probe.bytes.count, [UInt8(ascii: "."), UInt8(ascii: "[")].contains(probe.bytes[probe.offset]) { return nil }
        scanner = probe
        return Name(text: name, range: range)
    }

    /// When the next word is a name that is no store, followed by what `rest` accepts (by
    /// default anything), the error that there is no such store: `history cart` in a session
    /// whose only store is `app`.
    private static func refuseUnknownStore(_ scanner: inout CommandScanner, context: ParserContext,
                                           when rest: (CommandScanner) -> Bool = { _ in true }) throws(ShellError) {
        var probe = scanner
        guard let (name, range) = probe.name(), name != "end",
              probe.offset >= probe.bytes.count || [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(probe.bytes[probe.offset]),
              rest(probe)
        else { return }
        let stores = context.storeNames.sorted()
        throw ShellError(.unknownStore(name, suggestion: Spelling.closest(to: name, among: stores), stores: stores), at: range)
    }

    /// `--first N` or `--last N` when one comes next (`what` names what is counted: `changes`).
    private static func searchBound(_ scanner: inout CommandScanner, command: String, what: String) throws(ShellError) -> SearchBound? {
        var bound: (SearchBound, Range<Int>)?
        while scanner.startsFlag {
            var probe = scanner
            guard let (option, range) = probe.word(), option == "--first" || option == "--last" else { break }
            if let bound {
                throw usage(command, "give --first or --last, not both", at: bound.1.lowerBound < range.lowerBound ? range : bound.1)
            }
            scanner = probe
            let (count, countRange) = try scanner.integer("how many \(what), after \(option)", command: command)
            guard count >= 0 else { throw usage(command, "\(option) takes a count that is not negative", at: countRange) }
            bound = (option == "--first" ? .first(count) : .last(count), range)
        }
        return bound?.0
    }

    /// `diff`'s `--path P`, if given.
    private static func diffPath(_ scanner: inout CommandScanner) throws(ShellError) -> [ValueChange.PathComponent]? {
        guard let (option, range) = scanner.word() else { return nil }
        guard option == "--path" else {
            throw usage("diff", "unexpected '\(Printable.escaped(option, limit: 30))' (after the steps or branches: --path P)", at: range)
        }
        return try path(&scanner, command: "diff")
    }

    private static func history(_ scanner: inout CommandScanner, context: ParserContext) throws(ShellError) -> TimeTravelCommand {
        let word = "history"
        if scanner.keyword("router") { return .routerHistory }
        if scanner.keyword("recompute") {
            let store = storeName(&scanner, context: context)
            try expectEnd(&scanner, command: "history")
            return .recompute(store: store)
        }
        if scanner.keyword("minimize") { return try minimize(&scanner, context: context) }
        for rewrite in [HistoryRewrite.commit, .revert, .sweep] where scanner.keyword(rewrite.rawValue) {
            let store = storeName(&scanner, context: context)
            return .rewrite(rewrite, store: store, force: try scanner.flags(["--force"], command: word).contains("--force"))
        }
        let store = storeName(&scanner, context: context)
        if store == nil { try refuseUnknownStore(&scanner, context: context) }
        var filter = HistoryFilter()
        var chart: ChartRequest?
        var sparkline: Range<Int>?
        var listOption: Range<Int>?
        var trace: Range<Int>?
        while !scanner.isAtEnd {
            guard let (option, range) = scanner.word() else { break }
            switch option {
            case "--last" where filter.last == nil:
                let (count, countRange) = try scanner.integer("how many actions, after --last", command: word)
                guard count >= 0 else { throw usage(word, "--last takes a count that is not negative", at: countRange) }
                filter.last = count
                listOption = listOption ?? range
            case "--type" where filter.type == nil:
                let type = try scanner.requireName("an action type, after --type", command: word)
                (filter.type, filter.typeRange) = (type.text, type.range)
                listOption = listOption ?? range
            case "--not":
                let type = try scanner.requireName("an action type, after --not", command: word)
                filter.excludedTypes.append(type.text)
                filter.excludedTypeRanges.append(type.range)
                listOption = listOption ?? range
            case "--grep" where filter.text == nil:
                guard !scanner.isAtEnd, !scanner.startsFlag, let (text, textRange) = scanner.word() else {
                    throw scanner.missing("the text to look for, after --grep", command: word)
                }
                guard !text.isEmpty else { throw usage(word, "--grep takes a text that is not empty", at: textRange) }
                filter.text = text
                listOption = listOption ?? range
            case "--failed" where !filter.failed, "--skipped" where !filter.skipped:
                if option == "--failed" { filter.failed = true } else { filter.skipped = true }
                listOption = listOption ?? range
            case "--path" where filter.path == nil:
                scanner.skipBlanks()
                let start = scanner.offset
                filter.path = try path(&scanner, command: word)
                filter.pathRange = start..<scanner.offset
                listOption = listOption ?? range
            case "--chart" where chart == nil:
                scanner.skipBlanks()
                let start = scanner.offset
                let path = try path(&scanner, command: word)
                chart = ChartRequest(path: path, pathRange: start..<scanner.offset)
            case "--from" where filter.from == nil, "--to" where filter.to == nil:
                let bound = try step(&scanner, after: option)
                if option == "--from" { filter.from = bound } else { filter.to = bound }
            case "--spark" where sparkline == nil:
                sparkline = range
            case "--trace" where trace == nil:
                trace = range
            default:
                let repeated = ["--last", "--type", "--grep", "--failed", "--skipped", "--path", "--chart", "--from", "--to", "--spark", "--trace"]
                    .contains(option)
                throw usage(word, repeated ? "\(option) is given twice" : "unexpected '\(Printable.escaped(option, limit: 30))' (options: --last N, "
                            + "--type T, --not T, --grep TEXT, --failed, --skipped, --path P, --from A, --to B, --trace, --chart PATH, --spark)",
                            at: range)
            }
        }
        guard var chart else {
            if let sparkline { throw usage(word, "--spark goes with --chart PATH", at: sparkline) }
            return .history(store: store, filter: filter, trace: trace != nil)
        }
        if let trace { throw usage(word, "--trace goes without --chart", at: trace) }
        if let listOption {
            throw usage(word, "--chart goes without --last, --type, --not, --grep, --failed, --skipped and --path", at: listOption)
        }
        chart.from = filter.from
        chart.to = filter.to
        chart.sparkline = sparkline != nil
        return .chart(store: store, request: chart)
    }

    /// `history minimize [STORE] [--fails | --diverges] [--budget N] [--to FILE [--force]] [--until EXPR]`:
    /// the condition after `--until` runs to the end of the command, so it comes last.
    private static func minimize(_ scanner: inout CommandScanner, context: ParserContext) throws(ShellError) -> TimeTravelCommand {
        let word = "history"
        let store = storeName(&scanner, context: context)
        if store == nil { try refuseUnknownStore(&scanner, context: context) }
        var request = MinimizeRequest()
        var failureGiven: (option: String, range: Range<Int>)?
        var forceRange: Range<Int>?
        while !scanner.isAtEnd {
            guard let (option, range) = scanner.word() else { break }
            switch option {
            case "--fails", "--diverges", "--until":
                if let failureGiven {
                    throw usage(word, "give one of --fails, --diverges and --until EXPR, not \(failureGiven.option) and \(option)", at: range)
                }
                failureGiven = (option, range)
                switch option {
                case "--diverges": request.failure = .diverges
                case "--until": request.failure = .until(try scanner.expression(command: word))
                default: request.failure = .fails
                }
            case "--budget" where request.budget == nil:
                let (count, countRange) = try scanner.integer("how many runs, after --budget", command: word)
                guard count >= 2 else {
                    throw usage(word, "--budget takes a number of runs of at least 2 (one tries the whole history, one shows what is kept)",
                                at: countRange)
                }
                request.budget = count
            case "--to" where request.file == nil:
                guard !scanner.startsFlag, let (path, pathRange) = scanner.word(), !path.isEmpty else {
                    throw scanner.missing("the file to write, after --to", command: word)
                }
                request.file = (path, pathRange)
            case "--force" where forceRange == nil:
                forceRange = range
                request.force = true
            default:
                let repeated = ["--budget", "--to", "--force"].contains(option)
                throw usage(word, repeated ? "\(option) is given twice" : "unexpected '\(Printable.escaped(option, limit: 30))' (options: --fails, "
                            + "--diverges, --until EXPR, --budget N, --to FILE, --force)", at: range)
            }
        }
        if let forceRange, request.file == nil { throw usage(word, "--force goes with --to FILE", at: forceRange) }
        return .minimize(store: store, request: request)
    }

    /// The step after `--from` or `--to`: `N`, `#N` or `end`.
    private static func step(_ scanner: inout CommandScanner, after option: String) throws(ShellError) -> StepBound {
        let word = "history"
        scanner.skipBlanks()
        let start = scanner.offset
        if scanner.keyword("end") { return StepBound(step: .end, range: start..<scanner.offset) }
        if start < scanner.bytes.count, scanner.bytes[start] == UInt8(ascii: "#") {
            scanner.offset += 1
            // `#` and its number are one word: `# 3` is not a step.
            guard scanner.offset < scanner.bytes.count, scanner.bytes[scanner.offset] != UInt8(ascii: " ") else {
                scanner.offset = start
                throw scanner.missing("a step after \(option): N, #N or end", command: word)
            }
        }
        let number: Int, range: Range<Int>
        do throws(ShellError) {
            (number, range) = try scanner.integer("a step after \(option): N, #N or end", command: word)
        } catch {
            scanner.offset = start
            throw scanner.missing("a step after \(option): N, #N or end", command: word)
        }
        guard number >= 0 else { throw usage(word, "\(option) takes a step that is not negative (#0 is the initial state)", at: start..<range.upperBound) }
        return StepBound(step: .index(number), range: start..<range.upperBound)
    }

    private static func jump(_ scanner: inout CommandScanner, store: Name?, context: ParserContext) throws(ShellError) -> TimeTravelCommand {
        let word = "jump"
        if store == nil { try refuseUnknownStore(&scanner, context: context) }
        scanner.skipBlanks()
        let start = scanner.offset
        if scanner.keyword("end") { return .jump(store: store, to: .end, range: start..<scanner.offset) }
        let forward = scanner.symbol("+")
        let (number, range) = try scanner.integer("a step: N, +K, -K or end", command: word)
        let whole = start..<range.upperBound
        if forward {
            guard number >= 0 else { throw usage(word, "write +K or -K, not both signs", at: whole) }
            return .jump(store: store, to: .forward(number), range: whole)
        }
        // Int.min has no positive counterpart: as far back as any history goes, it is Int.max.
        if number < 0 { return .jump(store: store, to: .backward(number == .min ? .max : -number), range: whole) }
        // `-0` reads as a move of nothing back, like `+0`.
        if scanner.bytes[start] == UInt8(ascii: "-") { return .jump(store: store, to: .backward(0), range: whole) }
        return .jump(store: store, to: .index(number), range: whole)
    }
}
