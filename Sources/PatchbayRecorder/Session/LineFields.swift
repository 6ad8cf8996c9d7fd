import PatchbayCore

/// The fields of one session line that this reader knows, read with the error that a missing
/// or mistyped field deserves. Other fields are skipped when the line is read.
struct LineFields {
    /// The names of the fields that events and the header use.
    enum Name: Int, CaseIterable {
        case seq, kind, text, store, state, index, action, patch, hash, failed, cause, reducer
        case port, value, url, pattern, params, view, option, message, skipped, branch

        /// The name as written in a line.
        var text: StaticString {
            switch self {
            case .seq: "seq"
            case .kind: "kind"
            case .text: "text"
            case .store: "store"
            case .state: "state"
            case .index: "index"
            case .action: "action"
            case .patch: "patch"
            case .hash: "hash"
            case .failed: "failed"
            case .cause: "cause"
            case .reducer: "reducer"
            case .port: "port"
            case .value: "value"
            case .url: "url"
            case .pattern: "pattern"
            case .params: "params"
            case .view: "view"
            case .option: "option"
            case .message: "message"
            case .skipped: "skipped"
            case .branch: "branch"
            }
        }

        var string: String { text.description }
    }

    /// The value of each known field present, by `Name.rawValue`.
    private var values = [Value?](repeating: nil, count: Name.allCases.count)
    /// The fields set since the last reset, one bit per `Name.rawValue`.
    private var present: UInt32 = 0
    /// The patch, when the line's parser could read it straight into operations (otherwise
    /// it is in `values` as JSON, read by `operations()` with precise errors).
    var patch: [JSONPatch.Operation]?
    /// The hash, when the line's parser could read it straight into a digest.
    var hash: StateDigest?

    /// Forgets the fields of the last line, keeping the storage.
    mutating func reset() {
        while present != 0 {
            let index = present.trailingZeroBitCount
            values[index] = nil
            present &= present - 1
        }
        patch = nil
        hash = nil
    }

    subscript(name: Name) -> Value? {
        get { values[name.rawValue] }
        set {
            values[name.rawValue] = newValue
            present |= 1 << UInt32(name.rawValue)
        }
    }

    // The accessors below move the field's value out (each field is read once): the event
    // gets it without counting a reference to it, which `reset()` would only count back.

    mutating func int(_ name: Name) throws(SessionError.Reason) -> Int {
        let value = take(name)
        guard case .int(let int)? = value else { throw Self.problem(value, field: name.string, expected: "an integer") }
        return int
    }

    mutating func optionalInt(_ name: Name) throws(SessionError.Reason) -> Int? {
        self[name] == nil ? nil : try int(name)
    }

    mutating func string(_ name: Name) throws(SessionError.Reason) -> String {
        switch take(name) {
        case .string(let string)?: string
        case let value: throw Self.problem(value, field: name.string, expected: "a string")
        }
    }

    mutating func optionalString(_ name: Name) throws(SessionError.Reason) -> String? {
        self[name] == nil ? nil : try string(name)
    }

    mutating func bool(_ name: Name) throws(SessionError.Reason) -> Bool {
        let value = take(name)
        guard case .bool(let bool)? = value else { throw Self.problem(value, field: name.string, expected: "true or false") }
        return bool
    }

    mutating func object(_ name: Name) throws(SessionError.Reason) -> Value {
        let value = take(name)
        guard case .object? = value, let value else { throw Self.problem(value, field: name.string, expected: "an object") }
        return value
    }

    mutating func value(_ name: Name) throws(SessionError.Reason) -> Value {
        guard let value = take(name) else { throw .missingField(name.string, expected: "any JSON value") }
        return value
    }

    /// The action line's `patch` as operations.
    mutating func operations() throws(SessionError.Reason) -> [JSONPatch.Operation] {
        if let patch = patch.take() { return patch }
        guard case .array(let operations)? = self[.patch] else {
            throw Self.problem(self[.patch], field: "patch", expected: "an array of JSON Patch operations")
        }
        var patch: [JSONPatch.Operation] = []
        patch.reserveCapacity(operations.count)
        for (position, operation) in operations.enumerated() {
            patch.append(try JSONPatch.Operation(operation, field: "patch[\(position)]"))
        }
        return patch
    }

    /// The action line's `hash`, if it has one.
    mutating func digest() throws(SessionError.Reason) -> StateDigest? {
        if let hash { return hash }
        guard let text = try optionalString(.hash) else { return nil }
        guard let digest = StateDigest(text: text) else { throw .invalidField("hash", "must be 16 hexadecimal digits") }
        return digest
    }

    /// Moves the value of `name` out, leaving the field empty.
    private mutating func take(_ name: Name) -> Value? {
        values[name.rawValue].take()
    }

    /// The error for `value`, found where `expected` was wanted: missing or of the wrong type.
    static func problem(_ value: Value?, field: String, expected: String) -> SessionError.Reason {
        guard let value else { return .missingField(field, expected: expected) }
        return .wrongType(field, expected: expected, found: value.typePhrase)
    }
}
