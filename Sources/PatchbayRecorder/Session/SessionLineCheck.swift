#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PatchbayCore

/// Tells, without building any value, that a line is an event line (other than a command) as
/// `SessionEvent.line(seq:)` writes it: its fields in that order, without spaces, and every
/// value one that `JSONReader` reads. Such a line reads into an event without error, so a
/// replay can keep its bytes instead of its event. A command line in that form gives its text
/// as the reader would, without a reader.
///
/// The check is cautious: `nil` means "not sure", not "damaged". It gives up on anything
/// outside the writer's form (spaces, another order, unknown fields, a `\r` before the line
/// break) and on the rarer parts of JSON whose reading has more rules: `\u` escapes, numbers
/// too long to be plainly in range, nesting near `Value.maxDepth`. The full reader then decides.
struct SessionLineCheck {
    private let line: UnsafeBufferPointer<UInt8>
    private var position = 0

    /// The `seq` of `line` when it is an event line other than a command, in the writer's form;
    /// otherwise `nil`.
    static func seq(ofEffect line: UnsafeBufferPointer<UInt8>) -> Int? {
        var check = SessionLineCheck(line: line)
        return check.effect()
    }

    /// The text of `line` when it is a command line in the writer's form; otherwise `nil`.
    static func text(ofCommand line: UnsafeBufferPointer<UInt8>) -> String? {
        var check = SessionLineCheck(line: line)
        guard check.literal(#"{"seq":"#), check.integer() != nil, check.literal(#","kind":"command","text":""#) else { return nil }
        let start = check.position
        guard check.stringContent(), check.literal(#""}"#), check.position == line.count else { return nil }
        return unescaped(UnsafeBufferPointer(rebasing: line[start..<(check.position - 2)]))
    }

    private init(line: UnsafeBufferPointer<UInt8>) {
        self.line = line
    }

    /// The text of string content that `stringContent()` accepted.
    private static func unescaped(_ content: UnsafeBufferPointer<UInt8>) -> String {
        guard content.contains(UInt8(ascii: "\\")) else { return String(decoding: content, as: UTF8.self) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: content.count) { text in
            var count = 0
            var index = 0
            while index < content.count {
                var byte = content[index]
                index += 1
                if byte == UInt8(ascii: "\\") {
                    switch content[index] {
                    case UInt8(ascii: "b"): byte = 0x08
                    case UInt8(ascii: "f"): byte = 0x0C
                    case UInt8(ascii: "n"): byte = 0x0A
                    case UInt8(ascii: "r"): byte = 0x0D
                    case UInt8(ascii: "t"): byte = 0x09
                    case let escaped: byte = escaped
                    }
                    index += 1
                }
                text[count] = byte
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: text[..<count]), as: UTF8.self)
        }
    }

    private mutating func effect() -> Int? {
        guard literal(#"{"seq":"#), let seq = integer(), literal(#","kind":""#), let kind = kindName(), fields(of: kind),
              literal("}"), position == line.count
        else { return nil }
        return seq
    }

    /// The kinds whose fields the check knows.
    private enum Kind {
        case store, action, checkpoint, publish, route, error, jump, skip, reset, checkout, sweep
    }

    /// Reads the kind's name and its closing quote.
    private mutating func kindName() -> Kind? {
        let start = position
        while position < line.count, line[position] != UInt8(ascii: "\"") { position += 1 }
        guard position < line.count else { return nil }
        let name = UnsafeBufferPointer(rebasing: line[start..<position])
        position += 1
        switch name.count {
        case 4: return name.matches("jump") ? .jump : name.matches("skip") ? .skip : nil
        case 5: return name.matches("store") ? .store : name.matches("route") ? .route : name.matches("error") ? .error
            : name.matches("reset") ? .reset : name.matches("sweep") ? .sweep : nil
        case 6: return name.matches("action") ? .action : nil
        case 7: return name.matches("publish") ? .publish : nil
        case 8: return name.matches("checkout") ? .checkout : nil
        case 10: return name.matches("checkpoint") ? .checkpoint : nil
        default: return nil
        }
    }

    /// The fields after `kind`, as `SessionEvent.encode(seq:into:)` writes them.
    private mutating func fields(of kind: Kind) -> Bool {
        switch kind {
        case .store:
            return literal(#","store":"#) && string() && literal(#","state":"#) && value()
        case .action:
            guard literal(#","store":"#), string(), literal(#","index":"#), integer() != nil, literal(#","action":"#), value(),
                  literal(#","patch":["#), operations(), literal("]")
            else { return false }
            if literal(#","hash":""#) {
                guard hexDigits(16), literal(#"""#) else { return false }
            }
            if literal(#","failed":"#), !string() { return false }
            if literal(#","cause":"#), integer() == nil { return false }
            if literal(#","reducer":"#), !string() { return false }
            return true
        case .checkpoint:
            return literal(#","store":"#) && string() && literal(#","index":"#) && integer() != nil && literal(#","state":"#) && value()
        case .publish:
            return literal(#","port":"#) && string() && literal(#","value":"#) && value()
        case .route:
            guard literal(#","url":"#), string(), literal(#","pattern":"#), string(), literal(#","params":"#),
                  current == UInt8(ascii: "{"), value()
            else { return false }
            if literal(#","view":"#), !string() { return false }
            if literal(#","option":"#), !string() { return false }
            return true
        case .error:
            return literal(#","text":"#) && string() && literal(#","message":"#) && string()
        case .jump:
            return literal(#","store":"#) && string() && literal(#","index":"#) && integer() != nil
        case .skip:
            return literal(#","store":"#) && string() && literal(#","index":"#) && integer() != nil
                && (literal(#","skipped":true"#) || literal(#","skipped":false"#))
        case .reset:
            return literal(#","store":"#) && string() && literal(#","state":"#) && value()
        case .checkout:
            return literal(#","store":"#) && string() && literal(#","branch":"#) && string()
        case .sweep:
            return literal(#","store":"#) && string()
        }
    }

    /// The operations of a patch, up to its closing `]`: `{"op":"replace","path":"/a","value":1},...`.
    private mutating func operations() -> Bool {
        guard current != UInt8(ascii: "]") else { return true }
        while true {
            if literal(#"{"op":"remove","path":""#) {
                guard pointer(), literal(#""}"#) else { return false }
            } else if literal(#"{"op":"replace","path":""#) || literal(#"{"op":"add","path":""#) {
                guard pointer(), literal(#"","value":"#), value(), literal("}") else { return false }
            } else {
                return false
            }
            guard literal(",") else { return true }
        }
    }

    /// A JSON Pointer inside a string, up to its closing quote (not read): empty or from `/`,
    /// with `~` only as `~0` or `~1`.
    private mutating func pointer() -> Bool {
        guard current == UInt8(ascii: "/") || current == UInt8(ascii: "\"") else { return false }
        let start = position
        guard stringContent() else { return false }
        var index = start
        while index < position {
            if line[index] == UInt8(ascii: "~") {
                guard index + 1 < position, line[index + 1] == UInt8(ascii: "0") || line[index + 1] == UInt8(ascii: "1") else { return false }
            }
            index += 1
        }
        return true
    }

    // MARK: JSON

    /// Any JSON value, without spaces.
    private mutating func value(depth: Int = 0) -> Bool {
        switch current {
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return false
        }
    }

    /// Well within `Value.maxDepth`: a value may be read as part of a larger one (a patch read
    /// whole), a level or two deeper than here.
    private static let depthLimit = Value.maxDepth - 8

    private mutating func object(depth: Int) -> Bool {
        guard depth <= Self.depthLimit else { return false }
        position += 1
        if literal("}") { return true }
        while true {
            guard current == UInt8(ascii: "\""), string(), literal(":"), value(depth: depth) else { return false }
            if literal("}") { return true }
            guard literal(",") else { return false }
        }
    }

    private mutating func array(depth: Int) -> Bool {
        guard depth <= Self.depthLimit else { return false }
        position += 1
        if literal("]") { return true }
        while true {
            guard value(depth: depth) else { return false }
            if literal("]") { return true }
            guard literal(",") else { return false }
        }
    }

    /// A string with its quotes.
    private mutating func string() -> Bool {
        guard literal(#"""#), stringContent() else { return false }
        position += 1
        return true
    }

    /// The content of a string, up to its closing quote (not read): no control characters,
    /// escapes other than `\u`, valid UTF-8.
    private mutating func stringContent() -> Bool {
        // The bytes between escapes are checked as UTF-8 alone: an escape stands for whole
        // characters, so they are valid apart when they are valid together.
        var start = position
        var highBits: UInt8 = 0
        while position < line.count {
            let byte = line[position]
            if byte == UInt8(ascii: "\\"), position + 1 < line.count {
                switch line[position + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    guard highBits < 0x80 || Self.isValidUTF8(UnsafeBufferPointer(rebasing: line[start..<position])) else { return false }
                    position += 2
                    start = position
                    highBits = 0
                    continue
                default:
                    return false
                }
            }
            if byte == UInt8(ascii: "\"") {
                return highBits < 0x80 || Self.isValidUTF8(UnsafeBufferPointer(rebasing: line[start..<position]))
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return false }
            highBits |= byte
            position += 1
        }
        return false
    }

    /// Whether `bytes` are valid UTF-8, as `String(validating:)` wants them.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// An integer of at most 18 digits, which always fits: `-?(0|[1-9][0-9]*)`.
    private mutating func integer() -> Int? {
        let negative = literal("-")
        guard let first = digit() else { return nil }
        var value = first
        if first != 0 {
            var count = 1
            while let next = digit() {
                count += 1
                guard count <= 18 else { return nil }
                value = value * 10 + next
            }
        }
        return negative ? -value : value
    }

    /// A number: an integer, then perhaps a fraction and an exponent of at most 2 digits, so that
    /// a decimal is always finite.
    private mutating func number() -> Bool {
        guard integer() != nil else { return false }
        if literal(".") {
            guard digit() != nil else { return false }
            while digit() != nil {}
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digit() != nil else { return false }
            var count = 1
            while digit() != nil {
                count += 1
                guard count <= 2 else { return false }
            }
        }
        return true
    }

    private mutating func digit() -> Int? {
        guard position < line.count else { return nil }
        let digit = line[position] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        position += 1
        return Int(digit)
    }

    private mutating func hexDigits(_ count: Int) -> Bool {
        guard position + count <= line.count else { return false }
        for byte in line[position..<(position + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else {
                return false
            }
        }
        position += count
        return true
    }

    /// Reads `text` when the line goes on with it; otherwise reads nothing.
    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= line.count, memcmp(line.baseAddress! + position, text.utf8Start, count) == 0 else { return false }
        position += count
        return true
    }

    private var current: UInt8 {
        position < line.count ? line[position] : 0
    }
}
