@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Every built-in patch type (`help patch TYPE`), user-defined types, knots, pipes and binds, on the
// library's `Graph`. Helpers (`variable`, `addPatch`, `connect`, `took`...) are in
// DataflowGraphTests.swift.

@Suite("Graph: built-in patch types")
struct DataflowPatchTypeTests {
    @Test func theBuiltInTypesAreListedInOrder() {
        let graph = Graph()
        #expect(graph.patchTypeNames == [
            "expr", "map", "filter", "merge", "combine", "counter", "accumulate", "distinct", "sample", "gate", "delay",
            "timer", "log", "view", "tap",
        ])
        #expect(graph.allPatchTypes.first { $0.name == "map" }?.signature == "map (in) -> (out) fn=...")
        #expect(graph.allPatchTypes.first { $0.name == "accumulate" }?.signature == "accumulate (in) -> (out) fn=... initial=0")
        #expect(graph.allPatchTypes.allSatisfy { !$0.isUserDefined })
    }

    @Test func exprMakesAnInputOfEveryFreeNameAndNeverReadsNodes() throws {
        let graph = Graph()
        try graph.variable("x", 100)  // a node named like an input is not read
        try graph.addPatch("e", "expr", ["expr": "x * y + 1"])
        #expect(graph.summary("e")?.inputs == ["x", "y"])
        #expect(graph.summary("e")?.outputs == ["out"])
        #expect(graph.value("e") == nil)  // empty until every input has a value
        try graph.setInput(PortAddress("e.x"), to: 2)
        #expect(graph.value("e") == nil)
        try graph.setInput(PortAddress("e.y"), to: 3)
        #expect(graph.value("e") == 7)
        try graph.set("x", to: 5)
        #expect(graph.value("e") == 7)
    }

    @Test func mapAppliesItsFunctionToEachValue() throws {
        let graph = Graph()
        try graph.variable("name", "ada")
        try graph.addPatch("shout", "map", ["fn": "upper($) + '!'"])
        try graph.connect("name.value", "shout.in")
        #expect(graph.value("shout") == "ADA!")
        try graph.set("name", to: "max")
        #expect(graph.value("shout") == "MAX!")
    }

    @Test func filterPassesTheValuesItsConditionAccepts() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("big", "filter", ["when": "$ > 2"])
        try graph.connect("s.out", "big.in")
        try graph.probe("big")
        for n in [1, 5, 2, 9] { try graph.send("s", .int(n)) }
        #expect(graph.took() == ["big.out = 5", "big.out = 9"])
        try graph.addPatch("bad", "filter", ["when": "$"])
        try graph.connect("s.out", "bad.in")
        try graph.send("s", 1)
        #expect(graph.took().contains("error: bad failed: when must give a bool, not int"))
    }

    @Test func mergePassesEveryArrivalInInputOrderWhenTogether() throws {
        let graph = Graph()
        try graph.createSignal("left")
        try graph.createSignal("right")
        try graph.addPatch("m", "merge")
        try graph.connect("left.out", "m.a")
        try graph.connect("right.out", "m.b")
        try graph.connect("right.out", "m.c")
        try graph.probe("m")
        try graph.send("left", "L")
        try graph.send("right", "R")  // b and c in the same wave: each goes out, b first
        #expect(graph.took() == ["m.out = \"L\"", "m.out = \"R\"", "m.out = \"R\""])
    }

    @Test func combineWaitsForEveryInputThenMakesOneObject() throws {
        let graph = Graph()
        try graph.addPatch("both", "combine")
        #expect(graph.summary("both")?.inputs == ["a", "b"])
        try graph.setInput(PortAddress("both.a"), to: 1)
        #expect(graph.value("both") == nil)
        try graph.setInput(PortAddress("both.b"), to: 2)
        #expect(graph.value("both") == ["a": 1, "b": 2])
        try graph.addPatch("point", "combine", ["inputs": ["x", "y", "z"]])
        #expect(graph.summary("point")?.inputs == ["x", "y", "z"])
        #expect(throws: GraphError.self) { try graph.addPatch("broken", "combine", ["inputs": ["x", "x"]]) }
    }

    @Test func counterCountsEveryArrival() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("n", "counter")
        #expect(graph.value("n") == 0)
        try graph.connect("s.out", "n.inc")
        try graph.send("s", 0)
        try graph.send("s", 0)  // equal values count too: they are arrivals
        #expect(graph.value("n") == 2)
        try graph.setInput(PortAddress("n.dec"), to: true)
        #expect(graph.value("n") == 1)
        try graph.setInput(PortAddress("n.reset"), to: true)
        #expect(graph.value("n") == 0)
    }

    @Test func accumulateFoldsEachValueIntoItsOutput() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("sum", "accumulate", ["fn": "acc + $", "initial": 10])
        #expect(graph.value("sum") == 10)
        try graph.connect("s.out", "sum.in")
        try graph.send("s", 1)
        try graph.send("s", 2)
        #expect(graph.value("sum") == 13)
        try graph.addPatch("list", "accumulate", ["fn": "append(acc, $)", "initial": []])
        try graph.connect("s.out", "list.in")
        try graph.send("s", "a")
        try graph.send("s", "b")
        #expect(graph.value("list") == ["a", "b"])
    }

    @Test func distinctDropsRepeats() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("d", "distinct")
        try graph.connect("s.out", "d.in")
        try graph.probe("d")
        for n in [1, 1, 2, 2, 1] { try graph.send("s", .int(n)) }
        #expect(graph.took() == ["d.out = 1", "d.out = 2", "d.out = 1"])
    }

    @Test func samplePassesTheCurrentInputOnEachTrigger() throws {
        let graph = Graph()
        try graph.variable("v", 1)
        try graph.createSignal("go")
        try graph.addPatch("sm", "sample")
        try graph.connect("v.value", "sm.in")
        try graph.connect("go.out", "sm.trigger")
        try graph.probe("sm", future: true)
        try graph.set("v", to: 5)  // in alone never fires
        #expect(graph.took() == [])
        try graph.send("go", nil)
        try graph.send("go", nil)  // out is a value port: the same sample again stops there
        try graph.set("v", to: 6)
        try graph.send("go", nil)
        #expect(graph.took() == ["sm.out = 5", "sm.out = 6"])
    }

    @Test func gatePassesValuesWhileOpen() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("g", "gate")
        try graph.connect("s.out", "g.in")
        try graph.probe("g")
        try graph.send("s", 1)
        try graph.setInput(PortAddress("g.open"), to: true)
        try graph.send("s", 2)
        try graph.setInput(PortAddress("g.open"), to: false)
        try graph.send("s", 3)
        #expect(graph.took() == ["g.out = 2"])
        try graph.addPatch("open", "gate", ["open": true])
        try graph.connect("s.out", "open.in")
        try graph.send("s", 4)
        #expect(graph.value("open") == 4)
    }

    @Test func delayPassesEachValueLaterOnTick() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("later", "delay", ["ms": 100])
        try graph.connect("s.out", "later.in")
        try graph.probe("later")
        try graph.send("s", "first")
        #expect(graph.engine.clock.pendingCount == 1)
        #expect(try graph.tick(by: 50) == 50)
        try graph.send("s", "second")
        #expect(graph.took() == [])
        #expect(try graph.tick(by: 50) == 100)
        #expect(graph.took() == ["later.out = \"first\""])
        #expect(try graph.tick() == 150)  // one step: to the next timer
        #expect(graph.took() == ["later.out = \"second\""])
        #expect(graph.engine.clock.pendingCount == 0)
    }

    @Test func timerCountsUpOnTick() throws {
        let graph = Graph()
        try graph.addPatch("t", "timer", ["ms": 30])
        #expect(graph.value("t") == 0)
        try graph.probe("t", future: true)
        #expect(try graph.tick(by: 100) == 100)
        #expect(graph.took() == ["t.tick = 1", "t.tick = 2", "t.tick = 3"])
        #expect(graph.engine.clock.nextDue == 120)
        #expect(throws: GraphError.patchType(type: "timer", .invalidParameter("ms", "must be at least 1"))) {
            try graph.addPatch("bad", "timer", ["ms": 0])
        }
    }

    @Test func logReportsEveryArrival() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("l", "log")
        #expect(graph.summary("l")?.outputs == [])
        try graph.connect("s.out", "l.in")
        let transaction = graph.engine.transactionID
        try graph.send("s", ["id": 1])
        try graph.send("s", ["id": 1])
        #expect(graph.takeEvents() == [
            .log(node: "l", value: ["id": 1], transaction: transaction + 1),
            .log(node: "l", value: ["id": 1], transaction: transaction + 2),
        ])
    }

    @Test func viewMakesAFrameThatRenderDraws() throws {
        let graph = Graph()
        try graph.addPatch("v", "view", ["x": 2, "y": 1, "width": 8, "text": "hi"])
        #expect(graph.value("v") == ["x": 2, "y": 1, "width": 8, "height": 3, "text": "hi"])
        #expect(graph.render() == ["", "  +------+", "  |hi    |", "  +------+"])
        try graph.setInput(PortAddress("v.text"), to: "hello")
        #expect(graph.render()[2] == "  |hello |")
        #expect(Graph().render() == [])
    }

    @Test func aViewMadeWithDefaultsUsesThemAsItsInputs() throws {
        let graph = Graph()
        try graph.addPatch("v", "view", ["width": 4])
        #expect(graph.value("v") == ["x": 0, "y": 0, "width": 4, "height": 3, "text": ""])
        #expect(try graph.show(PortAddress("v.x")).drivers == ["local value 0"])
        #expect(graph.render() == ["+--+", "|  |", "+--+"])
    }

    @Test func tapEmitsBothCoordinatesTogether() throws {
        let graph = Graph()
        try graph.addPatch("v", "view", ["x": 10, "y": 5, "width": 10, "height": 4])
        try graph.addPatch("tp", "tap")
        try graph.connect("v.frame", "tp.view")
        try graph.addPatch("where", "expr", ["expr": "[x, y]"])
        try graph.connect("tp.x", "where.x")
        try graph.connect("tp.y", "where.y")
        try graph.addPatch("l", "log")
        try graph.connect("where.out", "l.in")
        #expect(try graph.tap("v", x: 12, y: 6) == ["tp"])
        #expect(try graph.tap("v", x: 15, y: 8) == ["tp"])
        // Relative to the frame, and never a half-updated point such as [5, 1].
        #expect(graph.took() == ["l: [2, 1]", "l: [5, 3]"])
        #expect(try graph.tap("v", x: 9, y: 6) == [])  // outside the frame
        #expect(graph.took() == [])
        #expect(throws: GraphError.wrongKind("tp", kind: .patch(type: "tap"), expected: "tap works on view patches")) {
            try graph.tap("tp", x: 0, y: 0)
        }
    }

    @Test func parametersAreChecked() {
        let graph = Graph()
        #expect(throws: GraphError.patchType(type: "map", .missingParameter("fn"))) { try graph.addPatch("m", "map") }
        #expect(throws: GraphError.patchType(type: "map", .unknownParameter("f", known: ["fn", "in"]))) {
            try graph.addPatch("m", "map", ["fn": "$", "f": 1])
        }
        #expect(throws: GraphError.patchType(type: "delay", .invalidParameter("ms", "must be an int, not string"))) {
            try graph.addPatch("d", "delay", ["ms": "soon"])
        }
        #expect(graph.nodeNames == [])
    }
}

@Suite("Graph: user-defined patch types")
struct DataflowUserPatchTypeTests {
    @Test func aPatchTypeBodyReadsInputsByNameAndEmitsOutputs() throws {
        let graph = Graph()
        try graph.definePatchType("minmax", inputs: ["a", "b"], outputs: ["low", "high"],
                                  body: StatementBlock("emit low min([a, b]); emit high max([a, b])"))
        #expect(graph.patchTypeNames.last == "minmax")
        #expect(graph.allPatchTypes.last?.isUserDefined == true)
        try graph.addPatch("mm", "minmax")
        #expect(graph.summary("mm")?.inputs == ["a", "b"])
        #expect(graph.summary("mm")?.outputs == ["low", "high"])
        try graph.probe("mm")
        try graph.setInput(PortAddress("mm.a"), to: 9)
        #expect(graph.took() == [])  // runs once every input has a value
        try graph.setInput(PortAddress("mm.b"), to: 3)
        #expect(graph.took() == ["mm.low = 3", "mm.high = 9"])
        #expect(throws: GraphError.patchTypeTaken("minmax")) {
            try graph.definePatchType("minmax", inputs: [], outputs: [], body: StatementBlock(""))
        }
    }

    @Test func aPatchTypeNamingTwoPortsAlikeIsRefused() throws {
        let graph = Graph()
        #expect(throws: GraphError.portNameTaken(type: "u", port: "a")) {
            try graph.definePatchType("u", inputs: ["a", "a"], outputs: ["b"], body: StatementBlock("emit b a"))
        }
        #expect(throws: GraphError.portNameTaken(type: "u", port: "a")) {
            try graph.definePatchType("u", inputs: ["a"], outputs: ["a"], body: StatementBlock("emit a a"))
        }
        #expect(throws: GraphError.portNameTaken(type: "v", port: "out")) {
            try graph.definePatchType("v", inputs: ["a"], outputs: ["out", "out"], eventOutputs: ["out"], body: StatementBlock("emit out a"))
        }
        #expect(graph.allPatchTypes.allSatisfy { $0.name != "u" && $0.name != "v" })
    }

    @Test func aPatchTypeBodyKeepsStateBetweenRuns() throws {
        let graph = Graph()
        try graph.definePatchType("runs", inputs: ["in"], outputs: ["count"],
                                  body: StatementBlock("state.n = (state?.n ?? 0) + 1; emit count state.n"))
        try graph.addPatch("r", "runs")
        try graph.createSignal("s")
        try graph.connect("s.out", "r.in")
        for _ in 1...3 { try graph.send("s", 0) }
        #expect(graph.value("r") == 3)
    }

    @Test func emittingToAnUnknownOutputFailsThePatch() throws {
        let graph = Graph()
        try graph.definePatchType("oops", inputs: ["in"], outputs: ["out"], body: StatementBlock("emit nope in"))
        try graph.addPatch("o", "oops")
        try graph.setInput(PortAddress("o.in"), to: 1)
        #expect(graph.took() == ["error: o failed: emit nope: no such output (outputs: out)"])
        #expect(graph.summary("o")?.state == .failed)
    }
}

@Suite("Graph: knots, pipes and binds")
struct DataflowKnotTests {
    @Test func aKnotsUpdateInputMergesAnObjectIntoTheState() throws {
        let graph = Graph()
        try graph.createKnot("k", state: ["count": 0, "title": "x"])
        #expect(graph.summary("k")?.outputs == ["state"])
        #expect(graph.summary("k")?.inputs == ["update"])
        try graph.setInput(PortAddress("k.update"), to: ["title": "y"])
        #expect(graph.value("k") == ["count": 0, "title": "y"])
        try graph.setInput(PortAddress("k.update"), to: 5)
        #expect(graph.took() == ["error: k failed: k.update takes an object to merge into the state, not int"])
        #expect(graph.value("k") == ["count": 0, "title": "y"])
        try graph.set("k", to: ["count": 1])  // the whole state
        #expect(graph.value("k") == ["count": 1])
        #expect(graph.summary("k")?.state == .value)
    }

    @Test func aPipeReducesTheKnotWithEventsItsConditionAccepts() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.createKnot("k", state: ["count": 0])
        try graph.addPipe("s.out", to: "k", when: "$ > 0", "state.count += $")
        for n in [2, -1, 3] { try graph.send("s", .int(n)) }
        #expect(graph.value("k") == ["count": 5])
        #expect(graph.edgeTexts() == ["s.out -> k (pipe: state.count += $)"])
        #expect(throws: GraphError.wrongKind("s", kind: .signal, expected: "pipe feeds knots")) {
            try graph.addPipe("k.state", to: "s", "state = $")
        }
    }

    @Test func bindKeepsTwoVariablesEqualStartingFromTheFirst() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("b", 2)
        try graph.bind("a", "b")
        #expect(graph.value("b") == 1)
        try graph.set("a", to: 7)
        #expect(graph.value("b") == 7)
        try graph.set("b", to: 9)
        #expect(graph.value("a") == 9)
        #expect(graph.edgeTexts() == ["a -> b (bind)"])
        try graph.createSignal("s")
        #expect(throws: GraphError.wrongKind("s", kind: .signal, expected: "bind works on variables")) {
            try graph.bind("a", "s")
        }
    }
}
