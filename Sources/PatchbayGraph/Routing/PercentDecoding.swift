@_spi(Shell) import PatchbayCore

/// Percent-decoding over UTF-8 bytes, done once per value and only when a value needs it.
enum PercentDecoding {
    /// Checks that every `%` in `bytes` starts an escape of two hex digits, and says whether there
    /// is any `%` at all.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(RoutingError) -> Bool {
        var found = false
        var index = 0
        let count = bytes.count
        while index < count {
            if bytes[index] == UInt8(ascii: "%") {
                found = true
                guard index + 2 < count, bytes[index + 1].percentHexDigit != nil, bytes[index + 2].percentHexDigit != nil else {
                    let end = Swift.min(index + 3, count)
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                    throw RoutingError(.malformedPercentEscape(text), at: index..<end)
                }
                index += 3
            } else {
                index += 1
            }
        }
        return found
    }

    /// The text of `bytes` with `%XX` escapes decoded and, when `plusIsSpace`, each `+` written
    /// in the text (not one produced by decoding `%2B`) read as a space.
    ///
    /// The escapes must already be validated. `origin` is the offset of `bytes` within the URL,
    /// for the error's range; `mayContainPercent` false skips the search for `%`.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool, mayContainPercent: Bool, origin: Int
    ) throws(RoutingError) -> String {
        var needsWork = false
        if mayContainPercent || plusIsSpace {
            for byte in bytes where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
                needsWork = true
                break
            }
        }
        guard needsWork else { return String(decoding: bytes, as: UTF8.self) }
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { (out) throws(RoutingError) -> String in
            var index = 0
            var written = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                    let high = bytes[index + 1].percentHexDigit, let low = bytes[index + 2].percentHexDigit
                {
                    out[written] = high << 4 | low
                    index += 3
                } else {
                    out[written] = plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                    index += 1
                }
                written += 1
            }
            guard let text = String(validating: UnsafeBufferPointer(rebasing: out[..<written]), as: UTF8.self) else {
                throw RoutingError(.invalidUTF8(String(decoding: bytes, as: UTF8.self)), at: origin..<origin + bytes.count)
            }
            return text
        }
    }
}

extension UInt8 {
    /// The value of an ASCII hexadecimal digit, or nil.
    @inline(__always)
    var percentHexDigit: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}
