@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayShell
import Testing

// Inputs an attacker review found accepted, hanging or unreadable: each is refused with a
// one-line error and a column and changes nothing, or reads back. `DataflowSession` is in
// DataflowShellTests.swift.

@Suite("Shell hardening: budgets, recordings at the limit, names checked when given")
struct EvaluationHardeningShellTests {
    @Test func aStateDoubledByEachDispatchIsRefusedByTheBudgetAndKept() {
        let session = DataflowSession()
        session.run("store s = {a: 1}\nreducer s on x : state.a = [state.a, state.a]")
        // A small budget, so that the states that pass stay small too.
        EvaluationBudget(work: 1_000_000, memory: 1 << 20).during {
            var refused: String?
            var before: [String] = []
            for _ in 0..<40 where refused == nil {
                before = session.run("state s")
                let outcome = session.outcome("dispatch s x")
                if outcome.status == .failure { refused = outcome.lines.first { $0.stream == .error }?.text }
            }
            let first = refused?.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("error: #"))
            #expect(first.contains("failed in r1 (s keeps its state"))
            #expect(first.contains("the evaluation went over its memory budget of 1048576 bytes in '[state.a, state.a]'"))
            #expect(session.run("state s") == before)
        }
    }

    @Test func aRecordingOfAStateAtTheNestingLimitReadsBack() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/deep.jsonl"
        let session = DataflowSession()
        session.run("record \(path)\nstore s = {undo: null}\nreducer s on push : state.undo = {prev: state.undo, v: action.v}")
        // {undo: null} nests 1 level; each push adds one, up to the limit of 512.
        for _ in 0..<511 { #expect(session.outcome("dispatch s push {v: 1}").status == .success) }
        #expect(session.outcome("dispatch s push {v: 1}").status == .failure)
        session.run("record stop")
        let state = session.run("state s --json")
        let inspected = DataflowSession()
        let inspect = inspected.outcome("inspect \(path)")
        #expect(inspect.status == .success, "\(inspect.lines.map(\.text))")
        #expect(inspected.run("state s --json") == state)
        let replayed = DataflowSession()
        let replay = replayed.outcome("replay \(path) --verify")
        #expect(replay.status == .success, "\(replay.lines.map(\.text))")
        #expect(replay.lines.last?.text.hasPrefix("verified ") == true)
    }

    @Test func aWireOrPipeReadingAnUnknownNodeIsRefusedAndChangesNothing() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0\nknot k = 0\nwire a.value -> b.set : $ + 1")
        let graph = session.run("graph")
        #expect(session.failure("wire a.value -> b.set : nosuch + 1") == errorEntry(
            "no node 'nosuch' (nodes: a, b, k)", "wire a.value -> b.set : nosuch + 1", column: 24, width: 6))
        #expect(session.failure("wire a.value -> b.set when 1 + nosuch.value > 0 : $") == errorEntry(
            "no node 'nosuch' (nodes: a, b, k)", "wire a.value -> b.set when 1 + nosuch.value > 0 : $", column: 31, width: 6))
        #expect(session.failure("pipe a.value -> k : state = nosuch + $") == errorEntry(
            "no node 'nosuch' (nodes: a, b, k)", "pipe a.value -> k : state = nosuch + $", column: 28, width: 6))
        #expect(session.failure("derive c = 1 + nosuch") == errorEntry(
            "no node 'nosuch' (nodes: a, b, k)", "derive c = 1 + nosuch", column: 15, width: 6))
        #expect(session.run("graph") == graph)
        #expect(graph.contains("  a.value -> b.set  : $ + 1"))
        #expect(session.run("set a = 5\n= b") == ["6"])
    }

    @Test func aPatchTypeWithTwoPortsOfOneNameIsRefused() {
        let session = DataflowSession()
        #expect(session.failure("patchtype U (a, a) -> (b) { emit b a + 1 }") == errorEntry(
            "patch type 'U' names two ports 'a'; give each input and output its own name",
            "patchtype U (a, a) -> (b) { emit b a + 1 }", column: 16, width: 1))
        #expect(session.failure("patchtype U (a) -> (a) { emit a a + 1 }") == errorEntry(
            "patch type 'U' names two ports 'a'; give each input and output its own name",
            "patchtype U (a) -> (a) { emit a a + 1 }", column: 20, width: 1))
        #expect(session.failure("patchtype V (a) -> (out, event out) { emit out a }") == errorEntry(
            "patch type 'V' names two ports 'out'; give each input and output its own name",
            "patchtype V (a) -> (out, event out) { emit out a }", column: 31, width: 3))
        #expect(session.error("patch u U").hasPrefix("error: no patch type 'U'"))
        #expect(session.error("patch v V").hasPrefix("error: no patch type 'V'"))
    }
}

/// An error entry as the shell prints it: the message, then the command and a caret under
/// `column` (from 0) spanning `width` characters.
private func errorEntry(_ message: String, _ command: String, column: Int, width: Int) -> String {
    "error: \(message)\n  \(command)\n  " + String(repeating: " ", count: column) + "^" + String(repeating: "~", count: width - 1)
}
