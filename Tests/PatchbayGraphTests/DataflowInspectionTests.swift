@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Looking at a graph: `why`, `show`, `nodes`, `graph` and `graph --dot`, the clock.
// Helpers are in DataflowGraphTests.swift.

@Suite("Graph: inspection")
struct DataflowInspectionTests {
    /// b = a + 1, c = a * 2, d = b + c, as the shell builds it.
    private func diamond() throws -> Graph {
        let graph = Graph()
        try graph.run("var a = 1") { try graph.variable("a", 1) }
        try graph.run("derive b = a + 1") { try graph.derive("b", "a + 1") }
        try graph.run("derive c = a * 2") { try graph.derive("c", "a * 2") }
        try graph.run("derive d = b + c") { try graph.derive("d", "b + c") }
        return graph
    }

    @Test func whyGivesTheCauseChainOfAValue() throws {
        let graph = try diamond()
        #expect(try graph.why("a") == ["var a = 1", "a.value"])
        #expect(try graph.why("d") == ["derive d = b + c", "d.value"])
        try graph.run("set a = 2") { try graph.set("a", to: 2) }
        #expect(try graph.why("d") == ["set a = 2", "a.value", "b.value", "d.value"])
        #expect(try graph.why("d", port: "value") == ["set a = 2", "a.value", "b.value", "d.value"])
        #expect(try graph.why("c") == ["set a = 2", "a.value", "c.value"])
    }

    @Test func whyFollowsWiresIntoInputs() throws {
        let graph = Graph()
        try graph.run("var a = 1") { try graph.variable("a", 1) }
        try graph.run("patch m map fn=\"$ + 1\"") { try graph.addPatch("m", "map", ["fn": "$ + 1"]) }
        try graph.run("wire a.value -> m.in") { try graph.connect("a.value", "m.in") }
        try graph.run("set a = 5") { try graph.set("a", to: 5) }
        #expect(try graph.why("m", port: "in") == ["set a = 5", "a.value", "m.in"])
        #expect(try graph.why("m") == ["set a = 5", "a.value", "m.out"])
        #expect(throws: GraphError.unknownPort(PortAddress("m.x"), isInput: nil, existing: ["out", "in"])) {
            try graph.why("m", port: "x")
        }
    }

    @Test func showGivesAPortsStateDriverAndSubscribers() throws {
        let graph = try diamond()
        try graph.probe("d")
        let d = try graph.show(PortAddress("d.value"))
        #expect(d.isInput == false)
        #expect(d.isValuePort)
        #expect(d.state == .value)
        #expect(d.value == 4)
        #expect(d.drivers == [])
        #expect(d.subscribers == ["probe d"])
        #expect(try graph.show(PortAddress("a.value")).subscribers == ["derive b", "derive c"])

        try graph.createSignal("s")
        let s = try graph.show(PortAddress("s.out"))
        #expect(!s.isValuePort)
        #expect(s.state == .empty)

        try graph.variable("t", 0)
        try graph.connect("a.value", "t.set", when: "$ > 0", transform: "$ * 2")
        let input = try graph.show(PortAddress("t.set"))
        #expect(input.isInput)
        #expect(input.drivers == ["wire a.value -> t.set when $ > 0 : $ * 2"])
        #expect(input.value == 2)  // what arrived: the transformed value
        #expect(try graph.show("t").map(\.address) == [PortAddress("t.value"), PortAddress("t.set")])
        #expect(throws: GraphError.unknownPort(PortAddress("t.nope"), isInput: nil, existing: ["value", "set"])) {
            try graph.show(PortAddress("t.nope"))
        }
    }

    @Test func nodesSummarisesEveryNodeInCreationOrder() throws {
        let graph = try diamond()
        try graph.createSignal("s")
        try graph.addPatch("m", "map", ["fn": "$"])
        try graph.createKnot("k", state: ["n": 0])
        let summaries = graph.summaries()
        #expect(summaries.map(\.name) == ["a", "b", "c", "d", "s", "m", "k"])
        #expect(summaries.map(\.kind) == [.variable, .derived, .derived, .derived, .signal, .patch(type: "map"), .knot])
        #expect(summaries.map { $0.kind.description } == ["var", "derive", "derive", "derive", "signal", "patch map", "knot"])
        #expect(summaries.map(\.value) == [1, 2, 2, 4, nil, nil, ["n": 0]])
        #expect(summaries.map(\.state) == [.value, .value, .value, .value, .empty, .empty, .value])
        #expect(summaries[5].inputs == ["in"])
        #expect(summaries[5].outputs == ["out"])
    }

    @Test func edgesListWiresDelaysPipesDerivedInputsAndBinds() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("b", "a + 1")
        try graph.variable("t", 0)
        try graph.connect("a.value", "t.set", transform: "$ * 2")
        try graph.addPatch("next", "map", ["fn": "$ + 1"])
        try graph.connect("t.value", "next.in")
        try graph.connect("next.out", "t.set", delay: true)  // replaces the wire into t.set
        try graph.createSignal("s")
        try graph.createKnot("k", state: [:])
        try graph.addPipe("s.out", to: "k", "state.last = $")
        try graph.variable("u", 0)
        try graph.variable("v", 0)
        try graph.bind("u", "v")
        #expect(graph.edgeTexts() == [
            "a.value -> b (derive)",
            "t.value -> next.in (wire)",
            "s.out -> k (pipe: state.last = $)",
            "next.out -> t.set (delay)",
            "u -> v (bind)",
        ])
        try graph.variable("w", 0)
        try graph.connect("a.value", "w.set", when: "$ > 0", transform: "$ * 2")
        // Edges are listed by source node in creation order, then delay edges, then binds.
        #expect(graph.edgeTexts()[1] == "a.value -> w.set (wire: when $ > 0 : $ * 2)")
    }

    @Test func dotDrawsTheGraphForGraphviz() throws {
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.derive("b", "a + 1")
        try graph.addPatch("m", "map", ["fn": "$ + \"x\""])
        try graph.connect("a.value", "m.in", when: "$ > 0")
        try graph.connect("m.out", "a.set", delay: true)
        #expect(graph.dot() == """
            digraph patchbay {
              rankdir=LR;
              node [shape=record, fontname="monospace"];
              "a" [label="{{<in_set> set}|a\\nvar|{<out_value> value}}"];
              "b" [label="{b\\nderive|{<out_value> value}}"];
              "m" [label="{{<in_in> in}|m\\npatch map|{<out_out> out}}"];
              "a":out_value -> "b" [style=dotted];
              "a":out_value -> "m":in_in [label="when $ > 0"];
              "m":out_out -> "a":in_set [style=dashed, label="~>"];
            }
            """)
    }
}

@Suite("Graph: the virtual clock")
struct DataflowClockTests {
    @Test func tickRunsDelayEdgesThenTimersInTimeOrder() throws {
        let graph = Graph()
        try graph.addPatch("fast", "timer", ["ms": 20])
        try graph.addPatch("slow", "timer", ["ms": 50])
        try graph.addPatch("l", "log")
        try graph.addPatch("both", "merge")
        try graph.connect("fast.tick", "both.a")
        try graph.connect("slow.tick", "both.b")
        try graph.connect("both.out", "l.in")
        _ = graph.took()
        #expect(graph.engine.clock.nextDue == 20)
        #expect(try graph.tick() == 20)  // one step goes to the next timer
        #expect(try graph.tick(by: 40) == 60)
        // fast at 20, 40, 60 and slow at 50, in time order.
        #expect(graph.took() == ["l: 1", "l: 2", "l: 1", "l: 3"])
        #expect(graph.engine.clock.now == 60)
        #expect(graph.engine.clock.pendingCount == 2)
    }

    @Test func tickIsRefusedInsideATransaction() throws {
        let graph = Graph()
        try graph.begin()
        #expect(throws: GraphError.inTransaction("tick")) { try graph.tick() }
        try graph.commit()
        #expect(try graph.tick() == 1)
    }
}
