import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import Testing

// Hosted stores seen from elsewhere: a recording made in a host replayed in a shell that does
// not host its stores, a plain recording replayed in a host, what the shell says of a hosted
// store, and the names hosted stores and `dispatch` take.

@Suite("Hosted stores: recordings replayed in another shell")
struct HostedRecordingsElsewhereTests {
    /// A recording made in a host: its store line says the store was hosted, and a shell that
    /// does not host it refuses the replay up front, with or without --verify, and keeps its
    /// session. Before, the replay ran the actions through a store of the shell's own and
    /// reported a false divergence of state.
    @Test func aHostsRecordingIsRefusedUpFrontWhereItsStoreIsNotHosted() throws {
        let directory = TemporaryDirectory()
        let path = try HostedStoreRecordingTests.record("dispatch tally add {amount: 2}\ndispatch tally double", in: directory)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""kind":"store","store":"tally","state":{"total":0,"log":[]},"hosted":true}"#))

        for flags in [" --verify", ""] {
            let plain = DataflowSession()
            plain.run("var kept = 7")
            let lines = plain.run("replay \(path) --force\(flags)")
            #expect(lines.count == 1, "\(lines)")
            let error = try #require(lines.first)
            #expect(error.hasPrefix("error: \(path): line 3: tally is an app's store that this shell does not host: "
                + "replay the recording in the app's own inspector (see README, 'Debug your own stores'), or open it with 'inspect'"))
            #expect(try plain.value("= kept").isIdentical(to: 7))
        }
        // In the host, the same file verifies; `inspect` opens it anywhere.
        #expect(try HostedFixtures.session().run("replay \(path) --verify").last?.hasPrefix("verified 2 steps") == true)
        #expect(DataflowSession().run("inspect \(path)") == ["inspected \(path): tally (2 actions)"])
    }

    /// Every message that sends the reader to a section of the README names one that exists.
    @Test func everyReadmeSectionAMessageNamesExists() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let headings = Set(readme.split(separator: "\n").filter { $0.hasPrefix("#") }.map { $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) })
        var named: [String] = []
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let source = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in source.matches(of: /README, '([^']+)'/) { named.append(String(match.output.1)) }
        }
        #expect(!named.isEmpty)
        for section in named { #expect(headings.contains(section), "no README section '\(section)'") }
    }

    /// A plain recording of a shell store replayed in a host whose hosted store has its name:
    /// the recorded reducer fails there (the store is hosted) and the app's reducer runs in its
    /// place. Before, --verify said every effect matched, because setup lines ran without a
    /// look at their outcome; a plain replay said `replayed 2 steps` with status success.
    @Test func aRecordedDefinitionThatFailsInTheReplayIsADivergence() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/plain.jsonl"
        let plain = DataflowSession()
        plain.run("store tally = {total: 0, log: []}\nreducer tally on add : state.total = state.total + action.amount")
        plain.run("record \(path)\ndispatch tally add {amount: 2}\ndispatch tally add {amount: 3}\nrecord stop")

        let verified = try HostedFixtures.session().outcome("replay \(path) --verify")
        #expect(verified.status == .failure)
        let text = verified.lines.map(\.text).joined(separator: "\n")
        #expect(text.contains("replay diverged at step 1 (line 5: reducer tally on add : state.total = state.total + action...): "
            + "it failed where the recording has it succeed: tally is hosted: its reducer is the app's Swift code"), "\(text)")

        let replayed = try HostedFixtures.session().outcome("replay \(path)")
        #expect(replayed.status == .failure)
        let last = try #require(replayed.lines.last?.text)
        #expect(last.hasPrefix("error: \(path): replayed 2 steps, but 1 command failed that succeeded in the recording (the first on line 5); "
            + "'replay \(path) --verify' stops at the first difference"), "\(last)")
        // The replay ran on, as its commands do.
        #expect(replayed.lines.contains { $0.text == "#2 add  total: 2 → 5" })
    }

    /// A command that failed in the recording too fails again: the replay succeeds and says so.
    @Test func aFailureTheRecordingHasIsCountedButIsNoDivergence() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/failing.jsonl"
        let plain = DataflowSession()
        plain.run("record \(path)\nstore app = {n: 0}\ndispatch nope Inc\n= missing\nrecord stop")
        let session = DataflowSession()
        let outcome = session.outcome("replay \(path)")
        #expect(outcome.status == .success)
        #expect(outcome.lines.last?.text == "replayed 3 steps of \(path); 2 commands failed, as in the recording")
        #expect(DataflowSession().run("replay \(path) --verify").last == "verified 3 steps of \(path): every effect matches the recording")
    }
}

@Suite("Hosted stores: what the shell says of them, and their names")
struct HostedStoreNamesTests {
    static func withMiddleware(_ count: Int) -> HostedStore {
        HostedFixtures.tally(middleware: Array(repeating: Middleware<Tally, TallyAction> { action, _ in action }, count: count))
    }

    /// Before, `reducer list tally` and `middleware list tally` said `no reducers yet` and
    /// `no middleware yet`, and `show tally` did not say the store is hosted.
    @Test func listsAndShowSayAStoreIsHosted() throws {
        let session = try HostedFixtures.session([Self.withMiddleware(2), HostedFixtures.wallet()])
        #expect(session.run("reducer list tally") == ["tally is hosted: its reducer is the app's Swift code"])
        #expect(session.run("middleware list tally") == ["tally is hosted: the app gave it 2 middleware, Swift code the shell does not list"])
        #expect(session.run("middleware list wallet") == ["wallet is hosted: the app gave it no middleware"])
        #expect(session.run("show tally").first == "tally is hosted: its reducer is the app's Swift code, after 2 middleware of the app")
        #expect(session.run("show wallet").first == "wallet is hosted: its reducer is the app's Swift code")
        session.run("store own = {n: 0}\nreducer own on inc : state.n = state.n + 1")
        #expect(session.run("reducer list") == [
            "r1: own on inc : state.n = state.n + 1",
            "tally is hosted: its reducer is the app's Swift code", "wallet is hosted: its reducer is the app's Swift code",
        ])
        // Every store's middleware: the hosted ones that have some.
        #expect(session.run("middleware list") == ["tally is hosted: the app gave it 2 middleware, Swift code the shell does not list"])
        #expect(session.run("reducer list own") == ["r1: own on inc : state.n = state.n + 1"])
        #expect(session.run("middleware list own") == ["no middleware yet"])
        #expect(!session.run("show own").contains { $0.contains("hosted") })
        let json = try HostedFixtures.session([Self.withMiddleware(1)], json: true)
        #expect(json.run("middleware list tally").first?.contains(#"{"store":"tally","hosted":true,"count":1}"#) == true)
        #expect(json.run("reducer list tally").first?.contains(#"{"store":"tally","hosted":true}"#) == true)
    }

    /// A STORE that is no store, before a TYPE and an EXPR, is said to be one, with the column
    /// and the store it was likely meant to be. Before: `unexpected '{id: 1}'`.
    @Test func aMisspeltStoreBeforeTheTypeIsSuggested() throws {
        let session = try HostedFixtures.session([HostedFixtures.tally(), HostedFixtures.wallet()])
        let error = session.outcome("dispatch tallt add {amount: 1}").lines.map(\.text).joined(separator: "\n")
        #expect(error == "error: no store 'tallt'; did you mean 'tally'? (stores: tally, wallet)\n  dispatch tallt add {amount: 1}\n           ^~~~~")
        // With a store selected, or one store only, `dispatch TYPE EXPR` still takes the words so.
        session.run("use tally")
        #expect(session.error("dispatch tallt add {amount: 1}").hasPrefix("error: no store 'tallt'; did you mean 'tally'?"))
        expectStep(try session.step("dispatch add {amount: 1}"), 1, "add", [.at("total", from: 0, to: 1)])
        let single = try HostedFixtures.session()
        #expect(single.error("dispatch taly add {amount: 1}").hasPrefix("error: no store 'taly'; did you mean 'tally'? (stores: tally)"))
        expectStep(try single.step("dispatch add {amount: 4}"), 1, "add", [.at("total", from: 0, to: 4)])
        // A TYPE with an EXPR that is wrong on its own is still about the EXPR.
        #expect(single.error("dispatch add {amount: 1} 2").hasPrefix("error: unexpected '2'"))
        #expect(try single.value("state tally").isIdentical(to: ["total": 4, "log": []]))
    }

    /// Before, `HostedStore("my store", ...)` was hosted though no command could name it, and
    /// a second store of a name was refused with "rm it first", which no user can at startup.
    @Test func aHostedStoreNeedsANameCommandsTypeAndItsOwn() throws {
        let spaced = HostedStore("my store", initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        let shell = Shell.scratch()
        #expect(throws: ShellError.self) { try shell.host([spaced]) }
        do { try shell.host([spaced]) } catch {
            #expect(error.message == #"cannot host "my store": a store's name is a letter or _ followed by letters, digits or _, "#
                + "as commands type it; rename it in its HostedStore(...)")
        }
        #expect(shell.execute("nodes").lines.map(\.text).first?.hasPrefix("no nodes yet") == true)

        let twice = Shell.scratch()
        do {
            try twice.host([HostedFixtures.tally(), HostedFixtures.tally()])
            Issue.record("a second store named tally was hosted")
        } catch {
            #expect(error.message == "cannot host tally twice: two of the HostedStores passed to the host are named 'tally'; give each its own name")
        }
        #expect(twice.execute("state tally").lines.map(\.text) == ["{total: 0, log: []}"])
    }
}
