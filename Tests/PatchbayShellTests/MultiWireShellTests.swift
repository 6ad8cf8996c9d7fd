import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// Many wires into one input (issue #15 point 7): an event input where merging is the natural
// meaning (a store's `dispatch`, a signal's `send`, the router's `open`, a counter's `inc` and
// `dec`, a merge's `a` `b` `c`, a log's `in`) takes a wire from each source, and handles every
// value that arrives, in arrival order. Every other input keeps one source per input (one wire,
// replaced atomically). `DataflowSession` is in DataflowShellTests.swift, `TemporaryDirectory` in
// ShellTestSupport.swift.

/// Two signals and a variable wired into one store's `dispatch`.
private let threeSources = [
    "store app = {log: []}",
    "reducer app on * : state.log = append(state.log, action.type)",
    "signal a",
    "signal b",
    #"var v = {type: "V0"}"#,
    "wire a.out -> app.dispatch",
    #"wire b.out -> app.dispatch : {type: "B" + $.n}"#,
    "wire v.value -> app.dispatch",
]

@Suite("Shell: many wires into one store's dispatch")
struct MultiWireShellTests {
    @Test func everyWireIntoDispatchIsAddedAndEveryActionArrivesInOrder() throws {
        let session = DataflowSession()
        let lines = session.run(threeSources.joined(separator: "\n"))
        // Each wire is added, none replaced; the variable's value arrives at once (replay).
        #expect(lines.suffix(4) == [
            "wired a.out -> app.dispatch", #"wired b.out -> app.dispatch : {type: "B" + $.n}"#,
            #"#1 V0  log[0]: + "V0""#, "wired v.value -> app.dispatch",
        ])
        #expect(session.run(#"send a {type: "A"}"#) == [#"#2 A  log[1]: + "A""#])
        #expect(session.run(#"send b {n: "1"}"#) == [#"#3 B1  log[2]: + "B1""#])
        #expect(session.run(#"set v = {type: "V1"}"#) == [#"#4 V1  log[3]: + "V1""#])
        #expect(session.run(#"send a {type: "A2"}"#) == [#"#5 A2  log[4]: + "A2""#])
        #expect(try session.value("state").isIdentical(to: ["log": ["V0", "A", "B1", "V1", "A2"]]))
        #expect(session.run("history") == [
            "   #0 (initial state)", "   #1 V0  log[0]", "   #2 A  log[1]", "   #3 B1  log[2]", "   #4 V1  log[3]", ">  #5 A2  log[4]",
        ])
        try session.expectBlamed("blame log", [1, 2, 3, 4, 5], [["type": "V0"], ["type": "A"], ["type": "B1"], ["type": "V1"], ["type": "A2"]], old: [[], ["V0"], ["V0", "A"], ["V0", "A", "B1"], ["V0", "A", "B1", "V1"]], new: [["V0"], ["V0", "A"], ["V0", "A", "B1"], ["V0", "A", "B1", "V1"], ["V0", "A", "B1", "V1", "A2"]])
    }

    @Test func whyNamesTheWireTheLatestActionCameThrough() throws {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        session.run(#"send b {n: "1"}"#)
        #expect(session.run("why app.state") == [#"send b {n: "1"} → b.out → app.dispatch → app.state"#])
        session.run(#"set v = {type: "V1"}"#)
        #expect(session.run("why app.state") == [#"set v = {type: "V1"} → v.value → app.dispatch → app.state"#])
        // A dispatch command is its own cause, as before.
        session.run("dispatch app D")
        #expect(try session.report("why app.state", as: CauseChain.self).causes == ["dispatch app D", "app.state"])
    }

    @Test func actionsArrivingInOneTransactionAreHandledInArrivalOrder() {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        // At the commit the net value change goes first, then the events in send order.
        #expect(session.run(#"begin\#nsend b {n: "1"}\#nsend a {type: "A"}\#nset v = {type: "V1"}\#ncommit"#) == [
            #"#2 V1  log[1]: + "V1""#, #"#3 B1  log[2]: + "B1""#, #"#4 A  log[3]: + "A""#,
        ])
    }

    @Test func showMarksTheInputAndListsEveryWire() {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        #expect(session.run("show app.dispatch") == [
            #"app.dispatch  input (takes many wires), value: {type: "V0"}"#,
            "  driven by wire a.out -> app.dispatch",
            #"  driven by wire b.out -> app.dispatch : {type: "B" + $.n}"#,
            "  driven by wire v.value -> app.dispatch",
            "  no subscribers",
        ])
        // A value input is not marked.
        #expect(session.run("show v.set") == ["v.set  input, empty", "  driven by nothing (no wire, no local value)", "  no subscribers"])
        #expect(session.run("show a.send").first == "a.send  input (takes many wires), empty")
    }

    @Test func aSecondWireFromTheSameSourceReplacesTheFirstAndComesLast() {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        #expect(session.run(#"wire a.out -> app.dispatch : {type: "A!"}"#) == [
            #"rewired app.dispatch: a.out -> app.dispatch replaced by a.out -> app.dispatch : {type: "A!"}"#,
        ])
        #expect(session.run("show app.dispatch").dropFirst().prefix(3) == [
            #"  driven by wire b.out -> app.dispatch : {type: "B" + $.n}"#,
            "  driven by wire v.value -> app.dispatch",
            #"  driven by wire a.out -> app.dispatch : {type: "A!"}"#,
        ])
        // Only the new wire delivers: one action per send.
        #expect(session.run("send a {}") == [#"#2 A!  log[1]: + "A!""#])
    }

    @Test func unwireNamesTheWireByItsSourceWhenThereAreSeveral() throws {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        #expect(session.failure("unwire app.dispatch") == """
            error: app.dispatch has 3 wires (a.out -> app.dispatch, b.out -> app.dispatch, v.value -> app.dispatch); \
            name the one to remove: unwire SRC.PORT -> app.dispatch
              unwire app.dispatch
                         ^~~~~~~~
            """)
        #expect(session.run("unwire b.out -> app.dispatch") == [#"unwired b.out -> app.dispatch : {type: "B" + $.n}"#])
        // The others still deliver, and no local value came back: the input is still wired.
        #expect(session.run(#"send b {n: "1"}\#nsend a {type: "A"}"#) == [#"#2 A  log[1]: + "A""#])
        #expect(session.run("unwire a.out -> app.dispatch") == ["unwired a.out -> app.dispatch"])
        // One wire left: the short form works again.
        #expect(session.run("unwire app.dispatch") == ["unwired app.dispatch"])
        try session.expectError("unwire app.dispatch", "app.dispatch has no wire", at: 11..<19)
        #expect(try session.value("state").isIdentical(to: ["log": ["V0", "A"]]))
    }

    @Test func unwiringAPairThatIsNotWiredIsAOneLineErrorAtThePair() throws {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        session.run("unwire a.out -> app.dispatch")
        try session.expectError("unwire a.out -> app.dispatch", "there is no wire from a.out into app.dispatch (its wires: b.out -> app.dispatch, v.value -> app.dispatch)", at: 7..<28)
        try session.expectError("unwire x.out -> app.dispatch", "no node 'x' (nodes: a, app, b, v)", at: 7..<8)
        #expect(session.failure("unwire v.set -> app.dispatch")
            == "error: v has no output 'set' (outputs: value)\n  unwire v.set -> app.dispatch\n           ^~~")
        #expect(session.error("unwire a.out -> app.nope").hasPrefix("error: app has no input 'nope' (inputs: dispatch)"))
        #expect(session.error("unwire a.out ->") == "error: missing the input to unwire; usage: unwire DST.PORT | unwire SRC.PORT -> DST.PORT (see 'help unwire')")
        // Nothing changed: both wires are still there.
        #expect(session.run("show app.dispatch").count == 4)
    }

    @Test func theValueInputsKeepOneWireReplacedAtomically() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 10\nvar t = 0\nwire a.value -> t.set\nprobe t --future")
        #expect(session.run("wire b.value -> t.set") == [
            "t.value = 10  (txn 2)", "rewired t.set: a.value -> t.set replaced by b.value -> t.set",
        ])
        #expect(session.run("show t.set") == ["t.set  input, value: 10", "  driven by wire b.value -> t.set", "  no subscribers"])
        // The pair form works on a value input too, and names the one wire there is.
        #expect(session.error("unwire a.value -> t.set").hasPrefix("error: there is no wire from a.value into t.set (its wires: b.value -> t.set)"))
        #expect(session.run("unwire b.value -> t.set") == ["unwired b.value -> t.set"])
    }

    @Test func aLocalValueIsRefusedWhileWiresDriveTheInputAndNamesThemAll() throws {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        session.run("unwire v.value -> app.dispatch")
        try session.expectError(#"set app.dispatch = {type: "L"}"#, "app.dispatch is driven by the wires a.out -> app.dispatch, b.out -> app.dispatch; unwire them first", at: 8..<16)
    }

    @Test func removingASourceLeavesTheOtherWires() {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        #expect(session.run("rm a\nsend b {n: \"2\"}") == ["removed a", "#2 B2  log[1]: + \"B2\""])
        #expect(session.run("show app.dispatch").count == 4)
    }

    @Test func routerOpenTakesAWireFromEachSource() {
        let session = DataflowSession()
        session.run("route add /a view=A\nroute add /b view=B\nsignal x\nsignal y\nwire x.out -> router.open\nwire y.out -> router.open")
        #expect(session.run(#"send x "/a"\#nsend y "/b"\#nstack"#) == [
            "router.open /a: /a  {}  → A (push)", "router.open /b: /b  {}  → B (push)", "1  A  /a", "2  B  /b",
        ])
    }

    @Test func removingAFeatureTakesItsWireOnlyAndLeavesTheOthers() {
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        session.run("signal w\nfeature f begin\nwire w.out -> app.dispatch\nfeature end")
        #expect(session.run("show app.dispatch").count == 6)
        session.run("feature rm f")
        #expect(session.run("show app.dispatch").dropFirst() == [
            "  driven by wire a.out -> app.dispatch", #"  driven by wire b.out -> app.dispatch : {type: "B" + $.n}"#,
            "  driven by wire v.value -> app.dispatch", "  no subscribers",
        ])
        #expect(session.run(#"send w {type: "W"}\#nsend a {type: "A"}"#) == [#"#2 A  log[1]: + "A""#])
    }

    @Test func mergingPatchInputsCountEveryWire() {
        let session = DataflowSession()
        session.run("signal a\nsignal b\npatch c counter\nwire a.out -> c.inc\nwire b.out -> c.inc\npatch l log\nwire a.out -> l.in\nwire b.out -> l.in")
        #expect(session.run("send a 1\nsend b 2\n= c") == ["l: 1", "l: 2", "2"])
        #expect(session.run("show c").contains("c.dec  input (takes many wires), empty"))
        #expect(session.run("show c").contains("c.reset  input, empty"))
        // Two of a counter's wires arriving in one wave both count.
        session.run("var x = 0\nwire x.value -> c.dec\nderive y = x + 1\nwire y.value -> c.dec")
        #expect(session.run("set x = 5\n= c") == ["-2"])
    }

    @Test func aRunawayLoopThroughOneOfSeveralWiresIsTakenBackAndLeavesTheOthers() {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on * : state.n += 1\nsignal s\nwire s.out -> app.dispatch\nsignal t\nwire t.out -> app.dispatch")
        let outcome = session.outcome(#"wire app.state -> app.dispatch : {type: "Loop"}"#)
        #expect(outcome.status == .failure)
        #expect(session.run("show app.dispatch") == [
            "app.dispatch  input (takes many wires), empty",
            "  driven by wire s.out -> app.dispatch", "  driven by wire t.out -> app.dispatch", "  no subscribers",
        ])
        #expect(session.run("history\nsend t {type: \"T\"}") == [">  #0 (initial state)", "#1 T  n: 0 → 1"])
    }

    @Test func aRunawayLoopThatReplacedAWireFromTheSameSourcePutsItBackInItsPlace() {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on * : state.n += 1\nsignal s\nwire app.state -> app.dispatch when false\nwire s.out -> app.dispatch")
        #expect(session.outcome(#"wire app.state -> app.dispatch : {type: "Loop"}"#).status == .failure)
        #expect(session.run("show app.dispatch").dropFirst().prefix(2) == [
            "  driven by wire app.state -> app.dispatch when false", "  driven by wire s.out -> app.dispatch",
        ])
        #expect(session.run("send s {type: \"S\"}") == ["#1 S  n: 0 → 1"])
    }

    @Test func theJSONOfWireUnwireAndShow() {
        let session = DataflowSession(json: true)
        session.run(threeSources.joined(separator: "\n"))
        #expect(session.run("unwire b.out -> app.dispatch") == [
            #"{"ok":true,"command":"unwire b.out -> app.dispatch","result":{"input":"app.dispatch","wire":"b.out -> app.dispatch : {type: \"B\" + $.n}"}}"#,
        ])
        #expect(session.run("wire a.out -> app.dispatch : $") == [
            #"{"ok":true,"command":"wire a.out -> app.dispatch : $","result":{"wire":"a.out -> app.dispatch : $","replaced":"a.out -> app.dispatch"}}"#,
        ])
        #expect(session.run("show app.dispatch") == [
            #"{"ok":true,"command":"show app.dispatch","result":[{"port":"app.dispatch","input":true,"valuePort":true,"state":"value","#
                + #""value":{"type":"V0"},"failure":null,"driver":null,"#
                + #""drivers":["wire v.value -> app.dispatch","wire a.out -> app.dispatch : $"],"manyWires":true,"subscribers":[]}]}"#,
        ])
        #expect(session.run("unwire app.dispatch") == [
            #"{"ok":false,"command":"unwire app.dispatch","error":{"message":"app.dispatch has 2 wires (v.value -> app.dispatch, a.out -> app.dispatch); "#
                + #"name the one to remove: unwire SRC.PORT -> app.dispatch","line":1,"column":12}}"#,
        ])
    }
}

@Suite("Shell: many wires into one input, saved and recorded")
struct MultiWirePersistenceTests {
    @Test func saveWritesEveryWireAndLoadRebuildsThem() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.run(threeSources.joined(separator: "\n"))
        session.run("connector c add b.out -> app.dispatch")
        let (path, text) = try session.save(in: directory)
        #expect(text.contains("\nwire a.out -> app.dispatch\n"))
        #expect(text.contains("\nwire b.out -> app.dispatch : {type: \"B\" + $.n}\n"))
        #expect(text.contains("\nwire v.value -> app.dispatch\n"))
        // The connector owns one of the three wires: it is named by its source.
        #expect(text.contains("\nconnector c add b.out -> app.dispatch\n"))
        let loaded = DataflowSession.loading(path)
        #expect(loaded.run("show app.dispatch") == session.run("show app.dispatch"))
        #expect(loaded.run("connector list") == ["c", #"  wire b.out -> app.dispatch : {type: "B" + $.n}"#])
        #expect(loaded.run(#"send b {n: "1"}\#nsend a {type: "A"}\#nstate"#).last == #"{log: ["V0", "B1", "A"]}"#)
        // Disconnecting the connector takes its wire only.
        #expect(loaded.run("connector c disconnect\nsend b {n: 2}\nshow app.dispatch").dropFirst().first
            == "app.dispatch  input (takes many wires), value: {type: \"A\"}")
    }

    @Test func aReplayOfARecordingVerifiesAndRebuildsEveryWire() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/multi.jsonl"
        let session = DataflowSession()
        session.run("record \(path)")
        session.run(threeSources.joined(separator: "\n"))
        session.run(#"send a {type: "A"}\#nsend b {n: "1"}\#nunwire v.value -> app.dispatch\#nset v = {type: "nope"}\#nsend a {type: "A2"}"#)
        #expect(session.error("unwire app.dispatch").hasPrefix("error: app.dispatch has 2 wires"))
        session.run("record stop")
        let replay = DataflowSession()
        #expect(replay.run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
        #expect(replay.run("state\nshow app.dispatch") == session.run("state\nshow app.dispatch"))
        let inspect = DataflowSession()
        #expect(inspect.run("inspect \(path)").allSatisfy { !$0.hasPrefix("error") })
        #expect(inspect.run("history app") == session.run("history app"))
    }

    /// Found by the session oracle: a recording that starts after the wires were made rebuilds
    /// them with a script, which must make them in the same order, or an error that lists them
    /// differs in the replay.
    @Test func aRecordingStartedLaterRebuildsTheWiresOfAnInputInTheOrderTheyWereMade() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/later.jsonl"
        let session = DataflowSession()
        session.run("store log = {count: 1, items: []}\nwire log.action ~> log.dispatch")
        session.run("wire log.state -> log.dispatch when $.count > 2 : {type: 'Push', v: $.count}")
        let (saved, _) = try session.save(in: directory)
        #expect(DataflowSession.loading(saved).run("show log.dispatch") == session.run("show log.dispatch"))
        session.run("record \(path)")
        #expect(session.error("unwire log.dispatch").hasPrefix(
            "error: log.dispatch has 2 wires (log.action ~> log.dispatch, log.state -> log.dispatch)"))
        session.run("record stop")
        #expect(DataflowSession().run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
    }
}
