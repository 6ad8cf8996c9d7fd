import Dispatch
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
/// A recorder can also send the same lines to a shell that runs `inspect --listen`, on this
/// machine or another, which shows the actions as they arrive
/// (`init(store:connectingTo:port:token:timeout:storeName:detail:created:checkpointInterval:)`,
/// see <doc:WatchingAnAppOnAnotherDevice>).
///
/// The file has the header, a `store` line with the state when recording started, then one
/// `action` line per action the store reduces (actions a middleware drops are left out), and
/// `checkpoint` lines with the full state. There are no `command` lines. States are encoded
/// with `ValueEncoder` (keys in the order encoded; integers and decimals kept apart) and
/// actions with an `ActionMapping` (`.codable()` unless given), so each action line's `action`
/// is an object with a string `type` first.
///
/// What each step costs the app depends on `detail` (see `RecordingDetail`):
/// - `.checkpoints` (the default): the app's thread encodes the action and queues it, a few
///   microseconds whatever the state's size; the recorder's own thread encodes the state now
///   and then, as often as `checkpointBudget` per action allows, and writes the lines. A step
///   whose state was taken right after the one before holds its patch; the others hold the
///   action only, and the states between checkpoints are not in the file. Taking a state
///   keeps its storage until the writer has encoded it, so the next action copies the
///   collections it changes once (about 1.6 ms for 100,000 items, once every few thousand
///   actions for such a state).
/// - `.everyChange`: every action line holds its patch and the digest of the state after it,
///   found on the app's thread (see `RecordingDetail.everyChange` for its cost).
///
/// A state that is not `Codable` is recorded through reflection (`init(path:reflecting:)`,
/// with `Value(reflecting:)`), and so are its actions unless a mapping is given. Such a file
/// says so in its header: it can be inspected but not replayed.
///
/// Lines reach the file from the recorder's thread, in batches, usually within microseconds of
/// their action; a crash of the app loses at most the lines still queued. `flush()` waits for
/// them and forces the file to disk. The app's thread never waits for the writer, except when
/// 65,536 actions are queued (a disk far slower than the app): it then waits until they are
/// written, and no action is ever dropped.
///
/// Recording never stops the app: the first error (an action or state that cannot be encoded,
/// a full disk) is kept in `error` and ends the recording; the file stays readable up to it.
/// Recording ends with `stop()` (which writes a last checkpoint of the observed store's state)
/// or when the recorder is released. A store does not keep the recorder alive. Use the
/// recorder where the store is used (it is not `Sendable`).
public final class Recorder<State, Action>: StoreObserver {
    /// The name the session file gives the store.
    public let storeName: String
    /// The session file, or `host:port` of the shell recorded into.
    public let path: String
    /// Whether states (and the actions, unless mapped) are recorded through reflection: the
    /// file can be inspected but not replayed.
    public let isReflecting: Bool
    /// How much of each step the file holds.
    public let detail: RecordingDetail
    /// The time per action, on the recorder's thread, that encoding the states of checkpoints
    /// may take (with `.checkpoints`): 2 µs. A state that encodes in 2 ms is taken every
    /// thousand actions; one that encodes in 2 µs, after every action.
    public static var checkpointBudget: Duration { .microseconds(2) }
    /// The error that ended the recording, if one did.
    public var error: RecorderError? { startError ?? writer?.error }

    /// How the state becomes what the writer takes: a value encoded now, or (for a state that
    /// can cross threads) the typed state, encoded on the writer's thread.
    private let snapshot: (State) throws(ValueCodingError) -> RecordingWriter.Snapshot
    /// With `.everyChange`: the state encoded on the app's thread, the parts of an `Equatable`
    /// one that did not change taken over from the last (see `ValueEncoder.Memory`).
    private let encodeState: (State) throws(ValueCodingError) -> Value
    private let actions: ActionMapping<Action>
    /// How an action reaches the writer: encoded now, or (with `.checkpoints`, for actions that
    /// can cross threads) as the typed action, encoded on the writer's thread.
    private let queuedAction: (Action) throws(ValueCodingError) -> RecordingWriter.Snapshot
    private var writer: RecordingWriter?
    private var startError: RecorderError?
    /// Actions since the writer was last given a state.
    private var actionsSinceState = 0
    /// The recorded actions: the index of the last one.
    private var index = 0
    /// The observed store, when recording one: its state is the last checkpoint's.
    private weak var store: Store<State, Action>?
    private var connection: Connection?
    /// The observed store's action count when recording started.
    private var firstStoreIndex = 0
    /// The observed store's indexes of the actions a middleware dropped, in order.
    private var droppedStoreIndexes: [Int] = []

    /// Starts recording into `destination` (a new session file, or a shell listening); the
    /// store's actions follow with `record(_:state:)`. Every way to start a recording comes here.
    private init(destination: RecordingDestination, storeName: String, initialState: State, reflecting: Bool, created: Date, detail: RecordingDetail,
                 checkpointInterval: Int?, snapshot: @escaping (State) throws(ValueCodingError) -> RecordingWriter.Snapshot,
                 encodeState: @escaping (State) throws(ValueCodingError) -> Value,
                 actions: ActionMapping<Action>,
                 queuedAction: ((Action) -> RecordingWriter.Snapshot)? = nil) throws(RecorderError) {
        self.storeName = storeName
        path = destination.name
        isReflecting = reflecting
        self.detail = detail
        self.snapshot = snapshot
        self.encodeState = encodeState
        self.actions = actions
        if detail == .checkpoints, let queuedAction {
            self.queuedAction = queuedAction
        } else {
            self.queuedAction = { action throws(ValueCodingError) in .value(try actions.object(for: action)) }
        }
        let state: Value
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            state = try encodeState(initialState)
        } catch {
            throw .encoding(what: "the initial state", message: error.description)
        }
        do {
            let version = detail == .checkpoints ? SessionHeader.checkpointsOnlyVersion : 1
            let file = try destination.open(created: created, recordedThroughReflection: reflecting, version: version)
            try file.write(.store(name: storeName, state: state))
            let budget = UInt64(Self.checkpointBudget.components.attoseconds / 1_000_000_000)
            writer = RecordingWriter(writer: file, storeName: storeName, initialState: state, budgetNanoseconds: budget,
                                     checkpointInterval: checkpointInterval.map { Swift.max(1, $0) }, detail: detail,
                                     initialEncoding: DispatchTime.now().uptimeNanoseconds - start)
        } catch {
            throw .session(error)
        }
    }

    /// Starts recording a store whose state is `initialState` into a new session file at
    /// `path` (an existing file is replaced); call `record(_:state:)` for each action the
    /// store reduces.
    ///
    /// - Parameters:
    ///   - path: the session file to write.
    ///   - storeName: the store's name in the file, `app` by default: give the name the app's
    ///     inspector hosts the store under (`HostedStore("todos", ...)`), so that it replays there.
    ///   - initialState: the store's state before its first recorded action (state 0).
    ///   - actions: how actions become action objects.
    ///   - detail: how much of each step the file holds (`.checkpoints` by default).
    ///   - created: the time written in the header (now by default).
    ///   - checkpointInterval: actions between checkpoints. By default, with `.checkpoints`, as
    ///     many as keep encoding states within `checkpointBudget` per action, and with
    ///     `.everyChange` about the state's size in leaves, at least 32. Given, with
    ///     `.checkpoints`, the state is taken every so many actions however long encoding takes.
    ///   - replacing: whether an existing file at `path` is written over; by default it is
    ///     not, and the recorder refuses to start (as `record` does without `--force`).
    /// - Throws: when the file exists (unless `replacing`) or cannot be created, or the state
    ///   cannot be encoded.
    public convenience init(path: String, storeName: String = "app", initialState: State, actions: ActionMapping<Action>,
                            detail: RecordingDetail = .checkpoints, created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) where State: Encodable & Sendable {
        try self.init(encoding: initialState, destination: .file(path: path, replacing: replacing), storeName: storeName, actions: actions,
                      detail: detail, created: created, checkpointInterval: checkpointInterval, queuedAction: nil)
    }

    /// As `init(path:storeName:initialState:actions:detail:created:checkpointInterval:replacing:)`,
    /// for actions that can cross threads: with `.checkpoints`, each is encoded on the
    /// recorder's thread, and the app's thread only queues it.
    public convenience init(path: String, storeName: String = "app", initialState: State, actions: ActionMapping<Action>,
                            detail: RecordingDetail = .checkpoints, created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError)
    where State: Encodable & Sendable, Action: Sendable {
        try self.init(encoding: initialState, destination: .file(path: path, replacing: replacing), storeName: storeName, actions: actions,
                      detail: detail, created: created, checkpointInterval: checkpointInterval, queuedAction: { action in
                          .typed { () throws(ValueCodingError) in try actions.object(for: action) }
                      })
    }

    /// A recording of a `Codable` state, its actions queued as `queuedAction` says.
    private convenience init(encoding initialState: State, destination: RecordingDestination, storeName: String, actions: ActionMapping<Action>,
                             detail: RecordingDetail, created: Date, checkpointInterval: Int?,
                             queuedAction: ((Action) -> RecordingWriter.Snapshot)?) throws(RecorderError)
    where State: Encodable & Sendable {
        // An Equatable state is encoded again only where it changed (see `ValueEncoder.Memory`),
        // and with `.everyChange` in place, giving its changes (see `StateChanges`).
        let memory = ValueEncoder.Memory(for: State.self)
        let encode = { (state: State) throws(ValueCodingError) in try ValueEncoder().encode(state, memory: memory) }
        let inPlace = detail == .everyChange ? memory.map(StateChanges<State>.init) : nil
        try self.init(destination: destination, storeName: storeName, initialState: initialState, reflecting: false, created: created,
                      detail: detail, checkpointInterval: checkpointInterval, snapshot: { state throws(ValueCodingError) in
                          switch detail {
                          case .checkpoints: .typed { () throws(ValueCodingError) in try ValueEncoder().encode(state) }
                          case .everyChange: if let inPlace { .changes(try inPlace.changes(to: state)) } else { .value(try encode(state)) }
                          }
                      }, encodeState: { state throws(ValueCodingError) in if let inPlace { try inPlace.start(state) } else { try encode(state) } },
                      actions: actions, queuedAction: queuedAction)
    }

    /// Starts recording a store of `Codable` actions (mapped with `ActionMapping.codable()`);
    /// see `init(path:storeName:initialState:actions:detail:created:checkpointInterval:)`.
    public convenience init(path: String, storeName: String = "app", initialState: State, detail: RecordingDetail = .checkpoints,
                            created: Date = Date(), checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError)
    where State: Encodable & Sendable, Action: Codable {
        try self.init(path: path, storeName: storeName, initialState: initialState, actions: .codable(), detail: detail,
                      created: created, checkpointInterval: checkpointInterval, replacing: replacing)
    }

    /// As `init(path:storeName:initialState:detail:created:checkpointInterval:replacing:)`, for
    /// actions that can cross threads: with `.checkpoints`, each is encoded on the recorder's
    /// thread.
    public convenience init(path: String, storeName: String = "app", initialState: State, detail: RecordingDetail = .checkpoints,
                            created: Date = Date(), checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError)
    where State: Encodable & Sendable, Action: Codable & Sendable {
        try self.init(path: path, storeName: storeName, initialState: initialState, actions: .codable(), detail: detail,
                      created: created, checkpointInterval: checkpointInterval, replacing: replacing)
    }

    /// Starts recording a store whose state is not `Codable`, through reflection
    /// (`Value(reflecting:)`, on the app's thread, when a state is taken); its actions go
    /// through `actions`, by default through reflection too. The header says so: the file can
    /// be inspected but not replayed.
    public convenience init(path: String, storeName: String = "app", reflecting initialState: State,
                            actions: ActionMapping<Action> = .reflecting(), detail: RecordingDetail = .checkpoints,
                            created: Date = Date(), checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) {
        try self.init(destination: .file(path: path, replacing: replacing), storeName: storeName, initialState: initialState, reflecting: true,
                      created: created, detail: detail, checkpointInterval: checkpointInterval, snapshot: { .value(Value(reflecting: $0)) },
                      encodeState: { Value(reflecting: $0) }, actions: actions)
    }

    /// Starts recording `store`: every action it reduces from now on, with causes between
    /// them (see `init(path:storeName:initialState:actions:detail:created:checkpointInterval:)`).
    public convenience init(store: Store<State, Action>, path: String, storeName: String = "app",
                            actions: ActionMapping<Action>, detail: RecordingDetail = .checkpoints, created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) where State: Encodable & Sendable {
        try self.init(path: path, storeName: storeName, initialState: store.state, actions: actions, detail: detail, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
        observe(store)
    }

    /// As `init(store:path:storeName:actions:detail:created:checkpointInterval:replacing:)`, for
    /// actions that can cross threads: with `.checkpoints`, each is encoded on the recorder's
    /// thread, and the app's thread only queues it.
    public convenience init(store: Store<State, Action>, path: String, storeName: String = "app",
                            actions: ActionMapping<Action>, detail: RecordingDetail = .checkpoints, created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError)
    where State: Encodable & Sendable, Action: Sendable {
        try self.init(path: path, storeName: storeName, initialState: store.state, actions: actions, detail: detail, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
        observe(store)
    }

    /// Starts recording `store`, whose actions are `Codable` (mapped with
    /// `ActionMapping.codable()`).
    public convenience init(store: Store<State, Action>, path: String, storeName: String = "app",
                            detail: RecordingDetail = .checkpoints, created: Date = Date(),
                            checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) where State: Encodable & Sendable, Action: Codable {
        try self.init(store: store, path: path, storeName: storeName, actions: .codable(), detail: detail, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
    }

    /// As `init(store:path:storeName:detail:created:checkpointInterval:replacing:)`, for actions
    /// that can cross threads: with `.checkpoints`, each is encoded on the recorder's thread.
    public convenience init(store: Store<State, Action>, path: String, storeName: String = "app",
                            detail: RecordingDetail = .checkpoints, created: Date = Date(), checkpointInterval: Int? = nil,
                            replacing: Bool = false) throws(RecorderError) where State: Encodable & Sendable, Action: Codable & Sendable {
        try self.init(store: store, path: path, storeName: storeName, actions: .codable(), detail: detail, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
    }

    /// Starts recording `store`, whose state is not `Codable`, through reflection (see
    /// `init(path:storeName:reflecting:actions:detail:created:checkpointInterval:)`).
    public convenience init(reflecting store: Store<State, Action>, path: String, storeName: String = "app",
                            actions: ActionMapping<Action> = .reflecting(), detail: RecordingDetail = .checkpoints,
                            created: Date = Date(), checkpointInterval: Int? = nil, replacing: Bool = false) throws(RecorderError) {
        try self.init(path: path, storeName: storeName, reflecting: store.state, actions: actions, detail: detail, created: created,
                      checkpointInterval: checkpointInterval, replacing: replacing)
        observe(store)
    }

    /// Starts recording `store` into a shell on another device (or this one) that runs
    /// `inspect --listen [HOST:]PORT`: the same lines a session file gets, over TCP, which the
    /// shell shows as they arrive (see <doc:WatchingAnAppOnAnotherDevice>).
    ///
    /// - Parameters:
    ///   - host: the shell's machine: a name or an address (`127.0.0.1`, `192.168.1.20`).
    ///   - port: the port the shell printed (`listening on 127.0.0.1:4321`).
    ///   - token: the token the shell printed, which a shell listening on an address other than
    ///     loopback requires; `nil` for a shell on loopback that asks for none.
    ///   - timeout: how long connecting may take.
    ///   - Other parameters: as for `init(store:path:storeName:actions:detail:created:checkpointInterval:replacing:)`.
    /// - Throws: when no connection is made (`SessionError.Reason.cannotConnect`, wrapped in
    ///   `RecorderError.session`), or the state cannot be encoded. A connection that drops
    ///   later (the shell stopped listening, refused the token, the network went away) ends the
    ///   recording as a full disk does: the app goes on, and `error` says why.
    public convenience init(store: Store<State, Action>, connectingTo host: String, port: Int, token: String? = nil,
                            timeout: Duration = .seconds(10), storeName: String = "app", actions: ActionMapping<Action>,
                            detail: RecordingDetail = .checkpoints, created: Date = Date(), checkpointInterval: Int? = nil)
        throws(RecorderError) where State: Encodable & Sendable {
        try self.init(encoding: store.state, destination: .connection(host: host, port: port, token: token, timeout: timeout),
                      storeName: storeName, actions: actions, detail: detail, created: created, checkpointInterval: checkpointInterval,
                      queuedAction: nil)
        observe(store)
    }

    /// As `init(store:connectingTo:port:token:timeout:storeName:actions:detail:created:checkpointInterval:)`,
    /// for actions that can cross threads: with `.checkpoints`, each is encoded on the
    /// recorder's thread.
    public convenience init(store: Store<State, Action>, connectingTo host: String, port: Int, token: String? = nil,
                            timeout: Duration = .seconds(10), storeName: String = "app", actions: ActionMapping<Action>,
                            detail: RecordingDetail = .checkpoints, created: Date = Date(), checkpointInterval: Int? = nil)
        throws(RecorderError) where State: Encodable & Sendable, Action: Sendable {
        try self.init(encoding: store.state, destination: .connection(host: host, port: port, token: token, timeout: timeout),
                      storeName: storeName, actions: actions, detail: detail, created: created, checkpointInterval: checkpointInterval,
                      queuedAction: { action in .typed { () throws(ValueCodingError) in try actions.object(for: action) } })
        observe(store)
    }

    /// Starts recording `store`, whose actions are `Codable`, into a listening shell (see
    /// `init(store:connectingTo:port:token:timeout:storeName:actions:detail:created:checkpointInterval:)`).
    public convenience init(store: Store<State, Action>, connectingTo host: String, port: Int, token: String? = nil,
                            timeout: Duration = .seconds(10), storeName: String = "app", detail: RecordingDetail = .checkpoints,
                            created: Date = Date(), checkpointInterval: Int? = nil) throws(RecorderError)
    where State: Encodable & Sendable, Action: Codable {
        try self.init(store: store, connectingTo: host, port: port, token: token, timeout: timeout, storeName: storeName, actions: .codable(),
                      detail: detail, created: created, checkpointInterval: checkpointInterval)
    }

    /// As `init(store:connectingTo:port:token:timeout:storeName:detail:created:checkpointInterval:)`,
    /// for actions that can cross threads.
    public convenience init(store: Store<State, Action>, connectingTo host: String, port: Int, token: String? = nil,
                            timeout: Duration = .seconds(10), storeName: String = "app", detail: RecordingDetail = .checkpoints,
                            created: Date = Date(), checkpointInterval: Int? = nil) throws(RecorderError)
    where State: Encodable & Sendable, Action: Codable & Sendable {
        try self.init(store: store, connectingTo: host, port: port, token: token, timeout: timeout, storeName: storeName, actions: .codable(),
                      detail: detail, created: created, checkpointInterval: checkpointInterval)
    }

    /// Records every action `store` reduces from now on.
    private func observe(_ store: Store<State, Action>) {
        firstStoreIndex = store.actionCount
        self.store = store
        connection = store.addObserver(self)
    }

    /// Whether actions are still being recorded (no `stop()`, no error).
    public var isRecording: Bool { writer != nil && error == nil }

    /// Records that the store reduced `action` to `state`: an action line, with its patch or
    /// a checkpoint when the state is taken. Does nothing once the recording has ended.
    /// - Parameters:
    ///   - action: the action the store reduced.
    ///   - after: the store's state after `action`.
    ///   - cause: the recorded index (1 for the first recorded action) of the action during
    ///     whose handling this one was dispatched, if any.
    ///   - fileID: the file of the call that dispatched the action, the line's `site`: by
    ///     default the caller of `record`.
    ///   - line: the line of that call.
    public func record(_ action: Action, state after: State, cause: Int? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        guard let writer else { return }
        let index = index + 1
        do throws(RecorderError) {
            let object: RecordingWriter.Snapshot
            do {
                object = try queuedAction(action)
            } catch {
                throw .encoding(what: "action \(index)", message: error.description)
            }
            var state: RecordingWriter.Snapshot?
            actionsSinceState += 1
            if detail == .everyChange || writer.wantsState(actionsSinceState: actionsSinceState) {
                do { state = try snapshot(after) } catch {
                    throw .encoding(what: "the state after action \(index)", message: error.description)
                }
                actionsSinceState = 0
            }
            guard writer.append(RecordingWriter.Entry(index: index, action: object, cause: cause, fileID: fileID, line: line, state: state)) else {
                stop()
                return
            }
            self.index = index
        } catch {
            startError = error
            stop()
        }
    }

    /// Waits until every action recorded so far is in the file, and forces it to disk
    /// (`fsync`). A failed write or sync ends the recording and is kept in `error`.
    public func flush() {
        writer?.flush()
    }

    /// Ends the recording: writes what is queued, then a last checkpoint of the observed
    /// store's state (so that a replay checks the state the recording ends with), and closes
    /// the file. Calling it again does nothing.
    public func stop() {
        stop(finalState: store?.state)
    }

    /// Ends a recording fed by `record(_:state:)`: as `stop()`, with `state`, the store's state
    /// after the last recorded action, as the last checkpoint.
    public func stop(state: State) {
        stop(finalState: state)
    }

    private func stop(finalState: State?) {
        connection?.disconnect()
        connection = nil
        store = nil
        guard let writer else { return }
        self.writer = nil
        var last: RecordingWriter.Snapshot?
        if let finalState, error == nil {
            do throws(ValueCodingError) { last = try snapshot(finalState) } catch {
                startError = .encoding(what: "the state after action \(index)", message: error.description)
            }
        }
        writer.stop(finalState: last)
        // The writer's error outlives it.
        if startError == nil { startError = writer.error }
    }

    deinit { stop() }

    /// Records the action an observed store reduced, with the line that dispatched it.
    public func store(didReduce record: DispatchRecord<State, Action>) {
        self.record(record.action, state: record.after, cause: record.cause.flatMap(recordedIndex), fileID: record.fileID,
                    line: record.line)
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
}

/// With `.everyChange`, for an `Equatable` state: the state's encoding, which only this object
/// holds, changed in place after each action (`ValueEncoder.encode(_:memory:replacing:)`), so
/// that the app's thread pays for what the action changed and the comparison of the typed
/// parts, and hands the writer only the changes (the writer applies them to its own copy).
private final class StateChanges<State: Encodable> {
    private let memory: ValueEncoder.Memory
    private var current: Value = .null

    init(memory: ValueEncoder.Memory) {
        self.memory = memory
    }

    /// The first state's encoding, from which the next changes are found.
    func start(_ state: State) throws(ValueCodingError) -> Value {
        current = try ValueEncoder().encode(state, memory: memory)
        return current
    }

    /// What changed from the state before to `state`.
    /// - Throws: when `state` does not encode; the encoding is then lost, and the recording ends.
    func changes(to state: State) throws(ValueCodingError) -> [ValueChange] {
        let previous = current
        current = .null
        let encoded = try ValueEncoder().encode(state, memory: memory, replacing: consume previous)
        current = encoded.value
        return encoded.changes
    }
}
