@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import PatchbayTestSupport
import Testing

// Every store keeps its whole history, the initial state (state 0) and every action,
// action i leading to state i. These tests cover recording, reading entries back, the errors and
// the memory layout (checkpoints sized to the state).

/// `count` actions `{type: "Set", key, value}` on `{k0: 0, ..., k(keys-1): 0}`, recorded in a
/// fresh history; returns it with every state.
private func setHistory(keys: Int, count: Int, seed: UInt64) throws -> (History, [Value]) {
    var random = SplitMix64(seed: seed)
    var state = Value.object(Value.Members(uniqueKeysWithValues: (0..<keys).map { (ObjectKey("k\($0)"), Value.int(0)) }))
    let history = History(initial: state, store: "app")
    var states = [state]
    for index in 1...count {
        let key = "k\(Int.random(in: 0..<keys, using: &random))"
        let value = Value.int(index)
        let change = ValueChange(path: [.key(key)], operation: .replace, old: state[key], new: value)
        try state.apply(change)
        try history.record(StoreStep<ValueChange>(store: "the store", index: index, action: ["type": "Set", "key": .string(key), "value": value], changes: [change]),
                           after: state)
        states.append(state)
    }
    return (history, states)
}

@Suite struct HistoryRecordingTests {
    @Test func recordingMovesCurrentToTheEnd() throws {
        let history = History(initial: ["count": 0])
        #expect(history.count == 0)
        #expect(history.current == 0)
        #expect(history.branch == "main")
        let change = ValueChange(path: [.key("count")], operation: .replace, old: 0, new: 1)
        let forked = try history.record(StoreStep<ValueChange>(store: "the store", index: 1, action: ["type": "Inc"], changes: [change]), after: ["count": 1])
        #expect(forked == nil)
        #expect(history.count == 1)
        #expect(history.current == 1)
    }

    @Test func entriesComeBackAsRecorded() throws {
        let history = History(initial: ["user": ["name": "unknown"], "items": [1, 2]])
        let entries = [
            StoreStep<ValueChange>(store: "the store", index: 1, action: ["type": "Rename", "name": "Max"], changes: [ValueChange(path: [.key("user"), .key("name")], operation: .replace, old: "unknown", new: "Max")]),
            StoreStep<ValueChange>(store: "the store", index: 2, action: ["type": "Bad", "x": 1.5], changes: [], failure: "r1: division by zero"),
            StoreStep<ValueChange>(store: "the store", index: 3, action: ["type": "Later"], changes: [ValueChange(path: [.key("items"), .index(0)], operation: .remove, old: 1, new: nil),
                                   ValueChange(path: [.key("extra")], operation: .add, old: nil, new: ["a": [nil, true, -7]])], cause: 1, delayedReducer: "r3"),
            StoreStep<ValueChange>(store: "the store", index: 4, action: ["type": "Off", "unicode": "é😀"], changes: [], skipped: true),
        ]
        var state = history.initial
        for entry in entries {
            for change in entry.changes { try state.apply(change) }
            try history.record(entry, after: state)
        }
        for entry in entries {
            #expect(try history.entry(entry.index) == entry)
        }
        #expect(try history.entries(2...4) == Array(entries[1...]))
        #expect(try history.entries(1...4) == entries)
    }

    @Test func anActionOutOfOrderIsRefused() throws {
        let history = History(initial: 0, store: "app")
        #expect(throws: HistoryError.outOfOrder(store: "app", expected: 1, got: 2)) {
            try history.record(StoreStep<ValueChange>(store: "the store", index: 2, action: ["type": "X"], changes: []), after: 0)
        }
        try history.record(StoreStep<ValueChange>(store: "the store", index: 1, action: ["type": "X"], changes: []), after: 0)
        #expect(throws: HistoryError.outOfOrder(store: "app", expected: 2, got: 1)) {
            try history.record(StoreStep<ValueChange>(store: "the store", index: 1, action: ["type": "X"], changes: []), after: 0)
        }
        #expect(history.count == 1)
    }

    @Test func stepsOutOfRangeAreRefusedWithTheValidRange() throws {
        let (history, states) = try setHistory(keys: 3, count: 9, seed: 1)
        let error = #expect(throws: HistoryError.self) { try history.jump(to: 12, current: states[9]) }
        #expect(error?.description == "app has no step 12: its history goes from 0 to 9")
        #expect(throws: HistoryError.noSuchState(store: "app", index: -1, count: 9)) { try history.state(at: -1, current: states[9]) }
        #expect(history.current == 9)
        let noAction = #expect(throws: HistoryError.self) { try history.entry(0) }
        #expect(noAction?.description == "app has no action 0: its actions go from 1 to 9")
        #expect(throws: HistoryError.noSuchAction(store: "app", index: 10, count: 9)) { try history.entries(5...10) }
        let empty = History(initial: 0)
        let none = #expect(throws: HistoryError.self) { try empty.entry(1) }
        #expect(none?.description == "the store has no action 1: it has no actions yet")
        #expect(try empty.state(at: 0, current: 0) == 0)
    }

    @Test func everyStateComesBackExactly() throws {
        let (history, states) = try setHistory(keys: 50, count: 400, seed: 2)
        var live = states[400]
        var random = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let target = Int.random(in: 0...400, using: &random)
            live = try history.jump(to: target, current: live)
            #expect(history.current == target)
            #expect(exactly(live, states[target]))
        }
        for index in stride(from: 0, through: 400, by: 7) {
            #expect(exactly(try history.state(at: index, current: live), states[index]))
        }
    }

    @Test func checkpointsAreAboutAsFarApartAsTheStateHasLeaves() throws {
        let (history, _) = try setHistory(keys: 500, count: 5_000, seed: 4)
        let statistics = history.statistics
        #expect(statistics.actions == 5_000)
        #expect(statistics.checkpointInterval == 500)
        // State 0 and one every 500 steps.
        #expect(statistics.checkpoints == 11)
        let (small, _) = try setHistory(keys: 3, count: 100, seed: 5)
        #expect(small.statistics.checkpointInterval == 32)
        #expect(small.statistics.checkpoints == 4)
    }

    @Test func aLongStringSpacesTheCheckpointsOutLikeManyLeaves() throws {
        let text = String(repeating: "x", count: 32 * 1_000)
        let history = History(initial: ["text": .string(text), "n": 0])
        #expect(history.statistics.checkpointInterval == 1_002)
    }

    @Test func nestedLeavesCountTowardTheCheckpointInterval() throws {
        // 10 + 10 elements, an empty array, 20 members, an empty object and a short string.
        let inner = Value.object(Value.Members(uniqueKeysWithValues: (0..<20).map { (ObjectKey("m\($0)"), Value.int($0)) }))
        let state: Value = [
            "lists": [.array((0..<10).map { .int($0) }), .array((10..<20).map { .int($0) }), []],
            "objects": ["inner": inner, "empty": [:]],
            "name": "short",
        ]
        #expect(History(initial: state).statistics.checkpointInterval == 43)
    }

    @Test func aStepTakesTensOfBytesWhateverTheStateSize() throws {
        let (small, _) = try setHistory(keys: 10, count: 2_000, seed: 6)
        let (large, _) = try setHistory(keys: 2_000, count: 2_000, seed: 6)
        #expect(small.statistics.stepBytes / 2_000 < 64)
        #expect(large.statistics.stepBytes / 2_000 < 64)
    }

    @Test func theLastEntriesOfALongHistoryComeBackInOrder() throws {
        let (history, states) = try setHistory(keys: 20, count: 10_000, seed: 7)
        let last = try history.entries(9_981...10_000)
        #expect(last.map(\.index) == Array(9_981...10_000))
        for entry in last {
            guard case .string(let key)? = entry.action["key"] else {
                Issue.record("no key in \(entry.action)")
                continue
            }
            #expect(states[entry.index][key] == entry.action["value"])
        }
    }
}
