@_spi(Shell) public import PatchbayCore

/// A command of a session file with the effects recorded after it: one step of a replay.
@_spi(Shell)
public struct RecordedCommand: Sendable, Equatable {
    /// The command's text.
    public var text: String
    /// Whether it is a `setup` line (run without comparing its effects) rather than a
    /// `command` line.
    public var isSetup: Bool
    /// The line that holds it.
    public var line: Int
    /// Its `seq`.
    public var seq: Int
    /// The events recorded after it, up to the next command, in file order.
    public var effects: [RecordedEvent]
    /// Whether a damaged line ended the file among its effects: `effects` are those before
    /// it, and the step may have had more.
    public var isCut: Bool
    /// For a step of an app's recording (which has no commands): the action line the step
    /// replays, first of `effects`; `text` dispatches its action.
    public var recordedAction: StoreStep<JSONPatch.Operation>? {
        guard !isSetup, case .action(let action, _)? = effects.first?.event, action.index == appActionIndex else { return nil }
        return action
    }
    /// The index of the action an app's step replays; 0 for a command.
    var appActionIndex = 0

    /// A step of a replay.
    public init(text: String, isSetup: Bool = false, line: Int, seq: Int, effects: [RecordedEvent], isCut: Bool = false) {
        self.text = text
        self.isSetup = isSetup
        self.line = line
        self.seq = seq
        self.effects = effects
        self.isCut = isCut
    }
}

/// Reads a session file for a replay, a step at a time: each `command` (or `setup`) line
/// with the effect events recorded after it. Only the step being read is held, so a replay of
/// a large file holds one step of it at a time.
///
/// The events before the first command (what a recording started in the middle of a session
/// writes first: its stores and their histories) are read when the reader opens, into
/// `prelude`.
///
/// An app's recording (a `Recorder`'s file, which starts with a store line) has no commands:
/// each action it reduced at the
/// top level (with no `cause`) is a step of its own, whose text dispatches that action and
/// whose effects are its line and those after it up to the next such action (the actions it
/// caused, checkpoints). A `store` line there is a setup step. Damage is found as `SessionFileReader` finds it, on any line, effect lines
/// included: everything before the damaged line is read, so the step among whose effects it
/// comes is returned with the effects before it (and `isCut`), and the next call of `next()`
/// throws the damage.
@_spi(Shell)
public final class SessionStepReader {
    private let events: SessionFileReader
    /// The events before the first command.
    public let prelude: [RecordedEvent]
    /// The command line read last, whose effects come next.
    private var pending: RecordedEvent?
    /// The damage that cut the last step returned, which the next call throws.
    private var unreportedDamage: SessionError?
    /// How many steps `next()` returned.
    public private(set) var stepCount = 0
    /// Whether the file is an app's recording: its steps are its top-level actions.
    public private(set) var isAppRecording = false

    /// Opens the session file at `path` and reads it up to its first command. Throws when the
    /// file cannot be read, does not start with a header this reader accepts, or is damaged
    /// before its first command. With `regularOnly`, refuses what is not a regular file (see
    /// `SessionFileReader.init(path:following:regularOnly:)`).
    public convenience init(path: String, regularOnly: Bool = false) throws(SessionError) {
        try self.init(try SessionFileReader(path: path, regularOnly: regularOnly))
    }

    /// Reads a session from `bytes`; `path`, when given, names the file in errors.
    public convenience init(bytes: [UInt8], path: String? = nil) throws(SessionError) {
        try self.init(try SessionFileReader(bytes: bytes, path: path))
    }

    private init(_ events: SessionFileReader) throws(SessionError) {
        self.events = events
        var prelude: [RecordedEvent] = []
        while let event = try events.next() {
            // An action before any command: the file is an app's recording.
            if case .action = event.event { isAppRecording = true }
            guard !Self.startsStep(event.event, inAppRecording: isAppRecording) else {
                pending = event
                break
            }
            prelude.append(event)
        }
        self.prelude = prelude
    }

    /// The file's first line.
    public var header: SessionHeader { events.header }
    /// The file read, if there is one.
    public var path: String? { events.path }
    /// How many lines of a kind this reader does not know were skipped so far.
    public var unknownKindCount: Int { events.unknownKindCount }
    /// The damage that stopped reading, once `next()` has thrown it.
    public var damage: SessionError? { events.damage }

    /// The next step, with all its effects; `nil` at the end of the file (or after damage).
    /// Throws the first damaged line, after returning the steps before it.
    public func next() throws(SessionError) -> RecordedCommand? {
        guard let command = pending else {
            if let damage = unreportedDamage {
                unreportedDamage = nil
                throw damage
            }
            return nil
        }
        pending = nil
        var effects: [RecordedEvent] = []
        var isCut = false
        do {
            while let event = try events.next() {
                if Self.startsStep(event.event, inAppRecording: isAppRecording) {
                    pending = event
                    break
                }
                effects.append(event)
            }
        } catch {
            isCut = true
            unreportedDamage = error
        }
        stepCount += 1
        switch command.event {
        case .setup(let text):
            return RecordedCommand(text: text, isSetup: true, line: command.line, seq: command.seq, effects: effects, isCut: isCut)
        case .command(let text):
            return RecordedCommand(text: text, line: command.line, seq: command.seq, effects: effects, isCut: isCut)
        case .store(let name, _, _):
            return RecordedCommand(text: "# store \(name), as the app's recording starts it", isSetup: true, line: command.line,
                                   seq: command.seq, effects: [command] + effects, isCut: isCut)
        case .action(let action, _):
            var step = RecordedCommand(text: "dispatch \(action.store) \(Self.literal(action.action))", line: command.line, seq: command.seq,
                                       effects: [command] + effects, isCut: isCut)
            step.appActionIndex = action.index
            return step
        default:
            preconditionFailure("a pending step is a command, a setup line, or an app's action or store line")
        }
    }

    /// Whether `event` starts a step: a command or setup line; in an app's recording, a store
    /// line or an action reduced at the top level.
    private static func startsStep(_ event: SessionEvent, inAppRecording: Bool) -> Bool {
        switch event {
        case .command, .setup: true
        case .store: inAppRecording
        case .action(let action, _): inAppRecording && action.cause == nil
        default: false
        }
    }

    /// An action object as the fields of a `dispatch` command: `addTodo {title: "milk"}`.
    static func literal(_ action: Value) -> String {
        guard case .object(var members) = action, case .string(let type)? = members["type"] else { return "\(action)" }
        members["type"] = nil
        return members.isEmpty ? type : "\(type) \(Value.object(members))"
    }
}
