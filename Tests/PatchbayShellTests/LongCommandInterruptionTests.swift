import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayShell
import Testing

// Ctrl-C in the middle of a long command: a `tick` firing many timers, a `skip` recomputing many
// steps. The interruption is requested from inside, after N timer firings or N recomputed steps,
// and the whole session must then be as it was before the command, as a session that never ran
// it shows: the same answers to every command that follows.

/// A session with a 1 ms timer that dispatches into a store and counts, accumulates and
/// derives along the way, recorded into `path`.
private func timerSession(recordingInto path: String?) -> DataflowSession {
    let session = DataflowSession()
    session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
    if let path { session.run("record \(path)") }
    session.run("""
        store s = {n: 0, last: 0}
        reducer s on Tick : state.n += 1; state.last = action.at
        reducer s on Tick after 3 : state.late = action.at
        patch t timer ms=1
        wire t.tick -> s.dispatch : {type: "Tick", at: $}
        patch c counter
        wire t.tick -> c.inc
        patch sum accumulate fn="acc + $" initial=0
        wire t.tick -> sum.in
        patch once distinct
        wire sum.out -> once.in
        patch slow delay ms=2
        wire t.tick -> slow.in
        derive twice = s.state.n * 2
        var echo = 0
        wire t.tick ~> echo.set
        var mirror = 0
        bind echo mirror
        knot seen = {count: 0}
        pipe t.tick -> seen : state.count += 1
        var untouched = 5
        tick 7
        """)
    return session
}

/// Everything a user can ask about the session's state.
private let observations = [
    "clock", "state s", "history s", "show t", "show c", "show sum", "show once", "show slow", "show twice",
    "show echo", "show mirror", "show seen", "show untouched", "nodes", "why twice", "why c", "why mirror",
]

private func observe(_ session: DataflowSession) -> [String] {
    observations.flatMap { session.run($0) }
}

@Suite("Ctrl-C takes back a long command")
struct LongCommandInterruptionTests {
    /// Runs `command` in `session`, asking it to stop when `stop` says so.
    private func interrupt(_ command: String, in session: DataflowSession, stop: (Interruption) -> Void) -> CommandOutcome {
        let interruption = Interruption()
        return interruption.during { () -> CommandOutcome in
            stop(interruption)
            return session.shell.execute(command)
        }
    }

    @Test(arguments: [1, 2, 500, 5_000])
    func aTickStoppedAfterSomeFiringsChangesNothing(firings: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/tick.jsonl"
        let session = timerSession(recordingInto: path)
        let before = observe(session)
        var steps = 0
        let outcome = interrupt("tick 30000", in: session) { interruption in
            session.shell.graph.observeStores { event in
                guard case .step = event else { return }
                steps += 1
                if steps == firings { interruption.request() }
            }
        }
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text).first?.hasPrefix("error: interrupted; nothing changed") == true)
        #expect(steps >= firings && steps < firings + 3, "the tick stops at the next timer")
        #expect(observe(session) == before)

        // It goes on exactly as a session that never ran the tick.
        let untouched = timerSession(recordingInto: nil)
        let next = "tick 9\nstate s\nshow c\nshow sum\nshow once\nshow slow\nshow echo\nshow mirror\nshow seen\nhistory s\nclock"
        #expect(session.run(next) == untouched.run(next))
        session.run("record stop")
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!recording.contains("tick 30000"))
        #expect(DataflowSession().run("replay \(path) --verify").last?.contains("every effect matches the recording") == true)
    }

    @Test func anInterruptedTickInALoadTakesBackTheTicksBeforeIt() throws {
        let directory = TemporaryDirectory()
        let script = directory.write("ticks.pb", "tick 3\nset echo = 40\ntick 30000\n")
        let session = timerSession(recordingInto: nil)
        let before = observe(session)
        var steps = 0
        let outcome = interrupt("load \(script)", in: session) { interruption in
            session.shell.graph.observeStores { event in
                guard case .step = event else { return }
                steps += 1
                if steps == 100 { interruption.request() }
            }
        }
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text).contains { $0.hasPrefix("error: interrupted; nothing changed") })
        #expect(steps == 100)
        // The first tick is taken back with the second, and the `set` between them: the clock,
        // the store and every node are as before the load.
        #expect(observe(session) == before)
    }

    /// `import devtools` and `inspect --force` replace a store's history: Ctrl-C in the middle
    /// puts back the session as it was, the store and its history included.
    @Test(arguments: ["import devtools FILE app --force", "inspect RECORDING --force"])
    func anImportOrInspectStoppedMidwayPutsTheSessionBack(command: String) throws {
        let directory = TemporaryDirectory()
        let source = DataflowSession()
        let recording = directory.path + "/source.jsonl"
        source.run("record \(recording)\nstore app = {n: 0}\nreducer app on Add : state.n += 1")
        for _ in 0..<300 { source.run("dispatch app Add") }
        source.run("export devtools app \(directory.path)/app.json\nrecord stop")
        let session = DataflowSession()
        session.run("store app = {n: 7}\nreducer app on Add : state.n += 2\ndispatch app Add\nstore other = {k: 1}")
        let observed = ["state app", "history app", "nodes", "state other", "reducer list app"]
        let before = observed.flatMap { session.run($0) }
        var steps = 0
        let text = command.replacingOccurrences(of: "FILE", with: directory.path + "/app.json").replacingOccurrences(of: "RECORDING", with: recording)
        let outcome = interrupt(text, in: session) { interruption in
            // `inspect` starts a fresh session, whose stores no observer here hears: Ctrl-C comes
            // before it starts reading.
            guard command.hasPrefix("import") else { return interruption.request() }
            session.shell.graph.observeStores { event in
                steps += 1
                if steps == 150 { interruption.request() }
            }
        }
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text).contains { $0.contains("interrupted") })
        #expect(observed.flatMap { session.run($0) } == before)
    }

    @Test func aTickThatFinishesKeepsWhatItDid() {
        let session = timerSession(recordingInto: nil)
        session.run("tick 3")
        let untouched = timerSession(recordingInto: nil)
        // The saves made for the marks are dropped: a later interrupted command takes back only itself.
        let outcome = interrupt("tick 1000", in: session) { interruption in interruption.request() }
        #expect(outcome.status == .failure)
        untouched.run("tick 3")
        #expect(observe(session) == observe(untouched))
    }

    @Test func aSkipOfAnActionThatChangedNothingIsStoppedToo() {
        let session = DataflowSession()
        session.run("store s = {n: 0}\nreducer s on Add : state.n += action.by\ndispatch s Add {by: 0}\ndispatch s Add {by: 1}")
        let outcome = interrupt("skip s 1", in: session) { interruption in interruption.request() }
        #expect(outcome.lines.map(\.text).first?.hasPrefix("error: interrupted; nothing changed") == true)
        #expect(session.run("history s") == ["   #0 (initial state)", "   #1 Add {by: 0}  (no changes)", ">  #2 Add {by: 1}  n"])
    }

    @Test func ctrlCAfterTheRewriteTakesTheSkipBackToo() throws {
        // The request comes as the store moves to the recomputed state, once the history was
        // rewritten: the rewrite is taken back with the rest, and the recording holds nothing of it.
        let directory = TemporaryDirectory()
        let path = directory.path + "/rewrite.jsonl"
        let session = DataflowSession()
        session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        session.run("record \(path)\nstore s = {n: 0}\nreducer s on Add : state.n += action.by\ndispatch s Add {by: 1}\ndispatch s Add {by: 2}")
        let before = session.run("history s\nstate s")
        for command in ["skip s 1", "history sweep s", "history recompute s", "history commit s", "history revert s"] {
            if command == "history sweep s" { session.run("skip s 1") }
            let expected = session.run("history s\nstate s")
            let outcome = interrupt(command, in: session) { interruption in
                session.shell.graph.observeStores { event in
                    if case .moved = event { interruption.request() }
                }
            }
            #expect(outcome.status == .failure)
            #expect(outcome.lines.map(\.text).first?.hasPrefix("error: interrupted; nothing changed") == true, "\(command): \(outcome.lines)")
            #expect(session.run("history s\nstate s") == expected, "\(command)")
            if command == "history sweep s" { session.run("unskip s 1") }
        }
        #expect(session.run("history s\nstate s") == before)
        session.run("record stop")
        #expect(DataflowSession().run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for interrupted in [#""kind":"sweep""#, #""kind":"recompute""#, #""kind":"reset""#, "history sweep", "history recompute",
                            "history commit", "history revert"] {
            #expect(!text.contains(interrupted), "\(interrupted)")
        }
        #expect(text.components(separatedBy: #""kind":"skip""#).count == 3, "only the skip and unskip around the sweep")
    }

    @Test func aSkipStoppedChangesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/skip.jsonl"
        let session = DataflowSession()
        session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        session.run("""
            record \(path)
            store s = {n: 0}
            reducer s on Add : state.n += action.by
            derive total = s.state.n
            patch t timer ms=1
            wire t.tick -> s.dispatch : {type: "Add", by: $ % 7}
            tick 5000
            rm t
            """)
        let look = "state s\nhistory s --last 3\nhistory s --path n --last 2\nshow total\nclock"
        let before = session.run(look)
        // Recomputation steps are counted by the history's own test (HistorySkipTests); here
        // the request comes as the skip starts, and stops it after its first step.
        // #1 dispatched the timer's first value, 0, and changed nothing: #2 is the first to count.
        let outcome = interrupt("skip s 2", in: session) { interruption in interruption.request() }
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text).first?.hasPrefix("error: interrupted; nothing changed") == true, "\(outcome.lines)")
        #expect(session.run(look) == before)
        try session.expectSkip("skip s 2", 2, skipped: true, changing: 5000)
        session.run("record stop")
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(recording.components(separatedBy: "skip s 2").count == 2, "only the skip that ran is recorded")
        #expect(DataflowSession().run("replay \(path) --verify").last?.contains("every effect matches the recording") == true)
    }
}
