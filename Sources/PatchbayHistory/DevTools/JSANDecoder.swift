@_spi(Shell) import PatchbayCore

/// Reads what jsan (the JSON writer Redux DevTools uses when plain `JSON.stringify` fails or a
/// store asks for `serialize`) writes on top of JSON, into plain values:
///
/// - `{"$jsan": "$.path"}`, a second reference to an object or array written before at
///   `$.path`, becomes a copy of it; a reference to an object that holds it (a cycle, which a
///   value cannot hold) becomes the string `"[CIRCULAR]"`, as Redux DevTools itself writes cycles
///   when it falls back to jsan.
/// - `{"$jsan": "d<ms>"}`, a `Date`, becomes its ISO 8601 text, as `JSON.stringify` writes a date
///   (`"2026-11-21T10:00:00.000Z"`); an invalid date becomes `null`.
/// - `{"$jsan": "u"}`, `undefined`, leaves its key out of an object and is `null` in an array, as
///   `JSON.stringify` does.
/// - NaN and ±Infinity become `null`; a regular expression, function, error or symbol becomes
///   its text; a `Map` becomes an array of `[key, value]` pairs and a `Set` an array.
/// - A member named `$jsan` (which jsan wraps in an array) is read back.
///
/// Expanding references cannot make a value of more than `maximumValues` values (or nest
/// deeper than `Value.maxDepth`): a file whose references multiply is refused.
package struct JSANDecoder {
    /// The most values a decoded value may hold, counting each copy a reference makes.
    package static let maximumValues = 20_000_000

    /// The whole document: references are paths from its root.
    private let root: Value
    /// Values decoded at a path, by the path's text, with how many values each holds.
    private var decoded: [String: (value: Value, count: Int)] = [:]
    private var count = 0
    private var depth = 0

    init(root: Value) {
        self.root = root
    }

    /// Decodes a whole document.
    static func decode(_ value: Value) throws(DevToolsError) -> Value? {
        var decoder = JSANDecoder(root: value)
        return try decoder.value(at: [])
    }

    /// The decoded value at `path` (keys and indexes from the root); `nil` when nothing is
    /// there or it is `undefined`.
    mutating func value(at path: [PathStep]) throws(DevToolsError) -> Value? {
        guard let raw = Self.raw(root, at: path) else { return nil }
        var positions = [path]
        return try decode(raw, at: path, holders: &positions)
    }

    /// One step of a jsan path: a member or an element.
    enum PathStep: Hashable {
        case key(String)
        case index(Int)
    }

    /// Decodes `raw`, found at `path`; `holders` lists the paths of the values being decoded
    /// that hold it (and those a followed reference started from), for telling cycles.
    private mutating func decode(_ raw: Value, at path: [PathStep], holders: inout [[PathStep]]) throws(DevToolsError) -> Value? {
        count += 1
        guard count <= Self.maximumValues else { throw .jsan("its references expand to more than \(Self.maximumValues) values") }
        switch raw {
        case .object(let members):
            if case .string(let tag)? = members["$jsan"] { return try special(tag, at: path, holders: &holders) }
            depth += 1
            defer { depth -= 1 }
            guard depth <= Value.maxDepth else { throw .jsan("its references nest more than \(Value.maxDepth) levels deep") }
            var result = Value.Members(minimumCapacity: members.count)
            for (key, member) in members {
                var member = member
                // jsan wraps a member called `$jsan` in an array, so that it does not read as a tag.
                if key == "$jsan", case .array(let wrapped) = member, let first = wrapped.first { member = first }
                if let value = try decode(member, at: path + [.key(key.string)], holders: &holders) { result[key] = value }
            }
            return .object(result)
        case .array(let elements):
            depth += 1
            defer { depth -= 1 }
            guard depth <= Value.maxDepth else { throw .jsan("its references nest more than \(Value.maxDepth) levels deep") }
            var result: [Value] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                result.append(try decode(element, at: path + [.index(index)], holders: &holders) ?? .null)
            }
            return .array(result)
        default:
            return raw
        }
    }

    /// The value a `{"$jsan": tag}` stands for.
    private mutating func special(_ tag: String, at path: [PathStep], holders: inout [[PathStep]]) throws(DevToolsError) -> Value? {
        guard let kind = tag.first else { throw .jsan("an empty \"$jsan\" tag at \(Self.text(path))") }
        let rest = String(tag.dropFirst())
        switch kind {
        case "$":
            guard let target = Self.path(tag) else { throw .jsan("\"\(tag)\" at \(Self.text(path)) is not a path") }
            // A reference to a value that holds this place is a cycle.
            if holders.contains(where: { $0.starts(with: target) }) || path.starts(with: target) { return "[CIRCULAR]" }
            let key = Self.text(target)
            if let known = decoded[key] {
                count += known.count
                guard count <= Self.maximumValues else { throw .jsan("its references expand to more than \(Self.maximumValues) values") }
                return known.value
            }
            guard let raw = Self.raw(root, at: target) else {
                throw .jsan("the reference \"\(tag)\" at \(Self.text(path)) points to nothing in the file")
            }
            holders.append(path)
            defer { holders.removeLast() }
            let before = count
            let value = try decode(raw, at: target, holders: &holders)
            // A copy that met no cycle reads the same from anywhere: keep it for the next reference.
            if let value, !Self.holdsCircular(value) { decoded[key] = (value, count - before) }
            return value
        case "d":
            return Double(rest).flatMap { Self.isoText(milliseconds: $0) }.map(Value.string) ?? .null
        case "u", "n", "i", "y":
            return kind == "u" ? nil : .null
        case "r":
            // `r<flags>,<source>`: the text JavaScript shows, `/source/flags`.
            guard let comma = rest.firstIndex(of: ",") else { return .string(rest) }
            return .string("/\(rest[rest.index(after: comma)...])/\(rest[..<comma])")
        case "f", "e":
            return .string(rest)
        case "s", "g":
            return .string("Symbol(\(rest))")
        case "m", "l":
            // A Map's entries or a Set's members, jsan-encoded once more as a string of JSON.
            let inner: Value
            do { inner = try JSONReader.parse(rest) } catch {
                throw .jsan("the \(kind == "m" ? "Map" : "Set") at \(Self.text(path)) is not JSON: \(error)")
            }
            return try Self.decode(inner) ?? .array([])
        default:
            throw .jsan("unknown \"$jsan\" tag \"\(tag.prefix(20))\" at \(Self.text(path))")
        }
    }

    private static func holdsCircular(_ value: Value) -> Bool {
        switch value {
        case .string(let text): text == "[CIRCULAR]"
        case .array(let elements): elements.contains(where: holdsCircular)
        case .object(let members): members.values.contains(where: holdsCircular)
        default: false
        }
    }

    /// The raw value at `path`, reading through the array jsan wraps a `$jsan` member in.
    static func raw(_ root: Value, at path: [PathStep]) -> Value? {
        var value = root
        for step in path {
            switch (step, value) {
            case (.key(let key), .object(let members)):
                guard var member = members[key] else { return nil }
                if key == "$jsan", case .array(let wrapped) = member, let first = wrapped.first { member = first }
                value = member
            case (.key(let key), .array(let elements)):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                value = elements[index]
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                value = elements[index]
            case (.index(let index), .object(let members)):
                guard let member = members[String(index)] else { return nil }
                value = member
            default:
                return nil
            }
        }
        return value
    }

    /// The steps of a jsan path: `$`, then `.name`, `[3]` or `["any \"name\""]` each.
    static func path(_ text: String) -> [PathStep]? {
        var bytes = Array(text.utf8)[...]
        guard bytes.first == UInt8(ascii: "$") else { return nil }
        bytes = bytes.dropFirst()
        var steps: [PathStep] = []
        while let first = bytes.first {
            if first == UInt8(ascii: ".") {
                let name = bytes.dropFirst().prefix { isWordByte($0) }
                guard !name.isEmpty else { return nil }
                steps.append(.key(String(decoding: name, as: UTF8.self)))
                bytes = bytes.dropFirst(1 + name.count)
            } else if first == UInt8(ascii: "["), bytes.dropFirst().first == UInt8(ascii: "\"") {
                // A JSON string, then `]`.
                var end = bytes.startIndex + 2
                while end < bytes.endIndex, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                guard end < bytes.endIndex, end + 1 < bytes.endIndex, bytes[end + 1] == UInt8(ascii: "]"),
                      case .string(let key)? = try? JSONReader.parse(Array(bytes[(bytes.startIndex + 1)...end])) else { return nil }
                steps.append(.key(key))
                bytes = bytes[(end + 2)...]
            } else if first == UInt8(ascii: "[") {
                let digits = bytes.dropFirst().prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                guard !digits.isEmpty, bytes.dropFirst(1 + digits.count).first == UInt8(ascii: "]"),
                      let index = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
                steps.append(.index(index))
                bytes = bytes.dropFirst(2 + digits.count)
            } else {
                return nil
            }
        }
        return steps
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// A path as jsan writes it.
    static func text(_ path: [PathStep]) -> String {
        var out = "$"
        for step in path {
            switch step {
            case .index(let index): out += "[\(index)]"
            case .key(let key) where !key.isEmpty && key.utf8.allSatisfy(isWordByte): out += "." + key
            case .key(let key): out += "[" + Value.string(key).jsonText + "]"
            }
        }
        return out
    }

    /// A time in milliseconds since 1970 as JavaScript's `Date.prototype.toISOString` writes it,
    /// or `nil` for a time no `Date` holds.
    package static func isoText(milliseconds: Double) -> String? {
        guard milliseconds.isFinite, abs(milliseconds) <= 8.64e15 else { return nil }
        let total = Int(milliseconds.rounded(.towardZero))
        let dayMilliseconds = 86_400_000
        var days = total / dayMilliseconds
        var inDay = total % dayMilliseconds
        if inDay < 0 { inDay += dayMilliseconds; days -= 1 }
        // Days since 1970-01-01 to a civil date (proleptic Gregorian calendar).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let yearText = (0...9999).contains(year) ? padded(year, 4) : (year < 0 ? "-" : "+") + padded(abs(year), 6)
        return "\(yearText)-\(padded(month, 2))-\(padded(day, 2))T\(padded(inDay / 3_600_000, 2)):"
            + "\(padded(inDay / 60_000 % 60, 2)):\(padded(inDay / 1000 % 60, 2)).\(padded(inDay % 1000, 3))Z"
    }

    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
