@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// The named-node `Graph` behind the shell's dataflow commands, rule by rule. The suites number
// the rules that PatchbayHost.docc/Dataflow.md states in prose: 1 replay, 2 one source per input,
// 3 equal values stop, 4 order, 5 glitch-free, 6 transactions, 7 reentrancy, 8 samples,
// 9 cycles, 10 errors stay local, 11 lifetime. What
// flows while a method runs (probe and log output, node failures) comes back from
// `graph.takeEvents()`; `Graph.took()` below renders it as short lines for the expectations.

extension Graph {
    /// Runs `body` as the shell runs the command `text`: the text is the root of cause chains.
    func run(_ text: String, _ body: () throws -> Void) rethrows {
        cause = text
        defer { cause = "" }
        try body()
    }

    func variable(_ name: String, _ value: Value) throws {
        try createVariable(name, value: value)
    }

    func derive(_ name: String, _ expression: String) throws {
        try createDerived(name, expression: Expression(expression))
    }

    func addPatch(_ name: String, _ type: String, _ arguments: [String: Value] = [:]) throws {
        try createPatch(name, type: type, arguments: arguments)
    }

    @discardableResult
    func connect(_ source: String, _ target: String, when condition: String? = nil, transform: String? = nil,
                 delay: Bool = false) throws -> WireOutcome {
        try wire(from: PortAddress(source), to: PortAddress(target), when: condition.map { try Expression($0) },
                 transform: transform.map { try Expression($0) }, isDelay: delay)
    }

    func addPipe(_ source: String, to knot: String, when condition: String? = nil, _ body: String) throws {
        try pipe(from: PortAddress(source), to: knot, when: condition.map { try Expression($0) }, body: StatementBlock(body))
    }

    /// What a node's name reads in expressions, or nil while it is empty.
    func value(_ name: String) -> Value? {
        if case .value(let value) = lookup(name: name) { return value }
        return nil
    }

    /// The events since the last call, as short lines: `d.value = 7`, `l: 3`, `error: ...`.
    func took() -> [String] {
        takeEvents().map { event in
            switch event {
            case .probe(let port, let value, _): "\(port) = \(value)"
            case .log(let node, let value, _): "\(node): \(value)"
            case .error(let error): "error: \(error)"
            case .dispatched(let step): "#\(step.index) \(step.action)"
            case .routed(let navigation): "routed \(navigation.url)"
            }
        }
    }

    /// `from -> to (kind: label)` for every edge.
    func edgeTexts() -> [String] {
        edges().map { "\($0.from) -> \($0.to) (\($0.kind.rawValue)" + ($0.label.map { ": \($0)" } ?? "") + ")" }
    }

    func summary(_ name: String) -> NodeSummary? {
        summaries().first { $0.name == name }
    }
}

extension PortAddress {
    /// `node.port`
    init(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        self.init(node: parts[0], port: parts.count > 1 ? parts[1] : "")
    }
}

@Suite("Graph, rule 1: replay")
struct DataflowGraphReplayTests {
    @Test func probingAValuePortReportsItsValueAtOnce() throws {
        let graph = Graph()
        try graph.variable("x", 3)
        let transaction = graph.engine.transactionID
        #expect(try graph.probe("x") == [PortAddress("x.value")])
        #expect(graph.takeEvents() == [.probe(port: "x.value", value: 3, transaction: transaction)])
        try graph.set("x", to: 4)
        #expect(graph.takeEvents() == [.probe(port: "x.value", value: 4, transaction: transaction + 1)])
    }

    @Test func aFutureProbeSkipsTheReplay() throws {
        let graph = Graph()
        try graph.variable("x", 3)
        try graph.probe("x", future: true)
        #expect(graph.took() == [])
        try graph.set("x", to: 4)
        #expect(graph.took() == ["x.value = 4"])
    }

    @Test func wiringFromAValuePortDeliversItsValueAtOnce() throws {
        let graph = Graph()
        try graph.variable("a", 5)
        try graph.addPatch("double", "map", ["fn": "$ * 2"])
        try graph.addPatch("l", "log")
        try graph.connect("double.out", "l.in")
        #expect(graph.value("double") == nil)
        try graph.connect("a.value", "double.in")
        #expect(graph.value("double") == 10)
        #expect(graph.took() == ["l: 10"])
    }

    @Test func anEmptyPortDeliversNothing() throws {
        let graph = Graph()
        try graph.addPatch("sum", "expr", ["expr": "x + y"])
        try graph.variable("target", "untouched")
        try graph.probe("sum")
        try graph.connect("sum.out", "target.set")
        #expect(graph.took() == [])
        #expect(graph.value("target") == "untouched")
        #expect(try graph.show(PortAddress("sum.out")).state == .empty)
        // Once both inputs have values the output has one, and it flows.
        try graph.setInput(PortAddress("sum.x"), to: 1)
        #expect(graph.took() == [])
        try graph.setInput(PortAddress("sum.y"), to: 2)
        #expect(graph.took() == ["sum.out = 3"])
        #expect(graph.value("target") == 3)
    }

    @Test func nullIsAValueNotEmpty() throws {
        let graph = Graph()
        try graph.variable("n", nil)
        try graph.probe("n")
        #expect(graph.took() == ["n.value = null"])
        try graph.variable("copy", 1)
        try graph.connect("n.value", "copy.set")
        #expect(graph.value("copy") == .null)
        #expect(try graph.show(PortAddress("n.value")).state == .value)
    }

    @Test func eventPortsNeverReplay() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.send("s", 1)
        try graph.probe("s")
        try graph.variable("last", 0)
        try graph.connect("s.out", "last.set")
        #expect(graph.took() == [])
        #expect(graph.value("last") == 0)
        try graph.send("s", 2)
        #expect(graph.took() == ["s.out = 2"])
        #expect(graph.value("last") == 2)
    }
}

@Suite("Graph, rule 2: one source per input")
struct DataflowGraphOneSourceTests {
    @Test func rewiringReplacesTheOldWireAtomically() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("b", 10)
        try graph.variable("t", 0)
        let first = try graph.connect("a.value", "t.set")
        #expect(first.replaced == nil)
        #expect(first.wire == "a.value -> t.set")
        try graph.probe("t")
        _ = graph.took()

        let outcome = try graph.connect("b.value", "t.set")
        #expect(outcome.replaced == "a.value -> t.set")
        #expect(outcome.wire == "b.value -> t.set")
        // Downstream sees one change, straight to the new source's value (no revert in between).
        #expect(graph.took() == ["t.value = 10"])

        // The old source no longer reaches the input; the new one does.
        try graph.set("a", to: 99)
        #expect(graph.took() == [])
        #expect(graph.value("t") == 10)
        try graph.set("b", to: 11)
        #expect(graph.took() == ["t.value = 11"])
        #expect(graph.edges().map { "\($0.from) -> \($0.to)" } == ["b.value -> t.set"])
    }

    @Test func settingAWiredInputIsAnErrorNamingTheWire() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("t", 0)
        try graph.connect("a.value", "t.set")
        #expect(throws: GraphError.inputIsWired(PortAddress("t.set"), wires: ["a.value -> t.set"])) {
            try graph.setInput(PortAddress("t.set"), to: 5)
        }
        #expect(GraphError.inputIsWired(PortAddress("t.set"), wires: ["a.value -> t.set"]).description
            == "t.set is driven by the wire a.value -> t.set; unwire t.set first")
        #expect(graph.value("t") == 1)
        #expect(graph.value("a") == 1)
    }

    @Test func writingAnInputNeverReachesOtherConsumersOfItsSource() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("t", 0)
        try graph.variable("u", 0)
        try graph.connect("a.value", "t.set")
        try graph.connect("a.value", "u.set")
        try graph.unwire(PortAddress("t.set"))
        try graph.setInput(PortAddress("t.set"), to: 5)
        #expect(graph.value("t") == 5)
        #expect(graph.value("a") == 1)
        #expect(graph.value("u") == 1)
    }

    @Test func unwiringRevertsTheInputToItsLocalValue() throws {
        let graph = Graph()
        try graph.variable("a", 5)
        try graph.addPatch("double", "map", ["fn": "$ * 2", "in": 1])
        #expect(graph.value("double") == 2)
        try graph.connect("a.value", "double.in")
        #expect(graph.value("double") == 10)
        try graph.probe("double")
        _ = graph.took()
        try graph.unwire(PortAddress("double.in"))
        #expect(graph.took() == ["double.out = 2"])
        #expect(try graph.show(PortAddress("double.in")).drivers == ["local value 1"])
        #expect(throws: GraphError.notWired(PortAddress("double.in"))) { try graph.unwire(PortAddress("double.in")) }
    }
}

@Suite("Graph, rule 3: equal values stop")
struct DataflowGraphEqualityTests {
    @Test func settingAnEqualValueDoesNothing() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("b", "a + 1")
        try graph.probe("a", future: true)
        try graph.probe("b", future: true)
        try graph.set("a", to: 1)
        try graph.set("a", to: 1.0)  // 1 == 1.0
        #expect(graph.took() == [])
    }

    @Test func aNodeRecomputedToAnEqualValueStopsPropagationThere() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("parity", "a % 2")
        try graph.derive("label", "parity == 0 ? 'even' : 'odd'")
        try graph.addPatch("l", "log")
        try graph.connect("label.value", "l.in")
        try graph.probe("parity", future: true)
        _ = graph.took()
        try graph.set("a", to: 3)
        #expect(graph.took() == [])
        try graph.set("a", to: 4)
        #expect(graph.took() == ["l: \"even\"", "parity.value = 0"])
    }

    @Test func eventPortsNeverDedupe() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.addPatch("n", "counter")
        try graph.connect("s.out", "n.inc")
        try graph.probe("s")
        try graph.send("s", "ok")
        try graph.send("s", "ok")
        #expect(graph.took() == ["s.out = \"ok\"", "s.out = \"ok\""])
        #expect(graph.value("n") == 2)
    }

    @Test func touchForcesTheCurrentValueThrough() throws {
        let graph = Graph()
        try graph.variable("a", 2)
        try graph.addPatch("n", "counter")
        try graph.connect("a.value", "n.inc")  // the wire's replay counts once
        try graph.probe("a", future: true)
        #expect(graph.value("n") == 1)
        try graph.touch("a")
        #expect(graph.took() == ["a.value = 2"])
        #expect(graph.value("n") == 2)
        try graph.touch("a", port: "value")
        #expect(graph.value("n") == 3)
        // Touching an empty port delivers nothing.
        try graph.addPatch("m", "map", ["fn": "$"])
        try graph.touch("m")
        #expect(graph.value("m") == nil)
    }
}

@Suite("Graph, rule 4: order")
struct DataflowGraphOrderTests {
    @Test func aPortServesItsSubscribersInAttachOrder() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("second", 0)
        try graph.variable("first", 0)
        try graph.connect("a.value", "first.set")
        try graph.probe("a")
        try graph.connect("a.value", "second.set")
        #expect(try graph.show(PortAddress("a.value")).subscribers
            == ["wire a.value -> first.set", "wire a.value -> second.set", "probe a"])
    }

    @Test func probesReportInRankOrderWhateverTheDepth() throws {
        // a -> b -> c -> d (a long branch) and a -> e (a short one) meet in f.
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("b", "a + 1")
        try graph.derive("c", "b + 1")
        try graph.derive("d", "c + 1")
        try graph.derive("e", "a * 10")
        try graph.derive("f", "d + e")
        for name in ["f", "e", "d", "c", "b", "a"] { try graph.probe(name, future: true) }
        try graph.set("a", to: 2)
        // Sources first, then by rank; b and e share rank 1 and go by creation order.
        #expect(graph.took() == ["a.value = 2", "b.value = 3", "e.value = 20", "c.value = 4", "d.value = 5", "f.value = 25"])
    }

    @Test func nodesOfEqualRankAreEvaluatedInCreationOrder() throws {
        let graph = Graph()
        try graph.variable("a", 0)
        try graph.addPatch("late", "log")
        try graph.addPatch("early", "log")
        // Wired in the opposite order of their creation: the wave still runs `late` first.
        try graph.connect("a.value", "early.in")
        try graph.connect("a.value", "late.in")
        _ = graph.took()
        try graph.set("a", to: 1)
        #expect(graph.took() == ["late: 1", "early: 1"])
    }
}

@Suite("Graph, rule 5: glitch-free")
struct DataflowGraphGlitchTests {
    @Test func aDiamondIsEvaluatedOnceWithNoMixedValue() throws {
        // b = a + 1, c = a * 2, d = b + c
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("b", "a + 1")
        try graph.derive("c", "a * 2")
        try graph.derive("d", "b + c")
        try graph.addPatch("evaluations", "counter")
        try graph.connect("d.value", "evaluations.inc")  // counts each value d publishes
        try graph.probe("d", future: true)
        #expect(graph.value("evaluations") == 1)
        let transaction = graph.engine.transactionID
        try graph.set("a", to: 2)
        // d never shows 3 + 2 = 5 or 2 + 4 = 6, only the final 3 + 4.
        #expect(graph.takeEvents() == [.probe(port: "d.value", value: 7, transaction: transaction + 1)])
        #expect(graph.value("evaluations") == 2)
    }

    @Test func allOutputsOfOneRunArriveTogether() throws {
        let graph = Graph()
        try graph.definePatchType("split", inputs: ["n"], outputs: ["low", "high"],
                                  body: StatementBlock("emit low n % 10; emit high (n - n % 10) / 10"))
        try graph.addPatch("parts", "split")
        try graph.addPatch("join", "expr", ["expr": "[high, low]"])
        try graph.connect("parts.low", "join.low")
        try graph.connect("parts.high", "join.high")
        try graph.addPatch("l", "log")
        try graph.connect("join.out", "l.in")
        try graph.setInput(PortAddress("parts.n"), to: 42)
        try graph.setInput(PortAddress("parts.n"), to: 57)
        // One log line per run: never a half-updated pair like [4, 7].
        #expect(graph.took() == ["l: [4, 2]", "l: [5, 7]"])
    }
}

@Suite("Graph, rule 6: transactions")
struct DataflowGraphTransactionTests {
    @Test func removingANodeInsideATransactionIsRefusedAndChangesNothing() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("b", "a + 1")
        try graph.begin()
        #expect(throws: GraphError.inTransaction("rm")) { try graph.remove("b") }
        try graph.abort()
        #expect(graph.nodeNames == ["a", "b"])
        try graph.set("a", to: 4)
        #expect(graph.value("b") == 5)
        try graph.remove("b")
        #expect(graph.nodeNames == ["a"])
    }

    @Test func droppingATransactionLeftOpenSaysHowManyWritesItHeld() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        #expect(graph.dropOpenTransaction() == nil)
        try graph.begin()
        try graph.begin()
        try graph.set("a", to: 2)
        #expect(graph.dropOpenTransaction() == .transactionLeftOpen(droppedWrites: 1))
        #expect(!graph.engine.isInTransaction)
        #expect(graph.value("a") == 1)
    }

    @Test func anExplicitTransactionCoalescesThreeSetsIntoOneNotification() throws {
        let graph = Graph()
        try graph.variable("a", 0)
        try graph.derive("b", "a * 10")
        try graph.probe("a", future: true)
        try graph.probe("b", future: true)
        try graph.begin()
        try graph.set("a", to: 1)
        try graph.set("a", to: 2)
        try graph.set("a", to: 3)
        // Read your writes; a derived node keeps its committed value until the commit.
        #expect(graph.value("a") == 3)
        #expect(graph.value("b") == 0)
        #expect(graph.took() == [])
        let transaction = graph.engine.transactionID
        #expect(try graph.commit() == true)
        #expect(graph.takeEvents() == [
            .probe(port: "a.value", value: 3, transaction: transaction + 1),
            .probe(port: "b.value", value: 30, transaction: transaction + 1),
        ])
    }

    @Test func aNetZeroTransactionNotifiesNothing() throws {
        let graph = Graph()
        try graph.variable("a", 0)
        try graph.derive("b", "a * 10")
        try graph.addPatch("l", "log")
        try graph.connect("b.value", "l.in")
        try graph.probe("a", future: true)
        _ = graph.took()
        try graph.begin()
        try graph.set("a", to: 5)
        try graph.set("a", to: 0)
        try graph.commit()
        #expect(graph.took() == [])
    }

    @Test func transactionsNestAndOnlyTheOutermostCommitApplies() throws {
        let graph = Graph()
        try graph.variable("a", 0)
        try graph.probe("a", future: true)
        try graph.begin()
        try graph.begin()
        #expect(graph.engine.transactionDepth == 2)
        try graph.set("a", to: 5)
        #expect(try graph.commit() == false)
        #expect(graph.took() == [])
        #expect(try graph.commit() == true)
        #expect(graph.took() == ["a.value = 5"])
        #expect(throws: GraphError.engine(.noTransaction("commit"))) { try graph.commit() }
    }

    @Test func abortDropsTheWrites() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.createKnot("k", state: ["n": 0])
        try graph.probe("a", future: true)
        try graph.begin()
        try graph.set("a", to: 2)
        try graph.set("k", to: ["n": 1])
        #expect(graph.value("k") == ["n": 1])
        try graph.abort()
        #expect(graph.value("a") == 1)
        #expect(graph.value("k") == ["n": 0])
        #expect(graph.took() == [])
        #expect(!graph.engine.isInTransaction)
        #expect(throws: GraphError.engine(.noTransaction("abort"))) { try graph.abort() }
    }

    @Test func eventsInATransactionRunInSendOrderOneWaveEach() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.createKnot("k", state: ["log": []])
        try graph.addPipe("s.out", to: "k", "state.log = append(state.log, len(state.log) * 10 + $)")
        try graph.probe("s", future: true)
        try graph.probe("k", future: true)
        try graph.begin()
        try graph.send("s", 1)
        try graph.send("s", 2)
        try graph.send("s", 3)
        #expect(graph.took() == [])
        try graph.commit()
        // Each event saw the state the previous wave left; the knot's probe hears once.
        #expect(graph.took() == ["s.out = 1", "s.out = 2", "s.out = 3", "k.state = {log: [1, 12, 23]}"])
    }
}

@Suite("Graph, rule 7: reentrancy")
struct DataflowGraphReentrancyTests {
    @Test func bindWritesAfterTheTransactionAndEqualValuesStopIt() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("b", 2)
        try graph.variable("c", 3)
        try graph.bind("a", "b")
        try graph.bind("b", "c")
        #expect([graph.value("a"), graph.value("b"), graph.value("c")] == [1, 1, 1])
        for name in ["a", "b", "c"] { try graph.probe(name, future: true) }
        let transaction = graph.engine.transactionID
        try graph.set("c", to: 7)
        // Each write from a binding is a follow-up transaction of its own, in order.
        #expect(graph.takeEvents() == [
            .probe(port: "c.value", value: 7, transaction: transaction + 1),
            .probe(port: "b.value", value: 7, transaction: transaction + 2),
            .probe(port: "a.value", value: 7, transaction: transaction + 3),
        ])
        #expect(throws: GraphError.bindToItself("a")) { try graph.bind("a", "a") }
    }

    @Test func aRunawayFeedbackLoopStopsWithOneErrorAndTheGraphStaysUsable() throws {
        // a -> inc -> b, and b bound back to a: every write makes another.
        let graph = Graph()
        try graph.variable("a", 0)
        try graph.variable("b", 0)
        try graph.addPatch("inc", "map", ["fn": "$ + 1"])
        try graph.connect("a.value", "inc.in")
        try graph.connect("inc.out", "b.set")
        try graph.bind("b", "a")
        let errors = graph.takeEvents()
        #expect(errors == [.error(.runaway(limit: 100, ports: ["b.value", "a.value"]))])
        #expect(errors.first.map { "\($0)" }?.contains("did not settle after 100 follow-up transactions") == true)

        try graph.variable("c", 1)
        try graph.derive("d", "c + 1")
        try graph.set("c", to: 2)
        #expect(graph.value("d") == 3)
        #expect(graph.takeEvents() == [])
    }
}

@Suite("Graph, rule 8: samples")
struct DataflowGraphSampleTests {
    @Test func aWireTransformReadingAnotherNodeNeverTriggers() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("factor", 10)
        try graph.variable("out", 0)
        try graph.connect("a.value", "out.set", transform: "$ * factor")
        try graph.probe("out", future: true)
        #expect(graph.value("out") == 10)
        try graph.set("factor", to: 20)
        #expect(graph.took() == [])
        #expect(graph.value("out") == 10)
        try graph.set("a", to: 2)
        #expect(graph.took() == ["out.value = 40"])
    }

    @Test func aWireConditionReadingAnotherNodeNeverTriggers() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("limit", 5)
        try graph.variable("out", 0)
        try graph.connect("a.value", "out.set", when: "$ > limit")
        try graph.set("limit", to: 0)
        #expect(graph.value("out") == 0)
        try graph.set("a", to: 2)
        #expect(graph.value("out") == 2)
    }

    @Test func anyOtherReadSeesTheValueSettledInThisWave() throws {
        // `r` reads `y` while `x` changes both: it must see y's new value.
        let graph = Graph()
        try graph.variable("x", 1)
        try graph.derive("y", "x * 100")
        try graph.variable("r", 0)
        try graph.connect("x.value", "r.set", transform: "$ + y")
        #expect(graph.value("r") == 101)
        try graph.set("x", to: 2)
        #expect(graph.value("r") == 202)
    }

    @Test func aPatchReadingAnotherNodeSeesTheValueSettledInThisWave() throws {
        // The map patch is created before `y`, so creation order alone would run it first.
        let graph = Graph()
        try graph.variable("x", 1)
        try graph.addPatch("p", "map", ["fn": "$ + y"])
        try graph.derive("y", "x * 100")
        try graph.connect("x.value", "p.in")
        #expect(graph.value("p") == 101)
        try graph.set("x", to: 2)
        #expect(graph.value("p") == 202)
    }

    @Test func aUserDefinedBodyReadingAnotherNodeSeesTheValueSettledInThisWave() throws {
        let graph = Graph()
        try graph.definePatchType("scaled", inputs: ["n"], outputs: ["out"], body: StatementBlock("emit out n * factor"))
        try graph.variable("x", 1)
        try graph.addPatch("p", "scaled")
        try graph.derive("factor", "x * 10")
        try graph.connect("x.value", "p.n")
        #expect(graph.value("p") == 10)
        try graph.set("x", to: 2)
        #expect(graph.value("p") == 40)
    }

    @Test func aWireConditionReadingANodeThatFiltersOutDeliversNothing() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("limit", 5)
        try graph.addPatch("n", "counter")
        try graph.connect("a.value", "n.inc", when: "$ > limit")
        try graph.set("a", to: 2)
        #expect(graph.value("n") == 0)
        try graph.set("a", to: 6)
        #expect(graph.value("n") == 1)
    }

    @Test func aFailingWireThatReadsANodeKeepsItsTargetFailed() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("k", 0)
        try graph.addPatch("m", "map", ["fn": "$ * 2", "in": 5])
        try graph.connect("a.value", "m.in", transform: "$ / k")
        try graph.set("a", to: 2)
        #expect(graph.took() == [
            "error: m failed: wire a.value -> m.in: division by zero in '$ / k'",
            "error: m failed: wire a.value -> m.in: division by zero in '$ / k'",
        ])
        #expect(graph.summary("m")?.state == .failed)
        #expect(graph.value("m") == 10)
        try graph.set("k", to: 1)
        try graph.set("a", to: 3)
        #expect(graph.summary("m")?.state == .value)
        #expect(graph.value("m") == 6)
    }

    @Test func aPipeReadingItsOwnKnotSeesTheStateFromBeforeTheWave() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.createKnot("k", state: ["n": 1])
        // Reading k inside its own pipe is not a cycle, and runs once per event.
        try graph.addPipe("s.out", to: "k", "state.n = k.n * 10 + $")
        try graph.probe("k", future: true)
        try graph.send("s", 1)
        try graph.send("s", 2)
        #expect(graph.took() == ["k.state = {n: 11}", "k.state = {n: 112}"])
    }

    @Test func aPipeReadingAnotherKnotSeesItsValueSettledInThisWave() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.createKnot("watcher", state: ["seen": 0])
        try graph.createKnot("k", state: ["n": 0])
        // Attached first, yet it must run after k's pipe, which changes k in the same wave.
        try graph.addPipe("s.out", to: "watcher", "state.seen = k.n")
        try graph.addPipe("s.out", to: "k", "state.n = state.n + $")
        try graph.send("s", 5)
        #expect(graph.value("watcher") == ["seen": 5])
    }
}

@Suite("Graph, rule 9: cycles")
struct DataflowGraphCycleTests {
    @Test func aSelfWireIsRefusedAndTheGraphIsUnchanged() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        #expect(throws: GraphError.cycle(["a", "a"])) { try graph.connect("a.value", "a.set") }
        #expect(GraphError.cycle(["a", "a"]).description
            == "the wire would close a cycle: a -> a; use a delay edge (~>) or bind for feedback")
        #expect(graph.edges().isEmpty)
        #expect(try graph.show(PortAddress("a.set")).drivers == [])
        #expect(graph.value("a") == 1)
    }

    @Test func aTwoNodeCycleIsRefusedWithItsPath() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("b", 2)
        try graph.connect("a.value", "b.set")
        let before = graph.edges()
        #expect(throws: GraphError.cycle(["a", "b", "a"])) { try graph.connect("b.value", "a.set") }
        #expect(graph.edges() == before)
        #expect([graph.value("a"), graph.value("b")] == [1, 1])
        try graph.set("a", to: 3)  // still flows one way only
        #expect([graph.value("a"), graph.value("b")] == [3, 3])
    }

    @Test func aCycleThroughPatchesAndDerivedNodesIsRefused() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("b", "a + 1")
        try graph.addPatch("m", "map", ["fn": "$ * 2"])
        try graph.connect("b.value", "m.in")
        #expect(throws: GraphError.cycle(["a", "b", "m", "a"])) { try graph.connect("m.out", "a.set") }
        #expect(graph.edges().map(\.to) == ["b", "m.in"])
    }

    @Test func feedbackThroughADelayEdgeCountsUpOnlyOnTick() throws {
        // An accumulator: count -> next (count + 1) ~> count.
        let graph = Graph()
        try graph.variable("count", 0)
        try graph.addPatch("next", "map", ["fn": "$ + 1"])
        try graph.connect("count.value", "next.in")
        #expect(try graph.connect("next.out", "count.set", delay: true).wire == "next.out ~> count.set")
        try graph.probe("count", future: true)
        #expect(graph.value("count") == 0)
        #expect(graph.took() == [])
        try graph.tick()
        #expect(graph.took() == ["count.value = 1"])
        try graph.tick()
        try graph.tick()
        #expect(graph.took() == ["count.value = 2", "count.value = 3"])
        #expect(graph.value("count") == 3)
        #expect(graph.edges().map(\.kind) == [.wire, .delay])
    }

    @Test func bindIsAllowedFeedback() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("b", 2)
        try graph.connect("a.value", "b.set")
        try graph.bind("b", "a")
        try graph.set("a", to: 4)
        #expect([graph.value("a"), graph.value("b")] == [4, 4])
        #expect(graph.takeEvents() == [])
    }
}

@Suite("Graph, rule 10: errors stay local")
struct DataflowGraphErrorTests {
    @Test func aDivisionByZeroMarksTheNodeFailedAndALaterGoodValueClearsIt() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("z", 1)
        try graph.derive("q", "a / z")
        try graph.derive("r", "q + 1")
        try graph.derive("both", "q + r")
        try graph.derive("other", "a * 10")
        try graph.probe("r", future: true)
        try graph.probe("other", future: true)

        try graph.set("z", to: 0)
        // The error is reported once; q keeps its last good value; r is stale; nothing flows.
        #expect(graph.took() == ["error: q failed: division by zero in 'a / z'"])
        #expect(graph.summary("both")?.state == .stale)
        #expect(graph.summary("q")?.state == .failed)
        #expect(graph.summary("q")?.failure == "division by zero in 'a / z'")
        #expect(graph.value("q") == 1)
        #expect(graph.summary("r")?.state == .stale)
        #expect(graph.value("r") == 2)
        #expect(try graph.show(PortAddress("q.value")).state == .failed)
        #expect(try graph.show(PortAddress("r.value")).state == .stale)

        // Other branches go on.
        try graph.set("a", to: 2)
        #expect(graph.took() == ["error: q failed: division by zero in 'a / z'", "other.value = 20"])
        #expect(graph.summary("other")?.state == .value)

        // A good value clears the marks, downstream too.
        try graph.set("z", to: 1)
        #expect(graph.took() == ["r.value = 3"])
        #expect(graph.summary("q")?.state == .value)
        #expect(graph.summary("q")?.failure == nil)
        #expect(graph.summary("r")?.state == .value)
        #expect(graph.summary("both")?.state == .value)
        #expect(graph.value("q") == 2)
        #expect(graph.value("both") == 5)
    }

    @Test func aFailingPatchKeepsItsValueAndVariablesDownstreamRecoverToo() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.addPatch("m", "map", ["fn": "10 / $"])
        try graph.variable("r", 0)
        try graph.connect("a.value", "m.in")
        try graph.connect("m.out", "r.set", transform: "$ + 1")
        try graph.set("a", to: 0)
        #expect(graph.took() == ["error: m failed: division by zero in '10 / $'"])
        #expect(graph.summary("m")?.state == .failed)
        #expect(graph.summary("r")?.state == .stale)
        #expect(graph.value("r") == 11)
        try graph.set("a", to: 5)
        #expect(graph.summary("m")?.state == .value)
        #expect(graph.value("r") == 3)
        #expect(graph.summary("r")?.state == .value)
    }

    @Test func aFailingWireMarksItsTargetUntilAGoodValueArrives() throws {
        let graph = Graph()
        try graph.variable("a", 5)
        try graph.variable("t", 0)
        try graph.connect("a.value", "t.set", transform: "10 / ($ - 5)")
        #expect(graph.took() == ["error: t failed: wire a.value -> t.set: division by zero in '10 / ($ - 5)'"])
        #expect(graph.summary("t")?.state == .failed)
        #expect(graph.value("t") == 0)
        try graph.set("a", to: 7)
        #expect(graph.value("t") == 5)
        #expect(graph.summary("t")?.state == .value)
    }

    @Test func unknownNodesAndPortsAreErrorsListingWhatExists() throws {
        let graph = Graph()
        #expect(throws: GraphError.unknownNode("a", existing: [])) { try graph.set("a", to: 1) }
        #expect(GraphError.unknownNode("a", existing: []).description == "no node 'a' (no nodes yet)")
        try graph.variable("a", 1)
        try graph.createSignal("s")
        #expect(throws: GraphError.unknownNode("zz", existing: ["a", "s"])) { try graph.remove("zz") }
        #expect(GraphError.unknownNode("zz", existing: ["a", "s"]).description == "no node 'zz' (nodes: a, s)")
        #expect(throws: GraphError.unknownPort(PortAddress("a.nope"), isInput: false, existing: ["value"])) {
            try graph.connect("a.nope", "a.set")
        }
        #expect(throws: GraphError.unknownPort(PortAddress("s.nope"), isInput: true, existing: ["send"])) {
            try graph.connect("a.value", "s.nope")
        }
        #expect(GraphError.unknownPort(PortAddress("a.nope"), isInput: false, existing: ["value"]).description
            == "a has no output 'nope' (outputs: value)")
        #expect(GraphError.unknownPort(PortAddress("s.nope"), isInput: true, existing: []).description
            == "s has no input 'nope' (it has no inputs)")
        #expect(throws: GraphError.unknownProbe("a")) { try graph.unprobe("a") }
        #expect(throws: GraphError.wrongKind("s", kind: .signal, expected: "set works on variables and knots (and NODE.PORT inputs)")) {
            try graph.set("s", to: 1)
        }
        #expect(throws: GraphError.unknownPatchType("mapp", suggestion: "map")) { try graph.addPatch("m", "mapp") }
        #expect(graph.nodeNames == ["a", "s"])
    }

    @Test func aClosedSignalRefusesSends() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.probe("s")
        try graph.close("s")
        #expect(throws: GraphError.signalClosed("s")) { try graph.send("s", 1) }
        #expect(graph.took() == [])
    }
}

@Suite("Graph, rule 11: lifetime")
struct DataflowGraphLifetimeTests {
    @Test func removingANodeRemovesItsWiresAndProbesAndInputsItDroveRevert() throws {
        let graph = Graph()
        try graph.variable("a", 5)
        try graph.addPatch("m", "map", ["fn": "$ * 2", "in": 1])
        try graph.variable("t", 0)
        try graph.connect("a.value", "m.in")
        try graph.connect("a.value", "t.set")
        try graph.probe("a")
        try graph.probe("m", port: "out", future: true)
        _ = graph.took()
        #expect(graph.value("m") == 10)

        try graph.remove("a")
        // m.in goes back to its local value; t.set had none, so t keeps its value.
        #expect(graph.took() == ["m.out = 2"])
        #expect(graph.nodeNames == ["m", "t"])
        #expect(graph.edges() == [])
        #expect(graph.probeTargets == ["m.out"])
        #expect(try graph.show(PortAddress("m.in")).drivers == ["local value 1"])
        #expect(try graph.show(PortAddress("t.set")).drivers == [])
        #expect(graph.value("t") == 5)
        // The name is free again.
        try graph.variable("a", 0)
        #expect(graph.took() == [])
    }

    @Test func removingANodeRemovesItsPipesAndBindings() throws {
        let graph = Graph()
        try graph.createSignal("s")
        try graph.createKnot("k", state: ["n": 0])
        try graph.addPipe("s.out", to: "k", "state.n += $")
        try graph.variable("a", 1)
        try graph.variable("b", 1)
        try graph.bind("a", "b")
        try graph.remove("k")
        try graph.remove("b")
        #expect(graph.edges() == [])
        try graph.send("s", 1)  // nothing left to reduce
        try graph.set("a", to: 2)
        #expect(graph.takeEvents() == [])
    }

    @Test func aDerivedNodeReadingARemovedNodeKeepsItsValueMarkedFailed() throws {
        let graph = Graph()
        try graph.variable("a", 2)
        try graph.derive("b", "a * 3")
        try graph.remove("a")
        #expect(graph.took() == ["error: b failed: it reads a, which was removed"])
        #expect(graph.summary("b")?.state == .failed)
        #expect(graph.value("b") == 6)
    }

    @Test func removingATimerCancelsIt() throws {
        let graph = Graph()
        try graph.addPatch("t", "timer", ["ms": 10])
        #expect(graph.engine.clock.pendingCount == 1)
        try graph.remove("t")
        #expect(graph.engine.clock.pendingCount == 0)
    }
}
