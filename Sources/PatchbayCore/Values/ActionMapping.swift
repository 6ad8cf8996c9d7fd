import Synchronization

/// How an app's actions map to Patchbay's action objects, and back: an action is an object
/// whose first key is a string `type`, followed by the action's fields
/// (`{type: "addTodo", title: "milk"}`).
///
/// - `codable()` derives the objects from the actions' synthesized `Codable` forms (an enum
///   of cases with associated values, TCA-style).
/// - `types(_:)` registers one `Codable` struct per action type (ReSwift/VISPER-style).
/// - `reflecting()` records any action through `Value(reflecting:)`; it cannot decode.
///
/// A mapping is `Sendable`, so an app can declare it once, as a global:
/// `let appActions: ActionMapping<any AppAction> = .types([...])`.
///
/// (Checked by hand: its closures are made in this file only, and capture nothing mutable but
/// the names, which a lock guards, and the `ActionType`s, whose own closures are the same or
/// `@Sendable`.)
public struct ActionMapping<Action>: @unchecked Sendable {
    private let encodeAction: (Action) throws(ValueCodingError) -> Value
    private let decodeAction: (Value.Members, String) throws(ActionDecodingError) -> Action
    private let names: TypeNames

    /// The action types the mapping knows: for `types(_:)`, the registered names; for
    /// `codable(knownTypes:)` and `reflecting()`, the names given and then every type seen
    /// since (encoded or decoded), in the order first met. Unknown types are suggested from
    /// these.
    public var knownTypes: [String] { names.names }

    private init(names: TypeNames, encode: @escaping (Action) throws(ValueCodingError) -> Value,
                 decode: @escaping (Value.Members, String) throws(ActionDecodingError) -> Action) {
        self.names = names
        encodeAction = encode
        decodeAction = decode
    }

    /// The action object for `action`: `{type: ..., fields...}`.
    /// - Throws: when the action cannot be encoded (a NaN, an unregistered type).
    public func object(for action: Action) throws(ValueCodingError) -> Value {
        try encodeAction(action)
    }

    /// The action `object` stands for.
    /// - Throws: `notAnAction` when `object` is not an object with a string `type`;
    ///   `unknownType` when no action has that type; `invalid` when a field does not decode or
    ///   is missing, or when `object` has a field that the action's `init(from:)` never asks
    ///   about (`decode`, `decodeIfPresent`, `contains`, a nested container or `allKeys`), in
    ///   its payload or deeper: `addTodo.tagz: unknown field; did you mean 'tags'?`. Such a field
    ///   would otherwise be dropped without a word.
    public func action(from object: Value) throws(ActionDecodingError) -> Action {
        guard case .object(let members) = object else { throw .notAnAction(found: object.typeName) }
        guard let type = members["type"] else { throw .notAnAction(found: #"an object without "type""#) }
        guard case .string(let name) = type else { throw .notAnAction(found: #"an object whose "type" is "# + type.typeName) }
        return try decodeAction(members, name)
    }
}

// MARK: Codable actions

extension ActionMapping where Action: Codable {
    /// The mapping of an action type's synthesized `Codable` forms, with no hand-written
    /// coding:
    /// - an enum case (`{"addTodo": {"title": "milk"}}`) is `{type: "addTodo", title: "milk"}`;
    ///   a payload without labels keeps Swift's names (`{type: "set", _0: 3}`) and a case
    ///   without payload is `{type: "reset"}`;
    /// - an action that encodes as an object with a string `type` is kept, `type` first;
    /// - anything else is `{type: "<the Action type's name>", value: <the encoded action>}`.
    ///
    /// Decoding is the inverse: which form an object is in follows from the keys the
    /// action's `init(from:)` asks for (a case name, `type`, or neither). A type that is no
    /// case is `unknownType`, with a suggestion among `knownTypes` and, for an enum, the case
    /// names one edit away (`toggel` → `toggle`, `Reset` → `reset`), which need not be known yet;
    /// with none close, the `knownTypes` are listed. A field no form asks for is an error
    /// (see `action(from:)`).
    ///
    /// - Parameter knownTypes: the action types, when the app can list them (the case names);
    ///   otherwise `knownTypes` grows with every type this mapping encodes or decodes.
    public static func codable(knownTypes: [String] = []) -> ActionMapping<Action> {
        let names = TypeNames(knownTypes)
        let typeName = String(describing: Action.self)
        return ActionMapping(names: names, encode: { action throws(ValueCodingError) in
            let object = actionObject(try ValueEncoder().encode(action), typeName: typeName)
            if case .string(let type)? = object["type"] { names.note(type) }
            return object
        }, decode: { members, type throws(ActionDecodingError) in
            let action: Action = try decodeCodable(members, type: type, typeName: typeName, names: names)
            names.note(type)
            return action
        })
    }

    /// The action object for `encoded`, an action as its `Codable` form.
    private static func actionObject(_ encoded: Value, typeName: String) -> Value {
        guard case .object(let members) = encoded else { return ["type": .string(typeName), "value": encoded] }
        if let position = members.index(forKey: "type"), case .string = members.values[position] {
            guard position != 0 else { return encoded }
            var object = Value.Members(minimumCapacity: members.count)
            object["type"] = members.values[position]
            for (key, value) in members where key != "type" { object[key] = value }
            return .object(object)
        }
        if members.count == 1, case .object(let payload) = members.values[0], payload["type"] == nil {
            var object = Value.Members(minimumCapacity: payload.count + 1)
            object["type"] = .string(members.keys[0])
            for (key, value) in payload { object[key] = value }
            return .object(object)
        }
        return ["type": .string(typeName), "value": encoded]
    }

    private static func decodeCodable(_ members: Value.Members, type: String, typeName: String, names: TypeNames)
        throws(ActionDecodingError) -> Action
    {
        var view = ActionView(members: members, type: type, typeName: typeName)
        var firstError: ValueCodingError?
        while true {
            let decoding = ValueDecoding(.object(members))
            decoding.actionView = view
            decoding.fieldUse = FieldUse()
            func unknownType() -> ActionDecodingError {
                .unknown(type, among: names.names, alsoSuggesting: decoding.casesNearUnknownType)
            }
            do {
                let action = try decoding.decode(Action.self)
                // An `init(from:)` that made something of no members at all still had no case.
                if decoding.isUnknownActionType { throw unknownType() }
                // A field the action never asked about fails this form as a field that does
                // not decode would (the next form may have it).
                if let unasked = decoding.fieldUse?.unaskedField() { throw unasked }
                if decoding.actionForm == .wrapped, let extra = members.keys.first(where: { $0 != "type" && $0 != "value" }) {
                    throw ActionDecodingError.invalid(type: type, ValueCodingError(path: [extra], message: ValueCodingError.unknownField(extra, fields: ["value"])))
                }
                return action
            } catch let error as ActionDecodingError {
                throw error
            } catch is UnknownActionType {
                throw unknownType()
            } catch {
                if decoding.isUnknownActionType { throw unknownType() }
                let form = decoding.actionForm ?? .typed
                let relative = view.relativePath(ValueCodingError.from(error, root: decoding.actionRoot ?? .object(members)), form: form)
                let reported = firstError ?? relative
                firstError = reported
                guard let next = decoding.alternativeForm else { throw .invalid(type: type, reported) }
                view.forced = next
            }
        }
    }
}

/// The forms an action object can stand for (see `ActionMapping.codable()`).
enum ActionForm {
    /// `{type: T, fields...}` for the enum case `{T: {fields...}}`.
    case enumCase
    /// The action's own object, which has a string `type`.
    case typed
    /// `{type: "<Action>", value: V}` for an action that encodes as `V`.
    case wrapped
}

/// Thrown inside decoding when the action's type is none the action's `init(from:)` knows.
struct UnknownActionType: Error {}

/// An action object as the top of an action's decoding sees it: which form it is in follows
/// from the keys the action's `init(from:)` asks for.
struct ActionView {
    let members: Value.Members
    let type: String
    let typeName: String
    /// The form to take, on a second try after the first form failed.
    var forced: ActionForm?

    init(members: Value.Members, type: String, typeName: String) {
        self.members = members
        self.type = type
        self.typeName = typeName
    }

    private var isWrapped: Bool { type == typeName && members["value"] != nil }

    /// The members the action's keyed container reads, for a container keyed by `Key`.
    func members<Key: CodingKey>(for key: Key.Type, decoding: ValueDecoding) throws -> Value.Members {
        let form: ActionForm
        if let forced {
            form = forced
        } else {
            let hasCase = Key(stringValue: type) != nil
            if Key(stringValue: "type") != nil {
                // A `type` field (or a case named `type`): its own object first; the case
                // form or the wrapped form when that fails.
                form = .typed
                decoding.alternativeForm = hasCase ? .enumCase : isWrapped ? .wrapped : nil
            } else if hasCase {
                form = .enumCase
                decoding.alternativeForm = isWrapped ? .wrapped : nil
            } else if isWrapped {
                form = .wrapped
            } else {
                // No form fits: the type is unknown. The action's `init(from:)` goes on with no
                // members and fails; an enum's asks for `allKeys` first, which finds the case
                // names near the type (see `ValueDecoding.casesNearUnknownType`).
                decoding.isUnknownActionType = true
                return [:]
            }
        }
        decoding.actionForm = form
        switch form {
        case .typed:
            return members
        case .enumCase:
            // `{type: T, fields...}` read as `{T: {fields...}}`: the payload is the object
            // itself, with its `type` hidden by the container (see `ValueDecoding`).
            let object: Value.Members = [type: .object(members)]
            decoding.value = .object(object)
            decoding.actionRoot = decoding.value
            return object
        case .wrapped:
            let wrapped = members["value"] ?? .null
            decoding.value = wrapped
            decoding.actionRoot = wrapped
            guard case .object(let object) = wrapped else {
                throw ValueCodingError(path: [], message: ValueCodingError.mismatch("an object", found: wrapped))
            }
            return object
        }
    }

    /// The value a single-value or unkeyed container reads: the wrapped `value`.
    func wrappedValue(decoding: ValueDecoding) throws -> Value {
        guard forced == .wrapped || isWrapped else { throw UnknownActionType() }
        decoding.actionForm = .wrapped
        let wrapped = members["value"] ?? .null
        decoding.actionRoot = wrapped
        return wrapped
    }

    /// `error`'s path from the action object: without the case's key for the enum form,
    /// under `value` for the wrapped form.
    func relativePath(_ error: ValueCodingError, form: ActionForm) -> ValueCodingError {
        var error = error
        switch form {
        case .typed: break
        case .enumCase: if error.path.first == type { error.path.removeFirst() }
        case .wrapped: error.path.insert("value", at: 0)
        }
        return error
    }
}

// MARK: One type per action

/// One action type of `ActionMapping.types(_:)`: a `Codable` struct, its name in action
/// objects (by default the struct's name), and how it becomes an `Action`.
///
/// `Sendable` (checked by hand): its closures are made in this file, capture nothing mutable,
/// and call only the `@Sendable` closure an app gives.
public struct ActionType<Action>: @unchecked Sendable {
    /// The type's name: the `type` of its action objects.
    public let name: String
    let identifier: ObjectIdentifier
    let encode: (Action) throws(ValueCodingError) -> Value?
    let decode: (Value.Members) throws(ActionDecodingError) -> Action

    /// The action type `type`, named `name` (by default the type's name), made an `Action`
    /// by `wrap`. Encoding takes an action whose dynamic type is `T`.
    public init<T: Codable>(_ type: T.Type, name: String? = nil, as wrap: @escaping @Sendable (T) -> Action) {
        self.init(type, name: name, making: wrap)
    }

    /// The action type `type`, named `name` (by default the type's name), for an `Action`
    /// that `T` is (an existential such as `any AppAction`); decoding a `T` that is not an
    /// `Action` is an error naming the type.
    public init<T: Codable>(_ type: T.Type, name: String? = nil) {
        self.init(type, name: name, making: { $0 as? Action })
    }

    /// The action type `type`, whose decoded values `make` turns into actions (`nil`: it is not one).
    private init<T: Codable>(_ type: T.Type, name: String?, making make: @escaping (T) -> Action?) {
        let name = name ?? String(describing: T.self)
        self.name = name
        identifier = ObjectIdentifier(T.self)
        encode = { action throws(ValueCodingError) in
            guard let typed = action as? T else { return nil }
            return Self.object(try ValueEncoder().encode(typed), name: name)
        }
        decode = { members throws(ActionDecodingError) in
            let decoded: T
            let decoding = ValueDecoding(.object(members))
            decoding.fieldUse = FieldUse()
            do {
                decoded = try decoding.decode(T.self)
            } catch {
                throw .invalid(type: name, ValueCodingError.from(error, root: .object(members)))
            }
            // The object's `type` is the mapping's; any other field the struct did not read is unknown.
            if let unasked = decoding.fieldUse?.unaskedField(ignoring: "type") {
                throw .invalid(type: name, unasked)
            }
            guard let action = make(decoded) else {
                throw .invalid(type: name, ValueCodingError(path: [], message: "\(T.self) is not a \(Action.self)"))
            }
            return action
        }
    }

    /// `{type: name, fields...}` for `encoded`, the struct's form; `{type: name, value: V}`
    /// for a type that does not encode as an object.
    private static func object(_ encoded: Value, name: String) -> Value {
        guard case .object(let members) = encoded else { return ["type": .string(name), "value": encoded] }
        var object = Value.Members(minimumCapacity: members.count + 1)
        object["type"] = .string(name)
        for (key, value) in members where key != "type" { object[key] = value }
        return .object(object)
    }
}

extension ActionMapping {
    /// The mapping of one `Codable` struct per action type (ReSwift/VISPER-style):
    /// `{type: "<name>", fields of the struct...}`. Encoding picks the registration by the
    /// action's dynamic type; decoding by `type`, and gives the struct the whole object, every
    /// field of which but `type` the struct's `init(from:)` must ask for (see
    /// `action(from:)`). `knownTypes` are the registered names; an unknown type suggests the
    /// closest of them, or lists them.
    public static func types(_ types: [ActionType<Action>]) -> ActionMapping<Action> {
        var byName: [String: Int] = [:]
        var byType: [ObjectIdentifier: Int] = [:]
        for (position, type) in types.enumerated() {
            byName[type.name] = byName[type.name] ?? position
            byType[type.identifier] = byType[type.identifier] ?? position
        }
        let names = TypeNames(types.map(\.name))
        let (positionsByName, positionsByType) = (byName, byType)
        return ActionMapping(names: names, encode: { action throws(ValueCodingError) in
            let dynamicType = Swift.type(of: action as Any)
            if let position = positionsByType[ObjectIdentifier(dynamicType)], let object = try types[position].encode(action) {
                return object
            }
            throw ValueCodingError(path: [], message: "no action type is registered for \(dynamicType)")
        }, decode: { members, type throws(ActionDecodingError) in
            guard let position = positionsByName[type] else {
                throw .unknown(type, among: names.names)
            }
            return try types[position].decode(members)
        })
    }
}

// MARK: Reflected actions

extension ActionMapping {
    /// The mapping of actions that are not `Codable`, through `Value(reflecting:)`: an enum
    /// case is `{type: caseName, payload...}` (unlabeled payload fields as `_0`, `_1`...),
    /// anything else `{type: "<its type's name>", fields...}` (`value` for a value that is no
    /// object). It records actions for inspection only: `action(from:)` always throws
    /// `notDecodable`. `knownTypes` grows with every type encoded.
    public static func reflecting() -> ActionMapping<Action> {
        let names = TypeNames([])
        return ActionMapping(names: names, encode: { action in
            let object = reflectedObject(action)
            if case .string(let type)? = object["type"] { names.note(type) }
            return object
        }, decode: { _, type throws(ActionDecodingError) in
            throw .notDecodable(type: type)
        })
    }

    private static func reflectedObject(_ action: Action) -> Value {
        let reflected = Value(reflecting: action)
        switch reflected {
        case .string(let caseName) where Mirror(reflecting: action).displayStyle == .enum:
            return ["type": .string(caseName)]
        case .object(let members):
            if case .string? = members["type"] { return reflected }
            var object = Value.Members(minimumCapacity: members.count + 1)
            object["type"] = .string(String(describing: Swift.type(of: action as Any)))
            for (key, value) in members { object[key] = value }
            return .object(object)
        default:
            return ["type": .string(String(describing: Swift.type(of: action as Any))), "value": reflected]
        }
    }
}

/// The action types a mapping knows, growing as it meets new ones. (A class: the mapping is
/// copied around and every copy sees the same names; behind a lock, since a mapping may be
/// used from any thread.)
final class TypeNames: Sendable {
    private struct State {
        var names: [String] = []
        var known: Set<String> = []
        /// The last name noted, which most often comes again: checked before hashing.
        var last: String?
    }

    private let state = Mutex(State())

    init(_ names: [String]) {
        for name in names { note(name) }
    }

    var names: [String] { state.withLock { $0.names } }

    func note(_ name: String) {
        state.withLock { state in
            if name == state.last { return }
            state.last = name
            if state.known.insert(name).inserted { state.names.append(name) }
        }
    }
}

/// Why an action object does not decode as an app's action.
public enum ActionDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value is not an object with a string `type`; `found` says what it is (`int`,
    /// `an object without "type"`).
    case notAnAction(found: String)
    /// No action has this type; `suggestion` is the closest known type, if one is close;
    /// otherwise `known` lists the types the mapping knows (`ActionMapping.knownTypes`).
    case unknownType(String, suggestion: String?, known: [String] = [])
    /// A field of an action of `type` does not decode; the error's path is from the action
    /// object (`title`, `items.2`).
    case invalid(type: String, ValueCodingError)
    /// The mapping records actions for inspection only (`ActionMapping.reflecting()`).
    case notDecodable(type: String)

    public var description: String {
        switch self {
        case .notAnAction(let found):
            #"not an action: expected an object with a string "type", found "# + found
        case .unknownType(let type, let suggestion, let known):
            if let suggestion {
                "no action type '\(type)'; did you mean '\(suggestion)'?"
            } else {
                "no action type '\(type)'" + (known.isEmpty ? "" : " (known: \(Spelling.list(known)))")
            }
        case .invalid(let type, let error):
            error.path.isEmpty ? "\(type): \(error.message)" : "\(type).\(error.description)"
        case .notDecodable(let type):
            "\(type) was recorded through reflection: it cannot be made into an action"
        }
    }

    /// `type`, unknown: with the closest of `known` (or of `alsoSuggesting`, names that need
    /// not be known yet) as a suggestion, or else the `known` types listed.
    static func unknown(_ type: String, among known: [String], alsoSuggesting others: [String] = []) -> ActionDecodingError {
        let suggestion = Spelling.closest(to: type, among: known + others)
        return .unknownType(type, suggestion: suggestion, known: suggestion == nil ? known : [])
    }
}
