import CLibEdit
import Foundation
@_spi(Shell) import PatchbayShell

/// A prompt: its text and, when colour is on, the SGR parameters it is drawn in (`"1;36"`).
struct Prompt: Equatable {
    var text: String
    var color: String?

    /// The text with its colour; `escape` brackets the escape sequences for libedit.
    ///
    /// Trailing blanks stay outside the colour: libedit attaches an escape sequence to the
    /// visible character after it and drops one at the very end of the prompt.
    func rendered(escape: String?) -> String {
        guard let color else { return text }
        let mark = escape ?? ""
        var visible = Substring(text)
        while visible.last == " " { visible.removeLast() }
        let trailing = text.dropFirst(visible.count)
        return "\(mark)\u{1B}[\(color)m\(mark)\(visible)\(mark)\u{1B}[0m\(mark)\(trailing)"
    }
}

/// What the user did at a prompt.
enum LineInput: Equatable {
    /// A line was entered (without its newline). A line recalled from history may hold several
    /// physical lines separated by `\n`.
    case line(String)
    /// Ctrl-C: the line was abandoned.
    case interrupt
    /// Ctrl-D on an empty line, or the end of the input.
    case endOfInput
}

/// Work done while the user is idle at a prompt (reading a followed recording): `run` is called
/// every `interval` until a key comes, and the lines it returns are shown above the prompt;
/// once it returns `nil` it is not called again for that prompt.
struct IdleWork {
    var interval: Duration
    var run: () -> [OutputLine]?

    /// The interval as poll(2) takes it: whole milliseconds, at least one.
    var milliseconds: Int32 {
        Int32(clamping: max(1, interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000))
    }
}

/// Reads lines at a prompt and keeps the history of entered commands.
protocol LineReader: AnyObject {
    func read(prompt: Prompt, whileIdle idle: IdleWork?) -> LineInput
    /// Adds a command to the history and writes the history file.
    func remember(_ entry: String)
}

/// The command history (libedit's `History`): at most `capacity` entries, consecutive duplicates
/// dropped, written back to its file after every change so a killed process loses nothing.
///
/// The file is libedit's format (`_HiStOrY_V2_`, one strvis-encoded entry a line, so an entry
/// may hold newlines). It is written to a temporary file and renamed over the old one, so an
/// interrupted write never truncates it. Problems are reported once on standard error; a file
/// that exists but cannot be read as history is never overwritten.
final class CommandHistory {
    /// libedit's `History *`.
    let handle: OpaquePointer
    private var event = HistEvent()
    private let path: String?
    private var canSave: Bool
    private var hasWarned = false

    init?(path: String?, capacity: Int32 = 1000) {
        guard let handle = history_init() else { return nil }
        self.handle = handle
        self.path = path.map(Self.resolvingSymbolicLinks)
        canSave = path != nil
        shim_history_setsize(handle, &event, capacity)
        shim_history_setunique(handle, &event, 1)
        load()
    }

    deinit { history_end(handle) }

    /// Adds `entry` (consecutive duplicates are dropped) and saves the file.
    func add(_ entry: String) {
        shim_history_enter(handle, &event, entry)
        save()
    }

    /// Every entry, newest first.
    var entries: [String] {
        var result: [String] = []
        var next = shim_history_first(handle, &event)
        while let entry = next {
            result.append(String(cString: entry))
            next = shim_history_next(handle, &event)
        }
        return result
    }

    private func load() {
        guard let path else { return }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                warn("cannot create the history directory '\(directory)'; history will not be saved")
                canSave = false
                return
            }
        }
        guard FileManager.default.fileExists(atPath: path) else { return }
        if shim_history_load(handle, &event, path) < 0 {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size > 0 {
                warn("'\(path)' is not a libedit history file; it is left alone and history will not be saved")
                canSave = false
            }
        }
    }

    private func save() {
        guard canSave, let path else { return }
        let temporary = "\(path).\(getpid()).tmp"
        if shim_history_save(handle, &event, temporary) < 0 || rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            warn("cannot save history to '\(path)': \(reason)")
        }
    }

    private func warn(_ message: String) {
        guard !hasWarned else { return }
        hasWarned = true
        FileHandle.standardError.write(Data("\(ExecutableName.current): warning: \(message)\n".utf8))
    }

    /// Renaming over a symbolic link would replace the link, so write where it points.
    private static func resolvingSymbolicLinks(_ path: String) -> String {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return path }
        return target.hasPrefix("/") ? target : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
    }
}

/// Line editing on a terminal through libedit's native API (`el_gets`), emacs key bindings by
/// default and `~/.editrc` (or `$EDITRC`) honoured for lines prefixed `patchbay:`.
///
/// Keys added to libedit's defaults:
/// - Tab completes through the `complete` closure (`Shell.complete`).
/// - Ctrl-C abandons the line: the terminal runs with `-isig` while editing, so ^C is a key and
///   no signal is involved.
/// - Up/Down recall the entries that start with the text before the cursor (`HistorySearch`);
///   on an empty line that is every entry. libedit's `ed-search-prev-history` is not used: it
///   matches anywhere in an entry (`strstr`, then a regular expression), not at its start.
/// - Ctrl-R searches the history backwards as you type, with a prompt that says so
///   (`(reverse-i-search)'TEXT': MATCH`, as readline's) instead of libedit's `bck:`
///   (see `reverseSearch`).
/// - A resized window gets the prompt and the line drawn again (see `readCharacter`).
///
/// The C callbacks capture nothing; they reach the editor through libedit's client data pointer
/// (`EL_CLIENTDATA`), which holds an unretained reference to `self` for as long as the
/// `EditLine` lives.
final class LineEditor: LineReader {
    private let editLine: OpaquePointer
    private let history: CommandHistory
    private let complete: (String, Int) -> Completion
    /// SIGINT, which ends a line read while there is idle work (see `readCharacter`).
    var interrupts: InterruptSignal?
    /// The C string the prompt callback returns; owned (strdup) and replaced per prompt.
    private var promptBuffer: UnsafeMutablePointer<CChar>
    private var currentPrompt: String = ""
    private var interrupted = false
    private var search: HistorySearch?
    /// The idle work of the prompt being read, if it has any (see `readCharacter`).
    private var idle: IdleWork?
    /// The window's size when it was last looked at (see `redrawIfResized`).
    private var windowSize: (columns: UInt16, rows: UInt16)?
    /// When the idle work runs next.
    private var nextIdleWork = ContinuousClock.now
    /// The line and cursor at the last Tab, and whether that Tab listed the candidates.
    private var lastTab: (line: String, cursor: Int, listed: Bool)?

    /// The escape character that brackets non-printing prompt text (`EL_PROMPT_ESC`).
    private static let promptEscape = "\u{1}"

    /// Returns `nil` when libedit cannot start.
    init?(name: String, history: CommandHistory, complete: @escaping (String, Int) -> Completion) {
        guard let editLine = el_init(name, shim_stdin(), shim_stdout(), shim_stderr()) else { return nil }
        self.editLine = editLine
        self.history = history
        self.complete = complete
        promptBuffer = strdup("")
        configure()
    }

    deinit {
        el_end(editLine)
        free(promptBuffer)
    }

    func read(prompt: Prompt, whileIdle idle: IdleWork?) -> LineInput {
        setPrompt(prompt)
        interrupted = false
        search = nil
        lastTab = nil
        self.idle = idle
        // Characters are read by `readCharacter`, which waits for them with poll(2), does the
        // idle work while none comes and redraws the line when the window changes size.
        windowSize = Self.currentWindowSize()
        nextIdleWork = ContinuousClock.now + (idle?.interval ?? .zero)
        shim_el_set_getcfn(editLine) { editLine, character in
            guard let editLine, let character, let editor = LineEditor.from(editLine) else { return -1 }
            return editor.readCharacter(into: character)
        }
        var count: Int32 = 0
        let raw = el_gets(editLine, &count)
        let readError = errno
        self.idle = nil
        if interrupted { return .interrupt }
        guard let raw, count > 0 else {
            guard count < 0, readError == EINTR else { return .endOfInput }
            // A SIGINT from outside (kill) interrupted the read: end the visible line.
            FileHandle.standardOutput.write(Data("\n".utf8))
            return .interrupt
        }
        var bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: Int(count)))
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return .line(String(decoding: bytes, as: UTF8.self))
    }

    func remember(_ entry: String) {
        history.add(entry)
    }

    private func configure() {
        shim_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        shim_el_set_editor(editLine, "emacs")
        // While editing, libedit handles SIGWINCH (resize) and restores the terminal before a
        // fatal signal.
        shim_el_set_signal(editLine, 1)
        shim_el_set_prompt_esc(editLine, { editLine in
            LineEditor.from(editLine)?.promptBuffer
        }, CChar(Self.promptEscape.utf8.first!))
        shim_el_settty_edit(editLine, "-isig")
        shim_el_set_history(editLine, history.handle)
        shim_el_addfn(editLine, "patchbay-complete", "Complete the word before the cursor") { editLine, _ in
            LineEditor.from(editLine)?.completeWord() ?? UInt8(CC_ERROR)
        }
        shim_el_addfn(editLine, "patchbay-interrupt", "Abandon the line") { editLine, _ in
            LineEditor.from(editLine)?.interrupt() ?? UInt8(CC_ERROR)
        }
        shim_el_addfn(editLine, "patchbay-search", "Search the history backwards as you type") { editLine, _ in
            LineEditor.from(editLine)?.reverseSearch() ?? UInt8(CC_ERROR)
        }
        shim_el_addfn(editLine, "patchbay-history-prev", "Recall an older entry starting with the text before the cursor") { editLine, _ in
            LineEditor.from(editLine)?.recall(older: true) ?? UInt8(CC_ERROR)
        }
        shim_el_addfn(editLine, "patchbay-history-next", "Recall a newer entry starting with the text before the cursor") { editLine, _ in
            LineEditor.from(editLine)?.recall(older: false) ?? UInt8(CC_ERROR)
        }
        bindKeys()
        let mode = editorMode()
        el_source(editLine, nil)
        // `bind -v` or `bind -e` in an editrc resets the key maps: bind the keys again for it.
        if editorMode() != mode { bindKeys() }
    }

    private func bindKeys() {
        let keys = [("^I", "patchbay-complete"), ("^C", "patchbay-interrupt"), ("^R", "patchbay-search")]
        let arrows = [
            ("\\e[A", "patchbay-history-prev"), ("\\eOA", "patchbay-history-prev"),
            ("\\e[B", "patchbay-history-next"), ("\\eOB", "patchbay-history-next"),
        ]
        for (key, function) in keys { shim_el_bind(editLine, key, function) }
        if editorMode() == "vi" {
            // In vi insert mode a bound escape sequence makes ESC wait for the next key and
            // swallow it, so the arrows are bound in command mode only.
            shim_el_bind_alternate(editLine, "^C", "patchbay-interrupt")
            for (key, function) in arrows { shim_el_bind_alternate(editLine, key, function) }
        } else {
            for (key, function) in arrows { shim_el_bind(editLine, key, function) }
        }
    }

    private func editorMode() -> String? {
        shim_el_get_editor(editLine).map { String(cString: $0) }
    }

    private func setPrompt(_ prompt: Prompt) {
        setPromptText(prompt.rendered(escape: Self.promptEscape))
    }

    /// Sets the prompt libedit draws next, as rendered.
    private func setPromptText(_ text: String) {
        guard text != currentPrompt else { return }
        currentPrompt = text
        free(promptBuffer)
        promptBuffer = strdup(text)
    }

    /// libedit's read-character function: waits for standard input, doing the idle work (if
    /// any) every interval and showing its lines above the prompt, and drawing the prompt and
    /// the line again when the window has changed size (looked at on every wake-up: a resize's
    /// SIGWINCH interrupts the wait while libedit's handler is in place, and a wait never
    /// lasts longer than `resizeCheck`); then reads one UTF-8 character. Returns 1, 0 at the
    /// end of the input, or -1 on an error (`errno` EINTR for a SIGINT, which ends the line as
    /// libedit's own reader does).
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        while true {
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&input, 1, idle.map { min($0.milliseconds, Self.resizeCheck) } ?? Self.resizeCheck)
            if ready > 0 { break }
            if ready < 0 {
                guard errno == EINTR else { return -1 }
                // A SIGINT ends the line.
                if interrupts?.wasReceived == true { return -1 }
            }
            redrawIfResized()
            guard ready == 0, let work = idle, ContinuousClock.now >= nextIdleWork else { continue }
            nextIdleWork = ContinuousClock.now + work.interval
            guard let lines = work.run() else {
                idle = nil
                continue
            }
            if !lines.isEmpty { showAbovePrompt(lines) }
        }
        var lead: UInt8 = 0
        guard let count = readByte(&lead) else { return -1 }
        guard count > 0 else { return 0 }
        let length = switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
        var bytes = [lead]
        while bytes.count < length {
            var next: UInt8 = 0
            guard let count = readByte(&next), count > 0 else { break }
            bytes.append(next)
        }
        let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        character.pointee = wchar_t(bitPattern: scalar.value)
        return 1
    }

    /// How often, in milliseconds, a wait for a key looks whether the window changed size.
    private static let resizeCheck: Int32 = 200

    private static func currentWindowSize() -> (columns: UInt16, rows: UInt16)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return (size.ws_col, size.ws_row)
    }

    /// After a resize: libedit learns the new width and draws the prompt and the whole line
    /// again, from the start of the row the cursor is on.
    private func redrawIfResized() {
        let size = Self.currentWindowSize()
        guard let size, size.columns != windowSize?.columns || size.rows != windowSize?.rows else { return }
        windowSize = size
        el_resize(editLine)
        redraw()
    }

    /// Draws the prompt and the whole line again, from the start of the row the cursor is on.
    private func redraw() {
        let stdout = shim_stdout()
        fputs("\r\u{1B}[K", stdout)
        fflush(stdout)
        shim_el_refresh(editLine)
    }

    /// Reads one byte of standard input: the count read (0 at the end), or `nil` on an error.
    private func readByte(_ byte: inout UInt8) -> Int? {
        while true {
            let count = Foundation.read(STDIN_FILENO, &byte, 1)
            if count >= 0 { return count }
            if errno != EINTR || interrupts?.wasReceived == true { return nil }
        }
    }

    /// Prints `lines` where the prompt is, then draws the prompt and the line being edited
    /// again below them.
    private func showAbovePrompt(_ lines: [OutputLine]) {
        let stdout = shim_stdout(), stderr = shim_stderr()
        fputs("\r\u{1B}[K", stdout)
        fflush(stdout)
        for line in lines {
            fputs(line.text.replacing("\n", with: "\r\n") + "\r\n", line.stream == .error ? stderr : stdout)
            fflush(line.stream == .error ? stderr : stdout)
        }
        shim_el_refresh(editLine)
    }

    private static func from(_ editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = shim_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    // MARK: Key functions

    /// Ctrl-C: shows `^C` after the line and accepts it, flagged so the caller drops it.
    ///
    /// A function returning `CC_NEWLINE` would leave the cursor where it is, possibly inside the
    /// line; moving to its end, appending `^C` and pushing a newline lets libedit's own
    /// `ed-newline` finish the display.
    private func interrupt() -> UInt8 {
        interrupted = true
        moveCursorToEnd()
        el_insertstr(editLine, "^C")
        el_push(editLine, "\n")
        return UInt8(CC_REFRESH)
    }

    /// Ctrl-R: an incremental search of the history, newest first, for entries that hold what
    /// is typed. The prompt shows the text, the line shows the match: typing adds to the text,
    /// Backspace takes from it, Ctrl-R again finds an older match. Enter runs the match; Ctrl-G
    /// gives the line back as it was; any other key ends the search with the match on the line
    /// and then does what it does (an arrow or Ctrl-A to edit it, Ctrl-C to abandon it).
    private func reverseSearch() -> UInt8 {
        let original = currentLine().text
        let entries = history.entries
        let restoredPrompt = currentPrompt
        var text = ""
        var found: Int?
        var failed = false
        func show() {
            let match = found.map { entries[$0] } ?? original
            setPromptText((failed ? "(failed reverse-i-search)'" : "(reverse-i-search)'") + text + "': ")
            setLine(match)
            redraw()
        }
        func search(from start: Int) {
            guard !text.isEmpty else {
                failed = false
                return
            }
            if let index = entries.indices.dropFirst(start).first(where: { entries[$0].contains(text) }) {
                found = index
                failed = false
            } else {
                failed = true
            }
        }
        func end(line: String) {
            setPromptText(restoredPrompt)
            setLine(line)
            redraw()
        }
        show()
        while true {
            var key: wchar_t = 0
            guard el_wgetc(editLine, &key) > 0 else {
                end(line: original)
                return UInt8(CC_REFRESH)
            }
            switch key {
            case 0x12:  // Ctrl-R
                search(from: (found ?? -1) + 1)
            case 0x7F, 0x08:  // Backspace
                if !text.isEmpty { text.removeLast() }
                found = nil
                search(from: 0)
            case 0x07:  // Ctrl-G
                end(line: original)
                return UInt8(CC_REFRESH)
            case 0x0D, 0x0A:  // Enter
                end(line: found.map { entries[$0] } ?? original)
                el_push(editLine, "\n")
                return UInt8(CC_REFRESH)
            case 0x20..<0x7F, 0xA0...:
                if let scalar = Unicode.Scalar(UInt32(key)) { text.unicodeScalars.append(scalar) }
                search(from: found ?? 0)
            default:
                end(line: found.map { entries[$0] } ?? original)
                if let scalar = Unicode.Scalar(UInt32(key)) { el_push(editLine, String(Character(scalar))) }
                return UInt8(CC_REFRESH)
            }
            show()
        }
    }

    /// Up (`older`) or Down: the next entry in that direction that starts with the search prefix.
    private func recall(older: Bool) -> UInt8 {
        let (line, cursor) = currentLine()
        if search?.shown != line {
            guard older else { return UInt8(CC_ERROR) }
            let prefix = String(decoding: Array(line.utf8.prefix(cursor)), as: UTF8.self)
            search = HistorySearch(prefix: prefix, entries: history.entries, original: line)
        }
        guard let text = older ? search?.older() : search?.newer() else { return UInt8(CC_ERROR) }
        setLine(text)
        return UInt8(CC_REFRESH)
    }

    /// The line as UTF-8 text and the cursor's UTF-8 offset in it.
    private func currentLine() -> (text: String, cursor: Int) {
        guard let info = el_line(editLine)?.pointee, let start = info.buffer else { return ("", 0) }
        let length = info.lastchar.map { start.distance(to: $0) } ?? 0
        let cursor = info.cursor.map { start.distance(to: $0) } ?? length
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self), count: length)
        return (String(decoding: bytes, as: UTF8.self), min(cursor, length))
    }

    /// Replaces the whole line; the cursor ends after it.
    private func setLine(_ text: String) {
        moveCursorToEnd()
        let old = currentLine().text.unicodeScalars.count
        if old > 0 { el_deletestr(editLine, Int32(old)) }
        if !text.isEmpty { el_insertstr(editLine, text) }
    }

    private func moveCursorToEnd() {
        let (line, cursor) = currentLine()
        let after = String(decoding: Array(line.utf8.dropFirst(cursor)), as: UTF8.self).unicodeScalars.count
        if after > 0 { el_cursor(editLine, Int32(after)) }
    }

    /// Tab: one candidate is inserted in full (plus a space unless it ends in `/`); several
    /// insert what they share. When that adds nothing, the Tab rings the bell, and a second Tab
    /// with the line unchanged lists the candidates in columns, once: a further Tab on the same
    /// line lists nothing again.
    private func completeWord() -> UInt8 {
        let (line, cursor) = currentLine()
        let listed = lastTab?.line == line && lastTab?.cursor == cursor ? lastTab?.listed : nil
        lastTab = (line, cursor, listed ?? false)
        let bytes = Array(line.utf8)
        let completion = complete(line, cursor)
        let range = completion.range.clamped(to: 0..<cursor)
        let typed = String(decoding: bytes[range], as: UTF8.self)

        switch completion.candidates.count {
        case 0:
            return UInt8(CC_ERROR)
        case 1:
            let candidate = completion.candidates[0]
            let followedBySpace = cursor < bytes.count && bytes[cursor] == UInt8(ascii: " ")
            let suffix = candidate.hasSuffix("/") || followedBySpace ? "" : " "
            replace(typed, with: candidate + suffix)
            return UInt8(CC_REFRESH)
        default:
            let prefix = completion.commonPrefix
            if prefix.unicodeScalars.count > typed.unicodeScalars.count, prefix.unicodeScalars.starts(with: typed.unicodeScalars) {
                replace(typed, with: prefix)
                let (completed, at) = currentLine()
                lastTab = (completed, at, false)
                return UInt8(CC_REFRESH)
            }
            switch listed {
            case nil: return UInt8(CC_ERROR)
            case true?: return UInt8(CC_NORM)
            case false?: lastTab?.listed = true
            }
            let columns = Int(shim_el_columns(editLine))
            let listing = CandidateColumns(displayNames(completion.candidates, typed: typed), width: columns > 0 ? columns : 80)
            let stdout = shim_stdout()
            fputs("\n" + listing.text, stdout)
            fflush(stdout)
            return UInt8(CC_REDISPLAY)
        }
    }

    /// Replaces the word before the cursor: keeps what `typed` and `replacement` share, deletes
    /// the rest of `typed` and inserts the rest of `replacement`.
    private func replace(_ typed: String, with replacement: String) {
        let old = Array(typed.unicodeScalars)
        let new = Array(replacement.unicodeScalars)
        var shared = 0
        while shared < old.count, shared < new.count, old[shared] == new[shared] { shared += 1 }
        if shared < old.count { el_deletestr(editLine, Int32(old.count - shared)) }
        if shared < new.count {
            var inserted = String.UnicodeScalarView()
            inserted.append(contentsOf: new[shared...])
            el_insertstr(editLine, String(inserted))
        }
    }

    /// File candidates are listed without the directory the typed word already names.
    private func displayNames(_ candidates: [String], typed: String) -> [String] {
        guard let slash = typed.lastIndex(of: "/") else { return candidates }
        let directory = String(typed[...slash])
        guard candidates.allSatisfy({ $0.hasPrefix(directory) && $0.count > directory.count }) else { return candidates }
        return candidates.map { String($0.dropFirst(directory.count)) }
    }
}

/// One Up/Down history search: the entries that start with `prefix`, from the newest, each text
/// shown once; Down retraces the steps and past the newest brings back the original line.
struct HistorySearch {
    let prefix: String
    /// Newest first.
    let entries: [String]
    let original: String
    /// The indices in `entries` shown so far, the current one last.
    private var path: [Int] = []

    init(prefix: String, entries: [String], original: String) {
        self.prefix = prefix
        self.entries = entries
        self.original = original
    }

    /// What the line shows now; an edit ends the search.
    var shown: String { path.last.map { entries[$0] } ?? original }

    mutating func older() -> String? {
        let seen = Set(path.map { entries[$0] } + [original])
        let start = (path.last ?? -1) + 1
        guard let found = entries.indices.dropFirst(start).first(where: { candidate in
            !seen.contains(entries[candidate]) && entries[candidate].utf8.starts(with: prefix.utf8)
        }) else { return nil }
        path.append(found)
        return shown
    }

    mutating func newer() -> String? {
        guard !path.isEmpty else { return nil }
        path.removeLast()
        return shown
    }
}

/// Candidates laid out in columns, filled top to bottom, like `ls`.
struct CandidateColumns {
    let text: String

    init(_ names: [String], width: Int) {
        let widths = names.map(Self.displayWidth)
        let columnWidth = (widths.max() ?? 0) + 2
        let columns = max(1, min(names.count, width / max(columnWidth, 1)))
        let rows = (names.count + columns - 1) / columns
        var text = ""
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                let index = column * rows + row
                guard index < names.count else { break }
                let isLast = column == columns - 1 || index + rows >= names.count
                line += names[index]
                if !isLast { line += String(repeating: " ", count: columnWidth - widths[index]) }
            }
            text += line + "\n"
        }
        self.text = text
    }

    /// Terminal columns the text takes (CJK characters take two).
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            total + max(0, Int(shim_wcwidth(scalar.value)))
        }
    }
}

/// Reads lines without editing, for a `dumb` terminal or when libedit cannot start.
///
/// It reads standard input with `read(2)` rather than Swift's `readLine()`, which spins when a
/// signal interrupts it: Ctrl-C arrives here as SIGINT, interrupts the read (`InterruptSignal`
/// installs its handler without `SA_RESTART`) and is reported as `.interrupt`.
final class PlainLineReader: LineReader {
    private let history: CommandHistory?
    private let interrupts: InterruptSignal
    private var splitter = LineSplitter()
    private var pending: [String] = []
    private var atEnd = false

    init(history: CommandHistory?, interrupts: InterruptSignal) {
        self.history = history
        self.interrupts = interrupts
    }

    func read(prompt: Prompt, whileIdle idle: IdleWork?) -> LineInput {
        FileHandle.standardOutput.write(Data(prompt.rendered(escape: nil).utf8))
        interrupts.clear()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var idle = idle
        while pending.isEmpty && !atEnd {
            if let work = idle, !waitForInput(work, prompt: prompt) { idle = nil }
            // A SIGINT while waiting is an interrupted read, as one during the read is.
            let count = buffer.withUnsafeMutableBytes { interrupts.read(STDIN_FILENO, into: $0) }
            if count > 0 {
                pending += splitter.append(buffer[..<count]).map(Self.text)
            } else if count < 0, interrupts.wasReceived || errno == EINTR {
                guard interrupts.clear() else { continue }
                splitter = LineSplitter()
                FileHandle.standardOutput.write(Data("\n".utf8))
                return .interrupt
            } else {
                atEnd = true
                pending += splitter.finish().map { [Self.text($0)] } ?? []
            }
        }
        return pending.isEmpty ? .endOfInput : .line(pending.removeFirst())
    }

    func remember(_ entry: String) {
        history?.add(entry)
    }

    /// Waits until standard input has something to read (or a signal comes), doing `work` every
    /// interval meanwhile; its lines are printed on lines of their own, and the prompt again.
    /// Returns `false` once the work is done for this prompt.
    private func waitForInput(_ work: IdleWork, prompt: Prompt) -> Bool {
        while true {
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            if poll(&input, 1, work.milliseconds) != 0 { return true }
            guard let lines = work.run() else { return false }
            guard !lines.isEmpty else { continue }
            let text = lines.map { $0.text + "\n" }.joined()
            FileHandle.standardOutput.write(Data(("\n" + text + prompt.rendered(escape: nil)).utf8))
        }
    }

    private static func text(_ line: LineSplitter.Line) -> String {
        String(decoding: line.bytes, as: UTF8.self)
    }
}
