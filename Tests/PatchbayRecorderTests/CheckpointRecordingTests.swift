import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import Testing

/// A state of the shapes an app's holds: an array of structs, a dictionary, an optional and a
/// nested enum.
private struct Catalogue: Codable, Equatable, Sendable {
    struct Item: Codable, Equatable, Sendable { var name: String; var a: Int; var b: Int }
    enum Mode: Codable, Equatable, Sendable { case browsing, editing(item: Int), filtered(tags: [String]) }
    var items: [Item] = []
    var counts: [String: Int] = [:]
    var selected: Int?
    var mode: Mode = .browsing
}

private enum Edit: Codable, Equatable, Sendable {
    case append(String)
    case update(index: Int, value: Int)
    case remove(index: Int)
    case count(String)
    case select(Int?)
    case mode(Catalogue.Mode)
}

private func reduce(_ state: inout Catalogue, _ edit: Edit) {
    switch edit {
    case .append(let name): state.items.append(.init(name: name, a: 0, b: state.items.count))
    case .update(let index, let value): if state.items.indices.contains(index) { state.items[index].a = value }
    case .remove(let index): if state.items.indices.contains(index) { state.items.remove(at: index) }
    case .count(let key): state.counts[key, default: 0] += 1
    case .select(let index): state.selected = index
    case .mode(let mode): state.mode = mode
    }
}

/// A small deterministic generator (SplitMix64), so that a failing seed repeats.
private struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    mutating func edit(items: Int) -> Edit {
        switch next(6) {
        case 0: .append("item\(next(1000))")
        case 1: .update(index: next(max(1, items)), value: next(100))
        case 2: .remove(index: next(max(1, items)))
        case 3: .count(["a", "b", "c"][next(3)])
        case 4: .select(next(3) == 0 ? nil : next(10))
        default: .mode([.browsing, .editing(item: next(5)), .filtered(tags: ["t\(next(3))"])][next(3)])
        }
    }
}

@Suite("Recording actions and checkpoints")
struct CheckpointRecordingTests {
    @Test func aStateIsTakenEveryIntervalAndTheFileEndsWithTheLastState() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Catalogue(), reducer: Reducer(reduce))
        let recorder = try Recorder(store: store, path: path, checkpointInterval: 3)
        for index in 0..<7 { store.dispatch(.append("item\(index)")) }
        recorder.stop()
        #expect(recorder.error == nil)
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.header.version == SessionHeader.checkpointsOnlyVersion)
        let lines = load.events.map { recorded -> String in
            switch recorded.event {
            case .action(let action, _): "#\(action.index)" + (action.recordedChanges == nil ? "" : " patch")
            case .checkpoint(_, let index, _): "checkpoint #\(index)"
            default: recorded.event.kind
            }
        }
        #expect(lines == ["store", "#1", "#2", "#3", "checkpoint #3", "#4", "#5", "#6", "checkpoint #6", "#7", "checkpoint #7"])
        #expect(try RecordedSession(path: path).verify(Reducer(reduce)) == 7)
    }

    @Test func aStateTakenAfterEveryActionGivesEveryPatch() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Catalogue(), reducer: Reducer(reduce))
        let recorder = try Recorder(store: store, path: path, checkpointInterval: 1)
        store.dispatch(.append("milk"))
        store.dispatch(.update(index: 0, value: 7))
        recorder.stop()
        let actions = try SessionReader.read(contentsOf: path).events.compactMap { recorded -> StoreStep<JSONPatch.Operation>? in
            if case .action(let action, _) = recorded.event { return action }
            return nil
        }
        #expect(actions.map(\.recordedChanges) == [
            [JSONPatch.Operation(.add, path: JSONPointer("/items/0")!, value: ["name": "milk", "a": 0, "b": 0])],
            [JSONPatch.Operation(.replace, path: JSONPointer("/items/0/a")!, value: 7)],
        ])
    }

    @Test func aRecordingThatEndsWithoutItsLastStateIsRefusedByVerify() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try Recorder<Catalogue, Edit>(path: path, initialState: Catalogue(), checkpointInterval: 2)
        var state = Catalogue()
        for edit in [Edit.append("a"), .append("b"), .count("x")] {
            reduce(&state, edit)
            recorder.record(edit, state: state)
        }
        recorder.stop()
        #expect(throws: RecordedSessionError.cannotVerify(line: nil, "the recording of app ends with actions #3 to #3, whose states it "
            + "does not hold (no checkpoint after them); they ran, but could not be checked (a Recorder fed by record(_:state:) "
            + "writes the last state with stop(state:))")) {
            try RecordedSession(path: path).verify(Reducer(reduce))
        }
    }

    /// Random sessions of random states, recorded with random intervals (and the adaptive
    /// default), or with every change (whose encoding changes in place): the file's states,
    /// where it holds them, are the app's; `verify` passes; a reducer changed at one step is
    /// caught there when the file holds that step's change, and otherwise at the first
    /// checkpoint after it, which names the step.
    @Test(arguments: 0..<40)
    func randomSessionsVerifyAndAPlantedDivergenceIsFound(seed: UInt64) throws {
        var generator = Generator(state: seed)
        var initial = Catalogue()
        for index in 0..<generator.next(50) { initial.items.append(.init(name: "start\(index)", a: index, b: 0)) }
        let interval: Int? = seed % 5 == 0 ? nil : generator.next(6) + 1
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: initial, reducer: Reducer(reduce))
        let detail: RecordingDetail = seed % 4 == 1 ? .everyChange : .checkpoints
        let recorder = try Recorder(store: store, path: path, detail: detail, checkpointInterval: interval)
        var states: [Value] = [try ValueEncoder().encode(initial)]
        var edits: [Edit] = []
        for _ in 0..<(generator.next(40) + 1) {
            let edit = generator.edit(items: store.state.items.count)
            edits.append(edit)
            store.dispatch(edit)
            states.append(try ValueEncoder().encode(store.state))
        }
        recorder.stop()
        #expect(recorder.error == nil)

        // The file against the app, wherever the file tells the state.
        var known: Value? = states[0]
        var changeHeld: [Int: Bool] = [:]
        for recorded in try SessionReader.read(contentsOf: path).events {
            switch recorded.event {
            case .action(let action, _):
                changeHeld[action.index] = action.recordedChanges != nil && known != nil
                if let patch = action.recordedChanges, var state = known {
                    _ = try JSONPatch.apply(patch, to: &state)
                    #expect(state == states[action.index], "seed \(seed): the patch of #\(action.index)")
                    known = state
                } else {
                    known = nil
                }
            case .checkpoint(_, let index, let state):
                #expect(state == states[index], "seed \(seed): checkpoint #\(index)")
                known = state
            default:
                break
            }
        }
        #expect(try RecordedSession(path: path).verify(Reducer(reduce)) == edits.count)
        if detail == .everyChange { #expect(changeHeld.count == edits.count && changeHeld.values.allSatisfy { $0 }, "seed \(seed)") }

        // A reducer that does something else for one action (and for the same action earlier,
        // where it then first diverges): pure, as reducers are.
        let changedAction = edits[generator.next(edits.count)]
        let planted = edits.firstIndex(of: changedAction)! + 1
        let broken = Reducer<Catalogue, Edit> { state, edit in
            reduce(&state, edit)
            if edit == changedAction { state.counts["planted", default: 0] += 1 }
        }
        #expect { try RecordedSession(path: path).verify(broken) } throws: { error in
            guard case .diverged(let divergence) = error as? RecordedSessionError else { return false }
            if changeHeld[planted] == true { return divergence.index == planted && divergence.lastMatched == nil }
            return divergence.index >= planted && (divergence.lastMatched ?? .max) < planted && divergence.touchingSteps.contains(planted)
        }
    }

    @Test func inspectShowsTheStepsBetweenCheckpointsAsNotRecorded() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Catalogue(), reducer: Reducer(reduce))
        let recorder = try Recorder(store: store, path: path, checkpointInterval: 2)
        store.dispatch(.append("milk"))
        store.dispatch(.count("a"))
        store.dispatch(.select(0))
        recorder.stop()
        let graph = Graph()
        let histories = StoreHistories(graph: graph)
        var inspection = Inspection(graph: graph, histories: histories)
        for recorded in try SessionReader.read(contentsOf: path).events { try inspection.apply(recorded.event, line: recorded.line) }
        try inspection.finish()
        let history = try histories.history(of: "app").history
        let entries = try history.entries(1...3)
        #expect(entries.map(\.unrecorded) == [true, true, true])
        #expect(entries.map { $0.changes.map(\.pathText) } == [[], ["items[0]", "counts.a"], ["selected"]])
        #expect(try graph.storeState("app") == ValueEncoder().encode(store.state))
    }
}
