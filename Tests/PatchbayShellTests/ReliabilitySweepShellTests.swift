import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// Issue 28, second reliability sweep: timers a failed command leaves behind (point 2), session
// files that are not regular files (7), object keys that differ only in Unicode normalisation
// (8), and messages (9). `DataflowSession` is in DataflowShellTests.swift.

@Suite("A failed command takes back the timers it set")
struct FailedCommandTimerTests {
    @Test func aDispatchThatFailsLeavesNoTimerBehind() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on L after 0 : state.n += 1\nmiddleware app on L : dispatch L {}")
        #expect(session.outcome("dispatch app L").status == .failure)
        try session.expectClock(now: 0, pending: 0)
        session.run("tick 1")
        #expect(try session.value("= app.n").isIdentical(to: 0))
    }

    @Test(.timeLimit(.minutes(1)))
    func aTickWhoseTimersNeverSettleFailsAsOneAndChangesNothing() throws {
        let session = DataflowSession()
        // The timer's step changes the state, which dispatches M through the wires; M changes
        // the state again (a loop that never settles) and sets a timer each time.
        session.run("""
            store app = {n: 0, m: 0}
            reducer app on L after 0 : state.n += 1
            reducer app on M : state.m += 1
            reducer app on M after 0 : state.n += 1
            signal s
            wire app.state -> s.send
            wire s.out -> app.dispatch : {type: "M"}
            dispatch app L
            """)
        try session.expectClock(now: 0, pending: 1, next: 0)
        let tick = session.outcome("tick 0")
        #expect(tick.status == .failure)
        let errors = tick.lines.map(\.text).filter { $0.contains("did not settle after 100 follow-up transactions") }
        #expect(errors.count == 1, "\(tick.lines.map(\.text))")
        try session.expectClock(now: 0, pending: 1, next: 0)
        #expect(try session.value("= app").isIdentical(to: ["n": 0, "m": 0]))
    }
}

@Suite("Sessions that are not regular files")
struct SessionFileKindTests {
    /// The command, with `FILE` for the path.
    static let commands = ["inspect FILE", "replay FILE", "replay FILE --verify"]

    @Test(arguments: commands)
    func aDeviceIsNotASessionToRead(command: String) {
        #expect(DataflowSession().error(command.replacing("FILE", with: "/dev/null"))
            == "error: cannot read '/dev/null': it is a device, not a regular file")
    }

    // Before, opening the pipe waited for a writer for ever.
    @Test(.timeLimit(.minutes(1)), arguments: commands)
    func aPipeIsNotASessionToRead(command: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(DataflowSession().error(command.replacing("FILE", with: path))
            == "error: cannot read '\(path)': it is a pipe (FIFO), not a regular file")
    }
}

@Suite("Object keys that differ only in Unicode normalisation")
struct UnicodeKeyShellTests {
    @Test func anObjectLiteralKeepsBothSpellings() throws {
        let session = DataflowSession()
        #expect(try session.value("= len(keys({\"\u{E9}\": 1, \"e\u{301}\": 2}))").isIdentical(to: 2))
        #expect(try session.value("= {\"\u{E9}\": 1, \"e\u{301}\": 2}[\"e\u{301}\"]").isIdentical(to: 2))
    }

    @Test func aStoreStateKeepsBothSpellingsThroughReducersAndHistory() throws {
        let session = DataflowSession()
        session.run("store app = {\"\u{E9}\": 1}\nreducer app on Set : state[\"e\u{301}\"] = 2")
        #expect(session.outcome("dispatch app Set").status == .success)
        #expect(try session.value("= len(keys(app))").isIdentical(to: 2))
        #expect(try session.value("= app[\"\u{E9}\"]").isIdentical(to: 1))
        session.run("jump app 0")
        #expect(try session.value("= len(keys(app))").isIdentical(to: 1))
    }

    @Test func inspectKeepsBothSpellingsOfARecordedState() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("keys.jsonl", """
            {"patchbay":"session","version":1,"created":"2026-01-01T00:00:00Z"}
            {"seq":1,"kind":"command","text":"store app = {}"}
            {"seq":2,"kind":"store","store":"app","state":{"\u{E9}":1,"e\u{301}":2}}

            """)
        let session = DataflowSession()
        #expect(session.outcome("inspect \(path)").status == .success)
        #expect(try session.value("= len(keys(app))").isIdentical(to: 2))
        #expect(try session.value("= app[\"e\u{301}\"]").isIdentical(to: 2))
    }

    @Test func completionOffersBothSpellings() {
        let session = DataflowSession()
        session.run("store app = {\"\u{E9}\": 1, \"e\u{301}\": 2}")
        let line = "state app."
        let completion = session.shell.complete(line, cursor: line.utf8.count)
        #expect(completion.candidates.count == 2)
    }
}

@Suite("Messages: numbers, budgets and failed reducers")
struct ReliabilityMessageTests {
    @Test(arguments: ["0x10", "0b1", "0o7", ".5", "5.", "1_000", "+1", "inf", "nan", "0x1p4", "01"])
    func numReadsOnlyWhatALiteralCanBe(text: String) {
        let session = DataflowSession()
        #expect(session.outcome("= \(text)").status == .failure)
        #expect(session.error("= num(\"\(text)\")").contains("is not a number"))
    }

    @Test(arguments: [("10", "10"), ("-3", "-3"), ("1.5", "1.5"), ("1e3", "1000.0"), (" 7 ", "7"), ("-0.25", "-0.25")])
    func numReadsWhatALiteralReads(text: String, expected: String) {
        let session = DataflowSession()
        #expect(session.run("= num(\"\(text)\")") == [expected])
    }

    @Test func aFailedReducerKeepsItsActionMarkedFailedAndTheState() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Bad : state.n = 1 / 0")
        #expect(session.outcome("dispatch app Bad").status == .failure)
        #expect(try session.value("= app.n").isIdentical(to: 0))
        #expect(session.run("history app --failed").contains(">! #1 Bad  failed: r1: division by zero in '1 / 0'"))
    }

    @Test func theHelpSaysAReducerOverBudgetKeepsItsActionMarkedFailed() {
        let help = DataflowSession().run("help values").joined(separator: " ")
        #expect(help.contains("a reducer's action that stops so is kept in the history, marked failed"), "\(help)")
    }
}

@Suite("--json inspect of a damaged file")
struct DamagedInspectJSONTests {
    @Test func aDamagedFileIsOneFailedCommandInJSON() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("cut.jsonl", """
            {"patchbay":"session","version":1,"created":"2026-01-01T00:00:00Z"}
            {"seq":1,"kind":"command","text":"store app = {n: 0}"}
            {"seq":2,"kind":"store","store":"app","state":{"n":0}}
            {"seq":3,"kind":"command","text":"dispatch app Inc"}
            {"seq":4,"kind":"action"

            """)
        let outcome = DataflowSession(json: true).outcome("inspect \(path)")
        #expect(outcome.status == .failure)
        let lines = outcome.lines.map(\.text)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("\"ok\":true") }, "\(lines)")
        #expect(lines.last?.contains("everything before that line is loaded") == true, "\(lines)")
    }
}
