import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// The commands that create, wire and observe nodes at the prompt, and every built-in patch type.
// `DataflowSession` is in DataflowShellTests.swift.

@Suite("Shell: creating nodes")
struct DataflowShellCreationTests {
    @Test func eachKindOfNodeSaysWhatItMade() {
        let session = DataflowSession()
        #expect(session.run("""
            var a = 1 + 1
            derive b = a * 10
            signal s
            knot k = {title: "x"}
            patch m map fn="$ + 1"
            patch n counter
            """) == [
                "a = 2", "b = 20", "s: signal (send) -> (out)", "k = {title: \"x\"}", "m: patch map (in) -> (out)",
                "n: patch counter (inc, dec, reset) -> (count)  = 0",
            ])
        #expect(session.error("var a = 3") == "error: 'a' is already a node (var); rm it first or pick another name")
        #expect(session.error("patch p map") == "error: map: missing the parameter fn=...")
        #expect(session.error("patch p map fn=\"$\" f=1") == "error: map: no parameter 'f' (parameters: fn, in)")
        // A parameter that is also an input is listed once.
        #expect(session.error("patch p view zz=1") == "error: view: no parameter 'zz' (parameters: x, y, width, height, text)")
    }

    @Test func patchTypesListsEveryTypeWithItsPortsAndParameters() {
        let lines = DataflowSession().run("patch types")
        let types = lines.filter { !$0.hasPrefix("    ") && $0.contains(" -> ") }.map { $0.split(separator: " ")[0] }
        #expect(types == [
            "expr", "map", "filter", "merge", "combine", "counter", "accumulate", "distinct", "sample", "gate", "delay",
            "timer", "log", "view", "tap",
        ])
        #expect(lines.contains { $0.hasPrefix("  map (in) -> (out) ") && $0.hasSuffix("out = fn applied to each value of in ($)") })
        #expect(lines.contains { $0.contains("fn=  an expression over $, e.g. \"$ + 1\" (required)") })
        #expect(lines.contains { $0.contains("initial=  the first acc (default 0)") })
    }

    @Test func patchtypeDefinesATypeWhoseBodyEmits() throws {
        let session = DataflowSession()
        #expect(session.run("patchtype minmax (a, b) -> (low, high) { emit low min([a, b]); emit high max([a, b]) }")
            == ["patch type minmax (a, b) -> (low, high)"])
        #expect(session.run("patch types").last == "  minmax (a, b) -> (low, high)                 user-defined: { emit low min([a, b]); emit high max([a, b]) }")
        session.run("patch mm minmax\nprobe mm")
        try session.expectOutput("set mm.a = 9", [])
        try session.expectOutput("set mm.b = 3", [.probe("mm.low", 3, txn: 2), .probe("mm.high", 9, txn: 2)])
        #expect(session.error("patchtype minmax () -> () { }") == "error: patch type 'minmax' already exists")
    }

    @Test func aKnotTakesUpdatesAndPipesWithWhen() throws {
        let session = DataflowSession()
        session.run("knot k = {count: 0}\nprobe k --future\nsignal s\npipe s.out -> k when $ > 0 : state.count += $")
        try session.expectOutput("send s 2\nsend s -1\nsend s 3", [.probe("k.state", ["count": 2], txn: 1), .probe("k.state", ["count": 5], txn: 3)])
        try session.expectOutput("set k.update = {title: \"y\"}", [.probe("k.state", ["count": 5, "title": "y"], txn: 4)])
        #expect(session.run("set k = {count: 0}\n= k") == ["k.state = {count: 0}  (txn 5)", "{count: 0}"])
        #expect(session.error("pipe s.out -> s : state = $") == "error: 's' is a signal node; pipe feeds knots")
    }

    @Test func sendAndCloseDriveASignal() throws {
        let session = DataflowSession()
        session.run("signal s\nprobe s")
        try session.expectOutput("send s {id: 1}", [.probe("s.out", ["id": 1], txn: 1)])
        #expect(session.run("close s") == [])
        #expect(session.error("send s 2") == "error: signal 's' is closed")
        #expect(session.error("send zz 1") == "error: no node 'zz' (nodes: s)")
    }
}

@Suite("Shell: built-in patch types")
struct DataflowShellPatchTypeTests {
    @Test func expr() {
        let session = DataflowSession()
        #expect(session.run("var x = 100\npatch e expr expr=\"x * y + 1\"") == ["x = 100", "e: patch expr (x, y) -> (out)"])
        #expect(session.run("set e.x = 2\nset e.y = 3\n= e") == ["7"])
    }

    @Test func mapAndFilter() throws {
        let session = DataflowSession()
        session.run("signal s\npatch big filter when=\"$ > 2\"\npatch sq map fn=\"$ * $\"\nwire s.out -> big.in\nwire big.out -> sq.in\nprobe sq")
        try session.expectOutput("send s 1\nsend s 5\nsend s 2\nsend s 3", [.probe("sq.out", 25, txn: 2), .probe("sq.out", 9, txn: 4)])
    }

    @Test func merge() throws {
        let session = DataflowSession()
        session.run("signal l\nsignal r\npatch m merge\nwire l.out -> m.a\nwire r.out -> m.b\nprobe m")
        try session.expectOutput("send l 1\nsend r 2\nsend l 3", [.probe("m.out", 1, txn: 1), .probe("m.out", 2, txn: 2), .probe("m.out", 3, txn: 3)])
    }

    @Test func combine() throws {
        let session = DataflowSession()
        session.run("patch c combine inputs=[\"x\", \"y\"]\nprobe c")
        try session.expectOutput("set c.x = 1", [])
        try session.expectOutput("set c.y = 2", [.probe("c.out", ["x": 1, "y": 2], txn: 2)])
    }

    @Test func counter() throws {
        let session = DataflowSession()
        session.run("signal s\npatch n counter\nwire s.out -> n.inc\nprobe n --future")
        try session.expectOutput("send s 0\nsend s 0\nset n.dec = 1\nset n.reset = true", [.probe("n.count", 1, txn: 1), .probe("n.count", 2, txn: 2), .probe("n.count", 1, txn: 3), .probe("n.count", 0, txn: 4)])
    }

    @Test func accumulate() throws {
        let session = DataflowSession()
        #expect(session.run("signal s\npatch sum accumulate fn=\"acc + $\" initial=10\nwire s.out -> sum.in\nprobe sum") == [
            "s: signal (send) -> (out)", "sum: patch accumulate (in) -> (out)  = 10", "wired s.out -> sum.in", "sum.out = 10  (txn 0)",
        ])
        try session.expectOutput("send s 1\nsend s 2", [.probe("sum.out", 11, txn: 1), .probe("sum.out", 13, txn: 2)])
    }

    @Test func distinct() throws {
        let session = DataflowSession()
        session.run("signal s\npatch d distinct\nwire s.out -> d.in\nprobe d")
        try session.expectOutput("send s 1\nsend s 1\nsend s 2", [.probe("d.out", 1, txn: 1), .probe("d.out", 2, txn: 3)])
    }

    @Test func sample() throws {
        let session = DataflowSession()
        session.run("var v = 1\nsignal go\npatch sm sample\nwire v.value -> sm.in\nwire go.out -> sm.trigger\nprobe sm")
        try session.expectOutput("set v = 5", [])
        // out is a value port: the same sample again stops there.
        try session.expectOutput("send go null\nsend go null\nset v = 6\nsend go null", [.probe("sm.out", 5, txn: 3), .probe("sm.out", 6, txn: 6)])
    }

    @Test func gate() throws {
        let session = DataflowSession()
        session.run("signal s\npatch g gate\nwire s.out -> g.in\nprobe g")
        try session.expectOutput("send s 1\nset g.open = true\nsend s 2\nset g.open = false\nsend s 3", [.probe("g.out", 2, txn: 4)])
        #expect(session.run("set g.open = 1\nsend s 4") == ["error: g failed: open must be a bool, not int"])
    }

    @Test func delayWithTick() throws {
        let session = DataflowSession()
        session.run("signal s\npatch later delay ms=100\nwire s.out -> later.in\nprobe later")
        #expect(session.run("send s \"a\"\nclock") == ["clock 0 ms, 1 timer pending, next at 100 ms"])
        #expect(session.run("tick 50\nsend s \"b\"\ntick 50") == [
            "clock 50 ms", "later.out = \"a\"  (txn 3)", "clock 100 ms",
        ])
        #expect(session.run("tick") == ["later.out = \"b\"  (txn 4)", "clock 150 ms"])
        try session.expectClock(now: 150, pending: 0)
    }

    @Test func timerWithTick() throws {
        let session = DataflowSession()
        #expect(session.run("patch t timer ms=30\nprobe t --future") == ["t: patch timer () -> (tick)  = 0"])
        #expect(session.run("tick 100") == [
            "t.tick = 1  (txn 1)", "t.tick = 2  (txn 2)", "t.tick = 3  (txn 3)", "clock 100 ms",
        ])
        try session.expectClock(now: 100, pending: 1, next: 120)
        #expect(session.run("rm t\nclock") == ["removed t", "clock 100 ms, no timers pending"])
    }

    @Test func log() throws {
        let session = DataflowSession()
        #expect(session.run("var a = 1\npatch l log\nwire a.value -> l.in") == [
            "a = 1", "l: patch log (in) -> ()", "l: 1", "wired a.value -> l.in",
        ])
        try session.expectOutput("set a = {x: [1, 2]}", [.log("l", ["x": [1, 2]])])
    }

    @Test func viewAndRender() {
        let session = DataflowSession()
        #expect(session.run("render") == ["nothing to render (no view patches)"])
        #expect(session.run("patch v view x=2 y=1 width=10 text=\"hi\"") == [
            "v: patch view (x, y, width, height, text) -> (frame)  = {x: 2, y: 1, width: 10, height: 3, text: \"hi\"}",
        ])
        #expect(session.run("render") == ["", "  +--------+", "  |hi      |", "  +--------+"])
        // Later views are drawn over earlier ones.
        #expect(session.run("patch w view width=4\nrender") == [
            "w: patch view (x, y, width, height, text) -> (frame)  = {x: 0, y: 0, width: 4, height: 3, text: \"\"}",
            "+--+", "|  |-------+", "+--+i      |", "  +--------+",
        ])
    }

    @Test func tap() throws {
        let session = DataflowSession()
        session.run("patch v view x=2 y=1 width=10 height=3\npatch tp tap\nwire v.frame -> tp.view\nprobe tp")
        try session.expectTap("tap v 5 2", fired: ["tp"], seeing: [.probe("tp.x", 3, txn: 3), .probe("tp.y", 1, txn: 3)])
        #expect(session.error("tap tp 1 1") == "error: 'tp' is a patch tap node; tap works on view patches")
    }
}

@Suite("Shell: wiring and observing")
struct DataflowShellObservingTests {
    @Test func wireWithWhenAndATransform() {
        let session = DataflowSession()
        session.run("var a = 1\nvar t = 0")
        #expect(session.run("wire a.value -> t.set when $ > 2 : $ * 10") == ["wired a.value -> t.set when $ > 2 : $ * 10"])
        #expect(session.run("set a = 2\n= t\nset a = 3\n= t") == ["0", "30"])
    }

    @Test func unprobeStopsProbes() {
        let session = DataflowSession()
        session.run("var a = 1\nderive b = a + 1\nprobe a --future\nprobe b --future")
        #expect(session.run("unprobe a\nset a = 2") == ["b.value = 3  (txn 1)"])
        #expect(session.run("unprobe all\nset a = 3") == [])
    }

    @Test func whyPrintsTheCauseChain() throws {
        let session = DataflowSession()
        session.run("var a = 1\nderive b = a + 1\nderive c = a * 2\nderive d = b + c")
        #expect(try session.report("why d", as: CauseChain.self).causes == ["derive d = b + c", "d.value"])
        session.run("set a = 2")
        #expect(try session.report("why d", as: CauseChain.self).causes == ["set a = 2", "a.value", "b.value", "d.value"])
        #expect(try session.report("why d.value", as: CauseChain.self).causes == ["set a = 2", "a.value", "b.value", "d.value"])
        session.run("patch m map fn=\"$\"\nwire d.value -> m.in")
        // The wire delivered d's value, which a = 2 caused.
        #expect(try session.report("why m.in", as: CauseChain.self).causes == ["set a = 2", "a.value", "b.value", "d.value", "m.in"])
        session.run("signal s")
        #expect(session.run("why s") == ["s has no value yet"])
    }

    @Test func theCauseIsTheCommandsFirstLineTrimmedAndShortened() throws {
        let session = DataflowSession()
        session.run("var a = 1")
        #expect(session.outcome(" \t set a = 2 \t").status == .success)
        #expect(try session.report("why a", as: CauseChain.self).causes == ["set a = 2", "a.value"])
        #expect(session.outcome("set a = [1,\n 2]").status == .success)
        #expect(try session.report("why a", as: CauseChain.self).causes == ["set a = [1,", "a.value"])
        #expect(session.outcome("set a = [3,\r\n 4]").status == .success)
        #expect(try session.report("why a", as: CauseChain.self).causes == ["set a = [3,", "a.value"])
        // Longer than 60 characters: cut to 57 and "...". Counted in characters, not bytes.
        let digits = String(repeating: "0123456789", count: 7)
        #expect(session.outcome("set a = \"\(digits)\"").status == .success)
        #expect(session.run("why a") == ["set a = \"\(digits.prefix(48))... → a.value"])
        let accents = String(repeating: "é", count: 50)
        #expect(session.outcome("set a = \"\(accents)\"").status == .success)
        #expect(session.run("why a") == ["set a = \"\(accents)\" → a.value"])
    }

    @Test func showDescribesEveryPortOfANode() {
        let session = DataflowSession()
        session.run("var a = 1\npatch m map fn=\"$ * 2\"\nwire a.value -> m.in\nprobe m.out\nvar u = 0\nwire m.out ~> u.set")
        #expect(session.run("show m") == [
            "m.out  value port, value: 2",
            "  subscribers: wire m.out ~> u.set; probe m.out",
            "m.in  input, value: 1",
            "  driven by wire a.value -> m.in",
            "  no subscribers",
        ])
        #expect(session.run("signal s\nshow s") == [
            "s: signal (send) -> (out)", "s.out  event port, empty", "  no subscribers",
            "s.send  input (takes many wires), empty", "  driven by nothing (no wire, no local value)", "  no subscribers",
        ])
    }

    @Test func nodesListsEveryNode() {
        let session = DataflowSession()
        #expect(session.run("nodes") == ["no nodes yet (create one with var, derive, signal, knot or patch)"])
        session.run("var count = 1\nderive twice = count * 2\nsignal s\nknot k = {n: 0}\npatch m map fn=\"$\"")
        #expect(session.run("nodes") == [
            "count  var  = 1",
            "twice  derive  = 2",
            "s      signal",
            "k      knot  = {n: 0}",
            "m      patch map (in) -> (out)",
        ])
    }

    @Test func graphDrawsNodesAndEdges() {
        let session = DataflowSession()
        #expect(session.run("graph") == ["the graph is empty"])
        session.run("""
            var a = 1
            derive b = a + 1
            signal s
            knot k = {n: 0}
            patch m map fn="$ * 2"
            wire a.value -> m.in when $ > 0 : $ + 1
            pipe s.out -> k : state.n += $
            var u = 0
            var v = 0
            bind u v
            wire m.out ~> u.set
            """)
        #expect(session.run("graph") == [
            "a  var  = 1",
            "  a.value ..> b",
            "  a.value -> m.in  when $ > 0 : $ + 1",
            "b  derive  = 2",
            "s  signal",
            "  s.out =pipe=> k  state.n += $",
            "k  knot  = {n: 0}",
            "m  patch map (in) -> (out)  = 4",
            "  m.out ~> u.set",
            "u  var  = 0",
            "  u <-> v",
            "v  var  = 0",
        ])
    }

    @Test func graphDotWritesGraphviz() throws {
        let session = DataflowSession()
        session.run("var a = 1\nderive b = a + 1")
        let dot = """
            digraph patchbay {
              rankdir=LR;
              node [shape=record, fontname="monospace"];
              "a" [label="{{<in_set> set}|a\\nvar|{<out_value> value}}"];
              "b" [label="{b\\nderive|{<out_value> value}}"];
              "a":out_value -> "b" [style=dotted];
            }
            """
        #expect(session.run("graph --dot") == [dot])
        let directory = TemporaryDirectory()
        let file = directory.path + "/g.dot"
        #expect(session.run("graph --dot \(file)") == ["wrote \(file)"])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == dot + "\n")
        #expect(session.error("graph --dot \(file)") == "error: cannot write '\(file)': the file exists; add --force to replace it, or choose another name")
        #expect(session.run("graph --dot \(file) --force") == ["wrote \(file)"])
        #expect(session.error("graph --dot /nonexistent-dir/g.dot") == "error: cannot write '/nonexistent-dir/g.dot': the directory does not exist")
    }

    @Test func clockAndTick() {
        let session = DataflowSession()
        #expect(session.run("clock\ntick\ntick 250\nclock") == [
            "clock 0 ms, no timers pending", "clock 1 ms", "clock 251 ms", "clock 251 ms, no timers pending",
        ])
        #expect(session.run("begin") == [])
        #expect(session.error("tick") == "error: 'tick' cannot run inside a transaction; commit or abort it first")
    }
}
