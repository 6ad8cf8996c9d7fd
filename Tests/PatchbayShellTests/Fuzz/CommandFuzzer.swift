import Foundation
@_spi(Shell) @testable import PatchbayShell
import PatchbayTestSupport

/// Random input for the shell over its whole command grammar: every command of `help`, with
/// ordinary, random and boundary arguments (the extreme 64-bit integers, deep nesting, long
/// strings, unicode, control characters), commands cut and spliced at random, and garbage.
///
/// Files are only ever named under `directory`, so that no input writes or runs a file
/// elsewhere; the garbage never starts with a command word that writes files.
struct CommandFuzzer {
    private var random: SplitMix64
    let directory: String

    init(seed: UInt64, directory: String) {
        random = SplitMix64(seed: seed)
        self.directory = directory
    }

    /// Commands that build a session with a bit of everything, so that the random commands
    /// meet existing names, ports, stores with histories, routes and views.
    static let fixture = [
        "var a = 1", "var b = 'text'", "derive d = a + 1", "signal s", "knot k = {n: 0, items: []}",
        "patch p counter", "patch v view x=1 y=2 width=10 height=3 text='hi'", "patch t tap",
        "patchtype twice (x) -> (y) { emit y x * 2 }", "patch tw twice",
        "wire s.out -> p.inc", "wire v.frame -> t.view", "pipe s.out -> k : state.n += 1",
        "store app = {count: 0, items: [], user: {name: 'x'}}",
        "reducer app on Inc : state.count += action.by",
        "reducer app on Push : state.items = append(state.items, action.v)",
        "reducer app on Div : state.count = state.count / action.d",
        "reducer app on Later after 5 : state.count += 1",
        "store cart = {n: 0}", "reducer cart on * : state.n += 1",
        "dispatch app Inc {by: 2}", "dispatch app Push {v: 1}", "dispatch app Div {d: 0}", "dispatch cart Go",
        "jump app 1", "dispatch app Inc {by: 5}", "checkout app main",
        // A dispatch of L runs away (its middleware dispatches L again), after setting a timer
        // each time: the failing command must take its timers back too (issue 28).
        "store loop = {n: 0}", "reducer loop on L after 0 : state.n += 1", "middleware loop on L : dispatch L {}",
        "route add /user/:id view=User option=push", "route add /modal view=Box option=modal priority=2",
        "presenter User : {id: params.id}", "route /user/42", "probe a --future",
    ]

    /// The next input: mostly a command of the grammar, sometimes one cut or spliced, now
    /// and then garbage.
    mutating func next() -> String {
        switch random.int(0...99) {
        case 0..<72: return command()
        case 72..<86: return confined(mutate(command()))
        case 86..<92: return confined(command() + " " + command())
        default: return garbage()
        }
    }

    /// `text`, unless it starts with a command word that writes or runs a file and no longer
    /// names one inside `directory` (a cut path could name one anywhere): then as an expression.
    private func confined(_ text: String) -> String {
        let first = text.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? ""
        guard Self.fileCommands.contains(first), !text.contains(directory + "/") || text.contains("..") else { return text }
        return "= " + text
    }

    static let fileCommands: Set = ["save", "load", "record", "graph", "export", "import", "replay", "inspect"]

    // MARK: Pieces

    static let boundaryIntegers = [
        "0", "1", "-1", "2", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "99999999999999999999999", "4611686018427387904", "2147483648", "-2147483649",
    ]
    static let boundaryNumbers = ["1.5", "-0.0", "1e308", "1e309", "-1e309", "5e-324", "0.1e-400", "1e", ".5", "0x10", "1_000", "NaN"]
    static let names = ["a", "b", "d", "s", "k", "p", "v", "t", "tw", "app", "cart", "nope", "x", "_", "var", "store",
                        "history", "A1", "é", "名字", "a.b", "1a", "", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]
    static let ports = ["a.value", "a.set", "d.value", "s.out", "k.state", "k.update", "p.inc", "p.dec", "p.reset", "p.count",
                        "v.frame", "v.x", "v.text", "t.x", "t.y", "t.view", "tw.x", "tw.y", "app.dispatch", "app.state",
                        "app.action", "cart.dispatch", "router.route", "nope.x", "a.nope", "a.", ".value", "a..value"]
    static let types = ["Inc", "Push", "Div", "Later", "Go", "L", "*", "Unknown", "'quoted'", "Ünï", "type", ""]

    private mutating func integer() -> String {
        random.chance(60) ? random.pick(Self.boundaryIntegers) : String(random.int(-20...20))
    }

    private mutating func number() -> String {
        random.chance(50) ? integer() : random.pick(Self.boundaryNumbers)
    }

    private mutating func name() -> String { random.pick(Self.names) }
    private mutating func port() -> String { random.pick(Self.ports) }
    private mutating func store() -> String { random.pick(["app", "cart", "loop", "a", "nope", "k"]) }
    private mutating func optionalStore() -> String { random.chance(50) ? store() + " " : "" }

    /// A string literal: plain, unicode, escapes, control characters, unterminated, or long.
    private mutating func string() -> String {
        switch random.int(0...9) {
        case 0: return "\"\""
        case 1: return "'é ∑ 😀 \u{202E}rtl'"
        case 2: return "\"\\n\\t\\u0000\\u{1F600}\\(a + 1)\""
        case 3: return "\"unterminated"
        case 4: return "\"" + String(repeating: "x", count: random.int(1_000...70_000)) + "\""
        case 5: return "\"\u{0}\u{7}\u{1B}[31m\u{7F}\""
        case 6: return "'\\(d) and \\(nope)'"
        case 7: return "\"\\u{110000}\\uD800\\q\""
        default: return "'\(random.pick(["milk", "Max", "a b", "/x/y", "{}", "\"", "\\"]))'"
        }
    }

    /// Nesting `depth` levels deep: arrays, objects, parentheses, unary operators.
    private mutating func deep() -> String {
        let depth = random.pick([50, 500, 5_000, 10_000, 20_000])
        switch random.int(0...4) {
        case 0: return String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        case 1: return String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)
        case 2: return String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        case 3: return String(repeating: "-", count: depth) + "1"
        default: return String(repeating: "!", count: depth) + "true"
        }
    }

    /// An expression of `depth` levels at most.
    private mutating func expression(_ depth: Int = 3) -> String {
        if depth <= 0 || random.chance(30) {
            switch random.int(0...9) {
            case 0, 1: return number()
            case 2: return string()
            case 3: return random.pick(["true", "false", "null", "$", "state", "action", "params", "url"])
            case 4: return random.pick(["a", "d", "k", "app", "p", "nope", "app.state", "state.count", "state.items", "action.by"])
            case 5: return "[" + (0..<random.int(0...3)).map { _ in expression(depth - 1) }.joined(separator: ", ") + "]"
            case 6:
                // Keys that differ only in Unicode normalisation are two keys (issue 28).
                if random.chance(30) { return "{\"\u{E9}\": \(expression(depth - 1)), \"e\u{301}\": \(expression(depth - 1))}" }
                return "{x: \(expression(depth - 1)), 'y z': \(expression(depth - 1)),}"
            case 7: return random.chance(10) ? deep() : "[]"
            default: return integer()
            }
        }
        switch random.int(0...5) {
        case 0:
            let operators = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "??"]
            return "\(expression(depth - 1)) \(random.pick(operators)) \(expression(depth - 1))"
        case 1: return "\(random.pick(["-", "!"]))\(expression(depth - 1))"
        case 2: return "\(expression(depth - 1)) ? \(expression(depth - 1)) : \(expression(depth - 1))"
        case 3:
            let functions = ["len", "keys", "values", "append", "range", "sum", "min", "max", "abs", "round", "int", "num", "str",
                             "upper", "split", "join", "replace", "sort", "reverse", "get", "has", "type", "insert", "removeAt", "nope"]
            return "\(random.pick(functions))(\((0..<random.int(0...3)).map { _ in expression(depth - 1) }.joined(separator: ", ")))"
        case 4: return "\(random.pick(["map", "filter", "find", "sortBy"]))(\(expression(depth - 1)), x => \(expression(depth - 1)))"
        default: return "\(expression(depth - 1))\(random.pick([".count", "?.name", "[0]", "[\(integer())]", "[-1]", ".x.y"]))"
        }
    }

    private mutating func statements() -> String {
        (0..<random.int(1...3)).map { _ in
            switch random.int(0...4) {
            case 0: "state.\(random.pick(["count", "items", "n", "x.y", "items[0]", "items[99]"])) = \(expression(2))"
            case 1: "state.\(random.pick(["count", "n"])) += \(expression(2))"
            case 2: "delete state.\(random.pick(["count", "items", "nope"]))"
            case 3: "if \(expression(2)) { state.n = 1 } else { state.n = 2 }"
            default: "emit \(random.pick(["y", "out", "nope"])) \(expression(1))"
            }
        }.joined(separator: random.pick(["; ", "\n"]))
    }

    /// A middleware's statements: changes to the action, drop, dispatch, and a reducer's
    /// statements (which a middleware refuses).
    private mutating func middlewareStatements() -> String {
        (0..<random.int(1...3)).map { _ in
            switch random.int(0...5) {
            case 0: "action.\(random.pick(["by", "type", "x.y", "by[0]"])) = \(expression(2))"
            case 1: "drop"
            case 2: "dispatch \(random.pick(["Inc", "Other", "\"a/b\"", "1"])) \(random.chance(50) ? "{by: \(expression(1))}" : "")"
            case 3: "if \(expression(2)) { drop } else { action = \(expression(1)) }"
            case 4: "delete action.\(random.pick(["by", "type", "nope"]))"
            default: statements()
            }
        }.joined(separator: random.pick(["; ", "\n"]))
    }

    private mutating func file() -> String {
        // `fifo` is a named pipe (CommandFuzzTests makes it): every command must refuse it, never wait on it.
        let names = ["s.jsonl", "s.pb", "dev.json", "missing.jsonl", "dir/none.jsonl", "é ∑.jsonl", ".", "", "graph.dot", "x\"y", "fifo"]
        return directory + "/" + random.pick(names)
    }

    private mutating func url() -> String {
        random.pick(["/user/42", "/user/%E2%82%AC", "/modal", "/", "tests://x/y?a=1&a=2", "myapp://user/view/42#frag",
                     "/user/" + String(repeating: "a", count: 5_000), "/%", "/user/42?id=" + integer(), "no-scheme", "::"])
    }

    // MARK: Commands

    /// A command of `help`, with random arguments.
    private mutating func command() -> String {
        switch random.int(0...75) {
        case 0: return "= \(expression())"
        case 1: return "help \(random.pick(["", "store", "patch counter", "functions", "values", "nope", "help help"]))"
        case 2: return "load \(file())"
        case 3: return "save \(file())"
        case 4: return random.chance(5) ? "reset" : "= 1"
        case 5: return "var \(name()) = \(expression())"
        case 6: return "derive \(name()) = \(expression())"
        case 7: return "signal \(name())"
        case 8: return "send \(name()) \(expression())"
        case 9: return "close \(name())"
        case 10: return "set \(random.chance(50) ? name() : port()) = \(expression())"
        case 11: return "touch \(random.chance(50) ? name() : port())"
        case 12:
            let type = random.pick(["counter", "expr", "map", "filter", "merge", "combine", "accumulate", "distinct", "sample", "gate",
                                    "delay", "timer", "log", "view", "tap", "twice", "nope"])
            let param = random.pick(["expr", "fn", "when", "ms", "initial", "x", "text", "nope"])
            return "patch \(name()) \(type) \(param)=\(expression(2))"
        case 13: return "patch types"
        case 14: return "patchtype \(name()) (\(random.pick(["x", "x, y", "", "x, x"]))) -> (\(random.pick(["y", "out", ""]))) { \(statements()) }"
        case 15: return "knot \(name()) = \(expression())"
        case 16:
            let arrow = random.pick(["->", "~>", "=>", "-"])
            var text = "wire \(port()) \(arrow) \(port())"
            if random.chance(40) { text += " when \(expression(2))" }
            if random.chance(40) { text += " : \(expression(2))" }
            return text
        case 17: return "unwire \(port())"
        case 18: return "bind \(name()) \(name())"
        case 19: return "pipe \(port()) -> \(name())\(random.chance(30) ? " when \(expression(1))" : "") : \(statements())"
        case 20: return "probe \(random.chance(50) ? name() : port())\(random.chance(30) ? " --future" : "")"
        case 21: return "unprobe \(random.pick(["all", "a", "a.value", "nope"]))"
        case 22: return random.pick(["begin", "commit", "abort"])
        case 23: return "tick\(random.chance(70) ? " " + integer() : "")"
        case 24: return "clock"
        case 25: return "tap \(name()) \(integer()) \(integer())"
        case 26: return random.pick(["nodes", "render", "graph", "graph --dot"])
        case 27: return "show \(random.chance(50) ? name() : port())"
        case 28: return random.chance(10) ? "rm \(name())" : "show a"
        case 29: return "graph --dot \(file())"
        case 30: return "why \(random.chance(50) ? name() : port())"
        case 31: return "store \(name()) = \(expression())"
        case 32:
            var text = "reducer \(store()) on \(random.pick(Self.types))"
            if random.chance(30) { text += " at \(random.pick(["items", "user", "user.name", "items[0]", "nope.deep", "items[99]"]))" }
            if random.chance(30) { text += " when \(expression(2))" }
            if random.chance(30) { text += " after \(integer())" }
            return text + " : " + statements()
        case 33: return "reducer list\(random.chance(50) ? " " + store() : "")"
        case 34: return "reducer rm \(random.pick(["r1", "r2", "r99", "r-1", "r9223372036854775807", "x"]))"
        case 35: return "dispatch \(optionalStore())\(random.pick(Self.types))\(random.chance(70) ? " " + expression(2) : "")"
        case 36: return "state \(random.pick(["", "app", "app.count", "app.items[0]", ".user.name", "cart", "nope", "app.items[9223372036854775807]"]))"
        case 37:
            let pattern = random.pick(["/user/:id", "/a/*", "/x(/:y)", "/:a/:a", "*", "/(", "tests://h/:p", "/" + String(repeating: ":a/", count: 300)])
            var text = "route add \(pattern)"
            if random.chance(50) { text += " view=\(name())" }
            if random.chance(50) { text += " option=\(random.pick(["push", "modal", "replace", "root", "back", "nope"]))" }
            if random.chance(30) { text += " priority=\(integer())" }
            if random.chance(20) { text += " when \(expression(1))" }
            return text
        case 38: return "route \(url())\(random.chance(30) ? " id=\(expression(1))" : "")"
        case 39: return "route explain \(url())"
        case 40: return random.pick(["route list", "route check", "route rm /user/:id", "route rm /nope"])
        case 41: return "presenter \(name()) : \(expression(2))"
        case 42: return random.pick(["stack", "back", "dismiss"])
        case 43:
            var text = "history"
            if random.chance(50) { text += " " + store() }
            if random.chance(30) { text += " --last \(integer())" }
            if random.chance(20) { text += " --type \(random.pick(Self.types))" }
            if random.chance(20) { text += " --path \(random.pick(["count", "items[0]", "user.name", "a..b", "[", "items[-1]"]))" }
            return text
        case 44: return "history \(random.pick(["commit", "revert", "sweep", "router"]))\(random.chance(40) ? " " + store() : "")"
        case 45: return "jump \(optionalStore())\(random.pick([integer(), "+" + integer(), "-" + integer(), "end", "start"]))"
        case 46: return "diff \(optionalStore())\(random.chance(70) ? integer() : "")\(random.chance(50) ? " " + integer() : "")"
        case 47: return "skip \(optionalStore())\(integer())"
        case 48: return "unskip \(optionalStore())\(integer())"
        case 49: return "blame \(optionalStore())\(random.pick(["count", "items[0]", "user.name", "nope", "items[9223372036854775807]"]))"
        case 50: return "find \(optionalStore())\(expression(2))"
        case 51: return "branch \(random.chance(50) ? store() : "")"
        case 52: return "checkout \(optionalStore())\(random.pick(["main", "b1", "b2", "nope", "", "é"]))"
        case 53: return random.chance(30) ? "record \(file())" : random.pick(["record stop", "record"])
        case 54:
            let options = random.pick(["", " --verify", " --step", " --until \(integer())", " --verify --step", " --nope"])
            return "replay \(file())\(options)"
        case 55: return "inspect \(file())"
        case 56: return "break \(optionalStore())when \(expression(2))"
        case 57: return random.pick(["step", "continue"])
        case 58: return "export devtools \(store()) \(file())"
        case 59: return "import devtools \(file())\(random.chance(50) ? " " + store() : "")"
        case 60: return random.chance(5) ? random.pick(["quit", "exit"]) : "= 2"
        case 61: return "dispatch app Inc {by: \(integer())}"
        case 62: return "= \(number()) \(random.pick(["+", "*", "-", "/", "%"])) \(number())"
        case 63: return "middleware \(store()) \(random.chance(50) ? "on Inc " : ""): \(middlewareStatements())"
        case 64: return "middleware \(random.pick(["list", "list app", "rm m1", "rm m9", "rm", ""]))"
        case 65..<75: return catalogExample()
        default: return "\(random.pick(["= ", "state ", "dispatch app Inc ", "var a = "]))\(deep())"
        }
    }

    /// The commands the catalog's examples are not drawn from: they end the session or open an
    /// editor.
    static let notTried: Set = ["quit", "exit", "edit"]

    /// The catalog's commands with their examples (those `help` shows), minus `notTried`.
    private static let catalogCommands = CommandCatalog.commands.filter { !notTried.contains($0.name) && !$0.examples.isEmpty }

    /// An example of a command of the catalog, now and then with a word swapped for a random
    /// piece: every command `help` lists is tried, however far the grammar above lags behind.
    private mutating func catalogExample() -> String {
        let info = random.pick(Self.catalogCommands)
        var words = random.pick(info.examples).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.count > 1, random.chance(50) {
            words[random.int(1...(words.count - 1))] = random.pick([expression(), name(), integer(), store(), port(), string()])
        }
        return confined(words.joined(separator: " "))
    }

    /// `text` cut, spliced or sprinkled with odd characters.
    private mutating func mutate(_ text: String) -> String {
        var characters = Array(text)
        guard !characters.isEmpty else { return garbage() }
        let oddities: [Character] = ["\"", "'", "{", "}", "[", "]", "(", ")", "\\", "#", ";", ":", "\n", "\t", "\u{0}", "é", "😀", "$", "."]
        for _ in 0..<random.int(1...3) {
            let index = random.int(0...(characters.count - 1))
            switch random.int(0...3) {
            case 0: characters.insert(random.pick(oddities), at: index)
            case 1: characters.remove(at: index)
            case 2: characters.removeSubrange(index...)
            default: characters[index] = random.pick(oddities)
            }
            if characters.isEmpty { return garbage() }
        }
        return String(characters)
    }

    /// Random characters: bytes made text, unicode, control characters. Never a command word
    /// that writes or runs a file at the start (`save x` would write into the working directory).
    private mutating func garbage() -> String {
        let count = random.pick([1, 5, 40, 300, 5_000])
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            let value: UInt32 = switch random.int(0...5) {
            case 0: UInt32(random.int(0...31))
            case 1, 2: UInt32(random.int(32...126))
            case 3: UInt32(random.int(0x80...0x7FF))
            case 4: UInt32(random.pick([0xFEFF, 0x202E, 0x200B, 0xFFFD, 0x1F600, 0x10FFFF, 0x0301]))
            default: UInt32(random.int(0x4E00...0x9FFF))
            }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        let text = String(scalars)
        let first = text.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? ""
        return Self.fileCommands.contains(first) ? "= " + text : text
    }
}
