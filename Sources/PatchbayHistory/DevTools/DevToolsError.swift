@_spi(Shell) public import PatchbayCore

/// Why text is not a Redux DevTools export that can be imported.
@_spi(Shell)
public enum DevToolsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not JSON.
    case notJSON(JSONError)
    /// The JSON is neither an object nor an array; `found` names what it is.
    case notAnExport(found: String)
    /// The object has no `payload`.
    case missingPayload
    /// The monitor's lifted state (`actionsById`, `stagedActionIds`, ...) has something wrong
    /// under `key`; `detail` says what.
    case invalidLifted(key: String, detail: String)
    /// What jsan wrote on top of JSON cannot be read: `detail` says why.
    case jsan(String)
    /// `key` holds something other than a string of JSON; `found` names what.
    case notAString(key: String, found: String)
    /// The string under `key` is not JSON; the error's offset counts in the string.
    case innerJSON(key: String, JSONError)
    /// The payload is JSON but not an array of actions; `found` names what it is.
    case payloadNotAnArray(found: String)
    /// The action at `index` (0 for the first) is not an object with a string `type`.
    case invalidAction(index: Int, found: String)

    /// One line saying what is wrong and, where it helps, what to do.
    public var description: String {
        switch self {
        case .notJSON(let error):
            "not a Redux DevTools file: not JSON (\(error))"
        case .notAnExport(let found):
            "not a Redux DevTools file: expected an object with \"payload\", a lifted state (\"actionsById\", \"stagedActionIds\") or an array of actions, found \(found)"
        case .missingPayload:
            "not a Redux DevTools file: the object has neither \"payload\" (the actions, as a string of JSON) nor \"actionsById\" and \"stagedActionIds\" (a lifted state)"
        case .invalidLifted(let key, let detail):
            "not a Redux DevTools lifted state: \"\(key)\" \(detail)"
        case .jsan(let detail):
            "cannot read the Redux DevTools file's jsan encoding: \(detail)"
        case .notAString(let key, let found):
            "\"\(key)\" must be a string holding JSON (Redux DevTools encodes it twice), found \(found)"
        case .innerJSON(let key, let error):
            "the string in \"\(key)\" is not JSON: \(error.message) at byte \(error.offset + 1) of the string"
        case .payloadNotAnArray(let found):
            "\"payload\" must hold an array of actions, found \(found)"
        case .invalidAction(let index, let found):
            "action \(index + 1) in \"payload\" must be an object with a string \"type\", found \(found)"
        }
    }
}
