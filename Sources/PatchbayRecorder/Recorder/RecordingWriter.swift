import Dispatch
import Foundation
@_spi(Shell) import PatchbayCore

/// How much of each step a `Recorder` writes.
public enum RecordingDetail: Sendable, Equatable {
    /// Every action, and the whole state now and then (the default). The app's thread pays for
    /// the action's encoding and a constant; the state is encoded on the recorder's own thread,
    /// at checkpoints spaced so that encoding them costs about `Recorder.checkpointBudget` per
    /// action: every step for a small state (whose action lines then carry their patch, as with
    /// `everyChange`), one step in thousands for a state of 100,000 items. Between checkpoints
    /// the file holds the actions without their changes; `inspect` shows those steps as not
    /// recorded, and `RecordedSession.verify` and `replay --verify` check the states at the
    /// checkpoints.
    case checkpoints
    /// Every action with exactly what it changed, found on the app's thread after each action:
    /// the state is encoded again where it changed (an `Equatable` state is compared part by
    /// part, a word at a time where the parts are the same storage, and its encoding changed in
    /// place), and the typed state is kept, so the next action copies each collection it
    /// changes: about one copy of the state per action at most (1.9 ms at 100,000 items).
    case everyChange
}

/// The recorder's own thread: it takes the lines a `Recorder` queues on the app's thread,
/// encodes the states of checkpoints, works out patches between consecutive states, and writes
/// the lines to the file in batches. The app's thread only appends to the queue (and waits
/// when `capacity` entries are waiting, until the writer has written them).
final class RecordingWriter: Sendable {
    /// One recorded action, as the app's thread queues it.
    struct Entry: Sendable {
        var index: Int
        var action: Snapshot
        var cause: Int?
        /// Where the app dispatched the action (`#fileID` and `#line`), made text on the
        /// writer's thread.
        var fileID: StaticString
        var line: UInt
        /// The state after the action, when the recorder took it: an encoded one, or one the
        /// writer encodes.
        var state: Snapshot?
    }

    /// A state or an action the writer gets: already a value, or the app's typed value still to
    /// encode.
    enum Snapshot: Sendable {
        case value(Value)
        case typed(@Sendable () throws(ValueCodingError) -> Value)
        /// What changed since the state before (with `.everyChange`, found on the app's thread
        /// by encoding in place): the writer applies it to its own copy of the state.
        case changes([ValueChange])
    }

    /// The most entries waiting before the app's thread waits for the writer.
    static let capacity = 1 << 16
    /// How long the writer lets actions gather before it writes them.
    static let batchDelay = DispatchTimeInterval.milliseconds(1)

    private struct Queue {
        var entries: [Entry] = []
        var isScheduled = false
        /// Whether a queued or written entry holds a typed state not encoded yet.
        var isEncoding = false
        /// How many actions apart the recorder takes a state (1: every action).
        var interval = 1
        var error: RecorderError?
    }

    /// What only the writer's thread touches (and `stop`/`flush`, which wait for it).
    private struct Output {
        var writer: SessionWriter?
        /// The state after the last action written, when the writer knows it.
        var state: Value?
        var digest: StateDigest
        var actionsSinceCheckpoint = 0
        var checkpointInterval: Int
        /// The index of the last action written (0 before the first).
        var lastIndex = 0
        /// The call sites met so far, made once each: an app dispatches from a few lines, each
        /// many times.
        var sites: [SiteKey: CallSite] = [:]
    }

    /// A call site as the app's thread queues it: the address of its file's static text (which
    /// lives as long as the program), and the line.
    private struct SiteKey: Hashable {
        var file: UInt
        var line: UInt
    }

    let storeName: String
    /// The time per action that encoding checkpoints may take on the writer's thread.
    let budgetNanoseconds: UInt64
    /// A fixed number of actions between full checkpoints, when the caller gave one.
    private let fixedCheckpointInterval: Int?
    /// A fixed number of actions between the states taken, when the caller gave one.
    private let fixedStateInterval: Int?
    private let queue = Locked(Queue())
    private let output: Locked<Output>
    private let dispatchQueue = DispatchQueue(label: "patchbay.recorder")

    /// `initialEncoding`: how long encoding the initial state took, from which the first
    /// interval between states taken follows.
    init(writer: sending SessionWriter, storeName: String, initialState: Value, budgetNanoseconds: UInt64,
         checkpointInterval: Int?, detail: RecordingDetail, initialEncoding nanoseconds: UInt64) {
        self.storeName = storeName
        self.budgetNanoseconds = budgetNanoseconds
        fixedCheckpointInterval = checkpointInterval
        // A fixed interval with `.checkpoints`: a state is taken, and written, every so many actions.
        fixedStateInterval = detail == .checkpoints ? checkpointInterval : nil
        let interval = fixedStateInterval ?? Self.interval(encodingTook: nanoseconds, budget: budgetNanoseconds)
        queue.withLock { $0.interval = interval }
        output = Locked(Output(writer: writer, state: initialState, digest: StateDigest(initialState),
                              checkpointInterval: checkpointInterval ?? Self.checkpointInterval(for: initialState)))
    }

    /// The error that stopped the writer, if one did.
    var error: RecorderError? { queue.withLock { $0.error } }

    /// Whether the next action's state should be taken: its interval has passed and the
    /// writer is not still encoding the last one taken.
    func wantsState(actionsSinceState: Int) -> Bool {
        if let fixedStateInterval { return actionsSinceState >= fixedStateInterval }
        return queue.withLock { !$0.isEncoding && actionsSinceState >= $0.interval }
    }

    /// Queues `entry`; waits first when `capacity` entries are waiting. Returns `false` once
    /// the writer has stopped on an error.
    func append(_ entry: sending Entry) -> Bool {
        var entry = Optional(entry)
        while true {
            let (accepted, failed, schedule) = queue.withLock { queue -> (Bool, Bool, Bool) in
                if queue.error != nil { return (false, true, false) }
                guard queue.entries.count < Self.capacity, let taken = entry.take() else { return (false, false, false) }
                if case .typed? = taken.state { queue.isEncoding = true }
                queue.entries.append(taken)
                let schedule = !queue.isScheduled
                queue.isScheduled = true
                return (true, false, schedule)
            }
            if failed { return false }
            if accepted {
                // The writer wakes once per `batchDelay` at most, and takes what came meanwhile:
                // the app's thread then pays a wake-up once per batch, not once per action.
                // (Weakly: a writer that was stopped, having written everything, is not kept
                // alive by a wake-up still pending.)
                if schedule { dispatchQueue.asyncAfter(deadline: .now() + Self.batchDelay) { [weak self] in self?.drain() } }
                return true
            }
            // Full: write what is waiting now, on the writer's queue (after any write under way).
            dispatchQueue.sync { self.drain() }
        }
    }

    /// Writes everything queued, then forces the file to disk.
    func flush() {
        dispatchQueue.sync {
            drain()
            output.withLock { output in
                guard let writer = output.writer else { return }
                do throws(SessionError) { try writer.sync() } catch { fail(.session(error), output: &output) }
            }
        }
    }

    /// Writes everything queued, a last checkpoint of `finalState` when given, and closes the
    /// file.
    func stop(finalState: Snapshot?) {
        dispatchQueue.sync {
            drain()
            output.withLock { output in
                guard let writer = output.writer else { return }
                if let finalState, output.lastIndex > 0 {
                    let index = output.lastIndex
                    do throws(RecorderError) {
                        let (state, changes) = try self.state(finalState, what: "the state after action \(index)", output: &output)
                        output.state = state
                        // Not when the patches already tell the state.
                        if changes?.isEmpty != true {
                            output.digest = StateDigest(state)
                            try write([.checkpoint(store: storeName, index: index, state: state)], to: writer)
                        }
                    } catch {
                        fail(error, output: &output)
                    }
                }
                output.writer?.close()
                output.writer = nil
            }
        }
    }

    /// On the writer's thread: writes the queued entries, a batch at a time.
    private func drain() {
        while true {
            let entries = queue.withLock { queue -> [Entry] in
                let taken = queue.entries
                queue.entries = []
                if taken.isEmpty { queue.isScheduled = false }
                return taken
            }
            guard !entries.isEmpty else { return }
            output.withLock { output in write(entries, output: &output) }
        }
    }

    private func write(_ entries: [Entry], output: inout Output) {
        guard let writer = output.writer else { return }
        var events: [SessionEvent] = []
        events.reserveCapacity(entries.count + 1)
        do throws(RecorderError) {
            for entry in entries {
                var patch: [JSONPatch.Operation]?
                var hash: StateDigest?
                var checkpoint: Value?
                if let snapshot = entry.state {
                    let (state, changes) = try self.state(snapshot, what: "the state after action \(entry.index)", output: &output)
                    if let changes {
                        output.digest.apply(changes, after: state)
                        patch = JSONPatch.operations(changes)
                        hash = output.digest
                        output.actionsSinceCheckpoint += 1
                        if output.actionsSinceCheckpoint >= output.checkpointInterval { checkpoint = state }
                    } else {
                        output.digest = StateDigest(state)
                        checkpoint = state
                    }
                    output.state = state
                } else {
                    output.state = nil
                }
                let action = try encode(entry.action, what: "action \(entry.index)")
                events.append(.action(StoreStep(store: storeName, index: entry.index, action: action, changes: patch ?? [],
                                                cause: entry.cause, unrecorded: patch == nil,
                                                site: .source(site(entry.fileID, entry.line, output: &output))),
                                      hash: hash))
                if let checkpoint {
                    events.append(.checkpoint(store: storeName, index: entry.index, state: checkpoint))
                    output.actionsSinceCheckpoint = 0
                    output.checkpointInterval = fixedCheckpointInterval ?? Self.checkpointInterval(for: checkpoint)
                }
                output.lastIndex = entry.index
            }
            try write(events, to: writer)
        } catch {
            // A state that did not encode: the lines made before it are written, so that the
            // file holds every action recorded up to it. (A write that failed is not tried again.)
            if case .encoding = error, !events.isEmpty { _ = try? writer.write(events) }
            fail(error, output: &output)
        }
    }

    /// The call site `fileID`, `line`, made once per site.
    private func site(_ fileID: StaticString, _ line: UInt, output: inout Output) -> CallSite {
        guard fileID.hasPointerRepresentation else { return CallSite(fileID: fileID, line: line) }
        let key = SiteKey(file: UInt(bitPattern: fileID.utf8Start), line: line)
        if let site = output.sites[key] { return site }
        let site = CallSite(fileID: fileID, line: line)
        output.sites[key] = site
        return site
    }

    private func write(_ events: [SessionEvent], to writer: SessionWriter) throws(RecorderError) {
        do throws(SessionError) { try writer.write(events) } catch { throw .session(error) }
    }

    /// The state `snapshot` tells, and what changed from the state the writer knew before
    /// (`nil` when it knew none). A typed state is encoded here, and its encoding timed.
    private func state(_ snapshot: Snapshot, what: String, output: inout Output) throws(RecorderError) -> (Value, [ValueChange]?) {
        if case .changes(let changes) = snapshot {
            // Taken out of the output while it changes, so that it changes in place.
            guard var state = output.state.take() else { throw .encoding(what: what, message: "no state before its changes") }
            do throws(PathError) {
                for change in changes { try state.apply(change) }
            } catch {
                throw .encoding(what: what, message: "its changes do not apply: \(error)")
            }
            return (state, changes)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let state = try encode(snapshot, what: what)
        if case .typed = snapshot { adapt(encodingTook: DispatchTime.now().uptimeNanoseconds - start) }
        return (state, output.state.map { $0.changes(to: state) })
    }

    /// An action or a state, encoded if it is typed.
    private func encode(_ snapshot: Snapshot, what: String) throws(RecorderError) -> Value {
        switch snapshot {
        case .value(let value): return value
        case .typed(let encode):
            do throws(ValueCodingError) { return try encode() } catch {
                throw .encoding(what: what, message: error.description)
            }
        case .changes: throw .encoding(what: what, message: "changes without the value they change")
        }
    }

    /// After encoding a taken state: the next is taken as many actions later as keep encoding
    /// within the budget per action, and the app's thread may take one again.
    private func adapt(encodingTook nanoseconds: UInt64) {
        let interval = fixedStateInterval ?? Self.interval(encodingTook: nanoseconds, budget: budgetNanoseconds)
        queue.withLock { queue in
            queue.interval = interval
            queue.isEncoding = false
        }
    }

    /// Actions between states taken when encoding one takes `nanoseconds`: as many as keep
    /// encoding within `budget` per action.
    private static func interval(encodingTook nanoseconds: UInt64, budget: UInt64) -> Int {
        Int(min(nanoseconds / max(1, budget), UInt64(Int.max / 2))) + 1
    }

    private func fail(_ error: RecorderError, output: inout Output) {
        queue.withLock { queue in
            if queue.error == nil { queue.error = error }
            queue.entries = []
            queue.isEncoding = false
        }
        output.writer?.close()
        output.writer = nil
    }

    /// Actions between full checkpoints when the writer knows every state: the history's
    /// policy (`Checkpoint.interval(after:)`).
    static func checkpointInterval(for state: Value) -> Int {
        Checkpoint.interval(after: state)
    }
}

/// A value only touched under its lock, from any thread. (An `NSLock`, a pthread mutex, rather
/// than `Synchronization.Mutex`, whose futex the thread sanitizer does not see: every access goes
/// through `withLock`, which is what makes this `Sendable`.)
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
