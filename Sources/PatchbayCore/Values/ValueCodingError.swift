/// Why a value could not be encoded to or decoded from a `Value` (`ValueEncoder`,
/// `ValueDecoder`): where, as a coding path, and what went wrong.
///
/// Its description is one line: `todos.2.done: expected a bool, found int`, or just the
/// message when the problem is at the top (`expected an object, found array`).
public struct ValueCodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The coding path: keys by name, array elements by index (`["todos", "2", "done"]`).
    public var path: [String]
    /// What went wrong there: `expected a string, found int`, `missing (expected an integer)`,
    /// `unknown field; did you mean 'tags'?`, ...
    public var message: String

    public init(path: [String], message: String) {
        self.path = path
        self.message = message
    }

    public var description: String {
        path.isEmpty ? message : path.joined(separator: ".") + ": " + message
    }

    /// The message for a value of the wrong type: `expected a string, found int`.
    static func mismatch(_ expected: String, found value: Value?) -> String {
        "expected \(expected), found \(value?.typeName ?? "nothing")"
    }

    /// The message for a member that is not there: `missing (expected a string)`.
    static func missing(_ expected: String) -> String {
        "missing (expected \(expected))"
    }

    /// The message for a member `key` that is no field of what is decoded, whose `fields`
    /// (those its decoding asked about) are suggested: `unknown field; did you mean 'tags'?`,
    /// `unknown field (fields: title, tags)`, `unknown field (it takes none)`.
    static func unknownField(_ key: String, fields: [String]) -> String {
        if let suggestion = Spelling.closest(to: key, among: fields) { return "unknown field; did you mean '\(suggestion)'?" }
        return "unknown field (" + (fields.isEmpty ? "it takes none" : "fields: " + Spelling.list(fields)) + ")"
    }

    /// `error` as a coding error: a `ValueCodingError` as it is; one of Swift's
    /// `DecodingError`s or `EncodingError`s (thrown by a hand-written `init(from:)` or
    /// `encode(to:)`) in its words; `root` is the value decoded, where a type mismatch looks
    /// up what was found.
    static func from(_ error: any Error, root: Value? = nil) -> ValueCodingError {
        switch error {
        case let error as ValueCodingError:
            return error
        case DecodingError.typeMismatch(let type, let context):
            let path = names(context.codingPath)
            guard let expected = phrase(for: type) else {
                return ValueCodingError(path: path, message: context.debugDescription)
            }
            return ValueCodingError(path: path, message: mismatch(expected, found: root.flatMap { lookUp(context.codingPath, in: $0) }))
        case DecodingError.valueNotFound(let type, let context):
            return ValueCodingError(path: names(context.codingPath), message: mismatch(phrase(for: type) ?? "a value", found: .null))
        case DecodingError.keyNotFound(let key, let context):
            return ValueCodingError(path: names(context.codingPath + [key]), message: "missing")
        case DecodingError.dataCorrupted(let context):
            return ValueCodingError(path: names(context.codingPath), message: context.debugDescription)
        case EncodingError.invalidValue(_, let context):
            return ValueCodingError(path: names(context.codingPath), message: context.debugDescription)
        default:
            return ValueCodingError(path: [], message: String(describing: error))
        }
    }

    /// A coding path as names: a key by its string, an array index as its number.
    static func names(_ path: [any CodingKey]) -> [String] {
        path.map { key in key.intValue.map { String($0) } ?? key.stringValue }
    }

    /// How an error names a value of `type`: `a string`, `an integer`, ...; `nil` for a type
    /// that is none of the values' kinds.
    static func phrase(for type: Any.Type) -> String? {
        switch type {
        case is String.Type, is Character.Type: "a string"
        case is Bool.Type: "a bool"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            "an integer"
        case is any CodedAsObject.Type: "an object"
        case is any CodedAsArray.Type: "an array"
        default: nil
        }
    }

    /// The value at `path` in `root`, if there is one.
    private static func lookUp(_ path: [any CodingKey], in root: Value) -> Value? {
        var value = root
        for key in path {
            switch value {
            case .object(let members):
                guard let member = members[key.stringValue] else { return nil }
                value = member
            case .array(let elements):
                guard let index = key.intValue, elements.indices.contains(index) else { return nil }
                value = elements[index]
            default:
                return nil
            }
        }
        return value
    }
}

/// The collections `Codable` codes as arrays (for the words of an error).
protocol CodedAsArray {}
extension Array: CodedAsArray {}
extension Set: CodedAsArray {}

/// The dictionaries `Codable` codes as objects: those with keys that are names (`String`, `Int`...).
protocol CodedAsObject {}
extension Dictionary: CodedAsObject where Key: CodingKeyRepresentable {}

/// A coding key for an array element: its index.
struct IndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) {
        guard let index = Int(stringValue) else { return nil }
        self.index = index
    }
    init?(intValue: Int) { index = intValue }
    var stringValue: String { String(index) }
    var intValue: Int? { index }
}

/// A coding key made from a string (for `superEncoder()`'s `super` key).
struct NameKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
    var intValue: Int? { nil }
}
