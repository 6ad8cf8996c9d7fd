@_spi(Shell) public import PatchbayCore
@_spi(Shell) public import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) public import PatchbayHistory

/// An error of a shell command, with the UTF-8 range of the command text it points at.
@_spi(Shell)
public struct ShellError: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        case expression(ExpressionError, source: String)
        case unknownCommand(String, suggestion: String?)
        case usage(command: String, detail: String, synopsis: String)
        case unknownHelpTopic(String, suggestion: String?)
        case file(path: String, detail: String)
        case loadTooDeep(limit: Int)
        case loadStopped(path: String)
        /// `bytes` is `nil` when the reader stopped in the line (a file), without its length.
        case lineTooLong(bytes: Int?, limit: Int)
        case invalidUTF8
        case unterminatedInput(String)
        case reservedName(String)
        /// `use NAME` where NAME is no store: the closest store's name, and every store's.
        case unknownStore(String, suggestion: String?, stores: [String])
        case graph(GraphError)
        case cannotWrite(path: String, detail: String)
        case timeTravel(TimeTravelError)
        case session(path: String, detail: String)
        /// What a command names is nowhere (a path no state of a store has, an action type
        /// its history and reducers do not know): the message names the closest that is.
        case notFound(String)
        /// Ctrl-C stopped the command (see `Interruption`).
        case interrupted
        /// Ctrl-C came once the command had rewritten a history that cannot be taken back (a
        /// rewrite after another in one command run by a script, a history an import replaced):
        /// what it did stays, and is recorded.
        case interruptedAfterRewrite
        /// Ctrl-C stopped a `load` after commands it cannot take back (`kept` says which): the
        /// command interrupted changed nothing, those before it stay, and are recorded.
        case loadInterrupted(path: String, kept: String)
        /// `edit REDUCER` could not open an editor, or the editor failed: what happened.
        case edit(String)
    }

    public let reason: Reason
    /// UTF-8 offsets within the command text.
    public let range: Range<Int>
    /// What `--json` adds to the error object besides its message, line and column (a replay's
    /// `divergence`), as an object; `nil` for none.
    public internal(set) var json: Value?

    public init(_ reason: Reason, at range: Range<Int>) {
        self.reason = reason
        self.range = range
    }

    /// The error with `json`'s members in its JSON object.
    func adding(json: Value) -> ShellError {
        var error = self
        error.json = json
        return error
    }

    init(_ error: ExpressionError, in source: String) {
        self.init(.expression(error, source: source), at: error.range)
    }

    /// What went wrong and what to do, on one line.
    public var message: String {
        switch reason {
        case .expression(let error, let source):
            error.message(in: source)
        case .unknownCommand(let word, let suggestion):
            "unknown command '\(word)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; type 'help' for the list")
        case .usage(let command, let detail, let synopsis):
            "\(detail); usage: \(synopsis)" + (command.isEmpty ? "" : " (see 'help \(command)')")
        case .unknownHelpTopic(let topic, let suggestion):
            "no help for '\(topic)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; type 'help' for the list")
        case .file(let path, let detail):
            "cannot read '\(path)': \(detail)"
        case .loadTooDeep(let limit):
            "files load each other more than \(limit) deep; does a file load itself?"
        case .loadStopped(let path):
            "loading '\(path)' stopped at its first error (shown above)"
        case .lineTooLong(let bytes, let limit):
            "line too long (\(bytes.map { "\($0) bytes" } ?? "more than \(limit) bytes"); the limit is \(limit)); split the input or load the data from a file"
        case .invalidUTF8:
            "the line is not valid UTF-8"
        case .unterminatedInput(let what):
            "the input ended inside \(what)"
        case .reservedName(let name):
            "'\(name)' is a command word and cannot be a name"
        case .unknownStore(let name, let suggestion, let stores):
            "no store '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + (stores.isEmpty ? "; there is no store yet: create one with store NAME = EXPR" : " (stores: \(stores.joined(separator: ", ")))")
        case .graph(let error):
            error.description
        case .cannotWrite(let path, let detail):
            "cannot write '\(path)': \(detail)"
        case .timeTravel(let error):
            error.description
        case .session(let path, let detail):
            "\(path): \(detail)"
        case .notFound(let message):
            message
        case .interrupted:
            InterruptionError().description
        case .interruptedAfterRewrite:
            "interrupted once the command had rewritten a history: what it did stays (see 'history')"
        case .loadInterrupted(let path, let kept):
            "interrupted while loading '\(path)': the command interrupted changed nothing, but the commands before it stay, since \(kept)"
        case .edit(let detail):
            "edit: \(detail)"
        }
    }
}
