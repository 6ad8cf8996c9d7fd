@_spi(Shell) import PatchbayCore

/// The user's preferences for human output: the width lines fit, whether long output is paged,
/// colour, how long a value may print, and the key that matches array elements in diffs. `set NAME VALUE` changes them for the session, and
/// the rc file (`$XDG_CONFIG_HOME/patchbay/config`) gives them at start.
///
/// They change how output reads, never what a command does: they are not recorded, and a replay
/// does not depend on them. JSON output ignores them (never paged, coloured or cut).
@_spi(Shell)
public struct ShellSettings: Sendable, Equatable {
    /// The columns lines fit to; `nil` for the terminal's.
    public var width: Int?
    /// Whether long output goes through the pager at a terminal.
    public var pager: Bool
    /// Whether output is coloured at a terminal that takes colour.
    public var color: Bool
    /// How many characters a value prints before the rest is elided; `nil` never cuts.
    public var truncate: Int?
    /// The member that gives the elements of arrays of objects their identity in diffs (`dispatch`,
    /// `diff`, `history`, `blame`; see `PresentedChange`): `id` unless set; `nil` matches by position.
    public var identity: String?

    /// How long a value prints before it is elided, when nothing else is said.
    public static let standardTruncation = 200

    /// Settings as given; the others as they are when nothing is said.
    public init(width: Int? = nil, pager: Bool = true, color: Bool = true, truncate: Int? = ShellSettings.standardTruncation,
                identity: String? = "id") {
        self.identity = identity
        self.width = width
        self.pager = pager
        self.color = color
        self.truncate = truncate
    }

    /// The settings' names, in the order `set` lists them.
    public static let names = ["width", "pager", "color", "truncate", "identity"]

    /// The setting `name` stands for (`colour` is `color`), if it is one.
    public static func setting(named name: String) -> String? {
        let canonical = name == "colour" ? "color" : name
        return names.contains(canonical) ? canonical : nil
    }

    /// What each setting takes, for errors and `help set`.
    static let forms: [String: String] = [
        "width": "a number of columns from 20 to 1000, or auto (the terminal's)",
        "pager": "on or off",
        "color": "on or off",
        "truncate": "a number of characters from 10 up, or off (never cut)",
        "identity": "a key such as id (a letter or _, then letters, digits or _), or none (match array elements by position)",
    ]

    /// Sets `name` to `value` as typed (`set width 100`, `set pager off`).
    /// - Throws: a message saying what the setting takes, for an unknown name or a bad value.
    public mutating func set(_ name: String, to value: String) throws(SettingError) {
        let name = Self.setting(named: name) ?? name
        switch name {
        case "width":
            if value == "auto" { width = nil; return }
            guard let columns = Int(value), (20...1000).contains(columns) else { throw SettingError(name: name, value: value) }
            width = columns
        case "pager":
            pager = try Self.switchValue(name, value)
        case "color":
            color = try Self.switchValue(name, value)
        case "truncate":
            if value == "off" || value == "none" { truncate = nil; return }
            guard let characters = Int(value), characters >= 10 else { throw SettingError(name: name, value: value) }
            truncate = characters
        case "identity":
            if value == "none" || value == "off" { identity = nil; return }
            guard Value.isBareKey(value) else { throw SettingError(name: name, value: value) }
            identity = value
        default:
            throw SettingError(name: name, value: nil)
        }
    }

    private static func switchValue(_ name: String, _ value: String) throws(SettingError) -> Bool {
        switch value.lowercased() {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: throw SettingError(name: name, value: value)
        }
    }

    /// Each setting's value as `set NAME VALUE` takes it back.
    public var values: [(name: String, value: String)] {
        [("width", width.map(String.init) ?? "auto"), ("pager", pager ? "on" : "off"), ("color", color ? "on" : "off"),
         ("truncate", truncate.map(String.init) ?? "off"), ("identity", identity ?? "none")]
    }

    /// Reads the lines of an rc file: `NAME VALUE` (or `set NAME VALUE`) a line, `#` comments
    /// and blank lines ignored. Returns the settings with every good line applied, and a
    /// message for each bad one (`LINE: what is wrong`).
    public func applying(configuration text: String) -> (settings: ShellSettings, problems: [String]) {
        var settings = self
        var problems: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.first?.hasPrefix("#") ?? true { continue }
            if words.first == "set" { words.removeFirst() }
            guard words.count == 2 else {
                problems.append("\(number + 1): expected NAME VALUE (\(Self.names.joined(separator: ", ")))")
                continue
            }
            do throws(SettingError) { try settings.set(words[0], to: words[1]) } catch {
                problems.append("\(number + 1): \(error.message)")
            }
        }
        return (settings, problems)
    }
}

/// A setting that does not exist, or a value it does not take.
@_spi(Shell)
public struct SettingError: Error, Sendable, Equatable {
    public var name: String
    /// The value given; `nil` when the name is unknown.
    public var value: String?

    public var message: String {
        guard let value else {
            let suggestion = Spelling.closest(to: name, among: ShellSettings.names).map { "did you mean '\($0)'? " } ?? ""
            return "no setting '\(Printable.escaped(name, limit: 30))': \(suggestion)the settings are \(ShellSettings.names.joined(separator: ", "))"
        }
        return "\(name) takes \(ShellSettings.forms[name] ?? "another value"), not '\(Printable.escaped(value, limit: 30))'"
    }
}
