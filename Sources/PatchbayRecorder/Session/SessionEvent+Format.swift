@_spi(Shell) import PatchbayCore

// The one description of the session file's event lines (for users: PatchbayRecorder.docc/
// SessionFileFormat.md). Each kind is listed once
// below with its fields, in the order they are written; writing a line (`line(seq:)`), reading
// one (`SessionLineDecoder`) and the errors a damaged line gets all follow from that list:
//
//     {"seq":N,"kind":KIND, then each field of the kind as "name":value}
//
// A field is required, optional (left out when the event has no value for it; read as absent
// when missing) or defaulted (always written; a missing one reads as its default, for fields
// added after files were written without them). Readers ignore fields they do not know, and
// lines of kinds they do not know.

extension SessionEvent {
    /// The most levels of arrays and objects a line wraps around a value it records (a state,
    /// an action, a value in a patch): a recomputed step's patch value, in the line's object, its
    /// `recomputed` array, the step's object, its `patch` array and the operation's object.
    static let wrapperDepth = 5

    /// How deeply a line's arrays and objects may nest: every value a shell holds (at most
    /// `Value.maxDepth` levels) inside the levels of the line around it, so that everything a
    /// shell records reads back.
    public static let maxLineDepth = Value.maxDepth + wrapperDepth

    /// A kind of event line: its `kind` text and its fields in the order they are written.
    /// (A class: kinds are shared and never changed; a line's kind is looked up for each line.)
    final class Kind: Sendable {
        let name: String
        let fields: [SessionField]
        /// Makes the event of this kind from its fields' values, which it takes in the order of
        /// `fields`; each is checked as it is taken, so a damaged line's error is about its
        /// first wrong field. (Untyped `throws` keeps each kind's closure short; it throws only
        /// what the accessors of the values throw, a `SessionError.Reason`.)
        private let make: @Sendable (inout SessionFieldValues) throws -> SessionEvent

        /// `,"kind":"name"`, as written after the `seq`.
        let prefix: [UInt8]

        init(_ name: String, _ fields: [SessionField], make: @escaping @Sendable (inout SessionFieldValues) throws -> SessionEvent) {
            self.name = name
            self.fields = fields
            self.make = make
            var prefix: [UInt8] = []
            prefix.appendRaw(#","kind":"#)
            Value.string(name).writeJSON(to: &prefix)
            self.prefix = prefix
        }

        static let command = Kind("command", [.string("text")]) { .command(try $0.string()) }
        static let setup = Kind("setup", [.string("text")]) { .setup(try $0.string()) }
        static let store = Kind("store", [.string("store"), .json("state"), .boolean("hosted", .optional)]) { values in
            .store(name: try values.string(), state: try values.json(), hosted: try values.optionalBoolean() ?? false)
        }
        static let action = Kind("action", [
            .string("store"), .integer("index"), .json("action"), .patch("patch", .optional), .digest("hash", .optional),
            .string("failed", .optional), .integer("cause", .optional), .string("reducer", .optional), .string("site", .optional),
        ]) { values in
            let (store, index, action, patch) = (try values.string(), try values.integer(), try values.json(), try values.optionalPatch())
            let hash = try values.optionalDigest()
            let (failure, cause, reducer) = (try values.optionalString(), try values.optionalInteger(), try values.optionalString())
            let site = try values.optionalString().map { text throws(SessionError.Reason) in
                guard let site = CallSite(text) else { throw SessionError.Reason.invalidField("site", "expected \"FILE:LINE\"") }
                return site
            }
            return .action(StoreStep(store: store, index: index, action: action, changes: patch ?? [], failure: failure,
                                     cause: cause, delayedReducer: reducer, unrecorded: patch == nil, site: site.map(ActionSite.source)),
                           hash: hash)
        }
        static let checkpoint = Kind("checkpoint", [.string("store"), .integer("index"), .json("state")]) {
            .checkpoint(store: try $0.string(), index: try $0.integer(), state: try $0.json())
        }
        static let publish = Kind("publish", [.string("port"), .json("value")]) { .publish(port: try $0.string(), value: try $0.json()) }
        static let route = Kind("route", [
            .string("url"), .string("pattern"), .object("params"), .string("view", .optional), .string("option", .optional),
        ]) { values in
            .route(SessionRoute(url: try values.string(), pattern: try values.string(), params: try values.object(),
                                view: try values.optionalString(), option: try values.optionalString()))
        }
        static let error = Kind("error", [.string("text"), .string("message")]) { .error(command: try $0.string(), message: try $0.string()) }
        static let jump = Kind("jump", [.string("store"), .integer("index")]) { .jump(store: try $0.string(), index: try $0.integer()) }
        static let skip = Kind("skip", [
            .string("store"), .integer("index"), .boolean("skipped"), .steps("recomputed", .defaulted(.steps([]))),
        ]) { values in
            .skip(store: try values.string(), index: try values.integer(), skipped: try values.boolean(), recomputed: try values.steps())
        }
        static let reset = Kind("reset", [.string("store"), .json("state")]) { .reset(store: try $0.string(), state: try $0.json()) }
        static let checkout = Kind("checkout", [.string("store"), .string("branch")]) {
            .checkout(store: try $0.string(), branch: try $0.string())
        }
        static let sweep = Kind("sweep", [.string("store")]) { .sweep(store: try $0.string()) }
        static let recompute = Kind("recompute", [.string("store"), .steps("recomputed", .required)]) {
            .recompute(store: try $0.string(), recomputed: try $0.steps())
        }

        static let timer = Kind("timer", [
            .string("node"), .integer("due"), .string("fires"), .json("value"), .string("reducer", .optional),
            .integer("from", .optional),
        ]) { values in
            let (node, due, fires, value) = (try values.string(), try values.integer(), try values.string(), try values.json())
            let (reducer, from) = (try values.optionalString(), try values.optionalInteger())
            let purpose: PendingTimer.Purpose
            switch fires {
            case "reducer":
                guard let reducer else { throw SessionError.Reason.missingField("reducer", expected: "a string") }
                guard let from else { throw SessionError.Reason.missingField("from", expected: "an integer") }
                purpose = .reducer(reducer, action: value, from: from)
            case "delay":
                purpose = .delay(value)
            case "timer":
                guard case .int(let count) = value else {
                    throw SessionError.Reason.wrongType("value", expected: "an integer", found: value.typePhrase)
                }
                purpose = .period(count: count)
            default:
                throw SessionError.Reason.invalidField("fires", "expected \"reducer\", \"delay\" or \"timer\"")
            }
            return .timer(PendingTimer(due: due, node: node, purpose: purpose))
        }

        /// The event of a line of this kind, whose members are `members`; those before
        /// `firstMember` are the fields every line has.
        func event(of members: Value.Members, firstMember: Int = 0) throws(SessionError.Reason) -> SessionEvent {
            var values = SessionFieldValues(fields, of: members, firstMember: firstMember)
            do {
                return try make(&values)
            } catch let reason as SessionError.Reason {
                throw reason
            } catch {
                preconditionFailure("a kind's values throw only SessionError.Reason: \(error)")
            }
        }

        /// Every kind this package reads, by name.
        static let byName: [String: Kind] = Dictionary(uniqueKeysWithValues: [
            command, setup, store, action, checkpoint, publish, route, error, jump, skip, reset, checkout, sweep, recompute, timer,
        ].map { ($0.name, $0) })
    }

    /// The event's kind and the values of its fields, in the kind's order (`nil` for an
    /// optional field the event has no value for).
    var contents: (kind: Kind, values: [SessionFieldValue?]) {
        switch self {
        case .command(let text): (.command, [.string(text)])
        case .setup(let text): (.setup, [.string(text)])
        case .store(let name, let state, let hosted): (.store, [.string(name), .json(state), hosted ? .boolean(true) : nil])
        case .action(let step, let hash):
            (.action, [.string(step.store), .integer(step.index), .json(step.action), step.unrecorded ? nil : .patch(step.changes),
                       hash.map { .digest($0) }, step.failure.map { .string($0) }, step.cause.map { .integer($0) },
                       step.delayedReducer.map { .string($0) }, step.site?.callSite.map { .string($0.description) }])
        case .checkpoint(let store, let index, let state): (.checkpoint, [.string(store), .integer(index), .json(state)])
        case .publish(let port, let value): (.publish, [.string(port), .json(value)])
        case .route(let route):
            (.route, [.string(route.url), .string(route.pattern), .json(route.params), route.view.map { .string($0) },
                      route.option.map { .string($0) }])
        case .error(let command, let message): (.error, [.string(command), .string(message)])
        case .jump(let store, let index): (.jump, [.string(store), .integer(index)])
        case .skip(let store, let index, let skipped, let recomputed):
            (.skip, [.string(store), .integer(index), .boolean(skipped), .steps(recomputed)])
        case .reset(let store, let state): (.reset, [.string(store), .json(state)])
        case .checkout(let store, let branch): (.checkout, [.string(store), .string(branch)])
        case .sweep(let store): (.sweep, [.string(store)])
        case .recompute(let store, let recomputed): (.recompute, [.string(store), .steps(recomputed)])
        case .timer(let timer):
            switch timer.purpose {
            case .reducer(let reducer, let action, let from):
                (.timer, [.string(timer.node), .integer(timer.due), .string("reducer"), .json(action), .string(reducer), .integer(from)])
            case .delay(let value):
                (.timer, [.string(timer.node), .integer(timer.due), .string("delay"), .json(value), nil, nil])
            case .period(let count):
                (.timer, [.string(timer.node), .integer(timer.due), .string("timer"), .json(.int(count)), nil, nil])
            }
        }
    }

    /// The event as its line of the session file, numbered `seq`, without the line break.
    /// Keys come in the kind's order without spaces, and values are written as
    /// `Value.jsonText` writes them, so the same event always gives the same line.
    public func line(seq: Int) -> String {
        var bytes: [UInt8] = []
        encode(seq: seq, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the event's line (without the line break) to `out`.
    func encode(seq: Int, into out: inout [UInt8]) {
        let (kind, values) = contents
        out.appendRaw(#"{"seq":"#)
        Value.int(seq).writeJSON(to: &out)
        out.append(contentsOf: kind.prefix)
        SessionField.encode(kind.fields, values, into: &out, first: false)
        out.append(UInt8(ascii: "}"))
    }
}

extension RecomputedStep {
    /// The fields of a recomputed step, in the order written.
    static let fields: [SessionField] = [.integer("index"), .patch("patch"), .digest("hash", .optional), .string("failed", .optional)]

    var values: [SessionFieldValue?] {
        [.integer(index), .patch(changes), hash.map { .digest($0) }, failure.map { .string($0) }]
    }

    init(_ values: inout SessionFieldValues) throws(SessionError.Reason) {
        self.init(index: try values.integer(), changes: try values.patch(), hash: try values.optionalDigest(), failure: try values.optionalString())
    }
}

/// A field of an object in a session file: its name, the type of its value, and whether it
/// must be there. (A class: the fields are shared, never changed, and read for every line,
/// where passing one costs one reference count.)
final class SessionField: Sendable {
    enum ValueType: Sendable, Equatable {
        case string, integer, boolean
        /// A JSON object.
        case object
        /// Any JSON value.
        case json
        /// A list of JSON Patch operations.
        case patch
        /// A `StateDigest`, as its 16 hexadecimal digits.
        case digest
        /// A list of `RecomputedStep`s.
        case steps

        /// The type as an error message names it.
        var phrase: String {
            switch self {
            case .string, .digest: "a string"
            case .integer: "an integer"
            case .boolean: "true or false"
            case .object: "an object"
            case .json: "any JSON value"
            case .patch: "an array of JSON Patch operations"
            case .steps: "an array of recomputed steps"
            }
        }
    }

    enum Presence: Sendable {
        /// Always written; a line without it is damaged.
        case required
        /// Written only when the event has a value for it.
        case optional
        /// Always written; a missing one reads as this value.
        case defaulted(SessionFieldValue)
    }

    let name: String
    let type: ValueType
    let presence: Presence
    /// `"name":`, as written before the value.
    let key: [UInt8]

    init(name: String, type: ValueType, presence: Presence) {
        self.name = name
        self.type = type
        self.presence = presence
        var key: [UInt8] = []
        Value.string(name).writeJSON(to: &key)
        key.append(UInt8(ascii: ":"))
        self.key = key
    }

    static func string(_ name: String, _ presence: Presence = .required) -> SessionField {
        SessionField(name: name, type: .string, presence: presence)
    }
    static func integer(_ name: String, _ presence: Presence = .required) -> SessionField {
        SessionField(name: name, type: .integer, presence: presence)
    }
    static func boolean(_ name: String, _ presence: Presence = .required) -> SessionField {
        SessionField(name: name, type: .boolean, presence: presence)
    }
    static func object(_ name: String) -> SessionField { SessionField(name: name, type: .object, presence: .required) }
    static func json(_ name: String) -> SessionField { SessionField(name: name, type: .json, presence: .required) }
    static func patch(_ name: String, _ presence: Presence = .required) -> SessionField {
        SessionField(name: name, type: .patch, presence: presence)
    }
    static func digest(_ name: String, _ presence: Presence) -> SessionField { SessionField(name: name, type: .digest, presence: presence) }
    static func steps(_ name: String, _ presence: Presence) -> SessionField { SessionField(name: name, type: .steps, presence: presence) }

    /// Appends `"name":value` for each field with a value, separated by commas (and preceded
    /// by one unless `first`).
    static func encode(_ fields: [SessionField], _ values: [SessionFieldValue?], into out: inout [UInt8], first: Bool) {
        assert(fields.count == values.count, "an event's values follow its kind's fields")
        var first = first
        for (field, value) in zip(fields, values) {
            guard let value else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: field.key)
            value.encode(into: &out)
        }
    }
}

/// The value of a field, of its field's type.
enum SessionFieldValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    /// Any JSON value (an object, for a field of type `.object`).
    case json(Value)
    case patch([JSONPatch.Operation])
    case digest(StateDigest)
    case steps([RecomputedStep])

    /// Appends the value as JSON.
    func encode(into out: inout [UInt8]) {
        switch self {
        case .string(let string): Value.string(string).writeJSON(to: &out)
        case .integer(let integer): Value.int(integer).writeJSON(to: &out)
        case .boolean(let bool): out.appendRaw(bool ? "true" : "false")
        case .json(let value): value.writeJSON(to: &out)
        case .digest(let digest):
            out.append(UInt8(ascii: "\""))
            digest.appendText(to: &out)
            out.append(UInt8(ascii: "\""))
        case .patch(let operations):
            out.append(UInt8(ascii: "["))
            for (position, operation) in operations.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                operation.encode(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .steps(let steps):
            out.append(UInt8(ascii: "["))
            for (position, step) in steps.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "{"))
                SessionField.encode(RecomputedStep.fields, step.values, into: &out, first: true)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

/// The values of an object's fields, checked and taken one by one in the order of the fields:
/// what a `Kind`'s `make` reads. Each accessor reads the next field, which must be of its type
/// (a mistake in the description otherwise); a missing required field or a value of the wrong
/// type is the line's damage.
struct SessionFieldValues {
    private let fields: [SessionField]
    private let members: Value.Members
    /// What goes before the field names in errors (`recomputed[2].`).
    private let prefix: String
    private var position = 0
    /// The members before this one are those of fields already taken. Lines are written with
    /// their fields in order, so the next field is found here without a lookup, and a field
    /// missing once every member is taken is known to be missing without one.
    private(set) var nextMember: Int

    /// The values of `fields` in the object `members`, whose members before `firstMember` are
    /// of other fields (those read before these).
    init(_ fields: [SessionField], of members: Value.Members, prefix: String = "", firstMember: Int = 0) {
        self.fields = fields
        self.members = members
        self.prefix = prefix
        nextMember = firstMember
    }

    /// The next field, which must be of type `type`, and its value; `nil` when it is missing
    /// and need not be there.
    private mutating func next(_ type: SessionField.ValueType) throws(SessionError.Reason) -> (field: SessionField, value: Value?) {
        let field = fields[position]
        position += 1
        precondition(field.type == type, "the field \(field.name) is read as \(type), not as its type \(field.type)")
        let value: Value?
        if nextMember == members.count {
            value = nil
        } else if members.keys[nextMember] == ObjectKey(field.name) {
            value = members.values[nextMember]
            nextMember += 1
        } else {
            // Out of order (a line edited by hand, or with a field this reader does not know).
            value = members[field.name]
        }
        if value == nil, case .required = field.presence { throw .missingField(label(field), expected: type.phrase) }
        return (field, value)
    }

    /// The field's name in errors.
    private func label(_ field: SessionField) -> String { prefix + field.name }

    private func mismatch(_ field: SessionField, _ value: Value) -> SessionError.Reason {
        .wrongType(label(field), expected: field.type.phrase, found: value.typePhrase)
    }

    mutating func string() throws(SessionError.Reason) -> String { try optionalString() ?? "" }
    mutating func integer() throws(SessionError.Reason) -> Int { try optionalInteger() ?? 0 }

    mutating func optionalString() throws(SessionError.Reason) -> String? {
        let (field, value) = try next(.string)
        guard let value else { return nil }
        guard case .string(let string) = value else { throw mismatch(field, value) }
        return string
    }

    mutating func optionalInteger() throws(SessionError.Reason) -> Int? {
        let (field, value) = try next(.integer)
        guard let value else { return nil }
        guard case .int(let integer) = value else { throw mismatch(field, value) }
        return integer
    }

    mutating func boolean() throws(SessionError.Reason) -> Bool {
        let (field, value) = try next(.boolean)
        guard case .bool(let bool)? = value else { throw mismatch(field, value ?? .null) }
        return bool
    }

    mutating func optionalBoolean() throws(SessionError.Reason) -> Bool? {
        let (field, value) = try next(.boolean)
        guard let value else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(field, value) }
        return bool
    }

    /// Any JSON value.
    mutating func json() throws(SessionError.Reason) -> Value {
        try next(.json).value ?? .null
    }

    /// A JSON object.
    mutating func object() throws(SessionError.Reason) -> Value {
        let (field, value) = try next(.object)
        guard case .object? = value, let value else { throw mismatch(field, value ?? .null) }
        return value
    }

    mutating func optionalDigest() throws(SessionError.Reason) -> StateDigest? {
        let (field, value) = try next(.digest)
        guard let value else { return nil }
        guard case .string(let text) = value else { throw mismatch(field, value) }
        guard let digest = StateDigest(text: text) else { throw .invalidField(label(field), "must be 16 hexadecimal digits") }
        return digest
    }

    mutating func patch() throws(SessionError.Reason) -> [JSONPatch.Operation] {
        let (field, value) = try next(.patch)
        return try operations(field, value ?? .null)
    }

    mutating func optionalPatch() throws(SessionError.Reason) -> [JSONPatch.Operation]? {
        let (field, value) = try next(.patch)
        guard let value else { return nil }
        return try operations(field, value)
    }

    private func operations(_ field: SessionField, _ value: Value) throws(SessionError.Reason) -> [JSONPatch.Operation] {
        guard case .array(let elements) = value else { throw mismatch(field, value) }
        var operations: [JSONPatch.Operation] = []
        operations.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            operations.append(try JSONPatch.Operation(element, field: "\(label(field))[\(position)]"))
        }
        return operations
    }

    mutating func steps() throws(SessionError.Reason) -> [RecomputedStep] {
        let (field, value) = try next(.steps)
        guard let value else {
            guard case .defaulted(.steps(let steps)) = field.presence else { return [] }
            return steps
        }
        guard case .array(let elements) = value else { throw mismatch(field, value) }
        var steps: [RecomputedStep] = []
        for (position, element) in elements.enumerated() {
            let label = "\(label(field))[\(position)]"
            guard case .object(let members) = element else {
                throw .wrongType(label, expected: "an object {\"index\":...,\"patch\":...}", found: element.typePhrase)
            }
            var values = SessionFieldValues(RecomputedStep.fields, of: members, prefix: label + ".")
            steps.append(try RecomputedStep(&values))
        }
        return steps
    }
}

extension JSONPatch.Operation {
    /// Appends `{"op":...,"path":...,"value":...}`; a `remove` has no value.
    func encode(into out: inout [UInt8]) {
        out.appendRaw(#"{"op":"#)
        Value.string(op.rawValue).writeJSON(to: &out)
        out.appendRaw(#","path":"#)
        path.encode(into: &out)
        if op != .remove, let value {
            out.appendRaw(#","value":"#)
            value.writeJSON(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Reads one operation of a patch; `field` names it in errors (`patch[2]`), and is made
    /// only for one.
    init(_ value: Value, field: @autoclosure () -> String) throws(SessionError.Reason) {
        guard case .object(let members) = value else {
            throw .wrongType(field(), expected: "an object {\"op\":...,\"path\":...}", found: value.typePhrase)
        }
        guard case .string(let name)? = members["op"] else {
            throw Self.problem(members["op"], field: field() + ".op")
        }
        guard let op = ValueChange.Operation(rawValue: name) else {
            throw .invalidField(field() + ".op", "is \(Value.string(name).jsonText); this patchbay reads add, remove and replace")
        }
        guard case .string(let pointer)? = members["path"] else {
            throw Self.problem(members["path"], field: field() + ".path")
        }
        guard let path = JSONPointer(pointer) else {
            throw .invalidField(field() + ".path", "is \(Value.string(pointer).jsonText), which is not a JSON Pointer (\"\" or /key/0...)")
        }
        let operationValue = members["value"]
        guard op == .remove || operationValue != nil else { throw .missingField(field() + ".value", expected: "any JSON value") }
        self.init(op, path: path, value: operationValue)
    }

    private static func problem(_ value: Value?, field: String) -> SessionError.Reason {
        guard let value else { return .missingField(field, expected: "a string") }
        return .wrongType(field, expected: "a string", found: value.typePhrase)
    }
}

extension [UInt8] {
    /// Appends `text` as it stands: punctuation and keys written out in the source.
    mutating func appendRaw(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
