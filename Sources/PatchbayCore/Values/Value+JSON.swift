extension Value {
    /// The value as one line of JSON. Keys keep their order; decimals keep a fraction (`1.0`).
    public var jsonText: String {
        var out = ""
        writeJSON(to: &out)
        return out
    }

    /// Appends the value's JSON text to `out`.
    public func writeJSON(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            var first = true
            for (key, value) in members {
                if !first { out += "," }
                first = false
                Value.writeQuoted(key, to: &out)
                out += ":"
                value.writeJSON(to: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            var first = true
            for element in elements {
                if !first { out += "," }
                first = false
                element.writeJSON(to: &out)
            }
            out += "]"
        default:
            writeScalar(to: &out)
        }
    }
}
