public import PatchbayCore

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
/// that travels in time (a jump, a skip, a branch) is refused.
public struct RecordedSession: Sendable {
    /// The session file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Replays the actions of `store` (the file's only store when `nil`; a file of several
    /// stores is refused, naming them) through `reducer`, from the state the recording starts
    /// with. For one struct per action type, pass the mapping the app records with:
    /// `verify(Reducer(appReducer), actions: appActions)`.
    /// - Returns: how many actions were verified.
    /// - Throws: `RecordedSessionError.diverged` at the first action whose state differs
    ///   from the recording's; the other cases when the file cannot be verified.
    @discardableResult
    public func verify<State: Codable, Action>(
        _ reducer: Reducer<State, Action>, actions mapping: ActionMapping<Action>, store: String? = nil
    ) throws(RecordedSessionError) -> Int {
        let reader: SessionFileReader
        do { reader = try SessionFileReader(path: path) } catch { throw .session(error) }
        var replay: (name: String, expected: Value, actual: Value, state: State, index: Int)?
        var verified = 0
        // An Equatable state is encoded again only where it changed, and the states verified
        // equal share their storage from then on: each action costs what it changed.
        let memory = ValueEncoder.Memory(for: State.self)
        while true {
            let recorded: RecordedEvent
            do {
                guard let next = try reader.next() else { break }
                recorded = next
            } catch {
                throw .session(error)
            }
            switch recorded.event {
            case .store(let name, let state, _) where replay == nil && (store == nil || store == name):
                do throws(ValueCodingError) {
                    replay = (name, state, state, try ValueDecoder().decode(State.self, from: state), 0)
                } catch {
                    throw .cannotVerify(line: recorded.line, "the recorded state of \(name) does not decode as \(State.self): \(error)")
                }
            case .store(let name, _, _) where store == nil && replay != nil && name != replay?.name:
                // Which store the reducer is for is the caller's to say, not the file's order.
                let first = replay?.name ?? name
                throw .cannotVerify(line: nil, "the recording has several stores (\(first), \(name)): "
                                    + "name the one to verify (verify(reducer, store: \"\(first)\"))")
            case .action(let line) where line.store == replay?.name:
                guard var current = replay else { continue }
                guard line.index == current.index + 1, line.failure == nil else {
                    throw .cannotVerify(line: recorded.line, "action #\(line.index) of \(current.name) does not follow #\(current.index): "
                        + "the recording travels in time (a jump, a skip or a branch), and only a straight run can be verified")
                }
                do throws(JSONPatchError) { _ = try JSONPatch.apply(line.patch, to: &current.expected) } catch {
                    throw .cannotVerify(line: recorded.line, "action #\(line.index): \(error.description)")
                }
                func diverged(_ problem: String? = nil) -> RecordedSessionError {
                    .diverged(StateDivergence(store: current.name, index: line.index, line: recorded.line, action: line.action,
                                              expected: current.expected, actual: current.actual, problem: problem))
                }
                do throws(ActionDecodingError) {
                    reducer(&current.state, try mapping.action(from: line.action))
                } catch {
                    throw diverged("the action no longer decodes: \(error)")
                }
                do throws(ValueCodingError) { current.actual = try ValueEncoder().encode(current.state, memory: memory) } catch {
                    throw diverged("the state after it does not encode: \(error)")
                }
                current.index = line.index
                guard current.actual == current.expected else { throw diverged() }
                verified += 1
                current.expected = current.actual
                replay = current
            case .checkpoint(let name, let index, let state) where name == replay?.name && index == replay?.index:
                // The state the patches before it give, which every action verified so far
                // matched: a checkpoint that says otherwise is damage, here.
                guard state == replay?.expected else {
                    throw .cannotVerify(line: recorded.line, SessionEvent.checkpointDamage(index, of: name))
                }
            case .jump(let name, _), .skip(let name, _, _, _), .reset(let name, _), .checkout(let name, _), .sweep(let name),
                 .recompute(let name, _):
                guard name == replay?.name else { continue }
                throw .cannotVerify(line: recorded.line, "the recording travels in time here, and only a straight run can be verified")
            default:
                continue
            }
        }
        guard replay != nil else { throw .cannotVerify(line: nil, store.map { "no store \($0) in the recording" } ?? "no store in the recording") }
        return verified
    }

    /// Replays the actions of `store` (the file's only store when `nil`) through `reducer`,
    /// mapping actions through their synthesized `Codable` forms (see `ActionMapping.codable()`).
    @discardableResult
    public func verify<State: Codable, Action: Codable>(_ reducer: Reducer<State, Action>, store: String? = nil) throws(RecordedSessionError) -> Int {
        try verify(reducer, actions: .codable(), store: store)
    }
}

extension SessionEvent {
    /// What a checkpoint that disagrees with the state the patches before it give is: damage
    /// at its line (`inspect`, `replay --verify` and `RecordedSession` say it alike).
    package static func checkpointDamage(_ index: Int, of store: String) -> String {
        "checkpoint #\(index) of \(store) differs from the state the patches before it give: the file is damaged here"
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

    /// What differs, path by path, from the recorded state to the state now.
    public var differences: [ValueChange] { expected.changes(to: actual) }

    /// A first line naming the action, then one line per difference (`recorded → now`).
    public var description: String {
        let head = "action #\(index) of \(store) (line \(line): \(action.actionSummary))"
        if let problem { return "\(head): \(problem)" }
        return (["\(head) leaves a state other than the recording's (recorded → now):"] + differences.map { "  " + $0.summary })
            .joined(separator: "\n")
    }
}
