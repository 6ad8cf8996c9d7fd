public import PatchbayCore

/// An RFC 6901 JSON Pointer, the `path` of a JSON Patch operation: `/user/name`, `/items/2`,
/// `""` for the whole value; `~` is written `~0` and `/` is written `~1`.
///
/// A pointer made from a `ValueChange` path keeps its keys and indexes. A pointer read from
/// text holds only tokens: whether `2` names an array element or an object member is decided
/// when the pointer is resolved against a value. Two pointers are equal when their tokens are.
@_spi(Shell)
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The steps; read from text, each is a `.key` holding the unescaped token.
    var components: [ValueChange.PathComponent]

    /// The pointer to `path`.
    public init(_ path: [ValueChange.PathComponent]) {
        components = path
    }

    /// Reads pointer text; `nil` when it is not a JSON Pointer (it neither is empty nor starts
    /// with `/`, or a `~` is not followed by `0` or `1`).
    public init?(_ text: String) {
        guard !text.isEmpty else {
            components = []
            return
        }
        // Read from the string's own bytes, which costs a fraction of walking its UTF-8 view.
        var text = text
        guard let components = text.withUTF8(Self.components) else { return nil }
        self.components = components
    }

    /// The tokens of the pointer text `bytes`, which is not empty; `nil` when it is not a
    /// JSON Pointer.
    private static func components(_ bytes: UnsafeBufferPointer<UInt8>) -> [ValueChange.PathComponent]? {
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var components: [ValueChange.PathComponent] = []
        var start = 1
        while true {
            // `/` is ASCII, so the tokens between slashes are whole characters.
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            let token = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if token.contains(UInt8(ascii: "~")) {
                guard let key = unescape(token) else { return nil }
                components.append(.key(key))
            } else {
                components.append(.key(String(decoding: token, as: UTF8.self)))
            }
            guard end < bytes.endIndex else { return components }
            start = end + 1
        }
    }

    /// The token `bytes` (UTF-8) with `~0` and `~1` unescaped; `nil` for another `~`.
    static func unescape(_ bytes: some Collection<UInt8>) -> String? {
        var unescaped: [UInt8] = []
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "~") else {
                unescaped.append(byte)
                continue
            }
            switch iterator.next() {
            case UInt8(ascii: "0"): unescaped.append(UInt8(ascii: "~"))
            case UInt8(ascii: "1"): unescaped.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// The unescaped reference tokens: `["items", "2"]` for `/items/2`.
    public var tokens: [String] {
        components.map(Self.token)
    }

    static func token(_ component: ValueChange.PathComponent) -> String {
        switch component {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// The pointer text: `/items/2`, with `~` written `~0` and `/` written `~1` in tokens.
    public var description: String {
        var text = ""
        for component in components {
            text += "/"
            switch component {
            case .index(let index):
                text += String(index)
            case .key(let key):
                text += key.contains(where: { $0 == "~" || $0 == "/" }) ? key.replacing("~", with: "~0").replacing("/", with: "~1") : key
            }
        }
        return text
    }

    /// Appends the pointer text as a JSON string (`"/items/2"`): what `description` gives,
    /// quoted and escaped, without making that text first.
    func encode(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for component in components {
            out.append(UInt8(ascii: "/"))
            switch component {
            case .index(let index):
                Value.int(index).writeJSON(to: &out)
            case .key(let key) where key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }):
                Value.writeEscaped(key.replacing("~", with: "~0").replacing("/", with: "~1"), to: &out)
            case .key(let key):
                Value.writeEscaped(key, to: &out)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether the two pointers have the same tokens.
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.components.count == rhs.components.count
            && zip(lhs.components, rhs.components).allSatisfy { a, b in
                switch (a, b) {
                case (.key(let x), .key(let y)): x == y
                case (.index(let x), .index(let y)): x == y
                default: token(a) == token(b)
                }
            }
    }

    /// Hashes the tokens, so that equal pointers hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(components.count)
        for component in components { hasher.combine(Self.token(component)) }
    }
}
