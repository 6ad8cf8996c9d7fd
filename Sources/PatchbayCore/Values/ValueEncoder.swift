/// Encodes an `Encodable` value straight to a `Value`, without JSON text in between.
///
/// - A keyed container becomes an object whose keys come in the order they are encoded (for
///   synthesized `Codable`, the order of declaration); a `Dictionary` with `String` or `Int`
///   keys becomes an object too (the keys of an `Int`-keyed one as text), in the
///   dictionary's own order, as Swift's `Dictionary` encodes itself.
/// - An unkeyed container becomes an array.
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
/// encoded by the same encoder, with its key pushed on the coding path and its containers in
/// frames on a stack, so the only allocations are the values' own storage (and the box the
/// standard library puts around each keyed container).
final class ValueEncoding: Encoder {
    /// What a container is building.
    struct Frame {
        enum Kind { case object, array, single }
        var kind: Kind
        var members: Value.Members = [:]
        var elements: [Value] = []
        var single: Value?
        /// Members and elements still to come from nested containers and super encoders,
        /// filled in when the frame is finished.
        var pending: [Pending] = []
        /// Tells a frame from an earlier one at the same place, for containers used after
        /// their value was encoded.
        let serial: Int
    }

    struct Pending {
        enum Slot { case key(String), index(Int) }
        enum Source { case frame(Int), encoder(ValueEncoding) }
        let slot: Slot
        let source: Source
    }

    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private var frames: [Frame] = []
    /// The frame of the container of the value being encoded, once it asked for one.
    private var current: Int?
    private var nextSerial = 0
    /// An error met where no error can be thrown (asking for a second container of another
    /// kind): thrown when the value's `encode(to:)` returns.
    private var deferredError: ValueCodingError?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    // MARK: Values

    /// `value` encoded: a scalar directly, anything else through its `encode(to:)`.
    func value<T: Encodable>(of value: T) throws -> Value {
        if let scalar = try scalar(value) { return scalar }
        let saved = current
        let base = frames.count
        current = nil
        defer {
            current = saved
            if frames.count > base { frames.removeSubrange(base...) }
        }
        try value.encode(to: self)
        if let deferredError {
            self.deferredError = nil
            throw deferredError
        }
        guard let frame = current else { return .emptyObject }
        return finish(frame)
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

    @inline(__always)
    private static func reinterpret<T, U>(_ value: T) -> U {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
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

    // MARK: Frames

    private func pushFrame(_ kind: Frame.Kind) -> (index: Int, serial: Int) {
        nextSerial += 1
        frames.append(Frame(kind: kind, serial: nextSerial))
        return (frames.count - 1, nextSerial)
    }

    /// The frame of the current value's container of `kind`, made on the first request.
    private func currentFrame(_ kind: Frame.Kind) -> (index: Int, serial: Int) {
        if let current {
            if frames[current].kind != kind {
                deferredError = deferredError ?? ValueCodingError(path: ValueCodingError.names(codingPath), message: "asked for two kinds of containers for one value")
            }
            return (current, frames[current].serial)
        }
        let frame = pushFrame(kind)
        current = frame.index
        return frame
    }

    /// Whether the frame a container writes to is still there (its value is not finished).
    @inline(__always)
    func isLive(_ index: Int, _ serial: Int) -> Bool {
        index < frames.count && frames[index].serial == serial
    }

    func set(_ value: Value, forKey key: String, in frame: Int) {
        frames[frame].members[key] = value
    }

    func append(_ value: Value, in frame: Int) {
        frames[frame].elements.append(value)
    }

    func setSingle(_ value: Value, in frame: Int) {
        frames[frame].single = value
    }

    func count(in frame: Int) -> Int { frames[frame].elements.count }

    /// A new frame of `kind` whose value goes at `slot` of `parent` when `parent` is finished.
    func nestedFrame(_ kind: Frame.Kind, at slot: Pending.Slot, in parent: Int) -> (index: Int, serial: Int) {
        let frame = pushFrame(kind)
        reserve(slot, in: parent)
        frames[parent].pending.append(Pending(slot: slot, source: .frame(frame.index)))
        return frame
    }

    /// An encoder whose value goes at `slot` of `parent` when `parent` is finished.
    func superEncoder(at slot: Pending.Slot, key: any CodingKey, in parent: Int) -> ValueEncoding {
        let encoder = ValueEncoding(codingPath: codingPath + [key])
        reserve(slot, in: parent)
        frames[parent].pending.append(Pending(slot: slot, source: .encoder(encoder)))
        return encoder
    }

    /// Holds `slot`'s place (a key keeps its position; an element its index).
    private func reserve(_ slot: Pending.Slot, in parent: Int) {
        switch slot {
        case .key(let key): frames[parent].members[key] = .null
        case .index: frames[parent].elements.append(.null)
        }
    }

    /// The value the frame built, with its nested containers filled in.
    private func finish(_ index: Int) -> Value {
        let pending = frames[index].pending
        for item in pending {
            let value: Value
            switch item.source {
            case .frame(let nested): value = finish(nested)
            case .encoder(let encoder): value = encoder.result()
            }
            switch item.slot {
            case .key(let key): frames[index].members[key] = value
            case .index(let position): frames[index].elements[position] = value
            }
        }
        switch frames[index].kind {
        case .object: return .object(frames[index].members)
        case .array: return .array(frames[index].elements)
        case .single: return frames[index].single ?? .null
        }
    }

    /// What a super encoder was given: its container's value (an empty object when none).
    private func result() -> Value {
        guard let current else { return .emptyObject }
        return finish(current)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frame = currentFrame(.object)
        return KeyedEncodingContainer(KeyedValueEncodingContainer(encoding: self, frame: frame.index, serial: frame.serial, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let frame = currentFrame(.array)
        return UnkeyedValueEncodingContainer(encoding: self, frame: frame.index, serial: frame.serial, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        let frame = currentFrame(.single)
        return SingleValueEncodingContainer_(encoding: self, frame: frame.index, serial: frame.serial)
    }
}

private struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoding: ValueEncoding
    let frame: Int
    let serial: Int
    let codingPath: [any CodingKey]

    private func put(_ value: @autoclosure () throws -> Value, _ key: Key) rethrows {
        guard encoding.isLive(frame, serial) else { return }
        encoding.set(try value(), forKey: key.stringValue, in: frame)
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
        let nested = encoding.nestedFrame(.object, at: .key(key.stringValue), in: frame)
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(
            encoding: encoding, frame: nested.index, serial: nested.serial, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoding.nestedFrame(.array, at: .key(key.stringValue), in: frame)
        return UnkeyedValueEncodingContainer(encoding: encoding, frame: nested.index, serial: nested.serial, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        encoding.superEncoder(at: .key("super"), key: NameKey("super"), in: frame)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoding.superEncoder(at: .key(key.stringValue), key: key, in: frame)
    }
}

private struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoding: ValueEncoding
    let frame: Int
    let serial: Int
    let codingPath: [any CodingKey]

    var count: Int { encoding.isLive(frame, serial) ? encoding.count(in: frame) : 0 }

    private var nextKey: IndexKey { IndexKey(count) }

    private func put(_ value: @autoclosure () throws -> Value) rethrows {
        guard encoding.isLive(frame, serial) else { return }
        encoding.append(try value(), in: frame)
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
        let nested = encoding.nestedFrame(.object, at: .index(key.index), in: frame)
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(
            encoding: encoding, frame: nested.index, serial: nested.serial, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let nested = encoding.nestedFrame(.array, at: .index(key.index), in: frame)
        return UnkeyedValueEncodingContainer(encoding: encoding, frame: nested.index, serial: nested.serial, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return encoding.superEncoder(at: .index(key.index), key: key, in: frame)
    }
}

private struct SingleValueEncodingContainer_: SingleValueEncodingContainer {
    let encoding: ValueEncoding
    let frame: Int
    let serial: Int

    var codingPath: [any CodingKey] { encoding.codingPath }

    private func put(_ value: @autoclosure () throws -> Value) rethrows {
        guard encoding.isLive(frame, serial) else { return }
        encoding.setSingle(try value(), in: frame)
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
