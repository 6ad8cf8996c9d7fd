@_spi(Shell) public import PatchbayCore

/// Random values for the property tests of the session format, the patch and the digest.
public struct ValueGenerator {
    public var random: SplitMix64
    /// How many action events `event()` made: each is of a store of its own, so that a
    /// sequence of random events stays one a reader takes (an action follows its store's step).
    public var actionCount = 0

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    public static let keys = ["a", "b", "count", "name", "items", "a/b", "~x", "", "é", "q\"", "line\nbreak", "0", "12"]
    public static let strings = ["", "x", "Max", "tab\there", "quote\"", "back\\slash", "\u{01}", "\u{7F}", "😀 émoji", "/~0~1"]

    public mutating func int(_ range: Range<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    public mutating func scalar() -> Value {
        switch int(0..<9) {
        case 0: return .null
        case 1: return .bool(int(0..<2) == 0)
        case 2: return .int(int(-1000..<1000))
        case 3: return [.int(Int.min), .int(Int.max), .int(0), .int(-1)][int(0..<4)]
        case 4: return [.decimal(1.0), .decimal(-0.5), .decimal(0.1), .decimal(1e300), .decimal(-2.5e-8), .decimal(-0.0),
                         .decimal(.greatestFiniteMagnitude), .decimal(.leastNonzeroMagnitude), .decimal(9007199254740992)][int(0..<9)]
        case 5: return .decimal(Double(int(-100..<100)) / 8)
        default: return .string(Self.strings[int(0..<Self.strings.count)])
        }
    }

    public mutating func value(depth: Int = 3) -> Value {
        guard depth > 0, int(0..<3) != 0 else { return scalar() }
        if int(0..<2) == 0 {
            return .array((0..<int(0..<5)).map { _ in value(depth: depth - 1) })
        }
        var members = Value.Members()
        for _ in 0..<int(0..<5) {
            members[Self.keys[int(0..<Self.keys.count)]] = value(depth: depth - 1)
        }
        return .object(members)
    }
}

extension ValueGenerator {
    public static let names = ["app", "todo list", "ünï", "a\"b", "x/y~z"]

    public mutating func name() -> String {
        Self.names[int(0..<Self.names.count)]
    }
}

extension Value {
    /// Whether two values are the same down to the kind of every number.
    public static func isSameKind(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): x == y
        case (.decimal(let x), .decimal(let y)): x == y
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { isSameKind($0, $1) }
        case (.object(let x), .object(let y)):
            x.count == y.count && x.allSatisfy { key, value in y[key].map { isSameKind(value, $0) } ?? false }
        default: a.typeName == b.typeName && a == b
        }
    }
}

/// The text of `bytes`, for comparing written lines.
public func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}
