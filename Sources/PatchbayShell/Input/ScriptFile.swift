import Foundation

/// Reads script files for `load`, the host's script files and `import devtools`: as a stream of
/// lines, so that a huge file is never held whole (see `ScriptLines`).
package enum ScriptFile {
    /// A relative path in a script names a file beside the script when there is one there;
    /// otherwise, and at the prompt, it is relative to the current directory.
    static func resolve(_ path: String, from origin: SourceOrigin) -> String {
        guard !path.hasPrefix("/"), let script = origin.name, script != "<stdin>", let slash = script.lastIndex(of: "/") else {
            return path
        }
        let sibling = String(script[...slash]) + path
        return FileManager.default.fileExists(atPath: sibling) ? sibling : path
    }

    /// Opens the regular file at `path` for `load`, as lines.
    static func lines(_ path: String, at range: Range<Int>) throws(ShellError) -> ScriptLines {
        do throws(FileProblem) { return try ScriptLines(path: path, regularOnly: true) } catch {
            throw ShellError(.file(path: path, detail: error.detail), at: range)
        }
    }

    /// The bytes of the regular file at `path` for `import devtools`, which may hold at most
    /// `limit` bytes; `command` names the command that reads it in the error about a larger one.
    static func read(_ path: String, limit: Int, command: String, at range: Range<Int>) throws(ShellError) -> [UInt8] {
        let lines: ScriptLines
        do throws(FileProblem) { lines = try ScriptLines(path: path, regularOnly: true) } catch {
            throw ShellError(.file(path: path, detail: error.detail), at: range)
        }
        guard let bytes = lines.whole(limit: limit) else {
            if let failure = lines.failure { throw ShellError(.file(path: path, detail: failure), at: range) }
            throw ShellError(.file(path: path, detail: "it is larger than \(limit >> 20) MiB, the most '\(command)' reads; import a smaller export"), at: range)
        }
        return bytes
    }

    /// The bytes of the file at `path`, or `nil` when it cannot be read.
    package static func bytes(atPath path: String) -> [UInt8]? {
        // An empty file has no bytes to read (and Foundation's read of a whole empty file keeps
        // the buffer it allocated for it).
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if attributes?[.type] as? FileAttributeType == .typeRegular, attributes?[.size] as? Int == 0 { return [] }
        return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}

/// Why a file cannot be read, said for people (`no such file`, `it is a directory`).
package struct FileProblem: Error {
    package let detail: String
}

/// A file read as a stream of lines, a chunk at a time: it never holds more than one chunk and
/// `InputLimits.maxLineBytes` of one line, and it stops at the first line longer than that
/// without reading the rest (that line comes back cut, `isWhole` false, for the error).
package final class ScriptLines {
    private var descriptor: Int32
    private var splitter = LineSplitter()
    private var ready: [LineSplitter.Line] = []
    private var readyIndex = 0
    private var ended = false
    /// Why reading stopped before the end of the file, if it did (a read error).
    package private(set) var failure: String?

    /// Opens the file at `path`: with `regularOnly`, a regular file only (what `load` reads);
    /// otherwise a pipe or a device too (a host script such as `<(command)`), never a directory.
    package init(path: String, regularOnly: Bool) throws(FileProblem) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileProblem(detail: Self.detail(errno)) }
        if status.st_mode & S_IFMT == S_IFDIR { throw FileProblem(detail: "it is a directory") }
        if regularOnly, let kind = FileIdentity.kind(status.st_mode) { throw FileProblem(detail: "it is \(kind), not a regular file") }
        // Not blocking on open: a pipe without a writer must not hang the shell.
        descriptor = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw FileProblem(detail: Self.detail(errno)) }
        // What was opened is what was looked at (the name may have changed in between).
        if regularOnly, fstat(descriptor, &status) != 0 || status.st_mode & S_IFMT != S_IFREG {
            close(descriptor)
            throw FileProblem(detail: FileIdentity.kind(status.st_mode).map { "it is \($0), not a regular file" } ?? "it changed while being opened")
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The next line, or `nil` at the end of the file (or after a line too long, or a read error).
    package func next() -> LineSplitter.Line? {
        while readyIndex == ready.count {
            guard !ended else { return nil }
            ready = readChunk()
            readyIndex = 0
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }

    /// The rest of the file, whole, when it holds at most `limit` bytes; `nil` when it holds more
    /// (read no further than `limit` and one byte) or reading failed (`failure`).
    func whole(limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = readSome(into: &buffer)
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
            if bytes.count > limit { return nil }
        }
    }

    private func readChunk() -> [LineSplitter.Line] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = readSome(into: &buffer)
        guard count > 0 else {
            ended = true
            return splitter.finish().map { [$0] } ?? []
        }
        var lines = splitter.append(buffer[..<count])
        if let overlong = splitter.takeOverlong() {
            lines.append(overlong)
            ended = true
        }
        return lines
    }

    /// `read(2)` into `buffer`: the count, 0 at the end, -1 after an error (in `failure`).
    private func readSome(into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count >= 0 { return count }
            if errno == EINTR { continue }
            failure = "reading stopped: \(Self.detail(errno))"
            return -1
        }
    }

    /// What an `errno` from opening or reading a file means, for people.
    static func detail(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case ENOTDIR: "a part of the path is not a directory"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code))
        }
    }
}
