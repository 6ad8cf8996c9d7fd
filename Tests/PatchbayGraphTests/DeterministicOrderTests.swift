@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import PatchbayTestSupport
import Testing

/// What a graph prints, saves or runs in turn must not follow the order of a dictionary's keys,
/// which changes from process to process and from one dictionary to the next: the same graph,
/// built in the same order, must give the same output, in the order its parts were made.
@Suite("Deterministic order")
struct DeterministicOrderTests {
    /// A graph whose variable `source` feeds each of `count` variables over a delay edge, made in
    /// a random order; each target has a local value and a probe. Returns the targets in the
    /// order their edges were made.
    private func delayFan(count: Int, random: inout SplitMix64) throws -> (graph: Graph, order: [String]) {
        let graph = Graph()
        try graph.createVariable("source", value: 0)
        let targets = (0..<count).map { "v\($0)" }
        for (index, name) in targets.enumerated() {
            try graph.createVariable(name, value: .int(-1))
            try graph.setInput(PortAddress(node: name, port: "set"), to: .int(index))
            try graph.probe(name, future: true)
        }
        let order = targets.shuffled(using: &random)
        for name in order {
            try graph.wire(from: PortAddress(node: "source", port: "value"), to: PortAddress(node: name, port: "set"), isDelay: true)
        }
        _ = graph.takeEvents()
        return (graph, order)
    }

    @Test func removingANodeRevertsTheInputsOfItsDelayEdgesInTheOrderTheyWereMade() throws {
        var random = SplitMix64(seed: 0x0DE1_A7)
        for trial in 0..<40 {
            let (graph, order) = try delayFan(count: 12, random: &random)
            try graph.set("source", to: 100)
            _ = try graph.tick()
            _ = graph.takeEvents()
            try graph.remove("source")
            let reverted = graph.takeEvents().compactMap { event -> String? in
                guard case .probe(let port, _, _) = event else { return nil }
                return port
            }
            #expect(reverted == order.map { "\($0).value" }, "trial \(trial)")
        }
    }

    @Test func aSavedScriptListsTheDelayEdgesInTheOrderTheyWereMade() throws {
        var random = SplitMix64(seed: 0x5C81_97)
        for trial in 0..<40 {
            let (graph, order) = try delayFan(count: 12, random: &random)
            let wires = graph.definitionScript().lines.filter { $0.hasPrefix("wire ") }
            #expect(wires == order.map { "wire source.value ~> \($0).set" }, "trial \(trial)")
        }
    }

    @Test func aTickCrossesEveryDelayEdgeInOneTransactionReportedInNodeOrder() throws {
        var random = SplitMix64(seed: 0x71C4)
        for trial in 0..<40 {
            let (graph, _) = try delayFan(count: 12, random: &random)
            try graph.set("source", to: 100)
            _ = try graph.tick()
            let crossed = graph.takeEvents().compactMap { event -> String? in
                guard case .probe(let port, _, _) = event else { return nil }
                return port
            }
            #expect(crossed == (0..<12).map { "v\($0).value" }, "trial \(trial)")
        }
    }
}
