import OrderedCollections

/// Decodes a `Decodable` value straight from a `Value`, without JSON text in between: the
/// inverse of `ValueEncoder`.
///
/// Lenient where JSONDecoder is and it does no harm: a decimal with an integral value decodes
/// as an integer, an integer as a `Double` or `Float`. A missing key and a `null` both decode
/// as `nil` for an optional property. Errors say where and what:
/// `todos.2.done: expected a bool, found int`.
public struct ValueDecoder {
    public init() {}

    /// The `T` that `value` encodes.
    /// - Throws: when `value` does not have the shape `T` asks for, or `T`'s `init(from:)`
    ///   throws (Swift's `DecodingError`s are told in the same words as this decoder's).
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws(ValueCodingError) -> T {
        let decoding = ValueDecoding(value)
        do {
            return try decoding.decode(T.self)
        } catch {
            throw ValueCodingError.from(error, root: value)
        }
    }

    /// The `T` that `value` encodes, taking over from `memory` the typed parts whose encodings
    /// are parts of `value` itself (the same bytes: the same storage), as the value a hosted
    /// store's history rebuilds for a step shares with the state encoded last everything the
    /// steps between them did not change. An array of `Equatable` elements is matched element
    /// by element: only the elements that differ are decoded. So going back one step in a
    /// history of 100,000 items decodes the item that step changed and copies the array once.
    /// It relies on what `ValueEncoder.Memory` relies on: a part decodes as the value that
    /// encoded it.
    /// - Throws: as `decode(_:from:)` does.
    package func decode<T: Decodable>(_ type: T.Type, from value: Value, memory: ValueEncoder.Memory?) throws(ValueCodingError) -> T {
        let decoding = ValueDecoding(value)
        if let root = memory?.root { decoding.reuse = ([root], 0) }
        do {
            return try decoding.decode(T.self)
        } catch {
            throw ValueCodingError.from(error, root: value)
        }
    }
}

/// The decoder handed to `init(from:)`. One instance decodes a whole value: a nested value is
/// decoded by the same decoder with the nested value made current and its key pushed on the
/// coding path.
final class ValueDecoding: Decoder {
    /// The value being decoded.
    var value: Value
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What the top-level value's `container(keyedBy:)` sees instead of the value, when the
    /// value is an action object (see `ActionMapping`); `nil` otherwise, and once used.
    var actionView: ActionView?
    /// The form the action view took, once it took one.
    var actionForm: ActionForm?
    /// The form to try next when decoding in `actionForm` fails.
    var alternativeForm: ActionForm?
    /// The value the action view presented (where errors look up what they found).
    var actionRoot: Value?
    /// Whether the action object's type is none the action's keys know: its container has no
    /// members, and the decoding fails.
    var isUnknownActionType = false
    /// The case names one edit away from an unknown action type, found when an enum's
    /// `init(from:)` asks its container for `allKeys`: an enum's cases cannot be listed, but its
    /// coding keys can be asked about each name near the type. (A struct's `init(from:)` never
    /// asks, so its field names are never taken for cases.)
    var casesNearUnknownType: [String] = []
    /// The fields the keyed containers were asked about, when the value is an action object
    /// whose fields nothing asked about are errors (see `FieldUse`); `nil` otherwise.
    var fieldUse: FieldUse?
    /// How many containers values asked this decoder for (see `make(_:)`).
    private var containersMade = 0
    /// With a memory (`ValueDecoder.decode(_:from:memory:)`): the parts of the value the memory
    /// encoded last, in the container being decoded, in the order its non-scalar members came,
    /// and how many of them this decoding has passed (the order `ValueEncoding` keeps them in).
    var reuse: (previous: [EncodedPart], next: Int)?

    init(_ value: Value) {
        self.value = value
    }

    /// The current value as a `T`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if actionView == nil, let scalar: T = try scalar(value, at: nil) { return scalar }
        return try remembered(T.self)
    }

    /// The current value as a `T`: with a memory, the typed part in the same place when its
    /// encoding is the current value (the same bytes), or an array changed from it element by
    /// element; otherwise `make(_:)`, with the part's own parts to look in below.
    @inline(__always)
    private func remembered<T: Decodable>(_: T.Type) throws -> T {
        guard var place = reuse else { return try make(T.self) }
        let part = place.next < place.previous.count ? place.previous[place.next] as? TypedEncodedPart<T> : nil
        place.next += 1
        defer { reuse = place }
        // Only an `Equatable` part is taken over, as the encoder does: a class instance decoded
        // again is a new instance, which a state may rely on.
        guard let part, part.isEquatable else {
            reuse = nil
            return try make(T.self)
        }
        if value.isContainer, _SameBytes.same(value, part.value) { return part.typed }
        if let array = T.self as? any ElementwiseDecodable.Type, let decoded = try array.decodeElementwise(from: part, with: self) {
            reuse = nil
            return decoded as! T
        }
        reuse = (part.children, 0)
        return try make(T.self)
    }

    /// `T(from: self)`. When fields are tracked, an object whose `T` asked for no container at
    /// all (an empty struct) asked about none of its members. (Not the action object itself,
    /// whose view the mapping checks.)
    @inline(__always)
    private func make<T: Decodable>(_: T.Type) throws -> T {
        guard let fieldUse, actionView == nil else { return try construct(T.self) }
        let before = containersMade
        let made = try construct(T.self)
        if containersMade == before, case .object(let members) = value, !members.isEmpty {
            _ = fieldUse.container(at: codingPath, members: members, hiddenKey: nil)
        }
        return made
    }

    /// `T(from: self)`; a raw value that no case of a `CaseIterable` enum has is an error that
    /// lists the cases' values (`'medum' is not a Size (values: small, medium, large); did you
    /// mean 'medium'?`).
    @inline(__always)
    private func construct<T: Decodable>(_: T.Type) throws -> T {
        do {
            return try T(from: self)
        } catch DecodingError.dataCorrupted(let context) {
            guard let cases = T.self as? any (CaseIterable & RawRepresentable).Type else {
                throw DecodingError.dataCorrupted(context)
            }
            let values = Self.rawValues(of: cases)
            var message: String
            if case .string(let text) = value {
                message = "'\(text)' is not a \(T.self) (values: \(Spelling.list(values)))"
                if let closest = Spelling.closest(to: text, among: values) { message += "; did you mean '\(closest)'?" }
            } else {
                message = "\(value.jsonText) is not a \(T.self) (values: \(Spelling.list(values)))"
            }
            throw ValueCodingError(path: path(nil), message: message)
        }
    }

    /// The raw values of `type`'s cases, as text.
    private static func rawValues<C: CaseIterable & RawRepresentable>(of type: C.Type) -> [String] {
        type.allCases.map { "\($0.rawValue)" }
    }

    /// `child` as a `T`, decoded with `key` pushed on the coding path.
    func decode<T: Decodable>(_ type: T.Type, from child: Value, at key: any CodingKey) throws -> T {
        if let scalar: T = try scalar(child, at: key) { return scalar }
        let saved = value
        value = child
        codingPath.append(key)
        defer {
            value = saved
            codingPath.removeLast()
        }
        return try remembered(T.self)
    }

    /// A scalar of the standard library's common types, or `nil` for another type.
    /// (Comparing metatypes costs next to nothing; a dynamic cast would cost far more.)
    @inline(__always)
    private func scalar<T>(_ value: Value, at key: (any CodingKey)?) throws -> T? {
        // `as T`: read as `T?`, the value would be read one byte past its end (the optional's tag).
        if T.self == String.self { return Self.reinterpret(try string(value, at: key)) as T }
        if T.self == Int.self { return Self.reinterpret(try integer(value, as: Int.self, at: key)) as T }
        if T.self == Bool.self { return Self.reinterpret(try bool(value, at: key)) as T }
        if T.self == Double.self { return Self.reinterpret(try double(value, at: key)) as T }
        return nil
    }

    /// `value` read as a `U`, which must be `T` itself (the callers have compared the types).
    @inline(__always)
    private static func reinterpret<T, U>(_ value: T) -> U {
        precondition(MemoryLayout<T>.size == MemoryLayout<U>.size, "reinterpret between types of different sizes")
        return withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
    }

    // MARK: Scalars

    func path(_ key: (any CodingKey)?) -> [String] {
        ValueCodingError.names(key.map { codingPath + [$0] } ?? codingPath)
    }

    func mismatch(_ expected: String, _ value: Value?, at key: (any CodingKey)?) -> ValueCodingError {
        ValueCodingError(path: path(key), message: value == nil ? "missing" : ValueCodingError.mismatch(expected, found: value))
    }

    func string(_ value: Value, at key: (any CodingKey)?) throws(ValueCodingError) -> String {
        guard case .string(let string) = value else { throw mismatch("a string", value, at: key) }
        return string
    }

    func bool(_ value: Value, at key: (any CodingKey)?) throws(ValueCodingError) -> Bool {
        guard case .bool(let bool) = value else { throw mismatch("a bool", value, at: key) }
        return bool
    }

    func double(_ value: Value, at key: (any CodingKey)?) throws(ValueCodingError) -> Double {
        switch value {
        case .decimal(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch("a number", value, at: key)
        }
    }

    func float(_ value: Value, at key: (any CodingKey)?) throws(ValueCodingError) -> Float {
        Float(try double(value, at: key))
    }

    func integer<I: FixedWidthInteger>(_ value: Value, as type: I.Type, at key: (any CodingKey)?) throws(ValueCodingError) -> I {
        switch value {
        case .int(let int):
            guard let integer = I(exactly: int) else { throw outOfRange(int, I.self, at: key) }
            return integer
        case .decimal(let double):
            guard let integer = I(exactly: double) else {
                throw double.rounded() == double
                    ? outOfRange(double, I.self, at: key) : mismatch("an integer", value, at: key)
            }
            return integer
        default:
            throw mismatch("an integer", value, at: key)
        }
    }

    private func outOfRange(_ number: some CustomStringConvertible, _ type: Any.Type, at key: (any CodingKey)?) -> ValueCodingError {
        ValueCodingError(path: path(key), message: "\(number) does not fit in \(type)")
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        containersMade &+= 1
        if let view = actionView {
            actionView = nil
            let members = try view.members(for: Key.self, decoding: self)
            // The enum form's payload is the action object itself: its `type` is hidden
            // from the case's fields rather than copied out.
            var container = KeyedValueDecodingContainer<Key>(
                decoding: self, members: members, codingPath: codingPath, nestedHiddenKey: actionForm == .enumCase ? "type" : nil)
            if isUnknownActionType { container.unknownType = view.type }
            return KeyedDecodingContainer(container)
        }
        guard case .object(let members) = value else { throw mismatch("an object", value, at: nil) }
        return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(decoding: self, members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        containersMade &+= 1
        if let view = actionView {
            actionView = nil
            value = try view.wrappedValue(decoding: self)
        }
        guard case .array(let elements) = value else { throw mismatch("an array", value, at: nil) }
        return UnkeyedValueDecodingContainer(decoding: self, elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        containersMade &+= 1
        if let view = actionView {
            actionView = nil
            value = try view.wrappedValue(decoding: self)
        }
        return SingleValueDecodingContainer_(decoding: self, value: value)
    }
}

private struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoding: ValueDecoding
    let members: Value.Members
    let codingPath: [any CodingKey]
    /// A member this container does not show (an action object's `type`, read as the
    /// payload of its enum case).
    var hiddenKey: String?
    /// The member the containers nested in this one do not show.
    var nestedHiddenKey: String?
    /// The action type no key knows, for the top container of an action object.
    var unknownType: String?
    /// Where this container notes the fields it is asked about, when the decoding tracks them.
    private let fields: FieldUse.Container?

    init(decoding: ValueDecoding, members: Value.Members, codingPath: [any CodingKey], hiddenKey: String? = nil, nestedHiddenKey: String? = nil) {
        self.decoding = decoding
        self.members = members
        self.codingPath = codingPath
        self.hiddenKey = hiddenKey
        self.nestedHiddenKey = nestedHiddenKey
        fields = decoding.fieldUse?.container(at: codingPath, members: members, hiddenKey: hiddenKey)
    }

    var allKeys: [Key] {
        if let unknownType {
            decoding.casesNearUnknownType = Spelling.oneEditAway(from: unknownType).filter { Key(stringValue: $0) != nil }
        }
        // Whoever lists the keys looks at all of them (an enum's case, a dictionary's entries).
        fields?.askAll()
        return members.keys.compactMap { key in hiddenKey.map { ObjectKey($0) == key } == true ? nil : Key(stringValue: key.string) }
    }

    func contains(_ key: Key) -> Bool {
        fields?.ask(key.stringValue)
        return lookUp(key) != nil
    }

    @inline(__always)
    private func lookUp(_ key: Key) -> Value? {
        let name = key.stringValue
        if let hiddenKey, name == hiddenKey { return nil }
        return members[name]
    }

    /// The member at `key`; a missing one is an error that says what was `expected` there
    /// (`missing (expected an integer)`).
    private func member(_ key: Key, expected: @autoclosure () -> String) throws(ValueCodingError) -> Value {
        fields?.ask(key.stringValue)
        guard let member = lookUp(key) else {
            // A member that no key of this container knows, close to the missing one, is the
            // field misspelt: said as such, not as the field missing.
            let strays = members.keys.map(\.string).filter { $0 != hiddenKey && Key(stringValue: $0) == nil }
            if let misspelt = Spelling.closest(to: key.stringValue, among: strays) {
                throw ValueCodingError(path: ValueCodingError.names(codingPath) + [misspelt],
                                       message: ValueCodingError.unknownField(misspelt, fields: [key.stringValue]))
            }
            throw ValueCodingError(path: ValueCodingError.names(codingPath + [key]), message: ValueCodingError.missing(expected()))
        }
        return member
    }

    /// The path a scalar's error names: the container's path and `key` (the decoder's own
    /// path may be deeper or shallower when the container is used late).
    private func scalar<T>(_ key: Key, _ expected: String, _ read: (Value, any CodingKey) throws(ValueCodingError) -> T) throws(ValueCodingError) -> T {
        let value = try member(key, expected: expected)
        do {
            return try read(value, key)
        } catch {
            var error = error
            error.path = ValueCodingError.names(codingPath + [key])
            throw error
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key, expected: "a value") { return true }
        return false
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key, "a bool") { v, k throws(ValueCodingError) in try decoding.bool(v, at: k) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key, "a string") { v, k throws(ValueCodingError) in try decoding.string(v, at: k) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key, "a number") { v, k throws(ValueCodingError) in try decoding.double(v, at: k) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key, "a number") { v, k throws(ValueCodingError) in try decoding.float(v, at: k) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<I: FixedWidthInteger>(_ key: Key) throws(ValueCodingError) -> I {
        try scalar(key, "an integer") { v, k throws(ValueCodingError) in try decoding.integer(v, as: I.self, at: k) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try member(key, expected: ValueCodingError.phrase(for: T.self) ?? "\(T.self)")
        return try withPath { try decoding.decode(T.self, from: value, at: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try member(key, expected: "an object")
        guard case .object(let nested) = value else {
            throw ValueCodingError(path: ValueCodingError.names(codingPath + [key]), message: ValueCodingError.mismatch("an object", found: value))
        }
        return KeyedDecodingContainer(KeyedValueDecodingContainer<NestedKey>(
            decoding: decoding, members: nested, codingPath: codingPath + [key], hiddenKey: nestedHiddenKey))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try member(key, expected: "an array")
        guard case .array(let elements) = value else {
            throw ValueCodingError(path: ValueCodingError.names(codingPath + [key]), message: ValueCodingError.mismatch("an array", found: value))
        }
        return UnkeyedValueDecodingContainer(decoding: decoding, elements: elements, codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { try superDecoder(key: NameKey("super")) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder(key: key) }

    private func superDecoder(key: any CodingKey) throws -> any Decoder {
        fields?.ask(key.stringValue)
        let decoder = ValueDecoding(key.stringValue == hiddenKey ? .null : members[key.stringValue] ?? .null)
        decoder.codingPath = codingPath + [key]
        decoder.fieldUse = decoding.fieldUse
        return decoder
    }

    /// Runs `body` with the decoder's coding path set to this container's, for a container
    /// used after its decoder moved on (a nested container's path is longer than the
    /// decoder's).
    @inline(__always)
    private func withPath<T>(_ body: () throws -> T) throws -> T {
        if decoding.codingPath.count == codingPath.count { return try body() }
        let saved = decoding.codingPath
        decoding.codingPath = codingPath
        defer { decoding.codingPath = saved }
        return try body()
    }
}

private struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let decoding: ValueDecoding
    let elements: [Value]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(decoding: ValueDecoding, elements: [Value], codingPath: [any CodingKey]) {
        self.decoding = decoding
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element, without moving past it; its end is an error.
    private func peek(_ expected: String) throws(ValueCodingError) -> Value {
        guard currentIndex < elements.count else {
            throw ValueCodingError(path: ValueCodingError.names(codingPath + [IndexKey(currentIndex)]),
                                   message: "expected \(expected), found the end of the array")
        }
        return elements[currentIndex]
    }

    private mutating func scalar<T>(_ expected: String, _ read: (Value, any CodingKey) throws(ValueCodingError) -> T) throws(ValueCodingError) -> T {
        let value = try peek(expected)
        let key = IndexKey(currentIndex)
        do {
            let result = try read(value, key)
            currentIndex += 1
            return result
        } catch {
            var error = error
            error.path = ValueCodingError.names(codingPath + [key])
            throw error
        }
    }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try peek("a value") else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar("a bool") { [decoding] v, k throws(ValueCodingError) in try decoding.bool(v, at: k) } }
    mutating func decode(_ type: String.Type) throws -> String { try scalar("a string") { [decoding] v, k throws(ValueCodingError) in try decoding.string(v, at: k) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar("a number") { [decoding] v, k throws(ValueCodingError) in try decoding.double(v, at: k) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar("a number") { [decoding] v, k throws(ValueCodingError) in try decoding.float(v, at: k) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<I: FixedWidthInteger>() throws(ValueCodingError) -> I {
        try scalar("an integer") { [decoding] v, k throws(ValueCodingError) in try decoding.integer(v, as: I.self, at: k) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try peek("a value")
        let saved = decoding.codingPath
        let adjust = saved.count != codingPath.count
        if adjust { decoding.codingPath = codingPath }
        defer { if adjust { decoding.codingPath = saved } }
        let result = try decoding.decode(T.self, from: value, at: IndexKey(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try peek("an object")
        let key = IndexKey(currentIndex)
        guard case .object(let members) = value else {
            throw ValueCodingError(path: ValueCodingError.names(codingPath + [key]), message: ValueCodingError.mismatch("an object", found: value))
        }
        currentIndex += 1
        return KeyedDecodingContainer(KeyedValueDecodingContainer<NestedKey>(decoding: decoding, members: members, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try peek("an array")
        let key = IndexKey(currentIndex)
        guard case .array(let nested) = value else {
            throw ValueCodingError(path: ValueCodingError.names(codingPath + [key]), message: ValueCodingError.mismatch("an array", found: value))
        }
        currentIndex += 1
        return UnkeyedValueDecodingContainer(decoding: decoding, elements: nested, codingPath: codingPath + [key])
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try peek("a value")
        let decoder = ValueDecoding(value)
        decoder.codingPath = codingPath + [IndexKey(currentIndex)]
        decoder.fieldUse = decoding.fieldUse
        currentIndex += 1
        return decoder
    }
}

private struct SingleValueDecodingContainer_: SingleValueDecodingContainer {
    let decoding: ValueDecoding
    let value: Value
    let codingPath: [any CodingKey]

    init(decoding: ValueDecoding, value: Value) {
        self.decoding = decoding
        self.value = value
        codingPath = decoding.codingPath
    }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }
    func decode(_ type: Bool.Type) throws -> Bool { try decoding.bool(value, at: nil) }
    func decode(_ type: String.Type) throws -> String { try decoding.string(value, at: nil) }
    func decode(_ type: Double.Type) throws -> Double { try decoding.double(value, at: nil) }
    func decode(_ type: Float.Type) throws -> Float { try decoding.float(value, at: nil) }
    func decode(_ type: Int.Type) throws -> Int { try decoding.integer(value, as: Int.self, at: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoding.integer(value, as: Int8.self, at: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoding.integer(value, as: Int16.self, at: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoding.integer(value, as: Int32.self, at: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoding.integer(value, as: Int64.self, at: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoding.integer(value, as: UInt.self, at: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoding.integer(value, as: UInt8.self, at: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoding.integer(value, as: UInt16.self, at: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoding.integer(value, as: UInt32.self, at: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoding.integer(value, as: UInt64.self, at: nil) }

    /// A value through a single-value container: decoded from the same value by its own
    /// `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoding.decode(T.self)
    }
}

/// The fields of an action object that the action's `init(from:)` asks about, container by
/// container: a member nothing asked about (`decode`, `decodeIfPresent`, `contains`, a nested
/// container, or `allKeys`, which asks about all) is a field the action does not have, and
/// dropping it silently would lose what the user wrote (`tagz` for `tags`).
final class FieldUse {
    /// What one keyed container asked. Containers over the same object (a class and its
    /// superclass each read their own fields) are told apart only when a member looks unasked,
    /// so that an action that decodes costs no path comparisons.
    private struct Entry {
        var path: [any CodingKey]
        var members: Value.Members
        var hiddenKey: String?
        var asked: [String] = []
        var askedAll = false
    }

    /// One keyed container's handle on its entry.
    struct Container {
        let use: FieldUse
        let entry: Int

        func ask(_ key: String) {
            if !use.entries[entry].askedAll { use.entries[entry].asked.append(key) }
        }

        func askAll() { use.entries[entry].askedAll = true }
    }

    private var entries: [Entry] = []

    /// The handle of a container over `members` at `path`.
    func container(at path: [any CodingKey], members: Value.Members, hiddenKey: String?) -> Container {
        entries.append(Entry(path: path, members: members, hiddenKey: hiddenKey))
        return Container(use: self, entry: entries.count - 1)
    }

    /// The first member nothing asked about, as an error at its path; `ignoring` a member of
    /// the top object (the `type` an action's mapping reads itself).
    func unaskedField(ignoring ignored: String? = nil) -> ValueCodingError? {
        for entry in entries where !entry.askedAll {
            for key in entry.members.keys.lazy.map(\.string) where key != entry.hiddenKey && !entry.asked.contains(key) {
                if entry.path.isEmpty && key == ignored { continue }
                // Another container over the same object may have asked for it.
                let names = ValueCodingError.names(entry.path)
                let sameObject = entries.filter { $0.path.count == entry.path.count && ValueCodingError.names($0.path) == names }
                if sameObject.contains(where: { $0.askedAll || $0.asked.contains(key) }) { continue }
                return ValueCodingError(path: names + [key],
                                        message: ValueCodingError.unknownField(key, fields: Self.distinct(sameObject.flatMap(\.asked))))
            }
        }
        return nil
    }

    /// `names` without repeats, in the order first met.
    private static func distinct(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}

/// An array whose elements a decoding with a memory matches one by one (see
/// `ValueDecoder.decode(_:from:memory:)`).
protocol ElementwiseDecodable {
    /// The array the decoding's current value encodes, made from `part`, the part of an array
    /// encoded last time in the same place: the elements whose encodings are the same bytes are
    /// taken over, the others decoded. `nil` when `part` is not one or the value is no array.
    static func decodeElementwise(from part: EncodedPart, with decoding: ValueDecoding) throws -> Any?
}

extension Array: ElementwiseDecodable where Element: Decodable & Equatable {
    static func decodeElementwise(from part: EncodedPart, with decoding: ValueDecoding) throws -> Any? {
        guard let part = part as? TypedEncodedPart<[Element]>, case .array(let old) = part.value, old.count == part.typed.count,
              case .array(let new) = decoding.value else { return nil }
        // The same bytes at both ends are the same elements; those between are paired by
        // position, and the rest inserted or removed, as `Value.changes(to:)` matches them.
        let (prefix, suffix) = new.withUnsafeBufferPointer { new in
            old.withUnsafeBufferPointer { old in _SameBytes.commonEnds(new, old) { _, _ in false } }
        }
        let oldMiddle = old.count - prefix - suffix, newMiddle = new.count - prefix - suffix
        let paired = Swift.min(oldMiddle, newMiddle)
        decoding.reuse = nil
        var result = part.typed
        for index in prefix..<(prefix + paired) where !_SameBytes.same(new[index], old[index]) {
            result[index] = try decoding.decode(Element.self, from: new[index], at: IndexKey(index))
        }
        let rest = prefix + paired
        if newMiddle > paired {
            var inserted: [Element] = []
            inserted.reserveCapacity(newMiddle - paired)
            for index in rest..<(prefix + newMiddle) {
                inserted.append(try decoding.decode(Element.self, from: new[index], at: IndexKey(index)))
            }
            result.insert(contentsOf: inserted, at: rest)
        } else if oldMiddle > paired {
            result.removeSubrange(rest..<(prefix + oldMiddle))
        }
        return result
    }
}
