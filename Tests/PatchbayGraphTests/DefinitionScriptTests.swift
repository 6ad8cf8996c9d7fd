@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import Testing

// `Graph.definitionScript()`, behind the shell's `save`: the commands that rebuild a graph.
// Loading the scripts is tested through the shell (SaveShellTests); helpers are in
// DataflowGraphTests.swift.

@Suite("Graph: the definition script")
struct DefinitionScriptTests {
    @Test func anEmptyGraphHasAnEmptyScript() {
        let script = Graph().definitionScript()
        #expect(script.lines.isEmpty)
        #expect(script.commandCount == 0)
        #expect(script.text.isEmpty)
    }

    @Test func aGraphBuiltWithTheLibraryIsWrittenAsCommands() throws {
        let graph = Graph()
        try graph.definePatchType("twice", inputs: ["n"], outputs: ["out"], body: StatementBlock("emit out n * 2"))
        try graph.variable("a", 1)
        try graph.createKnot("k", state: ["n": 0])
        try graph.addPipe("a.value", to: "k", when: "$ > 0", "state.n += $\nstate.seen = true")
        try graph.addPatch("t", "twice", ["n": 3])
        try graph.createSignal("s")
        try graph.connect("s.out", "t.n", transform: "len($)")
        try graph.createStore("app", state: ["items": []])
        try graph.addReducer(to: "app", on: "Add", at: [.key("items")], when: Expression("action.ok"), after: 5,
                             body: StatementBlock("state = append(state, action.item)"))
        try graph.set("a", to: 2)
        try graph.addRoute(RoutePattern("/items/:id"), view: "Item", option: .modal, priority: -1,
                           when: Expression("params.id != \"0\""))
        graph.addPresenter(for: "Item", try Expression("{id: params.id}"))
        let script = graph.definitionScript()
        #expect(script.lines == [
            "patchtype twice (n) -> (out) {\nemit out n * 2\n}",
            "var a = 2",
            "knot k = {n: 2, seen: true}",
            "pipe a.value -> k when $ > 0 : state.n += $\nstate.seen = true",
            "patch t twice n=3",
            "# t: a patch's outputs and internal state are not saved; they follow what arrives from here on (it held out = 6)",
            "signal s",
            "wire s.out -> t.n : len($)",
            "store app = {items: []}",
            "route add /items/:id view=Item option=modal priority=-1 when params.id != \"0\"",
            "presenter Item : {id: params.id}",
            "# the values of variables and knots that wires, pipes or bindings feed, as saved",
            "set k = {n: 2, seen: true}",
            "# reducers come last: actions that wires deliver while this runs leave the stores' states as saved",
            "reducer app on Add at items after 5 when action.ok : state = append(state, action.item)",
        ])
        #expect(script.commandCount == 12)
        #expect(script.text == script.lines.joined(separator: "\n") + "\n")
    }

    @Test func aNodeComesAfterTheWiresAttachedBeforeIt() throws {
        // a.value serves the wire to x, then d, then the wire to y: so must the script, though a
        // connection otherwise comes as soon as its nodes exist.
        let graph = Graph()
        try graph.variable("a", 1)
        try graph.variable("x", 0)
        try graph.variable("y", 0)
        try graph.connect("a.value", "x.set")
        try graph.derive("d", "a + 1")
        try graph.connect("a.value", "y.set", when: "$ > 0")
        let commands = graph.definitionScript().lines.filter { !$0.hasPrefix("#") && !$0.hasPrefix("set ") }
        #expect(commands == [
            "var a = 1", "var x = 1", "wire a.value -> x.set", "var y = 1", "derive d = a + 1",
            "wire a.value -> y.set when $ > 0",
        ])
    }

    @Test func aLongValueIsSpreadOverLinesThatReadBackAsIt() throws {
        let graph = Graph()
        let long = String(repeating: "quote \" and ünïcode 🎉 ", count: 40)
        let value: Value = ["title": .string(long), "items": .array((0..<50).map { ["id": .int($0), "name": .string("item \($0)")] })]
        try graph.variable("v", value)
        let script = graph.definitionScript(lineLimit: 300)
        let line = try #require(script.lines.first)
        #expect(line.hasPrefix("var v = {\n"))
        #expect(line.split(separator: "\n").allSatisfy { $0.utf8.count <= 300 })
        #expect(line.split(separator: "\n").count > 50)
        let literal = try Expression(String(line.dropFirst("var v = ".count)))
        #expect(try literal.evaluate().description == value.description)
    }

    @Test func aValueTooDeepForALiteralIsWrittenAsNullWithANote() throws {
        let graph = Graph()
        var deep = Value.int(0)
        for _ in 0..<200 { deep = [deep] }
        var shallow = Value.int(-1)
        for _ in 0..<100 { shallow = [shallow] }
        try graph.variable("deep", deep)
        try graph.variable("shallow", shallow)
        let lines = graph.definitionScript().lines
        #expect(lines[0] == "# deep is written as null: it nests deeper than a literal may (128 levels)")
        #expect(lines[1] == "var deep = null")
        #expect(lines[2] == "var shallow = \(shallow)")
        #expect(try Expression(String(lines[2].dropFirst("var shallow = ".count))).evaluate() == shallow)
    }

    @Test func theOrderKeepsEveryConstraintAndPrefersConnections() {
        var order = DefinitionOrder(count: 5)
        // Nodes 0, 1, 2 in a chain; connection 3 needs 0 and 2; connection 4 needs 0 and must precede 1.
        order.require(0, before: 1)
        order.require(1, before: 2)
        order.require(0, before: 3)
        order.require(2, before: 3)
        order.require(0, before: 4)
        order.require(4, before: 1)
        #expect(order.sorted { $0 >= 3 } == [0, 4, 1, 2, 3])
    }
}
