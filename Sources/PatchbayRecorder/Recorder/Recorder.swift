public import Foundation
public import PatchbayCore

/// Records what a store does into a session file (<doc:SessionFileFormat>), so that an app's real
/// runs can be opened with `patchbay inspect`.
///
/// Any store can be recorded: a Patchbay `Store` by observing it, and a ReSwift middleware, a
/// TCA reducer wrapper or a hand-made store by calling `record(_:state:)` once per reduced
/// action:
///
/// ```swift
/// let recorder = try Recorder(store: store, path: "app.pbsession")      // a Patchbay Store
/// store.dispatch(.increment(by: 2))                                      // an action line
///
/// let recorder = try Recorder(path: "app.pbsession", initialState: state) // any store
/// recorder.record(action, state: newState)                               // an action line
/// recorder.stop()
/// ```
///
/// The file names the store `app` unless `storeName:` gives the name the app's inspector hosts
/// it under (`HostedStore("todos", ...)`: `storeName: "todos"`), which a replay there needs. A
/// file that exists is not written over unless `replacing: true` says so.
///
/// The file has the header, a `store` line with the state when recording started, then one
/// `action` line per action the store reduces (actions a middleware drops are left out), and a
/// `checkpoint` line with the full state every so many actions (as many as the state has leaves,
/// at least 32). There are no `command` lines. States are encoded with `ValueEncoder` (keys in
/// the order encoded; integers and decimals kept apart) and actions with an `ActionMapping`
/// (`.codable()` unless given), so each action line's `action` is an object with a string
/// `type` first; each action line holds the patch from the state before and the digest of the
/// state after.
///
/// A state that is not `Codable` is recorded through reflection (`init(path:reflecting:)`,
/// with `Value(reflecting:)`), and so are its actions unless a mapping is given. Such a file
/// says so in its header: it can be inspected but not replayed.
///
/// Each line is in the file as soon as its action is recorded (one `write(2)`, see
/// `SessionWriter`), so a crash of the app loses nothing recorded; `flush()` and `stop()`
/// force the file to disk.
///
/// Recording never stops the app: the first error (an action or state that cannot be encoded,
/// a full disk) is kept in `error` and ends the recording; the file stays readable up to it.
/// Recording ends with `stop()` or when the recorder is released. A store does not keep the
/// recorder alive. Use the recorder where the store is used (it is not `Sendable`).
public final class Recorder<State, Action>: StoreObserver {
    /// The name the session file gives the store.
    public let storeName: String
    /// The session file.
    public let path: String
    /// Whether states (and the actions, unless mapped) are recorded through reflection: the
    /// file can be inspected but not replayed.
    public let isReflecting: Bool
    /// The error that ended the recording, if one did.
    public private(set) var error: RecorderError?

    private let encodeState: (State) throws(ValueCodingError) -> Value
    private let actions: ActionMapping<Action>
    private var writer: SessionWriter?
    private var state: Value
    private var digest: StateDigest
    private let fixedCheckpointInterval: Int?
    private var checkpointInterval: Int
    private var actionsSinceCheckpoint = 0
    /// The recorded actions: the index of the last one.
    private var index = 0
    /// The observed store, when recording one.
    private var connection: Connection?
    /// The observed store's action count when recording started.
    private var firstStoreIndex = 0
    /// The observed store's indexes of the actions a middleware dropped, in order.
    private var droppedStoreIndexes: [Int] = []

    /// Starts recording into a new session file at `path` (an existing file is replaced only
    /// when `replacing`); the store's actions follow with `record(_:state:)`. Every way to
    /// start a recording comes here.
    private init(path: String, storeName: String, initialState: State, reflecting: Bool, created: Date,
                 checkpointInterval: Int?, replacing: Bool, encodeState: @escaping (State) throws(ValueCodingError) -> Value,
                 actions: ActionMapping<Action>) throws(RecorderError) {
        self.storeName = storeName
        self.path = path
        isReflecting = reflecting
        self.encodeState = encodeState
        self.actions = actions
        fixedCheckpointInterval = checkpointInterval.map { Swift.max(1, $0) }
        do {
            state = try encodeState(initialState)
        } catch {
            throw .encoding(what: "the initial state", message: error.description)
        }
        digest = StateDigest(state)
        self.checkpointInterval = 32
        self.checkpointInterval = nextCheckpointInterval()
        do {
            let writer = try SessionWriter(path: path, created: created, replacing: replacing, recordedThroughReflection: reflecting)
            try writer.write(.store(name: storeName, state: state))
            self.writer = writer
        } catch {
            throw .session(error)
        }
    }

    /// Starts recording a store whose state is `initialState` into a new session file at
    /// `path`; call `record(_:state:)` for each action the store reduces.
    ///
    /// - Parameters:
    ///   - path: the session file to write.
    ///   - storeName: the store's name in the file, `app` by default: give the name the app's
    ///     inspector hosts the store under (`HostedStore("todos", ...)`), so that it replays there.
    ///   - initialState: the store's state before its first recorded action (state 0).
    ///   - actions: how actions become action objects.
    ///   - created: the time written in the header (now by default).
    ///   - checkpointInterval: actions between checkpoints; by default the state's size in
    ///     leaves when the last checkpoint was written, at least 32.
    ///   - replacing: whether an existing file at `path` is written over; by default it is
    ///     not, and the recorder refuses to start (as `record` does without `--force`).
    /// - Throws: when the file exists (unless `replacing`) or cannot be created, or the state
    ///   cannot be encoded.
    public convenience init(path: String, storeName: String = "app", initialState: State, actions: ActionMapping<Action>,
                            created: Date = Date(), checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError)
        where State: Encodable {
        // An Equatable state is encoded again only where it changed (see `ValueEncoder.Memory`).
        let memory = ValueEncoder.Memory(for: State.self)
        try self.init(path: path, storeName: storeName, initialState: initialState, reflecting: false, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing, encodeState: { state throws(ValueCodingError) in
                          try ValueEncoder().encode(state, memory: memory)
                      }, actions: actions)
    }

    /// Starts recording a store of `Codable` actions (mapped with `ActionMapping.codable()`);
    /// see `init(path:storeName:initialState:actions:created:checkpointInterval:replacing:)`.
    public convenience init(path: String, storeName: String = "app", initialState: State, created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) where State: Encodable, Action: Codable {
        try self.init(path: path, storeName: storeName, initialState: initialState, actions: .codable(), created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
    }

    /// Starts recording a store whose state is not `Codable`, through reflection
    /// (`Value(reflecting:)`); its actions go through `actions`, by default through reflection
    /// too. The header says so: the file can be inspected but not replayed.
    public convenience init(path: String, storeName: String = "app", reflecting initialState: State,
                            actions: ActionMapping<Action> = .reflecting(), created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) {
        try self.init(path: path, storeName: storeName, initialState: initialState, reflecting: true, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing, encodeState: { state in Value(reflecting: state) },
                      actions: actions)
    }

    /// Starts recording `store`: every action it reduces from now on, with causes between
    /// them (see `init(path:storeName:initialState:actions:created:checkpointInterval:replacing:)`).
    public convenience init(store: Store<State, Action>, path: String, storeName: String = "app",
                            actions: ActionMapping<Action>, created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) where State: Encodable {
        try self.init(path: path, storeName: storeName, initialState: store.state, actions: actions, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
        observe(store)
    }

    /// Starts recording `store`, whose actions are `Codable` (mapped with
    /// `ActionMapping.codable()`).
    public convenience init(store: Store<State, Action>, path: String, storeName: String = "app", created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) where State: Encodable, Action: Codable {
        try self.init(store: store, path: path, storeName: storeName, actions: .codable(), created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
    }

    /// Starts recording `store`, whose state is not `Codable`, through reflection (see
    /// `init(path:storeName:reflecting:actions:created:checkpointInterval:replacing:)`).
    public convenience init(reflecting store: Store<State, Action>, path: String, storeName: String = "app",
                            actions: ActionMapping<Action> = .reflecting(), created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) {
        try self.init(path: path, storeName: storeName, reflecting: store.state, actions: actions, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
        observe(store)
    }

    /// Records every action `store` reduces from now on.
    private func observe(_ store: Store<State, Action>) {
        firstStoreIndex = store.actionCount
        connection = store.addObserver(self)
    }

    /// Whether actions are still being recorded (no `stop()`, no error).
    public var isRecording: Bool { writer != nil }

    /// Records that the store reduced `action` to `state`: an action line, and a checkpoint
    /// when one is due. Does nothing once the recording has ended.
    /// - Parameters:
    ///   - action: the action the store reduced.
    ///   - after: the store's state after `action`.
    ///   - cause: the recorded index (1 for the first recorded action) of the action during
    ///     whose handling this one was dispatched, if any.
    public func record(_ action: Action, state after: State, cause: Int? = nil) {
        guard let writer else { return }
        let index = index + 1
        do throws(RecorderError) {
            let object: Value, state: Value
            do {
                object = try actions.object(for: action)
            } catch {
                throw .encoding(what: "action \(index)", message: error.description)
            }
            do {
                state = try encodeState(after)
            } catch {
                throw .encoding(what: "the state after action \(index)", message: error.description)
            }
            let changes = self.state.changes(to: state)
            digest.apply(changes, after: state)
            let line = SessionAction(
                store: storeName, index: index, action: object, patch: JSONPatch.operations(changes), hash: digest, cause: cause)
            do {
                try writer.write(.action(line))
                self.index = index
                self.state = state
                actionsSinceCheckpoint += 1
                if actionsSinceCheckpoint >= checkpointInterval {
                    try writer.write(.checkpoint(store: storeName, index: index, state: state))
                    actionsSinceCheckpoint = 0
                    checkpointInterval = nextCheckpointInterval()
                }
            } catch {
                throw .session(error)
            }
        } catch {
            self.error = error
            stop()
        }
    }

    /// Forces the actions recorded so far to disk (`fsync`; each is in the file as soon as it
    /// is recorded). A failed sync ends the recording and is kept in `error`.
    public func flush() {
        guard let writer else { return }
        do throws(SessionError) { try writer.sync() } catch {
            self.error = .session(error)
            stop()
        }
    }

    /// Ends the recording and closes the file. Calling it again does nothing.
    public func stop() {
        connection?.disconnect()
        connection = nil
        writer?.close()
        writer = nil
    }

    deinit { stop() }

    /// Records the action an observed store reduced.
    public func store(didReduce record: DispatchRecord<State, Action>) {
        self.record(record.action, state: record.after, cause: record.cause.flatMap(recordedIndex))
    }

    /// Notes that a middleware dropped the action with store index `index`.
    public func store(didDrop action: Action, index: Int) {
        droppedStoreIndexes.append(index)
    }

    /// The recorded index of the action the observed store numbered `storeIndex`; `nil` when
    /// it was dropped or reduced before recording started.
    private func recordedIndex(_ storeIndex: Int) -> Int? {
        guard storeIndex > firstStoreIndex else { return nil }
        var low = 0, high = droppedStoreIndexes.count
        while low < high {
            let middle = (low + high) / 2
            if droppedStoreIndexes[middle] < storeIndex { low = middle + 1 } else { high = middle }
        }
        if low < droppedStoreIndexes.count, droppedStoreIndexes[low] == storeIndex { return nil }
        return storeIndex - firstStoreIndex - low
    }

    private func nextCheckpointInterval() -> Int {
        fixedCheckpointInterval ?? Swift.max(32, Self.leafCount(state))
    }

    /// The number of leaves of `value` (scalars and empty arrays and objects): the size a
    /// checkpoint interval is measured against.
    static func leafCount(_ value: Value) -> Int {
        switch value {
        case .array(let elements): elements.isEmpty ? 1 : elements.reduce(0) { $0 + leafCount($1) }
        case .object(let members): members.isEmpty ? 1 : members.values.reduce(0) { $0 + leafCount($1) }
        default: 1
        }
    }
}
