@_spi(Shell) public import PatchbayCore

/// A Redux DevTools file, in either of the forms the tool writes.
///
/// The default export holds the actions and the state they start from, each as a string of
/// JSON (encoded twice), tab-indented as `JSON.stringify(x, null, '\t')` writes it:
///
/// ```json
/// {
/// 	"payload": "[{\"type\":\"INCREMENT\"},{\"type\":\"DECREMENT\"}]",
/// 	"preloadedState": "{\"counter\":0}"
/// }
/// ```
///
/// The monitor's export (and its Persist button) holds the whole lifted state:
/// `actionsById` (each action wrapped as `{"type": "PERFORM_ACTION", "action": ..., "timestamp": ...}`,
/// id 0 being `@@INIT`), `stagedActionIds` (the order), `skippedActionIds`, `currentStateIndex`,
/// `committedState` (the state the actions start from) and `computedStates` (which an import
/// recomputes, as Redux DevTools does). Reading also accepts a bare JSON array of actions.
///
/// Whatever jsan wrote on top of JSON is read back into plain values (see `JSANDecoder`): dates
/// become ISO 8601 strings, `undefined` leaves its key out of an object (and is `null` in an
/// array), a shared reference becomes a copy, and a cycle becomes the string `"[CIRCULAR]"`.
/// Every action must be an object with a string `type`.
@_spi(Shell)
public struct DevToolsFile: Sendable, Equatable {
    /// The actions in order (the initial `@@INIT` is not among them).
    public var actions: [Value]
    /// The state the actions start from; `nil` when the file does not give one.
    public var preloadedState: Value?
    /// The history indexes of the skipped actions (1 for the first action), in order.
    public var skipped: [Int]
    /// The step the file is at (0 is the state before the first action); `nil` for the last.
    public var current: Int?

    /// A file of `actions` starting from `preloadedState`.
    public init(actions: [Value], preloadedState: Value?, skipped: [Int] = [], current: Int? = nil) {
        self.actions = actions
        self.preloadedState = preloadedState
        self.skipped = skipped
        self.current = current
    }

    /// Reads an export: an object with `payload` (and optionally `preloadedState`), a lifted
    /// state, or an array of actions.
    public init(parsing text: String) throws(DevToolsError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Reads an export from UTF-8 bytes.
    public init(parsing bytes: [UInt8]) throws(DevToolsError) {
        let value: Value
        do {
            value = try JSONReader.parse(bytes)
        } catch {
            throw .notJSON(error)
        }
        switch value {
        case .array:
            guard case .array(let actions)? = try JSANDecoder.decode(value) else { throw .notAnExport(found: value.typePhrase) }
            self.init(actions: try Self.checked(actions), preloadedState: nil)
        case .object(let members):
            guard let payload = members["payload"] else {
                guard members["actionsById"] != nil || members["stagedActionIds"] != nil else { throw .missingPayload }
                try self.init(lifted: value)
                return
            }
            let decoded = try Self.decoded(payload, key: "payload")
            guard case .array(let actions)? = decoded else { throw .payloadNotAnArray(found: decoded?.typePhrase ?? "undefined") }
            var state: Value?
            if let preloaded = members["preloadedState"], preloaded != .null {
                state = try Self.decoded(preloaded, key: "preloadedState")
            }
            self.init(actions: try Self.checked(actions), preloadedState: state)
        default:
            throw .notAnExport(found: value.typePhrase)
        }
    }

    /// Reads the monitor's lifted state, jsan-encoded as a whole.
    private init(lifted value: Value) throws(DevToolsError) {
        var decoder = JSANDecoder(root: value)
        guard case .array(let stagedIDs)? = try decoder.value(at: [.key("stagedActionIds")]) else {
            throw .invalidLifted(key: "stagedActionIds", detail: "must be an array of action ids, found "
                                 + (try decoder.value(at: [.key("stagedActionIds")])?.typePhrase ?? "nothing"))
        }
        guard case .object? = JSANDecoder.raw(value, at: [.key("actionsById")]) else {
            throw .invalidLifted(key: "actionsById", detail: "must be an object of actions by id, found "
                                 + (JSANDecoder.raw(value, at: [.key("actionsById")])?.typePhrase ?? "nothing"))
        }
        var ids: [Int] = []
        for (position, id) in stagedIDs.enumerated() {
            guard case .int(let id) = id else {
                throw .invalidLifted(key: "stagedActionIds", detail: "must hold action ids (integers), found \(id.typePhrase) at \(position)")
            }
            ids.append(id)
        }
        // Id 0, first, is `@@INIT`: no action of the app.
        if ids.first == 0 { ids.removeFirst() }
        var actions: [Value] = []
        actions.reserveCapacity(ids.count)
        for (position, id) in ids.enumerated() {
            guard let lifted = JSANDecoder.raw(value, at: [.key("actionsById"), .key(String(id))]) else {
                throw .invalidLifted(key: "actionsById", detail: "has no action \(id), which \"stagedActionIds\" lists")
            }
            // A monitor keeps `PERFORM_ACTION` wrappers; a hand-made file may hold the actions themselves.
            let wrapped = lifted["action"] != nil && lifted["type"] == "PERFORM_ACTION"
            let path: [JSANDecoder.PathStep] = [.key("actionsById"), .key(String(id))] + (wrapped ? [.key("action")] : [])
            guard let action = try decoder.value(at: path) else {
                throw .invalidLifted(key: "actionsById", detail: "action \(id) is undefined")
            }
            guard case .string? = action["type"] else {
                let found = if case .object = action { "an object without one" } else { action.typePhrase }
                throw .invalidLifted(key: "actionsById", detail: "action \(id) (\(position + 1) in \"stagedActionIds\") must be an object with a string \"type\", found \(found)")
            }
            actions.append(action)
        }
        var skipped: [Int] = []
        switch try decoder.value(at: [.key("skippedActionIds")]) {
        case nil, .null?:
            break
        case .array(let skippedIDs)?:
            for id in skippedIDs {
                guard case .int(let id) = id else {
                    throw .invalidLifted(key: "skippedActionIds", detail: "must hold action ids (integers), found \(id.typePhrase)")
                }
                // An id no longer staged (swept) is no step of the history.
                if let position = ids.firstIndex(of: id) { skipped.append(position + 1) }
            }
        case let other?:
            throw .invalidLifted(key: "skippedActionIds", detail: "must be an array of action ids, found \(other.typePhrase)")
        }
        var current: Int?
        switch try decoder.value(at: [.key("currentStateIndex")]) {
        case nil, .null?:
            break
        case .int(let index)? where (0...ids.count).contains(index):
            current = index
        case let other?:
            throw .invalidLifted(key: "currentStateIndex", detail: "must be a step from 0 to \(ids.count), found \(other)")
        }
        self.init(actions: actions, preloadedState: try decoder.value(at: [.key("committedState")]),
                  skipped: skipped.sorted(), current: current)
    }

    /// The value in the string of JSON `value`, found under `key`; `nil` when it is `undefined`.
    private static func decoded(_ value: Value, key: String) throws(DevToolsError) -> Value? {
        guard case .string(let text) = value else { throw .notAString(key: key, found: value.typePhrase) }
        let parsed: Value
        do {
            parsed = try JSONReader.parse(text)
        } catch {
            throw .innerJSON(key: key, error)
        }
        return try JSANDecoder.decode(parsed)
    }

    private static func checked(_ actions: [Value]) throws(DevToolsError) -> [Value] {
        for (index, action) in actions.enumerated() {
            guard case .string? = action["type"] else {
                let found = if case .object = action { "an object without one" } else { action.typePhrase }
                throw .invalidAction(index: index, found: found)
            }
        }
        return actions
    }

    /// The file's text in the default form, as Redux DevTools writes it (no line break at the end).
    public var text: String {
        var out = "{\n\t\"payload\": "
        Value.string(Value.array(actions).jsonText).writeJSON(to: &out)
        if let preloadedState {
            out += ",\n\t\"preloadedState\": "
            Value.string(preloadedState.jsonText).writeJSON(to: &out)
        }
        out += "\n}"
        return out
    }

    /// The file's text as the lifted state a monitor exports, on one line as jsan writes it.
    /// - Parameter computedStates: the state at each step from 0 (the state before the first
    ///   action) to the last, with the error of a step whose action failed.
    /// A history keeps no wall-clock times: every `timestamp` is 0.
    public func liftedText(computedStates: [(state: Value, error: String?)]) -> String {
        liftedText(computedStates: computedStates) { () throws(Never) in }
    }

    /// `liftedText(computedStates:)`, calling `checking` now and then while it writes the
    /// states (a large history's text takes seconds): what `checking` throws stops it.
    public func liftedText<Failure: Error>(computedStates: [(state: Value, error: String?)],
                                           checking: () throws(Failure) -> Void) throws(Failure) -> String {
        try liftedText(states: { (visit) throws(Failure) in
            for step in computedStates { try visit(step.state, step.error) }
        }, checking: checking)
    }

    /// `liftedText(computedStates:checking:)` with the states given one at a time, in order:
    /// `states` calls its argument with each (as `History.walk` visits them), so that a long
    /// history's states are written as they are made, never all held at once.
    public func liftedText<Failure: Error>(states: ((_ state: Value, _ error: String?) throws(Failure) -> Void) throws(Failure) -> Void,
                                           checking: () throws(Failure) -> Void) throws(Failure) -> String {
        // In the order of the monitor's copy, which it exports: the lifted state without the
        // actions and states, then those. The two long members are written element by element
        // (below), so that `checking` runs between them.
        var lifted: Value.Members = [
            "nextActionId": .int(actions.count + 1),
            "stagedActionIds": .array((0...actions.count).map(Value.int)),
            "skippedActionIds": .array(skipped.map(Value.int)),
            "currentStateIndex": .int(current ?? actions.count),
            "isLocked": false,
            "isPaused": false,
            "actionsById": [:],
            "computedStates": [],
        ]
        if let preloadedState { lifted["committedState"] = preloadedState }
        var text = "{"
        for (position, (key, value)) in lifted.enumerated() {
            if position > 0 { text += "," }
            text += Value.string(key.string).jsonText + ":"
            switch key.string {
            case "actionsById":
                text += "{"
                for (id, action) in ([["type": "@@INIT"]] + actions).enumerated() {
                    if id % 1_024 == 0 { try checking() }
                    let performed: Value = ["type": "PERFORM_ACTION", "action": action, "timestamp": 0]
                    text += (id > 0 ? "," : "") + Value.string(String(id)).jsonText + ":" + performed.jsonText
                }
                text += "}"
            case "computedStates":
                text += "["
                var index = 0
                // `checking` runs from inside `states`' own call, never at once with it.
                try withoutActuallyEscaping(checking) { (checking) throws(Failure) in
                    try states { (state, error) throws(Failure) in
                        if index % 1_024 == 0 { try checking() }
                        var computed: Value.Members = ["state": state]
                        if let error { computed["error"] = .string(error) }
                        text += (index > 0 ? "," : "") + Value.object(computed).jsonText
                        index += 1
                    }
                }
                text += "]"
            default:
                text += value.jsonText
            }
        }
        return text + "}"
    }
}
