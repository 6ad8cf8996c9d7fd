/// Encodes an `Encodable` value straight to a `Value`, without JSON text in between.
///
/// - A keyed container becomes an object whose keys come in the order they are encoded (for
///   synthesized `Codable`, the order of declaration).
/// - An unkeyed container becomes an array.
/// - Unordered collections come in one order, the same in every process (Swift's own is the
///   hash order, which differs from run to run and with the collection's capacity): a `Set`'s
///   elements, and the `[key, value, key, value...]` pairs of a `Dictionary` whose keys are
///   neither `String` nor `Int`, sorted by their values, by key for pairs: `null`, then bools
///   (`false` first), numbers (by magnitude), strings (as Swift's `<` orders them), arrays and
///   objects (element by element, an object's members in key order). A
///   `Dictionary` with `String` or `Int` keys becomes an object (the keys of an `Int`-keyed
///   one as text) with its keys sorted: `String`s as Swift's `<` orders them, `Int`s by
///   number.
/// - Integers become `.int` (a `UInt`/`UInt64` above `Int.max` is an error); `Float` and
///   `Double` become `.decimal` (a NaN or an infinity is an error naming where it is); `nil`
///   becomes `.null`, while an optional property that is `nil` leaves its key out, as
///   synthesized code does.
/// - A value that encodes nothing at all becomes an empty object.
///
/// ```swift
/// try ValueEncoder().encode(Todo(title: "milk", done: false))   // {title: "milk", done: false}
/// ```
public struct ValueEncoder {
    public init() {}

    /// What an encoder keeps of the last value it encoded with it: each part (a value that is
    /// not a string, number or bool) with its encoding. The next value encoded with the memory
    /// takes over, storage and all, the encoding of every `Equatable` part that is the same
    /// value as the one in the same place last time (the same bytes: the same storage and
    /// scalars, as a part an action left alone is), instead of encoding it again; an array of
    /// `Equatable` elements is compared element by element, with `==` where the bytes differ.
    ///
    /// That is what `Equatable` buys a state: after an action that changed one to-do of a
    /// hundred, only that to-do, and the containers on its way, are encoded again; and since
    /// the parts taken over are the same storage as before, comparing the old and new values
    /// (`Value.changes(to:)`) skips them without walking them. It relies on equal values
    /// encoding equally, as synthesized `Codable` does.
    public final class Memory {
        var root: EncodedPart?

        public init() {}

        /// A memory for values of `type` when it is `Equatable`; `nil` otherwise, since nothing
        /// of a value that is not could be taken over as a whole.
        public convenience init?(for type: Any.Type) {
            guard type is any Equatable.Type else { return nil }
            self.init()
        }
    }

    /// `value` as a `Value`, reusing the encodings of the parts `memory` holds that are equal to
    /// `value`'s, and keeping `value`'s parts in `memory` for the next time; without a memory,
    /// as `encode(_:)`.
    /// - Throws: as `encode(_:)` does; `memory` is then empty.
    public func encode<T: Encodable>(_ value: T, memory: Memory?) throws(ValueCodingError) -> Value {
        guard let memory else { return try encode(value) }
        let encoding = ValueEncoding(codingPath: [])
        encoding.reuse = (memory.root.map { [$0] } ?? [], 0, [])
        memory.root = nil
        do {
            let result = try encoding.value(of: value)
            memory.root = encoding.reuse?.made.first
            return result
        } catch {
            throw ValueCodingError.from(error)
        }
    }

    /// `value` encoded as `encode(_:memory:)` does, made from `previous` (which the caller gives
    /// up), with the changes from `previous` to it, as `previous.changes(to:)` gives them.
    ///
    /// When `previous` is what `memory` encoded last, an array of `Equatable` elements that
    /// changed is taken out of `previous` and changed in place: the elements that differ are
    /// encoded again, nothing else of the array is copied or compared as values, and its changes
    /// come from comparing the typed elements. So a hosted store's step on 100,000 items costs
    /// a comparison of the items and what changed, not a copy of the encoded state. (An array
    /// is taken only when `previous` holds, at its place, the very storage `memory` made for it;
    /// any other `previous` gives the same result and changes, by comparing the values.)
    /// - Throws: as `encode(_:)` does; `memory` is then empty, and `previous` may have lost the
    ///   arrays taken out of it.
    package func encode<T: Encodable>(_ value: T, memory: Memory?, replacing previous: consuming Value)
        throws(ValueCodingError) -> (value: Value, changes: [ValueChange])
    {
        guard let memory else {
            let result = try encode(value)
            return (result, previous.changes(to: result))
        }
        let replacement = Replacement(previous)
        let encoding = ValueEncoding(codingPath: [])
        encoding.reuse = (memory.root.map { [$0] } ?? [], 0, [])
        encoding.replacement = replacement
        memory.root = nil
        let result: Value
        do {
            result = try encoding.value(of: value)
        } catch {
            throw ValueCodingError.from(error)
        }
        memory.root = encoding.reuse?.made.first
        let changes = replacement.holes.isEmpty
            ? replacement.previous.changes(to: result) : replacement.previous.changes(to: result, holes: replacement.holes)
        return (result, changes)
    }

    /// `value` as a `Value`.
    /// - Throws: when a number cannot be a `Value` or the value's `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws(ValueCodingError) -> Value {
        let encoding = ValueEncoding(codingPath: [])
        do {
            return try encoding.value(of: value)
        } catch {
            throw ValueCodingError.from(error)
        }
    }
}

/// The encoder handed to `encode(to:)`. One instance encodes a whole value: a nested value is
/// encoded by the same encoder, with its key pushed on the coding path. Each container writes
/// into a `ContainerStorage`; the value's storage becomes its `Value` when its `encode(to:)`
/// returns.
final class ValueEncoding: Encoder {
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The storage of the container of the value being encoded, once it asked for one.
    private var current: ContainerStorage?
    /// The number of members the last object of each key type had: the next object of the
    /// type reserves that many at once, instead of growing its storage key by key (the todos
    /// of a list all have the same keys).
    private var sizes: [ObjectIdentifier: Int] = [:]
    /// An error met where no error can be thrown (asking for a second container of another
    /// kind): thrown when the value's `encode(to:)` returns.
    private var deferredError: ValueCodingError?
    /// With a memory (`ValueEncoder.Memory`): the parts of the last value in the container being
    /// encoded, in the order its non-scalar members came, how many of them this encoding has
    /// passed, and the parts it made (or took over) there so far. (A super encoder has none.)
    var reuse: (previous: [EncodedPart], next: Int, made: [EncodedPart])?
    /// With `ValueEncoder.encode(_:memory:replacing:)`: the value being replaced, out of which
    /// arrays are taken to be changed in place.
    var replacement: Replacement?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    // MARK: Values

    /// `value` encoded: a scalar directly, anything else through its `encode(to:)`, or, with a
    /// memory, as the part in the same place last time when that part is equal to it.
    func value<T: Encodable>(of value: T) throws -> Value {
        if let scalar = try scalar(value) { return scalar }
        guard var place = reuse else { return try encoded(value) }
        // Taken out while it changes, so that its arrays are not shared (and copied) meanwhile.
        reuse = nil
        let previous = place.next < place.previous.count ? place.previous[place.next] as? TypedEncodedPart<T> : nil
        place.next += 1
        // Whether the type is `Equatable`, looked up once: a part of the same type in the same
        // place knows it.
        let isEquatable = previous?.isEquatable ?? (T.self is any Equatable.Type)
        // The same bytes are the same value (the same storage and scalars), found without
        // walking it: an unchanged part is taken over at the cost of a few words, and a changed
        // one is not walked by `==` before its parts are (an array of 100,000 items compared once).
        if let previous, isEquatable, _SameBytes.same(value, previous.typed) {
            place.made.append(previous)
            reuse = place
            return previous.value
        }
        // An array of Equatable elements: compared element by element with the last one, only
        // the elements that differ encoded again.
        if let previous, let array = value as? any ElementwiseEncodable,
           let result = try array.encodeElementwise(changedFrom: previous, with: self) {
            place.made.append(TypedEncodedPart(typed: value, isEquatable: isEquatable, value: result, children: []))
            reuse = place
            return result
        }
        // Encoded again: the part's old value is no longer needed (its parts hold theirs), and
        // letting it go leaves an array changed in place below it unshared.
        previous?.value = .null
        reuse = (previous?.children ?? [], 0, [])
        let result: Value
        do { result = try encoded(value) } catch {
            reuse = nil
            throw error
        }
        place.made.append(TypedEncodedPart(typed: value, isEquatable: isEquatable, value: result, children: reuse?.made ?? []))
        reuse = place
        return result
    }

    /// `value` encoded through its `encode(to:)`.
    private func encoded<T: Encodable>(_ value: T) throws -> Value {
        let saved = current
        current = nil
        defer { current = saved }
        try value.encode(to: self)
        if let deferredError {
            self.deferredError = nil
            throw deferredError
        }
        guard let storage = current else { return .emptyObject }
        let result = finish(storage)
        // Only a container can be out of order, and only a set or a dictionary is.
        guard storage.kind != .single, let unordered = T.self as? any UnorderedEncodable.Type else { return result }
        return unordered.canonical(result)
    }

    /// `value` encoded under `key` of a container at `containerPath` (the path is pushed
    /// while it encodes).
    func value<T: Encodable>(of value: T, at key: any CodingKey, in containerPath: [any CodingKey]) throws -> Value {
        // A nested container's path is longer than the encoder's: use it while the value
        // encodes. (Otherwise the paths are the same, and the encoder's own array is pushed
        // on without a copy.)
        let saved = codingPath.count == containerPath.count ? nil : codingPath
        if saved != nil { codingPath = containerPath }
        codingPath.append(key)
        defer {
            if let saved { codingPath = saved } else { codingPath.removeLast() }
        }
        if let scalar = try scalar(value) { return scalar }
        return try self.value(of: value)
    }

    /// The object keys that lead from the root to the value being encoded, or `nil` when the
    /// way goes through an array (whose elements a replacement does not take out).
    private var keyPath: [String]? {
        var keys: [String] = []
        keys.reserveCapacity(codingPath.count)
        for key in codingPath {
            if key is IndexKey { return nil }
            keys.append(key.stringValue)
        }
        return keys
    }

    /// Takes the elements of the array `part` encoded last time out of the value being replaced,
    /// when it holds them at the place being encoded (then `part` lets them go too, so that
    /// nothing else need share them).
    /// - Returns: the keys of the place, when the elements were taken into `elements`.
    func takeReplaced(_ part: EncodedPart, into elements: inout [Value]) -> [String]? {
        guard let replacement, let keys = keyPath, case .array = part.value else { return nil }
        let path = keys.map(ValueChange.PathComponent.key)
        guard replacement.previous.value(at: path)?.sharesStorage(with: part.value) == true else { return nil }
        part.value = .null
        guard case .array(let taken)? = replacement.previous.take(at: path) else { return nil }
        elements = taken
        return keys
    }

    /// The value of a scalar of the standard library's types, or `nil` for another type.
    /// (Comparing metatypes costs next to nothing; a dynamic cast would cost far more.)
    @inline(__always)
    private func scalar<T: Encodable>(_ value: T) throws -> Value? {
        if T.self == String.self { return .string(Self.reinterpret(value)) }
        if T.self == Int.self { return .int(Self.reinterpret(value)) }
        if T.self == Bool.self { return .bool(Self.reinterpret(value)) }
        if T.self == Double.self { return try decimal(Self.reinterpret(value) as Double, at: codingPath) }
        return nil
    }

    /// `value` read as a `U`, which must be `T` itself (the callers have compared the types).
    @inline(__always)
    private static func reinterpret<T, U>(_ value: T) -> U {
        precondition(MemoryLayout<T>.size == MemoryLayout<U>.size, "reinterpret between types of different sizes")
        return withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
    }

    func decimal(_ double: Double, at path: @autoclosure () -> [any CodingKey]) throws(ValueCodingError) -> Value {
        guard double.isFinite else {
            throw ValueCodingError(path: ValueCodingError.names(path()), message: "\(double) is not a finite number")
        }
        return .decimal(double)
    }

    func decimal(_ float: Float, at path: @autoclosure () -> [any CodingKey]) throws(ValueCodingError) -> Value {
        guard float.isFinite else {
            throw ValueCodingError(path: ValueCodingError.names(path()), message: "\(float) is not a finite number")
        }
        // The shortest decimal that reads back as the float (0.1, not 0.10000000149011612),
        // as JSONEncoder writes it.
        return .decimal(Double(float.description) ?? Double(float))
    }

    func integer<I: FixedWidthInteger>(_ integer: I, at path: @autoclosure () -> [any CodingKey]) throws(ValueCodingError) -> Value {
        guard let int = Int(exactly: integer) else {
            throw ValueCodingError(path: ValueCodingError.names(path()), message: "\(integer) is above the largest integer, \(Int.max)")
        }
        return .int(int)
    }

    // MARK: Storage

    /// A new storage of `kind`; an object's reserves as many members as the last object of its
    /// key type had.
    func storage(_ kind: ContainerStorage.Kind, keyType: ObjectIdentifier? = nil) -> ContainerStorage {
        let storage = ContainerStorage(kind, keyType: keyType)
        if let keyType, let size = sizes[keyType] { storage.members.reserveCapacity(size) }
        return storage
    }

    /// The storage of the current value's container of `kind`, made on the first request.
    private func currentStorage(_ kind: ContainerStorage.Kind, keyType: ObjectIdentifier? = nil) -> ContainerStorage {
        if let current {
            if current.kind != kind {
                deferredError = deferredError ?? ValueCodingError(path: ValueCodingError.names(codingPath), message: "asked for two kinds of containers for one value")
            }
            return current
        }
        let made = storage(kind, keyType: keyType)
        current = made
        return made
    }

    /// An encoder whose value goes at `slot` of `parent` when `parent` is finished.
    func superEncoder(at slot: ContainerStorage.Slot, key: any CodingKey, in parent: ContainerStorage) -> ValueEncoding {
        let encoder = ValueEncoding(codingPath: codingPath + [key])
        parent.reserve(slot, for: .encoder(encoder))
        return encoder
    }

    /// The value `storage` built, with its nested containers filled in.
    private func finish(_ storage: ContainerStorage) -> Value {
        for item in storage.pending {
            let value: Value
            switch item.source {
            case .storage(let nested): value = finish(nested)
            case .encoder(let encoder): value = encoder.result()
            }
            switch item.slot {
            case .key(let key): storage.members[key] = value
            case .index(let position): storage.elements[position] = value
            }
        }
        switch storage.kind {
        case .object:
            if let keyType = storage.keyType { sizes[keyType] = storage.members.count }
            return .object(storage.members)
        case .array:
            return .array(storage.elements)
        case .single:
            return storage.single ?? .null
        }
    }

    /// What a super encoder was given: its container's value (an empty object when none).
    private func result() -> Value {
        guard let current else { return .emptyObject }
        return finish(current)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedValueEncodingContainer(
            encoding: self, storage: currentStorage(.object, keyType: ObjectIdentifier(Key.self)), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedValueEncodingContainer(encoding: self, storage: currentStorage(.array), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncodingContainer_(encoding: self, storage: currentStorage(.single))
    }
}

/// What a container builds: an object's members, an array's elements or a single value, and
/// the places its nested containers fill when it is finished. (A class: a container is
/// copied around by value, and all copies write to the same storage.)
final class ContainerStorage {
    enum Kind { case object, array, single }
    enum Slot { case key(String), index(Int) }
    enum Source { case storage(ContainerStorage), encoder(ValueEncoding) }

    let kind: Kind
    /// The key type of an object's container, under which its size is remembered.
    let keyType: ObjectIdentifier?
    var members: Value.Members = [:]
    var elements: [Value] = []
    var single: Value?
    /// Members and elements still to come from nested containers and super encoders.
    var pending: [(slot: Slot, source: Source)] = []

    init(_ kind: Kind, keyType: ObjectIdentifier?) {
        self.kind = kind
        self.keyType = keyType
    }

    /// Holds `slot`'s place for `source` (a key keeps its position; an element its index).
    func reserve(_ slot: Slot, for source: Source) {
        switch slot {
        case .key(let key): members[key] = .null
        case .index: elements.append(.null)
        }
        pending.append((slot, source))
    }
}

private struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoding: ValueEncoding
    let storage: ContainerStorage
    let codingPath: [any CodingKey]

    private func put(_ value: @autoclosure () throws -> Value, _ key: Key) rethrows {
        storage.members[key.stringValue] = try value()
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(try encoding.decimal(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(try encoding.decimal(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(try encoding.integer(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(try encoding.integer(value, at: codingPath + [key]), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try put(try encoding.value(of: value, at: key, in: codingPath), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoding.storage(.object, keyType: ObjectIdentifier(NestedKey.self))
        storage.reserve(.key(key.stringValue), for: .storage(nested))
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoding: encoding, storage: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoding.storage(.array)
        storage.reserve(.key(key.stringValue), for: .storage(nested))
        return UnkeyedValueEncodingContainer(encoding: encoding, storage: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        encoding.superEncoder(at: .key("super"), key: NameKey("super"), in: storage)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoding.superEncoder(at: .key(key.stringValue), key: key, in: storage)
    }
}

private struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoding: ValueEncoding
    let storage: ContainerStorage
    let codingPath: [any CodingKey]

    var count: Int { storage.elements.count }

    private var nextKey: IndexKey { IndexKey(count) }

    private func put(_ value: @autoclosure () throws -> Value) rethrows {
        storage.elements.append(try value())
    }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { try put(try encoding.decimal(value, at: codingPath + [nextKey])) }
    mutating func encode(_ value: Float) throws { try put(try encoding.decimal(value, at: codingPath + [nextKey])) }
    mutating func encode(_ value: Int) throws { put(.int(value)) }
    mutating func encode(_ value: Int8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { try put(try encoding.integer(value, at: codingPath + [nextKey])) }
    mutating func encode(_ value: UInt8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { try put(try encoding.integer(value, at: codingPath + [nextKey])) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try put(try encoding.value(of: value, at: nextKey, in: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        let nested = encoding.storage(.object, keyType: ObjectIdentifier(NestedKey.self))
        storage.reserve(.index(key.index), for: .storage(nested))
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoding: encoding, storage: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let nested = encoding.storage(.array)
        storage.reserve(.index(key.index), for: .storage(nested))
        return UnkeyedValueEncodingContainer(encoding: encoding, storage: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return encoding.superEncoder(at: .index(key.index), key: key, in: storage)
    }
}

private struct SingleValueEncodingContainer_: SingleValueEncodingContainer {
    let encoding: ValueEncoding
    let storage: ContainerStorage

    var codingPath: [any CodingKey] { encoding.codingPath }

    private func put(_ value: @autoclosure () throws -> Value) rethrows {
        storage.single = try value()
    }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { try put(try encoding.decimal(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { try put(try encoding.decimal(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { put(.int(value)) }
    mutating func encode(_ value: Int8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { try put(try encoding.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { try put(try encoding.integer(value, at: codingPath)) }

    /// A value through a single-value container: encoded by its own `encode(to:)` with this
    /// encoder (its containers then belong to the value that asked for this one).
    mutating func encode<T: Encodable>(_ value: T) throws {
        try put(try encoding.value(of: value))
    }
}

/// A part of a value encoded with a `ValueEncoder.Memory`: its encoding, and its own parts in
/// the order it encoded them. (Always a `TypedEncodedPart`, which holds the typed value.)
class EncodedPart {
    var value: Value
    let children: [EncodedPart]

    init(value: Value, children: [EncodedPart]) {
        self.value = value
        self.children = children
    }
}

/// An encoded part with its typed value, and whether its type is `Equatable` (only such a
/// part is taken over), so that the next encoding in the same place need not look it up again.
final class TypedEncodedPart<T>: EncodedPart {
    let typed: T
    let isEquatable: Bool

    init(typed: T, isEquatable: Bool, value: Value, children: [EncodedPart]) {
        self.typed = typed
        self.isEquatable = isEquatable
        super.init(value: value, children: children)
    }
}

extension Value {
    /// The number of elements of an array; `nil` for anything else.
    fileprivate var arrayCount: Int? {
        if case .array(let elements) = self { return elements.count }
        return nil
    }
}

/// The value `ValueEncoder.encode(_:memory:replacing:)` replaces: the arrays changed in place are
/// taken out of it (`.null` is left at their places), with their changes by key path.
final class Replacement {
    var previous: Value
    var holes: [[String]: [ValueChange]] = [:]

    init(_ previous: consuming Value) {
        self.previous = previous
    }
}

/// An array whose elements a memory compares one by one (see `ValueEncoder.Memory`): the
/// elements equal to those at the same places last time keep their encodings, so an action that
/// changed one element of 100,000 encodes that element, and compares the others with `==`.
protocol ElementwiseEncodable {
    /// The array encoded, from `previous`, the part of the array encoded last time in the same
    /// place; `nil` when `previous` is not one (the array is then encoded as usual).
    func encodeElementwise(changedFrom previous: EncodedPart, with encoding: ValueEncoding) throws -> Value?
}

extension Array: ElementwiseEncodable where Element: Encodable & Equatable {
    /// The elements are matched as `Value.changes(to:)` matches those of two arrays: the equal
    /// ones at the start and at the end are kept, those between them are paired by position
    /// and the rest inserted or removed. Only the elements paired and different, and those
    /// inserted, are encoded. With a replacement (see `ValueEncoder.encode(_:memory:replacing:)`),
    /// the old elements change in place and the changes are noted.
    func encodeElementwise(changedFrom previous: EncodedPart, with encoding: ValueEncoding) throws -> Value? {
        guard let previous = previous as? TypedEncodedPart<[Element]>, previous.value.arrayCount == previous.typed.count else { return nil }
        let old = previous.typed
        // Bound to no local first: a copy of the elements kept here would make them shared.
        var elements: [Value] = []
        let keys = encoding.takeReplaced(previous, into: &elements)
        if keys == nil {
            guard case .array(let last) = previous.value else { return nil }
            elements = last
        }
        // Equal bytes are the same element (the same values, the same storage), so its encoding
        // is the same; other elements are compared with `==`.
        let (prefix, suffix) = withUnsafeBufferPointer { new in
            old.withUnsafeBufferPointer { old in _SameBytes.commonEnds(new, old) { new[$0] == old[$1] } }
        }
        let oldMiddle = old.count - prefix - suffix, newMiddle = count - prefix - suffix
        let paired = Swift.min(oldMiddle, newMiddle)
        let path = encoding.codingPath
        let valuePath = keys.map { $0.map(ValueChange.PathComponent.key) } ?? []
        var changes: [ValueChange] = []
        for index in prefix..<(prefix + paired) where self[index] != old[index] {
            let new = try encoding.value(of: self[index], at: IndexKey(index), in: path)
            if keys != nil { Value.diff(elements[index], new, path: valuePath + [.index(index)], into: &changes) }
            elements[index] = new
        }
        let rest = prefix + paired
        if newMiddle > paired {
            var inserted: [Value] = []
            inserted.reserveCapacity(newMiddle - paired)
            for index in rest..<(prefix + newMiddle) {
                let new = try encoding.value(of: self[index], at: IndexKey(index), in: path)
                if keys != nil { changes.append(ValueChange(path: valuePath + [.index(index)], operation: .add, old: nil, new: new)) }
                inserted.append(new)
            }
            elements.insert(contentsOf: inserted, at: rest)
        } else if oldMiddle > paired {
            if keys != nil {
                for index in (rest..<(prefix + oldMiddle)).reversed() {
                    changes.append(ValueChange(path: valuePath + [.index(index)], operation: .remove, old: elements[index], new: nil))
                }
            }
            elements.removeSubrange(rest..<(prefix + oldMiddle))
        }
        if let keys { encoding.replacement?.holes[keys] = changes }
        return .array(elements)
    }
}

/// A collection whose `encode(to:)` writes its contents in its hash order: `ValueEncoder` puts
/// them in the canonical order instead (see `ValueEncoder`), so that equal collections encode
/// equally in every process.
protocol UnorderedEncodable {
    /// `encoded`, what the collection's `encode(to:)` made, in the canonical order.
    static func canonical(_ encoded: Value) -> Value
}

extension Set: UnorderedEncodable where Element: Encodable {
    static func canonical(_ encoded: Value) -> Value {
        guard case .array(let elements) = encoded else { return encoded }
        return Value.canonicalSet(elements)
    }
}

extension Dictionary: UnorderedEncodable where Key: Encodable, Value: Encodable {
    static func canonical(_ encoded: PatchbayCore.Value) -> PatchbayCore.Value {
        PatchbayCore.Value.canonicalDictionary(encoded, intKeys: Key.self == Int.self)
    }
}
