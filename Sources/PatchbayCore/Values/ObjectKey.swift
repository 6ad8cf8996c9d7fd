public import OrderedCollections

/// The key of an object's member: a string compared by its Unicode scalars, as JSON compares
/// keys.
///
/// Swift's `String` compares by canonical equivalence, so `"é"` (U+00E9) and `"e\u{301}"`
/// (`e` and a combining acute accent) are one `String` key; in JSON they are two keys, and an
/// object may hold both. An `ObjectKey` tells them apart: equal, hashed and ordered by the
/// UTF-8 bytes of its string (an order that is the order of the scalars), never normalised.
///
/// ```swift
/// let object: Value = .object(["é": 1, "e\u{301}": 2])
/// object["é"]           // .int(1)
/// object["e\u{301}"]    // .int(2)
/// ```
public struct ObjectKey: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key's text, exactly as it was given.
    public var string: String

    /// The key whose text is `string`, scalar for scalar.
    @inlinable public init(_ string: String) { self.string = string }

    @inlinable public init(stringLiteral value: String) { self.string = value }

    /// The key's text.
    public var description: String { string }

    /// Whether the two keys have the same scalars (not whether their strings are canonically
    /// equivalent, as `String`'s `==` says).
    @inlinable public static func == (lhs: ObjectKey, rhs: ObjectKey) -> Bool {
        Self.same(lhs.string, rhs.string)
    }

    /// Whether `a` and `b` have the same Unicode scalars: the same UTF-8 bytes.
    @inlinable public static func same(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && x.elementsEqual(y) } }
    }

    /// Whether the scalars of `a` come before those of `b` (UTF-8 order is scalar order).
    @inlinable public static func < (lhs: ObjectKey, rhs: ObjectKey) -> Bool {
        var a = lhs.string, b = rhs.string
        return a.withUTF8 { x in b.withUTF8 { y in x.lexicographicallyPrecedes(y) } }
    }

    @inlinable public func hash(into hasher: inout Hasher) {
        var text = string
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension OrderedDictionary where Key == ObjectKey {
    /// The value of the member whose key has the scalars of `key`.
    @inlinable public subscript(key: String) -> Value? {
        get { self[ObjectKey(key)] }
        set { self[ObjectKey(key)] = newValue }
        _modify { yield &self[ObjectKey(key)] }
    }

    /// The position of the member whose key has the scalars of `key`.
    @inlinable public func index(forKey key: String) -> Int? {
        index(forKey: ObjectKey(key))
    }

    /// Removes the member whose key has the scalars of `key`; returns its value.
    @inlinable @discardableResult public mutating func removeValue(forKey key: String) -> Value? {
        removeValue(forKey: ObjectKey(key))
    }

    /// Sets the member `key` (its place kept, or at the end); returns the value it had.
    @inlinable @discardableResult public mutating func updateValue(_ value: Value, forKey key: String) -> Value? {
        updateValue(value, forKey: ObjectKey(key))
    }
}
