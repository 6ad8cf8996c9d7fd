/// Where in an app's source an action was dispatched: the file as `#fileID` names it
/// (`TodoApp/TodoList.swift`) and the line, written `TodoApp/TodoList.swift:42`.
///
/// `Store.dispatch`, a middleware's `MiddlewareContext.dispatch` and `Recorder.record` take it
/// from their caller, as default arguments: a dispatch records the line that called it, and
/// a recording keeps it with each action (the `site` of an action line, in PatchbayRecorder's
/// session file format).
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it: the module, a slash and the file's name.
    public var file: String
    /// The line, from 1.
    public var line: Int

    /// The site at `line` of `file`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The site a caller's `#fileID` and `#line` name.
    public init(fileID: StaticString, line: UInt) {
        self.init(file: fileID.description, line: Int(line))
    }

    /// The site written as `FILE:LINE` (the form `description` gives), or `nil` when `text` has no
    /// file before its last colon or no positive line after it.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
              let line = Int(text[text.index(after: colon)...]), line > 0 else { return nil }
        self.init(file: String(text[..<colon]), line: line)
    }

    /// `FILE:LINE`.
    public var description: String { "\(file):\(line)" }
}
