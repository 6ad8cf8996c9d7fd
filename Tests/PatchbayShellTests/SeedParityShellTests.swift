import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// The seed systems' own tests, written as a user would at the prompt (issue 15, "seed parity").

@Suite("Shell, seed parity: equal values stop in every wave")
struct SeedParityEqualityTests {
    /// ReSwift's StoreSubscriberTests: a subscriber with `select { $0.testValue }.skipRepeats()`
    /// hears the initial value, nothing for a dispatch that leaves the selected value as it was,
    /// and the new value once it changes.
    @Test func selectAndSkipRepeatsNotifiesOnlyWhenTheSelectedValueChanges() throws {
        let session = DataflowSession()
        session.run("store app = {u: {name: \"Initial\"}, n: 0}")
        session.run("reducer app on SetName : state.u.name = action.value\nreducer app on Bump : state.n += 1")
        session.run("var who = \"\"\nwire app.state -> who.set : $.u.name")
        #expect(session.run("probe who") == ["who.value = \"Initial\"  (txn 1)"])
        expectStep(try session.step("dispatch app SetName {value: \"Initial\"}"), 1, "SetName", [])
        // The state changes, the selected name does not: no notification.
        expectStep(try session.step("dispatch app Bump"), 2, "Bump", [.at("n", from: 0, to: 1)])
        #expect(session.run("dispatch app SetName {value: \"New\"}") == [
            "#3 SetName  u.name: \"Initial\" → \"New\"", "who.value = \"New\"  (txn 4)",
        ])
    }

    @Test func aMapPatchRecomputedToAnEqualValueStopsSoCountersCountOnlyChanges() throws {
        let session = DataflowSession()
        session.run("store app = {u: {name: \"Initial\"}, n: 0}")
        session.run("reducer app on SetName : state.u.name = action.value\nreducer app on Bump : state.n += 1")
        session.run("patch name map fn=\"$.u.name\"\nwire app.state -> name.in\npatch changes counter\nwire name.out -> changes.inc")
        #expect(try session.value("= changes.count").isIdentical(to: 1))  // the replay of the first name
        session.run("dispatch app Bump\ndispatch app Bump")
        #expect(try session.value("= changes.count").isIdentical(to: 1))
        session.run("dispatch app SetName {value: \"New\"}")
        #expect(try session.value("= changes.count").isIdentical(to: 2))
    }

    @Test func aVariableFedByASignalStopsAtAnEqualValueWhileTheSignalDeliversEveryEvent() throws {
        let session = DataflowSession()
        session.run("signal s\nvar v = 0\nwire s.out -> v.set\nprobe s\nprobe v --future\npatch sends counter\nwire s.out -> sends.inc")
        try session.expectOutput("send s 1\nsend s 1", [.probe("s.out", 1, txn: 1), .probe("v.value", 1, txn: 1), .probe("s.out", 1, txn: 2)])
        #expect(try session.value("= sends.count").isIdentical(to: 2))
    }

    @Test func touchStillForcesTheTouchedPortButWhatItFeedsCompares() throws {
        let session = DataflowSession()
        session.run("var a = 2\npatch twice map fn=\"$ * 2\"\nwire a.value -> twice.in\nprobe a --future\nprobe twice --future")
        try session.expectOutput("touch a", [.probe("a.value", 2, txn: 2)])
    }
}

@Suite("Shell, seed parity: GlueKit plumbing")
struct SeedParityPlumbingTests {
    /// GlueKit's MergedSourceTests: every value that arrives goes out, each as an event of its
    /// own, in input order when several arrive in one wave.
    @Test func mergeForwardsEveryValueOfAWaveAsSeparateEvents() throws {
        let session = DataflowSession()
        session.run("var a = 1\nderive b = a * 10\npatch m merge\nwire a.value -> m.a\nwire b.value -> m.b\nprobe m")
        try session.expectOutput("set a = 2", [.probe("m.out", 2, txn: 3), .probe("m.out", 20, txn: 3)])
        session.run("signal s\nwire s.out -> m.c")
        try session.expectOutput("send s 7\nsend s 7", [.probe("m.out", 7, txn: 4), .probe("m.out", 7, txn: 5)])
        #expect(session.run("patch types").contains { $0.hasPrefix("  merge (a, b, c) -> (event out)") })
    }

    /// flatMap: a body may emit one event port several times in one run, each a separate event;
    /// a value port keeps the last value emitted in the run.
    @Test func aBodyMayEmitAnEventPortSeveralTimesInOneRun() throws {
        let session = DataflowSession()
        #expect(session.run("patchtype twice (x) -> (event each, last) { emit each x; emit each x + 1; emit last x; emit last x + 1 }") == [
            "patch type twice (x) -> (event each, last)",
        ])
        session.run("patch t twice\nprobe t.each\nprobe t.last --future\npatch n counter\nwire t.each -> n.inc\nsignal s\nwire s.out -> t.x")
        try session.expectOutput("send s 10", [.probe("t.each", 10, txn: 1), .probe("t.each", 11, txn: 1), .probe("t.last", 11, txn: 1)])
        #expect(try session.value("= n.count").isIdentical(to: 2))
        // A port named `event` is still a plain value port.
        #expect(session.run("patchtype ev (x) -> (event) { emit event x }") == ["patch type ev (x) -> (event)"])
    }
}

@Suite("Shell, seed parity: Wolf taps")
struct SeedParityTapTests {
    /// Wolf: a tap patch attached to a view drives that view's own inputs. The `view` input only
    /// attaches the tap, so the wires back are no cycle.
    @Test func aTapMayDriveItsOwnViewsInputs() throws {
        let session = DataflowSession()
        session.run("patch b view x=0 y=0 width=10 height=3\npatch t tap\nwire b.frame -> t.view")
        #expect(session.run("wire t.x -> b.x\nwire t.y -> b.y") == ["wired t.x -> b.x", "wired t.y -> b.y"])
        session.run("probe b --future")
        try session.expectTap("tap b 4 2", fired: ["t"], seeing: [.probe("b.frame", ["x": 4, "y": 2, "width": 10, "height": 3, "text": ""], txn: 3)])
        // The tap now sees the moved frame: the point is relative to it.
        #expect(session.run("tap b 5 2\n= [t.x, t.y]") == [
            "b.frame = {x: 1, y: 0, width: 10, height: 3, text: \"\"}  (txn 4)", "tap at 5,2 fired t", "[1, 0]",
        ])
        // Any other input of the view still closes a cycle.
        session.run("patch m map fn=\"$.x\"\nwire b.frame -> m.in")
        #expect(session.error("wire m.out -> b.text") == "error: the wire would close a cycle: b -> m -> b; use a delay edge (~>) or bind for feedback")
    }
}

@Suite("Shell, seed parity: GlueKit signals, bindings and wires")
struct SeedParitySignalTests {
    /// GlueKit's SignalTests `test_Reentrancy_SinksAreNeverNested`: a sink that sends on its own
    /// signal gives " (3) (2) (1) (0)": each value's sinks all finish before the next value.
    @Test func aSignalIsASinkAndReentrantSendsAreQueuedNeverNested() throws {
        let session = DataflowSession()
        session.run("signal s\npatch l log\nwire s.out -> l.in")
        #expect(session.run("wire s.out -> s.send when $ > 0 : $ - 1") == ["wired s.out -> s.send when $ > 0 : $ - 1"])
        session.run("probe s")
        try session.expectOutput("send s 3", [.log("l", 3), .probe("s.out", 3, txn: 1), .log("l", 2), .probe("s.out", 2, txn: 2), .log("l", 1), .probe("s.out", 1, txn: 3), .log("l", 0), .probe("s.out", 0, txn: 4)])
        // A runaway cascade stops with one error, and the shell goes on.
        session.run("unwire s.send\nwire s.out -> s.send : $ + 1\nunprobe all\nrm l")
        #expect(session.error("send s 0").hasPrefix("error: did not settle after 100 follow-up transactions"))
        #expect(session.run("unwire s.send\n= 1") == ["unwired s.send", "1"])
    }

    @Test func aValueWiredIntoAClosedSignalIsAnError() {
        let session = DataflowSession()
        session.run("signal s\nsignal t\nwire t.out -> s.send\nclose s")
        #expect(session.run("send t 1") == ["error: s is closed: later sends are refused"])
    }

    /// GlueKit's TwoWayBindingTests: after the binding is disconnected, neither side follows.
    @Test func unbindEndsABinding() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0\nbind a b")
        #expect(session.run("set b = 5\n= a") == ["5"])
        #expect(session.run("unbind b a") == ["unbound a <-> b"])
        #expect(session.run("set a = 7\n= [a, b]") == ["[7, 5]"])
        #expect(session.error("unbind a b") == "error: 'a' and 'b' are not bound (there are no bindings)")
    }

    @Test func aFutureWireSkipsTheReplay() throws {
        let session = DataflowSession()
        session.run("var a = 1\npatch n counter")
        #expect(session.run("wire a.value -> n.inc --future : $ * 2") == ["wired a.value -> n.inc --future : $ * 2"])
        #expect(try session.value("= n.count").isIdentical(to: 0))
        session.run("set a = 2")
        #expect(try session.value("= n.count").isIdentical(to: 1))
        #expect(session.error("wire a.value ~> n.dec --future") .hasPrefix("error: --future is for -> wires: a delay edge (~>) never replays; usage: wire SRC.PORT"))
    }
}

@Suite("Shell, seed parity: GlueKit connectors")
struct SeedParityConnectorTests {
    /// GlueKit's Connector (and TwoWayBindingTests' disconnect): what the connector holds ends
    /// together, and afterwards neither side follows the other.
    @Test func aConnectorOwnsTheWiresAndProbesMadeWhileOpenAndEndsThemTogether() throws {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0\nvar c = 0\nwire a.value -> c.set")
        #expect(session.run("connector ui") == ["connector ui open: wires and probes made now join it until 'connector end'"])
        session.run("wire a.value -> b.set : $ * 10\nprobe b --future")
        #expect(session.run("connector end") == ["connector ui closed"])
        session.run("probe c --future")  // made after the end: not the connector's
        #expect(session.run("connector ui add c.set") == ["connector ui: wire a.value -> c.set"])
        #expect(session.run("connector list") == ["ui", "  wire a.value -> b.set : $ * 10", "  wire a.value -> c.set", "  probe b"])
        try session.expectOutput("set a = 2", [.probe("b.value", 20, txn: 3), .probe("c.value", 2, txn: 3)])
        #expect(session.run("connector ui disconnect") == ["connector ui disconnected: 2 wires, 1 probe"])
        // Neither follows a any more; the probe on c was not the connector's and goes on.
        #expect(session.run("set a = 3\nset c = 9\n= [a, b, c]") == ["c.value = 9  (txn 5)", "[3, 20, 9]"])
        #expect(session.run("connector list") == [])
    }

    @Test func connectorMistakesAreClearErrorsThatChangeNothing() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0")
        #expect(session.error("connector end") == "error: no connector is open; open one with 'connector NAME'")
        #expect(session.error("connector ui disconnect") == "error: no connector 'ui' (there are none)")
        #expect(session.error("connector ui add b.set") == "error: b.set has no wire")
        #expect(session.run("connector list") == [])
        session.run("connector ui")
        #expect(session.error("connector other") == "error: connector ui is open; close it with 'connector end' first")
        #expect(session.error("connector").hasPrefix("error: missing the connector's name, or end, list; usage: connector NAME"))
    }

    /// `save` writes the connectors, so the loaded session ends the same things together.
    @Test func aSavedConnectorLoadsBackAndDisconnectsTheSame() throws {
        let directory = TemporaryDirectory()
        let original = DataflowSession()
        original.run("var a = 1\nvar b = 0\nvar c = 0\nwire a.value -> c.set\nconnector ui\nwire a.value -> b.set --future\nprobe b --future\nconnector end")
        original.run("connector ui add c.set\nconnector open\nprobe a --future")
        let (path, _) = try original.save(in: directory)
        let loaded = DataflowSession.loading(path)
        #expect(loaded.run("connector list") == original.run("connector list"))
        #expect(loaded.run("connector list") == ["ui", "  wire a.value -> b.set --future", "  wire a.value -> c.set", "  probe b",
                                                 "open  (open)", "  probe a"])
        #expect(loaded.run("connector ui disconnect") == ["connector ui disconnected: 2 wires, 1 probe"])
    }

    /// A recording of the new commands replays with `--verify`.
    @Test func aRecordingOfTheNewCommandsVerifies() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/seed.jsonl"
        let session = DataflowSession()
        session.run("""
            record \(path)
            signal s
            wire s.out -> s.send when $ > 0 : $ - 1
            var a = 1
            var b = 0
            bind a b
            unbind a b
            connector ui
            wire a.value -> b.set --future : $ * 2
            probe b
            connector end
            patchtype twice (x) -> (event each) { emit each x; emit each x + 1 }
            patch t twice
            wire s.out -> t.x
            patch m merge
            wire t.each -> m.a
            probe m
            send s 2
            set a = 4
            connector ui disconnect
            set a = 5
            record stop
            """)
        // Every command worked when recorded (an error would be recorded, and replayed, as well).
        let recorded = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(recorded.contains("connector ui disconnect") && !recorded.contains("\"kind\":\"error\""), "\(recorded)")
        let verified = DataflowSession().run("replay \(path) --verify")
        #expect(verified.count == 1 && verified[0].hasPrefix("verified ") && verified[0].hasSuffix("every effect matches the recording"), "\(verified)")
    }
}

@Suite("Shell, seed parity: completion of the new commands")
struct SeedParityCompletionTests {
    @Test func theNewCommandsAndOptionsComplete() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0\nbind a b\nconnector ui\nconnector end")
        func candidates(_ line: String) -> [String] { session.shell.complete(line, cursor: line.utf8.count).candidates }
        #expect(candidates("unbi") == ["unbind"])
        #expect(candidates("unbind a ") == ["a", "b"])
        #expect(candidates("conn") == ["connector"])
        #expect(candidates("connector ") == ["end", "list", "ui"])
        #expect(candidates("connector ui ") == ["add", "disconnect"])
        #expect(candidates("connector ui add b.s") == ["b.set"])
        #expect(candidates("wire a.value -> b.set ").contains("--future"))
    }
}
