/// Where in an app's source an action was dispatched: the file as `#fileID` names it
/// (`TodoApp/TodoList.swift`) and the line, written `TodoApp/TodoList.swift:42`.
///
/// `Store.dispatch`, a middleware's `MiddlewareContext.dispatch` and `Recorder.record` take it
/// from their caller, as default arguments: a dispatch records the line that called it, and
/// a recording keeps it with each action (the `site` of an action line, in PatchbayRecorder's
/// session file format).
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it: the module, a slash and the file's name.
    public let file: String
    /// The line, from 1.
    public let line: Int
    /// `FILE:LINE`, made once (a recording writes it on every line of its call site).
    public let description: String

    /// The site at `line` of `file`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
        description = "\(file):\(line)"
    }

    /// The site a caller's `#fileID` and `#line` name.
    public init(fileID: StaticString, line: UInt) {
        self.init(file: fileID.description, line: Int(line))
    }

    /// The site written as `FILE:LINE` (the form `description` gives), or `nil` when `text` has no
    /// file before its last colon, or no line after it written as `description` writes one (a
    /// positive decimal number without a sign or leading zeros).
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else { return nil }
        let digits = text.utf8[text.utf8.index(after: colon)...]
        guard let first = digits.first, first != UInt8(ascii: "0"), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let line = Int(Substring(digits)) else { return nil }
        file = String(text[..<colon])
        self.line = line
        description = text
    }

    public static func == (a: CallSite, b: CallSite) -> Bool {
        a.line == b.line && a.file == b.file
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
    }
}
