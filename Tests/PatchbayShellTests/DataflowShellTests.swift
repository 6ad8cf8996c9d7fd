@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// The dataflow rules once more (numbered as in DataflowGraphTests.swift), as a user meets them at
// the prompt: what each command prints.

/// One shell session, driven command by command.
final class DataflowSession {
    let shell: Shell

    init(json: Bool = false) {
        shell = Shell.scratch(ShellOptions(json: json))
    }

    /// Runs each line as a command and returns everything printed, in order (an error is one
    /// entry: `error: ...`, then the command and a caret under the column).
    @discardableResult
    func run(_ script: String) -> [String] {
        script.split(separator: "\n").flatMap { shell.execute(String($0)).lines.map(\.text) }
    }

    /// Runs one command and returns its outcome.
    func outcome(_ command: String) -> CommandOutcome {
        shell.execute(command)
    }

    /// Runs one command that must fail and returns the error's first line.
    func error(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let outcome = shell.execute(command)
        #expect(outcome.status == .failure, sourceLocation: sourceLocation)
        let errors = outcome.lines.filter { $0.stream == .error }.map(\.text)
        return errors.last?.split(separator: "\n").first.map(String.init) ?? "(no error)"
    }
}

@Suite("Shell, rule 1: replay")
struct DataflowShellReplayTests {
    @Test func probingPrintsTheCurrentValueAtOnce() {
        let session = DataflowSession()
        #expect(session.run("var a = 1\nderive b = a + 1\nprobe b\nset a = 2") == [
            "a = 1", "b = 2", "b.value = 2  (txn 0)", "b.value = 3  (txn 1)",
        ])
    }

    @Test func futureSkipsTheReplay() {
        let session = DataflowSession()
        #expect(session.run("var a = 1\nprobe a --future\nset a = 2") == ["a = 1", "a.value = 2  (txn 1)"])
    }

    @Test func anEmptyPortDeliversNothingAndNullIsAValue() {
        let session = DataflowSession()
        #expect(session.run("patch e expr expr=\"x + y\"\nprobe e\nvar n = null\nprobe n") == [
            "e: patch expr (x, y) -> (out)", "n = null", "n.value = null  (txn 0)",
        ])
        #expect(session.run("show e.out") == ["e.out  value port, empty", "  subscribers: probe e"])
    }

    @Test func eventPortsNeverReplay() {
        let session = DataflowSession()
        #expect(session.run("signal s\nsend s 1\nprobe s\nvar last = 0\nwire s.out -> last.set\n= last\nsend s 2") == [
            "s: signal (send) -> (out)", "last = 0", "wired s.out -> last.set", "0", "s.out = 2  (txn 2)",
        ])
    }
}

@Suite("Shell, rule 2: one source per input")
struct DataflowShellOneSourceTests {
    @Test func rewiringSaysItReplacedTheOldWireAndTheOldSourceNoLongerReachesTheInput() throws {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 10\nvar t = 0\nwire a.value -> t.set\nprobe t --future")
        #expect(session.run("wire b.value -> t.set") == [
            "t.value = 10  (txn 2)", "rewired t.set: a.value -> t.set replaced by b.value -> t.set",
        ])
        #expect(session.run("set a = 99\n= t") == ["10"])
        try session.expectOutput("set b = 11", [.probe("t.value", 11, txn: 4)])
    }

    @Test func settingAWiredInputIsAnErrorNamingTheWire() throws {
        let session = DataflowSession()
        session.run("var a = 1\nvar t = 0\nwire a.value -> t.set")
        let outcome = session.outcome("set t.set = 5")
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text) == [
            "error: t.set is driven by the wire a.value -> t.set; unwire t.set first\n  set t.set = 5\n        ^~~",
        ])
        #expect(try session.value("= [a, t]").isIdentical(to: [1, 1]))
    }

    @Test func writingAnInputNeverReachesOtherConsumersOfItsSource() {
        let session = DataflowSession()
        session.run("var a = 1\nvar t = 0\nvar u = 0\nwire a.value -> t.set\nwire a.value -> u.set")
        #expect(session.run("unwire t.set\nset t.set = 5\n= [a, t, u]") == ["unwired t.set", "[1, 5, 1]"])
    }

    @Test func unwiringRevertsToTheLocalValue() {
        let session = DataflowSession()
        session.run("var a = 5\npatch m map fn=\"$ * 2\" in=1\nwire a.value -> m.in\nprobe m --future")
        #expect(session.run("unwire m.in") == ["m.out = 2  (txn 3)", "unwired m.in"])
        #expect(session.error("unwire m.in") == "error: m.in has no wire")
    }
}

@Suite("Shell, rule 3: equal values stop")
struct DataflowShellEqualityTests {
    @Test func equalValuesStopAndTouchForces() throws {
        let session = DataflowSession()
        session.run("var a = 1\nderive parity = a % 2\nprobe a --future\nprobe parity --future")
        try session.expectOutput("set a = 1", [])
        try session.expectOutput("set a = 3", [.probe("a.value", 3, txn: 2)])  // parity stays 1: it stops there
        // touch re-delivers a's value; parity is recomputed to an equal value and stops there.
        try session.expectOutput("touch a", [.probe("a.value", 3, txn: 3)])
        try session.expectOutput("touch parity.value", [.probe("parity.value", 1, txn: 4)])
    }

    @Test func eventsNeverDedupe() throws {
        let session = DataflowSession()
        session.run("signal s\nprobe s")
        try session.expectOutput("send s 1\nsend s 1", [.probe("s.out", 1, txn: 1), .probe("s.out", 1, txn: 2)])
    }
}

@Suite("Shell, rule 4: order")
struct DataflowShellOrderTests {
    @Test func aPortListsItsSubscribersInTheOrderTheyAreServed() {
        // Wires in attach order (not node creation order) during the wave, then probes after it.
        let session = DataflowSession()
        session.run("var a = 1\nvar second = 0\nvar first = 0\nprobe a\nwire a.value -> first.set\nwire a.value -> second.set")
        #expect(session.run("show a.value") == [
            "a.value  value port, value: 1",
            "  subscribers: wire a.value -> first.set; wire a.value -> second.set; probe a",
        ])
    }

    @Test func probesReportInRankOrderWithUnevenDepths() throws {
        let session = DataflowSession()
        session.run("var a = 1\nderive b = a + 1\nderive c = b + 1\nderive d = c + 1\nderive e = a * 10\nderive f = d + e")
        session.run("probe f --future\nprobe e --future\nprobe d --future\nprobe b --future")
        try session.expectOutput("set a = 2", [.probe("b.value", 3, txn: 1), .probe("e.value", 20, txn: 1), .probe("d.value", 5, txn: 1), .probe("f.value", 25, txn: 1)])
    }
}

@Suite("Shell, rule 5: glitch-free")
struct DataflowShellGlitchTests {
    @Test func aProbeOnTheDiamondShowsOnlyTheFinalValue() throws {
        let session = DataflowSession()
        session.run("var a = 1\nderive b = a + 1\nderive c = a * 2\nderive d = b + c\npatch l log\nwire d.value -> l.in")
        #expect(session.run("probe d --future\nset a = 2") == ["l: 7", "d.value = 7  (txn 2)"])
        try session.expectOutput("set a = 10", [.log("l", 31), .probe("d.value", 31, txn: 3)])
    }

    @Test func aTapsXAndYArriveTogether() throws {
        let session = DataflowSession()
        session.run("""
            patch v view x=2 y=1 width=10 height=3
            patch tp tap
            wire v.frame -> tp.view
            patch point expr expr="[x, y]"
            wire tp.x -> point.x
            wire tp.y -> point.y
            patch l log
            wire point.out -> l.in
            probe tp
            """)
        try session.expectTap("tap v 5 2", fired: ["tp"], seeing: [.log("l", [3, 1]), .probe("tp.x", 3, txn: 3), .probe("tp.y", 1, txn: 3)])
        try session.expectTap("tap v 8 3", fired: ["tp"], seeing: [.log("l", [6, 2]), .probe("tp.x", 6, txn: 4), .probe("tp.y", 2, txn: 4)])
        try session.expectTap("tap v 50 2", fired: [], seeing: [])
    }
}

@Suite("Shell, rule 6: transactions")
struct DataflowShellTransactionTests {
    @Test func threeSetsInATransactionGiveOneNotification() {
        let session = DataflowSession()
        session.run("var a = 0\nprobe a --future")
        #expect(session.run("begin\nset a = 1\nset a = 2\nset a = 3\n= a") == ["3"])
        #expect(session.run("commit") == ["a.value = 3  (txn 1)"])
    }

    @Test func aNetZeroTransactionNotifiesNothing() {
        let session = DataflowSession()
        session.run("var a = 0\nprobe a --future")
        #expect(session.run("begin\nset a = 9\nset a = 0\ncommit") == [])
    }

    @Test func transactionsNest() {
        let session = DataflowSession()
        session.run("var a = 0\nprobe a --future")
        #expect(session.run("begin\nbegin\nset a = 5\ncommit") == [
            "begin (nested, depth 2)", "commit (still inside a transaction, depth 1)",
        ])
        #expect(session.run("commit") == ["a.value = 5  (txn 1)"])
        #expect(session.error("commit") == "error: 'commit' without 'begin': no transaction is open")
    }

    @Test func abortDropsTheWrites() {
        let session = DataflowSession()
        session.run("var a = 1\nprobe a --future")
        #expect(session.run("begin\nset a = 7\nabort\n= a") == ["aborted: the transaction's writes are dropped", "1"])
        #expect(session.error("abort") == "error: 'abort' without 'begin': no transaction is open")
    }

    @Test func rmIsRefusedInsideATransactionSoAbortLeavesTheNode() {
        // Regression: `rm` inside `begin` took effect at once, and `abort` could not bring the
        // node back with its wires and probes.
        let session = DataflowSession()
        session.run("var a = 1\nderive b = a + 1\nprobe b --future")
        #expect(session.run("begin\nset a = 5") == [])
        #expect(session.error("rm b") == "error: 'rm' cannot run inside a transaction; commit or abort it first")
        #expect(session.run("abort\nset a = 2") == ["aborted: the transaction's writes are dropped", "b.value = 3  (txn 1)"])
        #expect(session.run("begin\nrm a\ncommit").first?.hasPrefix("error: 'rm' cannot run inside a transaction") == true)
        #expect(session.run("rm b\nnodes") .contains { $0.hasPrefix("b") } == false)
    }

    @Test func aScriptEndingInsideATransactionSaysItsWritesWereDropped() {
        let run = ShellRun("var a = 1\nbegin\nset a = 2\nset a = 3\nsend s 1\n", keepGoing: true, name: "open.pb")
        #expect(run.errors.last == "open.pb:5:1: error: the input ended inside a transaction ('begin' without 'commit'): "
            + "its 1 write was dropped; end it with 'commit' to keep them")
        let events = ShellRun("signal s\nvar a = 0\nbegin\nset a = 1\nsend s 1\nsend s 2", name: "events.pb")
        #expect(events.failures == 1)
        #expect(events.errors.last?.hasSuffix("its 3 writes were dropped; end it with 'commit' to keep them") == true)
        let empty = ShellRun("begin\n", name: "empty.pb")
        #expect(empty.errors == ["empty.pb:1:1: error: the input ended inside a transaction ('begin' without 'commit'): "
            + "it was dropped (it held no writes); end it with 'commit' to keep them"])
        let committed = ShellRun("var a = 1\nbegin\nset a = 2\ncommit\n= a\n")
        #expect(committed.errors == [])
        #expect(committed.output.last == "2")
    }

    @Test func aScriptEndingInsideATransactionLeavesTheShellOutsideIt() {
        let shell = Shell.scratch(ShellOptions())
        var runner = ScriptRunner(shell: shell, name: "open.pb", keepGoing: false) { _ in }
        runner.run(Array("var a = 1\nbegin\nset a = 2\n".utf8))
        #expect(runner.failures == 1)
        #expect(shell.execute("= a").lines.map(\.text) == ["1"])
        #expect(shell.execute("commit").status == .failure)
    }

    @Test func eventsInATransactionRunInSendOrderOneWaveEach() {
        let session = DataflowSession()
        session.run("signal s\nknot k = {log: []}\npipe s.out -> k : state.log = append(state.log, len(state.log) * 10 + $)")
        session.run("probe s --future\nprobe k --future")
        #expect(session.run("begin\nsend s 1\nsend s 2\nsend s 3\ncommit") == [
            "s.out = 1  (txn 1)", "s.out = 2  (txn 1)", "s.out = 3  (txn 1)", "k.state = {log: [1, 12, 23]}  (txn 1)",
        ])
    }
}

@Suite("Shell, rule 7: reentrancy")
struct DataflowShellReentrancyTests {
    @Test func aRunawayFeedbackLoopStopsWithOneErrorAndTheNextCommandWorks() {
        let run = ShellRun("""
            var a = 0
            var b = 0
            patch inc map fn="$ + 1"
            wire a.value -> inc.in
            wire inc.out -> b.set
            bind b a
            = 1 + 1
            """, keepGoing: true)
        #expect(run.failures == 1)
        #expect(run.errors == [
            "test.pb:6:1: error: did not settle after 100 follow-up transactions (writes from callbacks); "
                + "ports involved: b.value, a.value\n  bind b a\n  ^",
        ])
        #expect(run.output.last == "2")
    }

    /// Everything a user can ask of the nodes of a session (values, marks, wires, the clock).
    private func look(_ session: DataflowSession) -> [String] {
        session.run("nodes\nshow a\nshow b\nshow inc\nshow c\nshow seen\nshow k\nclock")
    }

    /// Reentrancy: the command that set off a loop that never settles leaves every node as
    /// it was before it, the nodes the loop wrote and the patches' own state (a counter)
    /// included, and a wire it replaced is back in its place.
    @Test func aRunawayLoopLeavesEveryNodeAsItWasBeforeTheCommand() {
        let session = DataflowSession()
        session.run("""
            var a = 0
            var b = 0
            patch inc map fn="$ + 1"
            wire a.value -> inc.in
            wire inc.out -> b.set
            patch c counter
            wire b.value -> c.inc
            knot seen = {n: 0}
            pipe b.value -> seen : state.n += 1
            var k = 7
            wire a.value -> k.set : $ * 10
            set a = 3
            """)
        let before = look(session)
        #expect(session.run("bind b a").first?.hasPrefix("error: did not settle") == true)
        #expect(look(session) == before)
        // A wire that replaces one and whose first delivery runs away: the old wire is back.
        session.run("store s = {count: 3, n: 0}\nreducer s on * : state.n += 1\nvar x = 1\nwire x.value -> s.dispatch : {type: 'X'}")
        let wired = look(session) + session.run("show s\nhistory s")
        #expect(session.run("wire s.state -> s.dispatch when $.count > 2 : {type: 'Push'}").first?.hasPrefix("error: did not settle") == true)
        #expect(look(session) + session.run("show s\nhistory s") == wired)
        #expect(session.run("set x = 2\nstate s") == ["#2 X  n: 1 → 2", "{count: 3, n: 2}"])
    }

    @Test func bindWritesBackAfterTheTransaction() throws {
        let session = DataflowSession()
        #expect(session.run("var a = 1\nvar b = 2\nbind a b\n= b") == ["a = 1", "b = 2", "1"])
        session.run("probe a --future\nprobe b --future")
        // `bind` itself ran two transactions: b = 1, then the write back to a, which stopped (equal).
        try session.expectOutput("set b = 5", [.probe("b.value", 5, txn: 3), .probe("a.value", 5, txn: 4)])
        #expect(session.error("bind a a") == "error: cannot bind 'a' to itself")
    }
}

@Suite("Shell, rule 8: samples")
struct DataflowShellSampleTests {
    @Test func aWireTransformReadingAnotherNodeNeverTriggers() throws {
        let session = DataflowSession()
        session.run("var a = 1\nvar factor = 10\nvar out = 0\nwire a.value -> out.set : $ * factor\nprobe out --future")
        #expect(session.run("set factor = 20\n= out") == ["10"])
        try session.expectOutput("set a = 2", [.probe("out.value", 40, txn: 3)])
    }

    @Test func aSampleSeesTheValueSettledInTheWave() {
        let session = DataflowSession()
        session.run("var x = 1\nderive y = x * 100\nvar r = 0\nwire x.value -> r.set : $ + y")
        #expect(session.run("set x = 2\n= r") == ["202"])
    }

    @Test func aPipeReadingItsOwnKnotSeesThePreWaveState() throws {
        let session = DataflowSession()
        session.run("signal s\nknot k = {n: 1}\npipe s.out -> k : state.n = k.n * 10 + $\nprobe k --future")
        try session.expectOutput("send s 1\nsend s 2", [.probe("k.state", ["n": 11], txn: 1), .probe("k.state", ["n": 112], txn: 2)])
    }
}

@Suite("Shell, rule 9: cycles")
struct DataflowShellCycleTests {
    @Test func aSelfWireAndATwoNodeCycleAreRefusedAndTheGraphIsUnchanged() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 2\nwire a.value -> b.set")
        let before = session.run("graph")
        #expect(before == ["a  var  = 1", "  a.value -> b.set", "b  var  = 1"])
        #expect(session.outcome("wire a.value -> a.set").lines.map(\.text) == [
            "error: the wire would close a cycle: a -> a; use a delay edge (~>) or bind for feedback\n"
                + "  wire a.value -> a.set\n       ^~~~~~~~~~~~~~~~",
        ])
        #expect(session.error("wire b.value -> a.set")
            == "error: the wire would close a cycle: a -> b -> a; use a delay edge (~>) or bind for feedback")
        #expect(session.run("graph") == before)
    }

    @Test func anAccumulatorFedBackThroughADelayEdgeCountsUpOnlyOnTick() throws {
        let session = DataflowSession()
        session.run("var count = 0\npatch next map fn=\"$ + 1\"\nwire count.value -> next.in")
        #expect(session.run("wire next.out ~> count.set") == ["wired next.out ~> count.set"])
        session.run("probe count --future")
        #expect(try session.value("= count").isIdentical(to: 0))
        #expect(session.run("tick") == ["count.value = 1  (txn 2)", "clock 1 ms"])
        #expect(session.run("tick\n= count") == ["count.value = 2  (txn 3)", "clock 2 ms", "2"])
    }

    @Test func aPatchMayFeedItselfThroughADelayEdge() throws {
        let session = DataflowSession()
        session.run("var one = 1\npatch sum expr expr=\"step + total\" total=0\nwire one.value -> sum.step")
        #expect(try session.value("= sum").isIdentical(to: 1))
        #expect(session.run("wire sum.out ~> sum.total\nprobe sum --future\nset one = 1") == ["wired sum.out ~> sum.total"])
        #expect(session.run("tick\ntick") == ["sum.out = 2  (txn 4)", "clock 1 ms", "sum.out = 3  (txn 5)", "clock 2 ms"])
        #expect(session.error("wire sum.out -> sum.total")
            == "error: the wire would close a cycle: sum -> sum; use a delay edge (~>) or bind for feedback")
    }
}

@Suite("Shell, rule 10: errors stay local")
struct DataflowShellErrorTests {
    @Test func aDivisionByZeroMarksTheNodeFailedUntilAGoodValue() throws {
        let session = DataflowSession()
        session.run("var a = 1\nvar z = 1\nderive q = a / z\nderive r = q + 1\nderive other = a * 10\nprobe r --future\nprobe other --future")
        let outcome = session.outcome("set z = 0")
        #expect(outcome.status == .success)
        #expect(outcome.lines == [OutputLine("error: q failed: division by zero in 'a / z'", to: .error)])
        #expect(session.run("nodes") == [
            "a      var  = 1",
            "z      var  = 0",
            "q      derive  = 1  [failed: division by zero in 'a / z']",
            "r      derive  = 2  [stale: an upstream node failed]",
            "other  derive  = 10",
        ])
        #expect(session.run("show q") == [
            "q.value  value port, failed: 1", "  failed: division by zero in 'a / z'", "  subscribers: derive r",
        ])
        // Other branches go on; q fails again, once.
        #expect(session.run("set a = 2") == ["error: q failed: division by zero in 'a / z'", "other.value = 20  (txn 2)"])
        // A good value clears the marks.
        try session.expectOutput("set z = 1", [.probe("r.value", 3, txn: 3)])
        #expect(session.run("nodes")[2...3] == ["q      derive  = 2", "r      derive  = 3"])
    }

    @Test func unknownNodesAndPortsListWhatExists() {
        let session = DataflowSession()
        #expect(session.error("set a = 1") == "error: no node 'a' (no nodes yet)")
        session.run("var a = 1\npatch m map fn=\"$\"")
        #expect(session.error("rm zz") == "error: no node 'zz' (nodes: a, m)")
        #expect(session.error("wire a.nope -> m.in") == "error: a has no output 'nope' (outputs: value)")
        #expect(session.error("wire a.value -> m.nope") == "error: m has no input 'nope' (inputs: in)")
        #expect(session.error("show m.nope") == "error: m has no port 'nope' (ports: out, in)")
        #expect(session.error("probe m.nope") == "error: m has no port 'nope' (ports: out, in)")
        #expect(session.error("patch p mapp") == "error: no patch type 'mapp'; did you mean 'map'?")
        #expect(session.error("unprobe a") == "error: no probe on 'a'")
        #expect(session.run("nodes") == ["a  var  = 1", "m  patch map (in) -> (out)"])
    }
}

@Suite("Shell, rule 11: lifetime")
struct DataflowShellLifetimeTests {
    @Test func removingANodeRemovesItsWiresAndProbesAndInputsRevert() {
        let session = DataflowSession()
        session.run("var a = 5\npatch m map fn=\"$ * 2\" in=1\nwire a.value -> m.in\nprobe a\nprobe m.out --future")
        #expect(session.run("rm a") == ["m.out = 2  (txn 3)", "removed a"])
        #expect(session.run("graph") == ["m  patch map (in) -> (out)  = 2"])
        #expect(session.run("show m.in") == ["m.in  input, value: 1", "  driven by local value 1", "  no subscribers"])
        #expect(session.error("show a") == "error: no node 'a' (nodes: m)")
        #expect(session.run("unprobe all\nvar a = 0") == ["a = 0"])
    }
}
