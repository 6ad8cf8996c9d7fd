@_spi(Shell) public import PatchbayCore

/// A recorded session as a regression test of the reducer it was recorded with: every action
/// of a store goes through the reducer again, and the first state that differs from the
/// recording fails the test, with the action and expected against actual.
///
/// ```swift
/// @Test func theRecordedSessionStillHolds() throws {
///     try RecordedSession(path: "sessions/todos.jsonl").verify(Reducer(todoReducer))
/// }
/// ```
///
/// The error's description is the readable divergence, so a thrown error fails an XCTest or a
/// Swift Testing test with it. Any recording whose store's actions follow one another works:
/// an app's (`Recorder`) or a shell's (a hosted store, or `record` in the shell). A recording
/// that travels in time (a jump, a skip, a branch) is refused; one started in the middle of a
/// shell session is verified from where it started (the history its opening brings is the
/// past, loaded, not verified).
public struct RecordedSession: Sendable {
    /// The session file.
    public let path: String

    /// A recorded session at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Replays the actions of `store` (the file's only store when `nil`; a file of several
    /// stores is refused, naming them) through `reducer`, from the state the recording starts
    /// with. For one struct per action type, pass the mapping the app records with:
    /// `verify(Reducer(appReducer), actions: appActions)`.
    ///
    /// A step whose line holds its patch is checked at that step. A recording that holds
    /// actions and checkpoints only (`RecordingDetail.checkpoints`) is checked at its
    /// checkpoints: a step costs the reducer and the decoding of its action, and a checkpoint
    /// one encoding of the state, which the recorder spaced so that it costs a few microseconds
    /// per action.
    /// - Returns: how many actions were verified: all of the store's (those after its opening,
    ///   for a recording started in the middle of a shell session). A recording that ends
    ///   with actions whose states it does not hold (an app that stopped without a last
    ///   checkpoint) is refused, since they could not be checked.
    /// - Throws: `RecordedSessionError.diverged` at the first action (or, between
    ///   checkpoints, the first checkpoint) whose state differs from the recording's; the
    ///   other cases when the file cannot be verified.
    @discardableResult
    public func verify<State: Codable, Action>(
        _ reducer: Reducer<State, Action>, actions mapping: ActionMapping<Action>, store: String? = nil
    ) throws(RecordedSessionError) -> Int {
        let reader: SessionFileReader
        do { reader = try SessionFileReader(path: path) } catch { throw .session(error) }
        var replay: Replay<State, Action>?
        // A recording started in the middle of a shell session opens with what the session held
        // (`setup reset`, then the stores' histories, which may skip, jump and branch): that is
        // the past, loaded, not verified; the run starts from the store's state at the
        // opening's last checkpoint, and ends the opening at its first command.
        var inOpening = false
        var events = 0
        // A run of `name` from `state`, the state after action `index`.
        func start(_ name: String, _ state: Value, index: Int, line: Int) throws(RecordedSessionError) -> Replay<State, Action> {
            do throws(ValueCodingError) {
                return Replay(name: name, initial: state, state: try ValueDecoder().decode(State.self, from: state),
                              reducer: reducer, mapping: mapping, index: index)
            } catch {
                throw .cannotVerify(line: line, "the recorded state of \(name) does not decode as \(State.self): \(error)")
            }
        }
        while true {
            let recorded: RecordedEvent
            do {
                guard let next = try reader.next() else { break }
                recorded = next
            } catch {
                throw .session(error)
            }
            events += 1
            if events == 1, case .setup("reset") = recorded.event { inOpening = true }
            switch recorded.event {
            case .store(let name, _, _) where store == nil && replay != nil && name != replay?.name:
                // Which store the reducer is for is the caller's to say, not the file's order.
                let first = replay?.name ?? name
                throw .cannotVerify(line: nil, "the recording has several stores (\(first), \(name)): "
                                    + "name the one to verify (verify(reducer, store: \"\(first)\"))")
            case .command:
                inOpening = false
            case .store(let name, let state, _) where inOpening || replay == nil:
                guard store == nil || store == name, replay == nil || replay?.name == name else { continue }
                replay = try start(name, state, index: 0, line: recorded.line)
            case .checkpoint(let name, let index, let state) where inOpening:
                guard store == nil || store == name, replay == nil || replay?.name == name else { continue }
                replay = try start(name, state, index: index, line: recorded.line)
            case _ where inOpening:
                continue
            case .action(let line, _) where line.store == replay?.name:
                do { try replay?.step(line, at: recorded.line) } catch { throw Self.damage(after: reader, or: error) }
            case .checkpoint(let name, let index, let state) where name == replay?.name && index == replay?.index:
                do { try replay?.checkpoint(state, at: recorded.line) } catch { throw Self.damage(after: reader, or: error) }
            case .jump(let name, _), .skip(let name, _, _, _), .reset(let name, _), .checkout(let name, _), .sweep(let name),
                 .recompute(let name, _):
                guard name == replay?.name else { continue }
                throw .cannotVerify(line: recorded.line, "the recording travels in time here, and only a straight run can be verified")
            default:
                continue
            }
        }
        guard let replay else {
            throw .cannotVerify(line: nil, store.map { "no store \($0) in the recording" } ?? "no store in the recording")
        }
        guard replay.verified == replay.index else {
            // A test that passed without checking them would pass whatever they do.
            throw .cannotVerify(line: nil, "the recording of \(replay.name) ends with actions #\(replay.verified + 1) to #\(replay.index), "
                + "whose states it does not hold (no checkpoint after them); they ran, but could not be checked "
                + "(a Recorder fed by record(_:state:) writes the last state with stop(state:))")
        }
        return replay.verified - replay.start
    }

    /// The damage `inspect` would name in the rest of the file, when a divergence met before it
    /// may come from it (an edited patch diverges at its step, and contradicts the checkpoint
    /// after it, where the file is damaged); `error` otherwise. From the recorded state after
    /// the diverging step on, the store's lines are followed by a `RecordingVerifier` (its
    /// patches applied, its checkpoints compared with them), and the reader finds damaged
    /// lines, as `inspect` does.
    private static func damage(after reader: SessionFileReader, or error: RecordedSessionError) -> RecordedSessionError {
        guard case .diverged(let divergence) = error else { return error }
        let store = divergence.store
        // Unknown after a step whose action or state did not go through the app's types.
        var recorded = RecordingVerifier(store: store, state: divergence.expected, index: divergence.index)
        if divergence.problem != nil { recorded.restart(from: nil, index: divergence.index) }
        while true {
            let event: RecordedEvent
            do {
                guard let next = try reader.next() else { return error }
                event = next
            } catch {
                return .session(error)
            }
            do throws(RecordingDamage) {
                switch event.event {
                case .action(let action, _) where action.store == store:
                    try recorded.follow(action, line: event.line)
                case .checkpoint(store, let index, let checkpoint):
                    try recorded.follow(checkpoint: checkpoint, index: index, line: event.line)
                case .store(store, let initial, _), .reset(store, let initial):
                    recorded.restart(from: initial, index: 0)
                case .jump(store, let index):
                    recorded.restart(from: nil, index: index)
                case .skip(store, _, _, _), .checkout(store, _), .sweep(store), .recompute(store, _):
                    recorded.restart(from: nil, index: recorded.index)
                default:
                    continue
                }
            } catch {
                return .cannotVerify(line: error.line, error.message)
            }
        }
    }

    /// Replays the actions of `store` (the file's only store when `nil`) through `reducer`,
    /// mapping actions through their synthesized `Codable` forms (see `ActionMapping.codable()`).
    @discardableResult
    public func verify<State: Codable, Action: Codable>(_ reducer: Reducer<State, Action>, store: String? = nil) throws(RecordedSessionError) -> Int {
        try verify(reducer, actions: .codable(), store: store)
    }
}

/// A store's recorded run replayed through the reducer as it is now: the typed state, and
/// the recording's side, followed and checked by its `RecordingVerifier`.
private struct Replay<State: Codable, Action> {
    let reducer: Reducer<State, Action>
    let mapping: ActionMapping<Action>
    /// The state the reducer made.
    var state: State
    /// The recording's side: the recorded state as far as the file tells it, and how far the
    /// reducer's states were checked against it.
    var recorded: RecordingVerifier
    /// The index of the action the run starts after (0, or where a recording started in the
    /// middle of a shell session).
    let start: Int
    /// The last state known to agree with the recording (`matched.index`, with its typed
    /// state), and the actions replayed since, from which a divergence found at a checkpoint
    /// is run again step by step.
    var matched: (index: Int, state: State)
    var since: [(line: Int, action: StoreStep<JSONPatch.Operation>)] = []
    /// An Equatable state is encoded again only where it changed, so that checking a state
    /// after each action costs what the action changed.
    let memory = ValueEncoder.Memory(for: State.self)

    var name: String { recorded.store }
    /// The index of the last action replayed.
    var index: Int { recorded.index }
    /// The index of the last state checked against the recording.
    var verified: Int { recorded.verified }

    /// A run from `state` (recorded as `initial`), the state after action `index`.
    init(name: String, initial: Value, state: State, reducer: Reducer<State, Action>, mapping: ActionMapping<Action>, index: Int = 0) {
        self.reducer = reducer
        self.mapping = mapping
        self.state = state
        recorded = RecordingVerifier(store: name, state: initial, index: index)
        start = index
        matched = (index, state)
    }

    mutating func step(_ line: StoreStep<JSONPatch.Operation>, at lineNumber: Int) throws(RecordedSessionError) {
        guard line.index == index + 1, line.failure == nil else {
            throw .cannotVerify(line: lineNumber, "action #\(line.index) of \(name) does not follow #\(index): "
                + "the recording travels in time (a jump, a skip or a branch), and only a straight run can be verified")
        }
        let action: Action
        do throws(ActionDecodingError) { action = try mapping.action(from: line.action) } catch {
            throw .diverged(StateDivergence(store: name, index: line.index, line: lineNumber, action: line.action, expected: .null,
                                            actual: .null, problem: "the action no longer decodes: \(error)"))
        }
        if line.unrecorded, recorded.expected != nil {
            // The last state the patches checked: where a divergence found at the next
            // checkpoint is looked for from.
            matched = (index, state)
            since = []
        }
        reducer(&state, action)
        do throws(RecordingDamage) { try recorded.follow(line, line: lineNumber) } catch {
            throw .cannotVerify(line: error.line, error.message)
        }
        guard let expected = recorded.expected else {
            since.append((lineNumber, line))
            return
        }
        let actual = try encode(state, at: line, lineNumber)
        guard recorded.check(actual) else {
            throw .diverged(StateDivergence(store: name, index: line.index, line: lineNumber, action: line.action,
                                            expected: expected, actual: actual))
        }
    }

    mutating func checkpoint(_ checkpoint: Value, at lineNumber: Int) throws(RecordedSessionError) {
        let tellsNew: Bool
        do throws(RecordingDamage) { tellsNew = try recorded.follow(checkpoint: checkpoint, index: index, line: lineNumber) } catch {
            throw .cannotVerify(line: error.line, error.message)
        }
        // A state the patches gave was checked at its step.
        if tellsNew {
            let last = since.last
            let actual = try encode(state, at: last?.action, last?.line ?? lineNumber)
            guard recorded.check(actual) else { throw try divergence(at: checkpoint, line: lineNumber) }
        }
        matched = (index, state)
        since = []
    }

    /// The divergence of a checkpoint that differs: the steps since the last state that
    /// matched run again, each encoded, to name those whose changes touch what differs.
    private func divergence(at recorded: Value, line lineNumber: Int) throws(RecordedSessionError) -> RecordedSessionError {
        let actual = try encode(self.state, at: nil, lineNumber)
        let differing = recorded.changes(to: actual).map(\.path)
        var state = matched.state
        var before = try encode(state, at: nil, lineNumber)
        var touching: [Int] = []
        for (line, recordedAction) in since {
            guard let action = try? mapping.action(from: recordedAction.action) else { continue }
            reducer(&state, action)
            let after = try encode(state, at: recordedAction, line)
            let changed = before.changes(to: after).map(\.path)
            if changed.contains(where: { path in differing.contains { $0.starts(with: path) || path.starts(with: $0) } }) {
                touching.append(recordedAction.index)
            }
            before = after
        }
        let action = since.last?.action.action ?? .null
        var divergence = StateDivergence(store: name, index: index, line: lineNumber, action: action, expected: recorded, actual: actual)
        divergence.lastMatched = matched.index
        divergence.touchingSteps = touching
        return .diverged(divergence)
    }

    private func encode(_ state: State, at line: StoreStep<JSONPatch.Operation>?, _ lineNumber: Int) throws(RecordedSessionError) -> Value {
        do throws(ValueCodingError) { return try ValueEncoder().encode(state, memory: memory) } catch {
            throw .diverged(StateDivergence(store: name, index: line?.index ?? index, line: lineNumber, action: line?.action ?? .null,
                                            expected: .null, actual: .null, problem: "the state after it does not encode: \(error)"))
        }
    }
}

extension SessionEvent {
    /// What a checkpoint that disagrees with the state the patches before it give is: damage
    /// at its line (`inspect`, `replay --verify` and `RecordedSession` say it alike).
    package static func checkpointDamage(_ index: Int, of store: String) -> String {
        "checkpoint #\(index) of \(store) differs from the state the patches before it give: the file is damaged here"
    }

    /// What an action line whose index does not follow its store's step is: damage at its line,
    /// said alike by every reader.
    package static func actionOutOfPlace(_ index: Int, of store: String, reached: Int) -> String {
        "action #\(index) of \(store) does not follow state #\(reached)"
    }

    /// What a checkpoint of another step than the one its store reached is (a checkpoint is
    /// written after the step it holds): damage at its line, said alike by every reader.
    package static func checkpointOutOfPlace(_ index: Int, of store: String, reached: Int) -> String {
        "checkpoint #\(index) of \(store) comes where \(store) is at state #\(reached)"
    }
}

/// Why a recorded session did not verify.
public enum RecordedSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read, or is damaged.
    case session(SessionError)
    /// A replayed action left a state other than the recording's.
    case diverged(StateDivergence)
    /// The recording holds something this check cannot replay; `line` says where.
    case cannotVerify(line: Int?, String)

    public var description: String {
        switch self {
        case .session(let error): error.description
        case .diverged(let divergence): divergence.description
        case .cannotVerify(let line, let reason): (line.map { "line \($0): " } ?? "") + reason
        }
    }
}

/// Where a replayed action first left a state other than the recorded one.
public struct StateDivergence: Sendable, Equatable, CustomStringConvertible {
    /// The store's name.
    public var store: String
    /// The action's number in the store.
    public var index: Int
    /// The action's line in the file.
    public var line: Int
    /// The recorded action.
    public var action: Value
    /// The state the recording has after the action.
    public var expected: Value
    /// The state the reducer made.
    public var actual: Value
    /// Why there is no state to compare, when the action could not be replayed at all.
    public var problem: String?
    /// For a divergence found at a checkpoint of a recording that holds no state between
    /// checkpoints (`index` is the checkpoint's): the index of the last state that matched the
    /// recording; `nil` for a divergence found at its own step.
    public var lastMatched: Int?
    /// With `lastMatched`: the steps after it whose changes, as the reducer makes them now,
    /// touch a path that differs at the checkpoint; the divergence is among them.
    public var touchingSteps: [Int] = []

    /// What differs, path by path, from the recorded state to the state now.
    public var differences: [ValueChange] { expected.changes(to: actual) }

    /// A first line naming the action, then one line per difference (`recorded → now`).
    public var description: String {
        let head = "action #\(index) of \(store) (line \(line): \(action.actionSummary))"
        if let problem { return "\(head): \(problem)" }
        var first = "\(head) leaves a state other than the recording's (recorded → now):"
        if let lastMatched {
            let steps = touchingSteps.isEmpty ? "none of them changes what differs"
                : "the ones that change what differs: " + touchingSteps.map { "#\($0)" }.joined(separator: ", ")
            first = "checkpoint #\(index) of \(store) (line \(line)) differs from the state the reducer makes now; the recording "
                + "holds no state between it and #\(lastMatched), the last that matched, and of the actions since, \(steps) "
                + "(recorded → now):"
        }
        return ([first] + differences.map { "  " + $0.summary }).joined(separator: "\n")
    }
}
