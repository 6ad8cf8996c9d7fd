/// Values, actions and changes in one line each: how every message shows them (the shell's
/// output, a replay's divergence, a failing recording test).
extension Value {
    /// A value as a literal, cut to fit a line; `nothing` for `nil`.
    public static func brief(_ value: Value?) -> String {
        let text = value.map { "\($0)" } ?? "nothing"
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    /// An action as `Increment {by: 2}`: the type, then the rest of the action, cut to fit a line.
    public var actionSummary: String {
        guard case .object(var members) = self, case .string(let type)? = members["type"] else { return Value.brief(self) }
        members["type"] = nil
        return members.isEmpty ? type : "\(type) \(Value.brief(.object(members)))"
    }
}

extension ValueChange {
    /// The change in one line: `user.name: "unknown" → "Max"`, `items[2]: + {...}`, `tag: - "x"`.
    public var summary: String {
        switch operation {
        case .add: "\(pathText): + \(Value.brief(new))"
        case .remove: "\(pathText): - \(Value.brief(old))"
        case .replace: "\(pathText): \(Value.brief(old)) → \(Value.brief(new))"
        }
    }
}
