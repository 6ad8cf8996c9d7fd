public import Foundation
public import PatchbayCore

/// Records what a typed `Store` does into a session file (SPEC 8), so that an app's real runs
/// can be opened with `patchbay inspect`.
///
/// ```swift
/// let recorder = try Recorder(store: store, path: "app.pbsession")
/// store.dispatch(.increment(by: 2))      // an action line
/// recorder.stop()
/// ```
///
/// The file has the header, a `store` line with the state when recording started, then one
/// `action` line per action the store reduces (actions a middleware drops are left out), and a
/// `checkpoint` line with the full state every so many actions (as many as the state has leaves,
/// at least 32). There are no `command` lines. States and actions are encoded with
/// `JSONEncoder` (keys sorted) and read back as values; each action line holds the patch from
/// the state before and the digest of the state after. Numbers are as JSONEncoder writes them,
/// so a `Double` with an integral value reads back as an integer.
///
/// Each action line's `action` is an object with a string `type`, first:
/// - an action that encodes as an object with a string `type` is kept (`type` moved first);
/// - an enum case, which encodes as `{"increment":{"by":2}}`, becomes
///   `{"type":"increment","by":2}`; a case without labels keeps Swift's names
///   (`{"type":"set","_0":3}`), and a case without payload is `{"type":"reset"}`;
/// - anything else becomes `{"type":"<the Action type's name>","value":<the encoded action>}`.
///
/// Each line is in the file as soon as its action is recorded (one `write(2)`, see
/// `SessionWriter`), so a crash of the app loses nothing recorded; `flush()` and `stop()`
/// force the file to disk.
///
/// Recording never stops the app: the first error (an action or state that cannot be encoded,
/// a full disk) is kept in `error` and ends the recording; the file stays readable up to it.
/// Recording ends with `stop()` or when the recorder is released. The store does not keep the
/// recorder alive. Use the recorder where the store is used (it is not `Sendable`).
public final class Recorder<State: Codable, Action: Codable>: StoreObserver {
    /// The name the session file gives the store.
    public let storeName: String
    /// The session file.
    public let path: String
    /// The error that ended the recording, if one did.
    public private(set) var error: RecorderError?

    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private var writer: SessionWriter?
    private var connection: Connection?
    private var state: Value
    private var digest: StateDigest
    private let fixedCheckpointInterval: Int?
    private var checkpointInterval: Int
    private var actionsSinceCheckpoint = 0
    /// The recorded actions: the index of the last one.
    private var index = 0
    /// The store's action count when recording started.
    private let firstStoreIndex: Int
    /// The store's indexes of the actions a middleware dropped, in order.
    private var droppedStoreIndexes: [Int] = []

    /// Starts recording `store` into a new session file at `path` (an existing file is
    /// replaced).
    ///
    /// - Parameters:
    ///   - storeName: the store's name in the file (`app` by default).
    ///   - created: the time written in the header (now by default).
    ///   - checkpointInterval: actions between checkpoints; by default the state's size in
    ///     leaves when the last checkpoint was written, at least 32.
    /// - Throws: when the file cannot be created or the store's state cannot be encoded.
    public init(store: Store<State, Action>, path: String, storeName: String = "app", created: Date = Date(),
                checkpointInterval: Int? = nil) throws(RecorderError) {
        self.storeName = storeName
        self.path = path
        fixedCheckpointInterval = checkpointInterval.map { Swift.max(1, $0) }
        firstStoreIndex = store.actionCount
        state = .null
        digest = StateDigest(.null)
        self.checkpointInterval = 32
        state = try encode(store.state, what: "the initial state")
        digest = StateDigest(state)
        self.checkpointInterval = nextCheckpointInterval()
        do {
            let writer = try SessionWriter(path: path, created: created, replacing: true)
            try writer.write(.store(name: storeName, state: state))
            self.writer = writer
        } catch {
            throw .session(error)
        }
        connection = store.addObserver(self)
    }

    /// Whether actions are still being recorded (no `stop()`, no error).
    public var isRecording: Bool { writer != nil }

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

    /// Writes the action line, and a checkpoint when one is due.
    public func store(didReduce record: DispatchRecord<State, Action>) {
        guard let writer else { return }
        let index = index + 1
        do throws(RecorderError) {
            let action = Self.actionObject(try encode(record.action, what: "action \(index)"), typeName: String(describing: Action.self))
            let after = try encode(record.after, what: "the state after action \(index)")
            let changes = state.changes(to: after)
            digest.apply(changes, after: after)
            let line = SessionAction(
                store: storeName, index: index, action: action, patch: JSONPatch.operations(changes), hash: digest,
                cause: record.cause.flatMap(recordedIndex))
            do {
                try writer.write(.action(line))
                self.index = index
                state = after
                actionsSinceCheckpoint += 1
                if actionsSinceCheckpoint >= checkpointInterval {
                    try writer.write(.checkpoint(store: storeName, index: index, state: after))
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

    /// Notes that a middleware dropped the action with store index `index`.
    public func store(didDrop action: Action, index: Int) {
        droppedStoreIndexes.append(index)
    }

    /// The recorded index of the action the store numbered `storeIndex`; `nil` when it was
    /// dropped or reduced before recording started.
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
}
