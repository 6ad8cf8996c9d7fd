import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// `save FILE`: the current definitions as a script that `load` rebuilds them from in a
// fresh shell. `DataflowSession` is in DataflowShellTests.swift, its `failure` in
// StoreShellTests.swift, `TemporaryDirectory` in ShellTestSupport.swift.

extension DataflowSession {
    /// Runs each command whole (a command may span lines) and returns everything printed.
    @discardableResult
    func runEach(_ commands: [String]) -> [String] {
        commands.flatMap { shell.execute($0).lines.map(\.text) }
    }

    /// Saves into `directory` and returns the file's path and contents.
    func save(in directory: TemporaryDirectory, as name: String = "saved.pb",
              sourceLocation: SourceLocation = #_sourceLocation) throws -> (path: String, text: String) {
        let path = directory.path + "/" + name
        let outcome = shell.execute("save \(path)")
        #expect(outcome.status == .success, "\(outcome.lines.map(\.text))", sourceLocation: sourceLocation)
        return (path, try String(contentsOfFile: path, encoding: .utf8))
    }

    /// A fresh session that has loaded `path`, checked to have loaded without an error.
    static func loading(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> DataflowSession {
        let session = DataflowSession()
        let outcome = session.shell.execute("load \(path)")
        #expect(outcome.status == .success, sourceLocation: sourceLocation)
        #expect(!outcome.lines.contains { $0.stream == .error }, "\(outcome.lines.map(\.text))", sourceLocation: sourceLocation)
        return session
    }
}

/// Lines with the counters a fresh shell starts again blanked: action indexes of dispatches
/// (`#3 Inc ...`), as a store's history is not saved, and transaction numbers (`(txn 7)`).
private func withoutCounters(_ lines: [String]) -> [String] {
    lines.map { line in
        var line = line
        let digits = line.dropFirst().prefix { $0.isASCII && $0.isNumber }
        if line.hasPrefix("#"), !digits.isEmpty, line.dropFirst(1 + digits.count).hasPrefix(" ") {
            line = "#_" + line.dropFirst(1 + digits.count)
        }
        if let range = line.range(of: "(txn "), line.hasSuffix(")") {
            line = line[..<range.upperBound] + "_)"
        }
        return line
    }
}

/// A session with every kind of definition, one command per entry (some span lines).
private let everyKind = [
    "patchtype pair (left, right) -> (both) {\n  emit both [left, right]\n}",
    "var a = 1",
    "var t = 0",
    "wire a.value -> t.set when $ > 0 : $ * 100",
    "derive d = a + 1",
    #"var s = "say \"hi\"\n\ttab \\ back 😀 ü \\(not interpolated)""#,
    #"var obj = {"a b": 1, "ключ": "значение", true: 2, list: [1, 2.5, -3, null, false, 1e-05]}"#,
    "signal clicks",
    "close clicks",
    "signal taps",
    "knot k = {n: 0}",
    "pipe taps.out -> k when $ != \"\" : {\n  state.n += 1\n  state.last = $\n}",
    "patch p pair right=5",
    "wire d.value -> p.left",
    #"patch e expr expr="x + y" x=1"#,
    "set e.y = 2",
    #"patch v view x=1 y=2 text="hi""#,
    "patch m map fn=\"$ * 2\"",
    "wire e.out ~> m.in",
    #"store app = {count: 0, user: {name: "unknown"}}"#,
    "reducer app on Inc at count when action.by > 0 : state += action.by",
    "reducer app on Name at user : state.name = action.name",
    "reducer app on * after 50 : state.seen = true",
    "store nav = {last: null}",
    "reducer nav on Route : state.last = action.url",
    #"wire router.route -> nav.dispatch when $.pattern != "/home" : {type: "Route", url: $.url}"#,
    "route add /user/:name view=User",
    "route add /home view=Home option=root priority=3",
    #"route add "/a b/:x" view=Spacey option=modal"#,
    #"route add /admin when params.key == "secret""#,
    #"presenter User : {title: "User \(params.name)"}"#,
    "presenter User : {subtitle: url}",
    "var left = 1",
    "var right = 2",
    "bind left right",
    "var total = 0",
    "wire a.value -> app.dispatch : {type: \"Inc\", by: $}",
    "probe d",
    "probe k.state",
    // What happens after the definitions: values change, actions are handled.
    #"send taps "tap!""#,
    "route /user/Max",
    "dispatch app Inc {by: 2}",
    "set a = 4",
    "set left = 7",
]

/// What both sessions are asked, one after the other; the routing and dispatching at the end
/// must act the same in both.
private let inspections = [
    "nodes", "graph", "reducer list", "route list", "state app", "state nav", "show a.value", "show k", "show e",
    "show m.in", "= s", "= obj", "= [left, right, total, t]", "route check",
    "tick 1", "show m.in", "= m", "dispatch app Name {name: \"Moritz\"}", "dispatch app Inc {by: 4}", "state app",
    "send taps \"again\"", "= k", "set a = 10", "graph",
    // The stack is not saved: `option=root` starts it afresh in both.
    "route /home", "stack", "route /user/Moritz", "route /admin?key=secret", "stack", "state nav",
]

@Suite("save: the definitions as a script")
struct SaveShellTests {
    @Test func aSavedSessionLoadsIntoTheSameDefinitionsAndStates() throws {
        let directory = TemporaryDirectory()
        let original = DataflowSession()
        for command in everyKind {
            #expect(original.shell.execute(command).status == .success, "\(command)")
        }
        let (path, text) = try original.save(in: directory)
        let loaded = DataflowSession.loading(path)
        for command in inspections {
            #expect(withoutCounters(loaded.run(command)) == withoutCounters(original.run(command)), "\(command)")
        }
        // The script says what it could not rebuild.
        #expect(text.contains("# app had handled 3 actions: its history is not saved, its state is"))
        #expect(text.contains("# the navigation stack (User) is not saved: route to its views again to rebuild it"))
    }

    @Test func savingWhatWasLoadedGivesTheSameCommands() throws {
        let directory = TemporaryDirectory()
        let original = DataflowSession()
        original.runEach(everyKind)
        let (path, first) = try original.save(in: directory)
        let (_, second) = try DataflowSession.loading(path).save(in: directory, as: "again.pb")
        let commands = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("#") } }
        #expect(commands(first).count > everyKind.count / 2)
        #expect(commands(second) == commands(first))
    }

    @Test func aSaveInsideATransactionLeavesOutItsWrites() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.run("var a = 1\nbegin\nset a = 2")
        let (_, text) = try session.save(in: directory)
        #expect(session.run("commit\n= a") == ["2"])
        #expect(text.hasSuffix("""
            # saved inside an open transaction (begin): its writes, not yet committed, are not included
            var a = 1

            """))
    }

    @Test func theScriptOfASmallSessionIsExact() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.runEach([
            "var a = 1",
            "derive b = a + 1",
            "store app = {count: 0}",
            "reducer app on Inc : state.count += action.by",
            #"wire b.value -> app.dispatch : {type: "Inc", by: $}"#,
            "route add /item/:id view=Item priority=1",
            "probe b",
        ])
        #expect(try session.value("state app").isIdentical(to: ["count": 2]))
        let (path, text) = try session.save(in: directory)
        #expect(text == """
            # patchbay definitions saved with 'save'; load this file in a fresh shell to rebuild them
            var a = 1
            derive b = a + 1
            store app = {count: 2}
            # app had handled 1 action: its history is not saved, its state is
            wire b.value -> app.dispatch : {type: "Inc", by: $}
            route add /item/:id view=Item priority=1
            # reducers come last: actions that wires deliver while this runs leave the stores' states as saved
            reducer app on Inc : state.count += action.by
            probe b

            """)
        // The wire delivers b's value again while the script runs; without reducers yet, the
        // store keeps the state it was saved with rather than counting the action twice.
        let loaded = DataflowSession.loading(path)
        #expect(try loaded.value("state app").isIdentical(to: ["count": 2]))
        #expect(loaded.run("set a = 2") == ["b.value = 3  (txn 3)", "#2 Inc  count: 2 → 5"])
    }

    @Test func saveSaysHowManyDefinitionsItWrote() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        let path = directory.path + "/one.pb"
        try session.expectSaved("save \(path)", 0, to: path)
        session.run("var a = 1")
        try session.expectSaved("save \(path) --force", 1, to: path)
        session.run("signal s\nclose s")
        try session.expectSaved("save \(path) --force", 3, to: path)
        let json = DataflowSession(json: true)
        json.run("var a = 1")
        #expect(json.run("save \(path) --force") == [#"{"ok":true,"command":"save \#(path) --force","result":{"file":"\#(path)","lines":1}}"#])
    }

    @Test func stringsWithQuotesEscapesAndUnicodeRoundTrip() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        let literal = #""quote \" backslash \\ newline \n tab \t nul-ish \u0001 del \u007f 日本語 🎉 \\(x)""#
        session.runEach([
            "var s = \(literal)",
            #"store app = {"key with space": "vålue", "😀": ["a\"b", 'single \'quoted\''], "": ""}"#,
            #"reducer app on Greet : state.greeting = "héllo \"\(action.name)\" ✓""#,
            #"route add "/path with space/:name" view=Spacey"#,
        ])
        let (path, text) = try session.save(in: directory)
        #expect(text.contains(#"var s = "quote \" backslash \\ newline \n tab \t nul-ish \u0001 del \u007f 日本語 🎉 \\(x)""#))
        #expect(text.contains(#"route add "/path with space/:name" view=Spacey"#))
        let loaded = DataflowSession.loading(path)
        #expect(loaded.run("= s == \(literal)") == ["true"])
        for command in ["= s", "state app", "route list", "reducer list", #"dispatch app Greet {name: "Zoë"}"#, "state app"] {
            #expect(loaded.run(command) == session.run(command), "\(command)")
        }
        #expect(loaded.run("route /path%20with%20space/x") == session.run("route /path%20with%20space/x"))
    }

    @Test func variablesAndKnotsEndWithTheirSavedValuesWhateverTheWiresDelivered() throws {
        // b was set after the wire from a delivered, and each change of b ran the pipe into k.
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.runEach([
            "var a = 1", "var b = 0", "knot k = {n: 0}", "pipe b.value -> k : state.n += $", "wire a.value -> b.set",
            "set b = 5",
        ])
        #expect(try session.value("= [a, b, k]").isIdentical(to: [1, 5, ["n": 6]]))
        let (path, _) = try session.save(in: directory)
        let loaded = DataflowSession.loading(path)
        #expect(try loaded.value("= [a, b, k]").isIdentical(to: [1, 5, ["n": 6]]))
        #expect(loaded.run("set a = 2\n= [a, b, k]") == session.run("set a = 2\n= [a, b, k]"))
    }

    @Test func portsServeTheirReceiversInTheSameOrderAfterLoading() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.runEach([
            "var a = 1", "var first = 0", "wire a.value -> first.set", "derive d = a + 1",
            "knot k = {n: 0}", "pipe a.value -> k : state.n = $", "var last = 0", "wire a.value -> last.set",
            "var x = 0", "wire d.value ~> x.set", "var y = 0", "wire a.value ~> y.set",
        ])
        #expect(session.run("show a.value").last
            == "  subscribers: wire a.value -> first.set; derive d; pipe -> k; wire a.value -> last.set; wire a.value ~> y.set")
        let (path, _) = try session.save(in: directory)
        let loaded = DataflowSession.loading(path)
        for command in ["nodes", "show a.value", "show d.value", "graph", "tick", "nodes"] {
            #expect(loaded.run(command) == session.run(command), "\(command)")
        }
    }

    @Test func whatCannotBeRebuiltIsSaidInComments() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.runEach([
            "var x = 1", "derive dx = x + 1", "derive ddx = dx * 2", "var y = 0", "wire dx.value -> y.set", "rm x",
            "var deep = reduce(range(200), 0, (acc, i) => [acc])",
            "patch c counter", "signal s", "wire s.out -> c.inc", "patch later delay ms=1000", "wire s.out -> later.in",
            #"patch inc map fn="$ + 1""#, "wire s.out -> inc.in", "send s 1", "send s 1", "derive twiceInc = inc * 2",
            "patch ticker timer ms=100",
            "store app = {n: 0}", "reducer app on A : state.n += 1", "reducer app on B : state.n -= 1",
            "reducer rm r1", "reducer app on C : state.n = 0",
            "route add /start view=Start", "route /start", "tick 250",
        ])
        let (path, text) = try session.save(in: directory)
        let lines = text.split(separator: "\n").map(String.init)
        for note in [
            "# the virtual clock was at 250 ms; it starts at 0 ms again when this is loaded",
            "# 2 pending timers are not saved (delay patches, after reducers): what was still due is lost",
            "# not rebuilt: derive dx = x + 1 (it reads x, which was removed; it held 2)",
            "# not rebuilt: derive ddx = dx * 2 (it reads dx, which is not rebuilt; it held 4)",
            "# deep is written as null: it nests deeper than a literal may (128 levels)",
            "var deep = null",
            "# c: a patch's outputs and internal state are not saved; they follow what arrives from here on (it held count = 2)",
            "# ticker: a patch's outputs and internal state are not saved; they follow what arrives from here on (it held tick = 2)",
            "# not rebuilt: wire dx.value -> y.set (dx is not rebuilt)",
            "# not rebuilt: derive twiceInc = inc * 2 (it reads inc, a patch whose outputs are not saved and stay empty "
                + "until a value arrives; it held 4)",
            "# the navigation stack (Start) is not saved: route to its views again to rebuild it",
        ] {
            #expect(lines.contains(note), "\(note)")
        }
        // A store that has handled no action has no history to lose.
        #expect(!text.contains("app had handled"))
        // The rest loads, and the reducers keep their order and their ids (C took the free r1).
        #expect(lines.contains("reducer r2 = app on B : state.n -= 1") && lines.contains("reducer r1 = app on C : state.n = 0"))
        let loaded = DataflowSession.loading(path)
        #expect(loaded.run("reducer list") == ["r2: app on B : state.n -= 1", "r1: app on C : state.n = 0"])
        #expect(loaded.run("nodes").map { $0.split(separator: " ").first.map(String.init) ?? "" }
            == ["y", "deep", "c", "s", "later", "inc", "ticker", "app", "router"])
    }

    @Test func anExistingFileIsReplacedWholeAndKeepsItsPermissions() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("keep.pb", "old contents that are much longer than what the new file will hold\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let session = DataflowSession()
        session.run("var a = 1")
        // Without --force, nothing is replaced.
        #expect(session.failure("save \(path)").hasPrefix(
            "error: cannot write '\(path)': the file exists; add --force to replace it, or choose another name"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old contents that are much longer than what the new file will hold\n")
        session.run("save \(path) --force")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("\nvar a = 1\n"))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["keep.pb"])
    }

    @Test func aValueLongerThanALineIsSpreadOverLines() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        // More than the 1 MiB a line may hold, with escapes to keep whole.
        session.run(#"var big = join(map(range(120000), i => "abc\"efgh\n"), "")"#)
        session.run(#"store app = {items: map(range(3), i => big), name: "x"}"#)
        let (path, text) = try session.save(in: directory)
        #expect(text.split(separator: "\n").allSatisfy { $0.utf8.count < 1 << 20 })
        let loaded = DataflowSession.loading(path)
        #expect(try loaded.value("= len(big)").isIdentical(to: 1080000))
        #expect(try loaded.value(#"= big == join(map(range(120000), i => "abc\"efgh\n"), "")"#).isIdentical(to: true))
        #expect(try loaded.value("= app == {items: [big, big, big], name: \"x\"}").isIdentical(to: true))
    }

    @Test func anUnwritablePathIsAnErrorUnderTheFileName() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.run("var a = 1")
        try session.expectError("save /nonexistent-dir/x.pb", "cannot write '/nonexistent-dir/x.pb': the directory does not exist", at: 5..<26)
        #expect(session.failure("save  \(directory.path)").hasPrefix(
            "error: cannot write '\(directory.path)': it is a directory\n  save  \(directory.path)\n        ^~~"))
        let file = directory.write("plain", "")
        #expect(session.failure("save \(file)/x.pb").hasPrefix(
            "error: cannot write '\(file)/x.pb': a part of the path is not a directory"))
        try session.expectError("save", "missing the file to save to; usage: save FILE [--force] (see 'help save')", at: 4..<4)
        #expect(session.failure(#"save """#) == "error: the file name is empty; usage: save FILE [--force] (see 'help save')\n  save \"\"\n       ^~")
        #expect(session.failure("save a b").hasPrefix("error: unexpected 'b' (options: --force); usage: save FILE [--force] (see 'help save')"))
        // Nothing was left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["plain"])
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-dir/x.pb.tmp"))
    }

    @Test func aFileBesideTheTargetNamedLikeATemporaryIsNotTouched() throws {
        let directory = TemporaryDirectory()
        let bystander = directory.write("x.pb.tmp", "mine\n")
        let session = DataflowSession()
        session.run("var a = 1")
        try session.expectSaved("save \(directory.path)/x.pb", 1, to: "\(directory.path)/x.pb")
        #expect(try String(contentsOfFile: bystander, encoding: .utf8) == "mine\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["x.pb", "x.pb.tmp"])
    }

    @Test func saveCompletesFileNamesAndHasHelp() {
        let directory = TemporaryDirectory()
        _ = directory.write("demo.pb", "")
        _ = directory.write("data.json", "")
        let shell = Shell.scratch(fileNames: FileNameLister(baseDirectory: directory.path))
        #expect(shell.complete("save d", cursor: 6).candidates == ["data.json", "demo.pb"])
        #expect(shell.complete("sa", cursor: 2).candidates == ["save"])
        let help = shell.execute("help save").lines.map(\.text)
        #expect(help.first == "save FILE [--force]")
        #expect(help.contains("Example:"))
        #expect(shell.execute("help").lines.map(\.text).contains { $0.hasPrefix("  save FILE ") })
    }

    @Test func saveIsACommandWordSoItCannotBeAName() {
        let session = DataflowSession()
        #expect(session.error("var save = 1") == "error: 'save' is a command word and cannot be a name")
    }
}

extension DataflowSession {
    /// Runs a `save`, which must write `definitions` definitions to `path`.
    fileprivate func expectSaved(_ command: String, _ definitions: Int, to path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let saved = try report(command, as: DefinitionsSaved.self, sourceLocation: sourceLocation)
        #expect(saved.path == path && saved.definitions == definitions, sourceLocation: sourceLocation)
    }
}
