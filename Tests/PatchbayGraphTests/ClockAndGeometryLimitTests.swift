@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import Testing

// Integers from the user that reach the virtual clock or a view's geometry: too large ones are
// errors that change nothing; nothing overflows or runs unbounded.

@Suite("Engine: limits of the virtual clock")
struct ClockLimitTests {
    @Test func aTickPastTheLatestTimeThrowsAndLeavesTheClock() throws {
        let engine = Engine()
        #expect(throws: EngineError.clockLimit(now: 0, step: Int.max, maximum: VirtualClock.maximumTime)) {
            try engine.tick(by: Int.max)
        }
        #expect(engine.clock.now == 0)
        #expect(try engine.tick(by: 1) == 1)
        #expect(try engine.tick(by: VirtualClock.maximumTime - 1) == VirtualClock.maximumTime)
        #expect(throws: EngineError.clockLimit(now: VirtualClock.maximumTime, step: 1, maximum: VirtualClock.maximumTime)) {
            try engine.tick()
        }
        #expect(engine.clock.now == VirtualClock.maximumTime)
    }

    @Test func timerAndDelayPeriodsAreBoundedByTheLongestWait() throws {
        let graph = Graph()
        try graph.tick(by: 1)
        let tooLong = PatchTypeError.invalidParameter(
            "ms", "must be at most \(VirtualClock.maximumDelay), the longest wait of the virtual clock")
        #expect(throws: GraphError.patchType(type: "timer", tooLong)) { try graph.addPatch("t", "timer", ["ms": .int(Int.max)]) }
        #expect(throws: GraphError.patchType(type: "delay", tooLong)) { try graph.addPatch("d", "delay", ["ms": .int(Int.max)]) }
        #expect(graph.nodeNames.isEmpty)
        #expect(graph.engine.clock.pendingCount == 0)
        try graph.addPatch("t", "timer", ["ms": .int(VirtualClock.maximumDelay)])
        #expect(graph.engine.clock.nextDue == 1 + VirtualClock.maximumDelay)
    }

    @Test func aTimerSetForLongerThanTheLongestWaitWaitsTheLongestWait() throws {
        // A caller inside the library cannot overflow the clock either: the wait is clamped.
        let engine = Engine()
        try engine.tick(by: 5)
        var fired = false
        engine.setTimer(after: Int.max, owner: nil, purpose: nil) { fired = true }
        #expect(engine.clock.nextDue == 5 + VirtualClock.maximumDelay)
        try engine.tick(by: VirtualClock.maximumTime - 5)
        #expect(!fired)
    }

    @Test func anAfterReducerOutsideTheLongestWaitIsRefused() throws {
        let graph = Graph()
        try graph.createStore("s", state: ["n": 0])
        let body = try StatementBlock("state.n += 1")
        #expect(throws: GraphError.invalidDelay(Int.max)) { try graph.addReducer(to: "s", on: "X", after: Int.max, body: body) }
        #expect(throws: GraphError.invalidDelay(-1)) { try graph.addReducer(to: "s", on: "X", after: -1, body: body) }
        #expect(try graph.reducerSummaries().isEmpty)
        try graph.tick(by: 3)
        try graph.addReducer(to: "s", on: "X", after: VirtualClock.maximumDelay, body: body)
        try graph.dispatch("s", ["type": "X"])
        #expect(graph.engine.clock.nextDue == 3 + VirtualClock.maximumDelay)
        try graph.tick(by: 10)
        #expect(try graph.storeState("s") == ["n": 0])
    }

    @Test func aTickThatWouldFireMoreTimersThanTheLimitChangesNothing() throws {
        let graph = Graph()
        try graph.addPatch("t", "timer", ["ms": 1])
        try graph.probe("t", future: true)
        let limit = VirtualClock.maximumFirings
        #expect(throws: GraphError.engine(.tooManyFirings(step: limit + 1, limit: limit, stoppedAt: nil))) {
            try graph.tick(by: limit + 1)
        }
        #expect(graph.engine.clock.now == 0)
        #expect(graph.value("t") == 0)
        #expect(graph.took() == [])
        #expect(try graph.tick(by: 3) == 3)
        #expect(graph.took() == ["t.tick = 1", "t.tick = 2", "t.tick = 3"])
    }

    @Test func timersSetWhileATickRunsStopItAtTheLimit() throws {
        // Each tick of the timer sets a delay's timer: twice the firings the tick could count
        // ahead (the first delay, of the timer's initial 0, is pending already).
        let graph = Graph()
        try graph.addPatch("t", "timer", ["ms": 1])
        try graph.addPatch("d", "delay", ["ms": 0])
        try graph.connect("t.tick", "d.in")
        let limit = VirtualClock.maximumFirings
        #expect(graph.engine.clock.pendingCount == 2)
        #expect(throws: GraphError.engine(.tooManyFirings(step: limit - 1, limit: limit, stoppedAt: limit / 2))) {
            try graph.tick(by: limit - 1)
        }
        #expect(graph.engine.clock.now == limit / 2)
        #expect(graph.value("t") == .int(limit / 2))
        #expect(try graph.tick(by: 1) == limit / 2 + 1)
    }
}

@Suite("Graph: views with huge geometry")
struct ViewGeometryLimitTests {
    @Test func renderClipsWhatLiesPastTheCanvas() throws {
        let graph = Graph()
        try graph.addPatch("far", "view", ["x": .int(Int.max), "y": 1, "width": .int(Int.max), "height": .int(Int.max)])
        #expect(graph.render() == [String](repeating: "", count: Graph.maxCanvas.height))
        try graph.addPatch("near", "view", ["x": 0, "y": 0, "width": .int(Int.max), "height": 3, "text": "hello"])
        let canvas = graph.render()
        #expect(canvas.count == Graph.maxCanvas.height)
        #expect(canvas[0] == "+" + String(repeating: "-", count: Graph.maxCanvas.width - 1))
        #expect(canvas[1] == "|hello")
        #expect(canvas[2] == canvas[0])
    }

    @Test func tapComparesWithoutOverflow() throws {
        let graph = Graph()
        try graph.addPatch("v", "view", ["x": .int(Int.max - 10), "y": .int(-Int.max), "width": 100, "height": .int(Int.max)])
        try graph.addPatch("tp", "tap")
        try graph.connect("v.frame", "tp.view")
        try graph.probe("tp", port: "x", future: true)
        try graph.probe("tp", port: "y", future: true)
        #expect(try graph.tap("v", x: Int.max, y: -1) == ["tp"])
        #expect(graph.took() == ["tp.x = 10", "tp.y = \(Int.max - 1)"])
        #expect(try graph.tap("v", x: -Int.max, y: 0) == [])
        #expect(try graph.tap("v", x: Int.max - 11, y: 0) == [])
        #expect(try graph.tap("v", x: Int.max, y: Int.max) == [])
    }
}
