@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import PatchbayTestSupport
import Testing

// The histories of a graph's stores (`StoreHistories`) record each step a store reports, and
// follow its jumps, branches and removal. These tests check that what they keep is exactly what a
// plain `History` fed the same steps and jumps keeps: the same steps, states, jumps, diffs and
// blame, on every branch.

/// A graph with a store `app` whose history `StoreHistories` keeps, and next to it a history that
/// records the entry of every step the graph reports, moving and checking out where the store
/// does.
private final class HookAndEntries {
    let graph = Graph()
    let histories: StoreHistories
    private(set) var reference: History?
    /// The store's state as the last event left it: the reference's live state.
    private(set) var live: Value = .null

    init(initial: Value) throws {
        histories = StoreHistories(graph: graph)
        graph.observeStores { [unowned self] event in hear(event) }
        histories.observe { [unowned self] event in
            guard case .checkout(_, let branch) = event else { return }
            #expect(throws: Never.self) { _ = try self.reference?.checkout(branch, current: self.live) }
        }
        try graph.createStore("app", state: initial)
    }

    private func hear(_ event: StoreEvent) {
        switch event {
        case .created(let name, let state):
            reference = History(initial: state, store: name)
            live = state
        case .step(let step, let state):
            #expect(throws: Never.self) { try self.reference?.record(step, after: state) }
            live = state
        case .moved(_, let index, let state):
            #expect(throws: Never.self) { _ = try self.reference?.jump(to: index, current: self.live) }
            live = state
        case .removed:
            reference = nil
        }
    }

    /// Checks that the store's history and the reference agree on everything they can tell.
    func expectSameHistories(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let hooked = try histories.history(of: "app").history
        let reference = try #require(reference, sourceLocation: sourceLocation)
        #expect(hooked.count == reference.count, sourceLocation: sourceLocation)
        #expect(hooked.current == reference.current, sourceLocation: sourceLocation)
        #expect(hooked.branches == reference.branches, sourceLocation: sourceLocation)
        #expect(hooked.statistics == reference.statistics, sourceLocation: sourceLocation)
        guard reference.count > 0 else { return }
        #expect(try hooked.entries(1...hooked.count) == reference.entries(1...reference.count), sourceLocation: sourceLocation)
        let current = try graph.storeState("app")
        #expect(exactly(current, live), sourceLocation: sourceLocation)
        for index in 0...reference.count {
            let state = try hooked.state(at: index, current: current)
            #expect(exactly(state, try reference.state(at: index, current: live)), sourceLocation: sourceLocation)
        }
        for (a, b) in [(0, reference.count), (reference.count, 0), (1, reference.count / 2)] {
            #expect(try hooked.diff(from: a, to: b, current: current) == reference.diff(from: a, to: b, current: live),
                    sourceLocation: sourceLocation)
        }
        for key in ["count", "items", "list", "saved"] {
            #expect(hooked.blame([.key(key)]) == reference.blame([.key(key)]), sourceLocation: sourceLocation)
        }
    }
}

@Suite struct StoreHistoriesRecordingTests {
    /// A store with reducers for one change (Set), key removals (Drop), several changes (Many),
    /// a failure (Fail), an `after` reducer (Later), and a wire that answers Ping with Pong.
    private func fixture() throws -> HookAndEntries {
        let fixture = try HookAndEntries(initial: ["count": 0, "items": ["a": 1, "b": 2, "c": 3], "list": [1, 2]])
        let graph = fixture.graph
        try graph.addReducer(to: "app", on: "Set", body: StatementBlock("state.items[action.key] = action.value"))
        try graph.addReducer(to: "app", on: "Drop", body: StatementBlock("delete state.items[action.key]"))
        try graph.addReducer(to: "app", on: "Many",
                             body: StatementBlock("state.count = state.count + 1; state.list = append(state.list, state.count)"))
        try graph.addReducer(to: "app", on: "Fail", body: StatementBlock("state.count = 1 / 0"))
        try graph.addReducer(to: "app", on: "Later", after: 10, body: StatementBlock("state.saved = action.value"))
        try graph.addReducer(to: "app", on: "Pong", body: StatementBlock("state.count = state.count * 2"))
        try graph.createVariable("relay", value: ["type": "none"])
        try graph.wire(from: PortAddress(node: "app", port: "action"), to: PortAddress(node: "relay", port: "set"))
        try graph.wire(from: PortAddress(node: "relay", port: "value"), to: PortAddress(node: "app", port: "dispatch"),
                       when: Expression(#"$.type == "Ping""#), transform: Expression(#"{type: "Pong"}"#))
        return fixture
    }

    /// Dispatches `count` actions of every kind, in an order drawn from `random`.
    private func dispatchMany(_ count: Int, on graph: Graph, random: inout SplitMix64) throws {
        for round in 0..<count {
            let key = "k\(Int.random(in: 0..<12, using: &random))"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: try graph.dispatch("app", ["type": "Set", "key": .string(key), "value": .int(round)])
            case 4..<6: try graph.dispatch("app", ["type": "Drop", "key": .string(key)])
            case 6: try graph.dispatch("app", ["type": "Many"])
            case 7: #expect(throws: GraphError.self) { try graph.dispatch("app", ["type": "Fail"]) }
            case 8:
                try graph.dispatch("app", ["type": "Later", "value": .int(round)])
                _ = try graph.tick(by: 10)
            default: try graph.dispatch("app", ["type": "Ping"])
            }
        }
    }

    @Test func theHookKeepsWhatRecordingTheStepsKeeps() throws {
        let fixture = try fixture()
        var random = SplitMix64(seed: 0x5709)
        // Long enough for several checkpoints, whose making resolves where removed keys stood.
        try dispatchMany(300, on: fixture.graph, random: &random)
        let history = try fixture.histories.history(of: "app").history
        let entries = try history.entries(1...history.count)
        #expect(entries.contains { $0.failure != nil })
        #expect(entries.contains { $0.cause != nil })
        #expect(entries.contains { $0.delayedReducer != nil })
        #expect(entries.contains { $0.changes.count > 1 })
        #expect(entries.contains { $0.changes.contains { $0.operation == .remove } })
        try fixture.expectSameHistories()
    }

    @Test func jumpsAndForksThroughTheHookMatchTheSteps() throws {
        let fixture = try fixture()
        var random = SplitMix64(seed: 0xF02C)
        try dispatchMany(120, on: fixture.graph, random: &random)
        for target in [100, 3, 57] {
            try fixture.histories.jump("app", to: target)
            try fixture.expectSameHistories()
        }
        // Dispatching from state 57 forks b1.
        try dispatchMany(80, on: fixture.graph, random: &random)
        #expect(try fixture.histories.history(of: "app").history.branch == "b1")
        try fixture.expectSameHistories()
        try fixture.histories.checkout("app", branch: "main")
        try fixture.expectSameHistories()
    }
}
