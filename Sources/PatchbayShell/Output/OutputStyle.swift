@_spi(Shell) import PatchbayCore

/// How human output shows values, the one place that decides it for every command: how long a
/// value may print before the rest is elided (with a count of what was left out), the indented
/// tree form of `state --tree`, and the colours of changes (removed red, added green, changed
/// yellow). JSON output never goes through it.
struct OutputStyle {
    /// How many characters a value may take before the rest is elided; `nil` never cuts.
    var limit: Int?
    /// ANSI colour (only on a terminal, never with `NO_COLOR`, and not after `set color off`).
    var color: Bool
    /// The columns the tree form fits its lines to.
    var width: Int
    /// How a step's changes are matched by identity (`set identity`); `nil`: as the patch has them.
    var presenter: ChangePresenter?

    init(limit: Int?, color: Bool, width: Int) {
        self.limit = limit
        self.color = color
        self.width = width
    }

    init(options: ShellOptions) {
        self.init(limit: options.settings.truncate, color: options.usesColor, width: options.lineWidth)
    }

    /// The value as a literal, elided past `limit`: `[1, 2, 3, … 997 more]`,
    /// `{a: 1, … 4 more keys}`, `"abc"… (9997 more characters)`.
    func value(_ value: Value) -> String {
        guard let limit else { return value.description }
        var writer = ElidingWriter(limit: limit)
        writer.write(value)
        return writer.text
    }

    /// A value that may be missing: `nothing` for `nil`.
    func value(_ value: Value?) -> String {
        value.map(self.value) ?? "nothing"
    }

    /// An action as `Increment {by: 2}`: the type, then the rest of the action.
    func action(_ action: Value) -> String {
        guard case .object(var members) = action, case .string(let type)? = members["type"] else { return value(action) }
        members["type"] = nil
        return members.isEmpty ? type : "\(type) \(value(.object(members)))"
    }

    /// The change in one line, coloured by what it did: `user.name: "unknown" → "Max"` (yellow),
    /// `items[2]: + {...}` (green), `tag: - "x"` (red).
    func change(_ change: ValueChange) -> String {
        switch change.operation {
        case .add: paint("\(change.pathText): + \(value(change.new))", Self.added)
        case .remove: paint("\(change.pathText): - \(value(change.old))", Self.removed)
        case .replace: paint("\(change.pathText): \(value(change.old)) → \(value(change.new))", Self.changed)
        }
    }

    /// Changes on one line, separated by `; `; `(no changes)` when there are none.
    func changes(_ changes: [ValueChange]) -> String {
        changes.isEmpty ? "(no changes)" : changes.map(change).joined(separator: "; ")
    }

    /// A presented change in one line: a change as `change(_:)` shows it, or a move,
    /// `items[0] → items[2]: moved (id: 3)` (yellow).
    func change(_ presented: PresentedChange) -> String {
        switch presented {
        case .change(let change):
            return self.change(change)
        case .move(let array, let from, let to, let key, let id):
            let text = "\(ValueChange.pathText(array + [.index(from)])) → \(ValueChange.pathText(array + [.index(to)])): moved (\(key): \(value(id)))"
            return paint(text, Self.changed)
        }
    }

    /// The changes of step `index` of `store` on one line, matched by identity when the
    /// presenter can (see `ChangePresenter`).
    func changes(_ changes: [ValueChange], store: String, step index: Int) -> String {
        guard !changes.isEmpty else { return "(no changes)" }
        return presented(changes, store: store, step: index).map(change).joined(separator: "; ")
    }

    /// The changes of step `index` of `store`, matched by identity when the presenter can.
    func presented(_ changes: [ValueChange], store: String, step index: Int) -> [PresentedChange] {
        presenter?.present(changes, store: store, step: index) ?? changes.map(PresentedChange.change)
    }

    /// `old → new` of one path, coloured as the change it is (a value that appears is added,
    /// one that goes is removed).
    func transition(_ old: Value?, _ new: Value?) -> String {
        let code = old == nil ? Self.added : new == nil ? Self.removed : Self.changed
        return paint("\(value(old)) → \(value(new))", code)
    }

    /// The value over several indented lines, each container on one line when it fits the
    /// width and broken up, a member per line, when it does not. Long scalars elide as on one line.
    func tree(_ value: Value) -> [String] {
        var lines: [String] = []
        appendTree(value, prefix: "", suffix: "", indent: "", to: &lines)
        return lines
    }

    private func appendTree(_ value: Value, prefix: String, suffix: String, indent: String, to lines: inout [String]) {
        // A container stays on one line only when all of it fits: the tree never elides one.
        let inline = Self.whole(value, within: width - indent.count - prefix.count - suffix.count)
        let fits = inline != nil
        switch value {
        case .array(let elements) where !fits && !elements.isEmpty && elements.allSatisfy(\.isScalar):
            // Numbers, strings and the like fill each line, as many as fit.
            lines.append(indent + prefix + "[")
            var line = ""
            for (index, element) in elements.enumerated() {
                let piece = self.value(element) + (index == elements.count - 1 ? "" : ",")
                if !line.isEmpty, indent.count + 2 + line.count + 1 + piece.count > width {
                    lines.append(indent + "  " + line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + piece
            }
            lines.append(indent + "  " + line)
            lines.append(indent + "]" + suffix)
        case .array(let elements) where !fits && !elements.isEmpty:
            lines.append(indent + prefix + "[")
            for (index, element) in elements.enumerated() {
                appendTree(element, prefix: "", suffix: index == elements.count - 1 ? "" : ",", indent: indent + "  ", to: &lines)
            }
            lines.append(indent + "]" + suffix)
        case .object(let members) where !fits && !members.isEmpty:
            lines.append(indent + prefix + "{")
            for (index, (key, member)) in members.enumerated() {
                var keyText = ""
                if Value.isBareKey(key.string) { keyText = key.string } else { Value.writeQuoted(key.string, to: &keyText) }
                appendTree(member, prefix: keyText + ": ", suffix: index == members.count - 1 ? "" : ",", indent: indent + "  ", to: &lines)
            }
            lines.append(indent + "}" + suffix)
        default:
            lines.append(indent + prefix + (inline ?? self.value(value)) + suffix)
        }
    }

    /// The whole literal of `value` when it takes at most `room` characters; `nil` when it is
    /// longer (found without writing more than about `room` characters of it).
    private static func whole(_ value: Value, within room: Int) -> String? {
        var writer = ElidingWriter(limit: Swift.max(1, room) + 1)
        writer.write(value)
        return writer.hasElided || writer.text.count > room ? nil : writer.text
    }

    /// `text` in the ANSI colour `code`, when colour is on.
    func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    static let added = "32"
    static let removed = "31"
    static let changed = "33"
}

extension Value {
    /// Whether the value holds no other values.
    fileprivate var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}

/// Writes a value as a literal until `limit` characters are out, then elides what is left of
/// each open string, array and object with a count of it.
private struct ElidingWriter {
    let limit: Int
    private(set) var text = ""
    /// Whether anything was left out.
    private(set) var hasElided = false
    /// Characters written so far.
    private var count = 0

    init(limit: Int) {
        self.limit = Swift.max(1, limit)
    }

    private var isFull: Bool { count >= limit }

    private mutating func append(_ piece: String) {
        text += piece
        count += piece.count
    }

    mutating func write(_ value: Value) {
        switch value {
        case .string(let string):
            // At least a few characters of each string, so that a cut one still shows what it is.
            let room = Swift.max(limit - count - 2, 8)
            if string.utf8.count <= room {
                var quoted = ""
                Value.writeQuoted(string, to: &quoted)
                append(quoted)
                return
            }
            let total = string.count
            guard total > room else {
                var quoted = ""
                Value.writeQuoted(string, to: &quoted)
                append(quoted)
                return
            }
            var quoted = ""
            Value.writeQuoted(String(string.prefix(room)), to: &quoted)
            append(quoted + "… (\(total - room) more characters)")
            hasElided = true
        case .array(let elements):
            append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 {
                    if isFull {
                        append(", … \(elements.count - index) more")
                        hasElided = true
                        break
                    }
                    append(", ")
                }
                write(element)
            }
            append("]")
        case .object(let members):
            append("{")
            for (index, (key, member)) in members.enumerated() {
                if index > 0 {
                    if isFull {
                        let left = members.count - index
                        append(", … \(left) more \(left == 1 ? "key" : "keys")")
                        hasElided = true
                        break
                    }
                    append(", ")
                }
                var keyText = ""
                if Value.isBareKey(key.string) { keyText = key.string } else { Value.writeQuoted(key.string, to: &keyText) }
                append(keyText + ": ")
                write(member)
            }
            append("}")
        default:
            var scalar = ""
            value.writeScalar(to: &scalar)
            append(scalar)
        }
    }
}
