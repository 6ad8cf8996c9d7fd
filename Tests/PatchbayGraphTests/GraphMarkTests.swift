@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import Testing

/// `Graph.mark()` and `rollBack(to:)`: what ticks change after a mark is taken back; what is
/// saved for it lives only as long as the mark.
@Suite("Graph marks")
struct GraphMarkTests {
    private func timedGraph() throws -> Graph {
        let graph = Graph()
        try graph.createPatch("t", type: "timer", arguments: ["ms": 1])
        try graph.createPatch("c", type: "counter", arguments: [:])
        try graph.wire(from: PortAddress(node: "t", port: "tick"), to: PortAddress(node: "c", port: "inc"))
        return graph
    }

    private func look(_ graph: Graph) -> [String] {
        ["\(graph.engine.clock.now)", "\(graph.engine.clock.pendingCount)", "\(graph.engine.clock.nextDue ?? -1)",
         "\(graph.lookup(name: "t"))", "\(graph.lookup(name: "c"))", "\(graph.engine.transactionID)"]
    }

    @Test func nestedMarksKeepOneSaveEachAndRollBackToTheOutermost() throws {
        let graph = try timedGraph()
        _ = try graph.tick(by: 3)
        let before = look(graph)
        let outer = graph.mark()
        for _ in 0..<20 {
            let inner = graph.mark()
            _ = try graph.tick(by: 2)
            graph.release(inner)
        }
        #expect(graph.savesBeforeTicks.count == 1, "the outer mark's save only")
        #expect(look(graph) != before)
        graph.rollBack(to: outer)
        #expect(look(graph) == before)
        graph.release(outer)
        #expect(graph.savesBeforeTicks.isEmpty && graph.openMarks.isEmpty)
        // The counter counts on from where it was.
        _ = try graph.tick(by: 1)
        #expect(graph.lookup(name: "c") == .value(5))
    }

    /// A thousand inner marks, each changing the same nodes (the commands an import runs): the
    /// outer mark keeps one save per node, so taking it back costs what one inner command's
    /// would; a node first changed in an inner mark keeps that save; every value comes back.
    @Test func innerMarksThatChangeWhatTheOuterSavedAddNoSaves() throws {
        let graph = try timedGraph()
        try graph.createVariable("v", value: 0)
        try graph.createVariable("w", value: 0)
        // The values and the clock (the transaction counter only counts on).
        func values() -> [String] { look(graph).dropLast() + ["\(graph.lookup(name: "v"))", "\(graph.lookup(name: "w"))"] }
        let before = values()
        let outer = graph.mark()
        try graph.set("v", to: .int(-1))
        for index in 1...1_000 {
            let inner = graph.mark()
            try graph.set("v", to: .int(index))
            if index == 500 { try graph.set("w", to: .int(index)) }
            _ = try graph.tick(by: 1)
            graph.release(inner)
        }
        #expect(graph.engine.undoLog.count == 4, "v, w, t and c, once each")
        graph.rollBack(to: outer)
        #expect(values() == before)
        graph.release(outer)
        #expect(graph.engine.undoLog.isEmpty)
    }

    @Test func aMarkSavesOnlyTheNodesThatChange() throws {
        let graph = try timedGraph()
        for index in 0..<50 { try graph.createVariable("v\(index)", value: .int(index)) }
        try graph.createVariable("late", value: 0)
        try graph.wire(from: PortAddress(node: "c", port: "count"), to: PortAddress(node: "v7", port: "set"), isDelay: true)
        let mark = graph.mark()
        _ = try graph.tick(by: 2)
        #expect(graph.engine.undoLog.count == 3, "t, c and v7")
        graph.rollBack(to: mark)
        graph.release(mark)
        #expect(graph.engine.undoLog.isEmpty && graph.engine.undoGeneration == 0)
        #expect(graph.lookup(name: "v7") == .value(7))
        #expect(graph.lookup(name: "c") == .value(1))
    }

    @Test func withoutAMarkATickSavesNothing() throws {
        let graph = try timedGraph()
        _ = try graph.tick(by: 5)
        #expect(graph.savesBeforeTicks.isEmpty && graph.engine.undoLog.isEmpty)
        let mark = graph.mark()
        graph.release(mark)
        _ = try graph.tick(by: 5)
        #expect(graph.savesBeforeTicks.isEmpty && graph.engine.undoLog.isEmpty)
        #expect(graph.lookup(name: "c") == .value(11))
    }

    @Test func aRollBackKeepsTheTimersOfNodesMadeSinceAndDropsThoseOfNodesRemoved() throws {
        let graph = try timedGraph()
        try graph.createPatch("gone", type: "timer", arguments: ["ms": 5])
        let mark = graph.mark()
        _ = try graph.tick(by: 2)
        try graph.remove("gone")
        try graph.createPatch("late", type: "timer", arguments: ["ms": 7])
        _ = try graph.tick(by: 2)
        graph.rollBack(to: mark)
        graph.release(mark)
        #expect(graph.engine.clock.now == 0)
        // t's timer as it was, late's as it is (set at 2 ms, due at 9), none of gone's.
        #expect(graph.engine.clock.pendingCount == 2)
        _ = try graph.tick(by: 9)
        #expect(graph.lookup(name: "late") == .value(1))
        #expect(graph.lookup(name: "c") == .value(10))
    }
}
