public import PatchbayCore

/// A Redux DevTools export in its default form: the actions and the state they start from,
/// each as a string of JSON (encoded twice), tab-indented as `JSON.stringify(x, null, '\t')`
/// writes it:
///
/// ```json
/// {
/// 	"payload": "[{\"type\":\"INCREMENT\"},{\"type\":\"DECREMENT\"}]",
/// 	"preloadedState": "{\"counter\":0}"
/// }
/// ```
///
/// Reading also accepts a file without `preloadedState`, and a bare JSON array of actions.
/// Every action must be an object with a string `type`. Redux DevTools keeps no skip flags,
/// timestamps or computed states in this form; importing re-runs the actions.
public struct DevToolsFile: Sendable, Equatable {
    /// The actions in order (the initial `@@INIT` is not among them).
    public var actions: [Value]
    /// The state the actions start from; `nil` when the file does not give one.
    public var preloadedState: Value?

    /// A file of `actions` starting from `preloadedState`.
    public init(actions: [Value], preloadedState: Value?) {
        self.actions = actions
        self.preloadedState = preloadedState
    }

    /// Reads an export: an object with `payload` (and optionally `preloadedState`), or an array
    /// of actions.
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
        case .array(let actions):
            self.init(actions: try Self.checked(actions), preloadedState: nil)
        case .object(let members):
            guard let payload = members["payload"] else {
                throw members["actionsById"] != nil || members["computedStates"] != nil ? .liftedState : .missingPayload
            }
            let decoded = try Self.decoded(payload, key: "payload")
            guard case .array(let actions) = decoded else { throw .payloadNotAnArray(found: decoded.typePhrase) }
            var state: Value?
            if let preloaded = members["preloadedState"], preloaded != .null {
                state = try Self.decoded(preloaded, key: "preloadedState")
            }
            self.init(actions: try Self.checked(actions), preloadedState: state)
        default:
            throw .notAnExport(found: value.typePhrase)
        }
    }

    /// The value in the string of JSON `value`, found under `key`.
    private static func decoded(_ value: Value, key: String) throws(DevToolsError) -> Value {
        guard case .string(let text) = value else { throw .notAString(key: key, found: value.typePhrase) }
        do {
            return try JSONReader.parse(text)
        } catch {
            throw .innerJSON(key: key, error)
        }
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

    /// The file's text, as Redux DevTools writes it (no line break at the end).
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
}
