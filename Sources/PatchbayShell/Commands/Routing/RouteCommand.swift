@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A command of PatchbayHost.docc/Routing.md: routes, navigation, presenters and the stack.
enum RouteCommand: Sendable {
    case add(pattern: Name, view: Name?, option: RoutingOption?, priority: Int, condition: Expression?)
    case navigate(url: Name, extra: [(Name, Expression)], option: RoutingOption?)
    case explain(url: Name)
    case list
    /// `route rm PATTERN [view=NAME | handler]`; the selector is `view=NAME` or `handler`.
    case remove(pattern: Name, selector: Name?)
    case check
    case presenter(view: Name, condition: Expression?, live: Bool, Expression)
    case listPresenters(view: Name?)
    case removePresenter(Name)
    case stack
    case back
    case dismiss
    case beginFeature(Name)
    case endFeature
    case listFeatures
    case showFeature(Name)
    case removeFeature(Name)
}

extension RouteCommand {
    /// How a recording holds the command (see `RecordedForm`): each as itself.
    var recordedForm: RecordedForm { .itself }

    /// Whether rolling the session back takes back what the command did (see `LastingChanges`).
    var isTakenBackWithItsNodes: Bool {
        switch self {
        case .navigate, .explain, .list, .check, .listPresenters, .stack, .back, .dismiss, .listFeatures, .showFeature: true
        default: false
        }
    }
}

extension CommandParser {
    /// Parses the routing command that starts with `word`, or returns `nil` for other words.
    static func route(_ word: String, _ scanner: inout CommandScanner) throws(ShellError) -> RouteCommand? {
        let command: RouteCommand
        switch word {
        case "route":
            command = try routeCommand(&scanner)
        case "presenter":
            command = try presenterCommand(&scanner)
        case "feature":
            command = try featureCommand(&scanner)
        case "stack": command = .stack
        case "back": command = .back
        case "dismiss": command = .dismiss
        default: return nil
        }
        try expectEnd(&scanner, command: word)
        return command
    }

    private static func routeCommand(_ scanner: inout CommandScanner) throws(ShellError) -> RouteCommand {
        let word = "route"
        if scanner.keyword("add") {
            guard let (pattern, range) = scanner.word() else { throw scanner.missing("the pattern, such as /message/:username", command: word) }
            var view: Name?, option: RoutingOption?, priority = 0, condition: Expression?
            while !scanner.isAtEnd {
                if scanner.keyword("when") {
                    condition = try scanner.expression(command: word)
                    continue
                }
                let setting = try scanner.requireName("view=NAME, option=..., priority=N or when EXPR", command: word)
                guard scanner.symbol("=") else { throw scanner.missing("'=' after \(setting.text)", command: word) }
                switch setting.text {
                case "view": view = try scanner.requireName("the view's name", command: word)
                case "option": option = try routingOption(&scanner)
                case "priority": priority = try scanner.integer("the priority (an integer)", command: word).0
                default:
                    throw usage(word, "unknown setting '\(setting.text)' (view, option, priority, when)", at: setting.range)
                }
            }
            return .add(pattern: Name(text: pattern, range: range), view: view, option: option, priority: priority, condition: condition)
        }
        if scanner.keyword("explain") {
            guard let (url, range) = scanner.word() else { throw scanner.missing("the URL to explain", command: word) }
            return .explain(url: Name(text: url, range: range))
        }
        if scanner.keyword("list") { return .list }
        if scanner.keyword("check") { return .check }
        if scanner.keyword("rm") {
            guard let (pattern, range) = scanner.word() else { throw scanner.missing("the pattern to remove", command: word) }
            var selector: Name?
            if let handler = scanner.name() {
                if handler.0 == "handler" {
                    selector = Name(text: "handler", range: handler.1)
                } else if handler.0 == "view", scanner.symbol("=") {
                    let view = try scanner.requireName("the view's name", command: word)
                    selector = Name(text: "view=\(view.text)", range: handler.1.lowerBound..<view.range.upperBound)
                } else {
                    throw usage(word, "expected view=NAME or handler after the pattern, found '\(handler.0)'", at: handler.1)
                }
            }
            return .remove(pattern: Name(text: pattern, range: range), selector: selector)
        }
        guard let (url, range) = scanner.word() else {
            throw scanner.missing("a URL (such as /start) or add, explain, list, rm, check", command: word)
        }
        guard Router<Void>.isURL(url) else {
            throw usage(word, "expected a URL starting with / or a scheme (myapp://..., tests:/...), or add, explain, list, rm, check, found '\(Printable.escaped(url, limit: 30))'", at: range)
        }
        var extra: [(Name, Expression)] = []
        var option: RoutingOption?
        while !scanner.isAtEnd {
            let name = try scanner.requireName("NAME=EXPR or option=...", command: word)
            guard scanner.symbol("=") else { throw scanner.missing("'=' after \(name.text)", command: word) }
            if name.text == "option" {
                option = try routingOption(&scanner)
            } else {
                extra.append((name, try scanner.expression(command: word)))
            }
        }
        return .navigate(url: Name(text: url, range: range), extra: extra, option: option)
    }

    /// `feature NAME begin`, `feature end`, `feature list`, `feature show NAME`, `feature rm NAME`.
    private static func featureCommand(_ scanner: inout CommandScanner) throws(ShellError) -> RouteCommand {
        let word = "feature"
        // A feature may be named like a subcommand: `feature list begin` begins one.
        var probe = scanner
        if probe.name() != nil, probe.keyword("begin") {
            let name = try scanner.requireName("the feature's name", command: word)
            _ = scanner.keyword("begin")
            return .beginFeature(name)
        }
        if scanner.keyword("end") { return .endFeature }
        if scanner.keyword("list") { return .listFeatures }
        if scanner.keyword("show") { return .showFeature(try scanner.requireName("the feature's name", command: word)) }
        if scanner.keyword("rm") { return .removeFeature(try scanner.requireName("the feature's name", command: word)) }
        if let (name, _) = scanner.name() {
            throw scanner.missing("'begin' after the feature's name (feature \(name) begin)", command: word)
        }
        throw scanner.missing("NAME begin, end, list, show NAME or rm NAME", command: word)
    }

    /// `presenter VIEW [--live] [when EXPR] : EXPR`, `presenter list [VIEW]`, `presenter rm ID`.
    private static func presenterCommand(_ scanner: inout CommandScanner) throws(ShellError) -> RouteCommand {
        let word = "presenter"
        // `list` and `rm` are also names a view may have: `presenter list : ...` defines one.
        var probe = scanner
        if probe.keyword("list") || probe.keyword("rm") {
            let definesView = probe.symbol(":") || probe.keyword("when") || probe.startsFlag
            if !definesView {
                if scanner.keyword("list") { return .listPresenters(view: scanner.name().map { Name(text: $0.0, range: $0.1) }) }
                _ = scanner.keyword("rm")
                return .removePresenter(try scanner.requireName("the presenter's id (p1, p2, ...)", command: word))
            }
        }
        let view = try scanner.requireName("the view", command: word)
        var live = false
        var condition: Expression?
        while !scanner.symbol(":") {
            if !live, scanner.symbol("--live") {
                live = true
            } else if condition == nil, scanner.keyword("when") {
                condition = try scanner.expression(command: word)
            } else {
                throw scanner.missing("':' and the content (or --live, when EXPR before it)", command: word)
            }
        }
        return .presenter(view: view, condition: condition, live: live, try scanner.expression(command: word))
    }

    private static func routingOption(_ scanner: inout CommandScanner) throws(ShellError) -> RoutingOption {
        let name = try scanner.requireName("push, modal, replace, root or back", command: "route")
        guard let option = RoutingOption(rawValue: name.text) else {
            throw usage("route", "unknown option '\(name.text)' (push, modal, replace, root, back)", at: name.range)
        }
        return option
    }
}
