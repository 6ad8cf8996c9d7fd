import Foundation
import Synchronization

/// Runs the built `patchbay` binary on a real pseudo-terminal, through util-linux
/// `script -q -e -c COMMAND /dev/null`, and lets a test type keys and wait for output.
///
/// `script` gives the child a controlling terminal, so `isatty` is true and libedit edits the
/// line; its own standard input and output are pipes. The environment is pinned (UTF-8 locale,
/// `TERM=xterm`, an empty editrc, a temporary `HOME`, `NO_COLOR`) so a developer's settings
/// cannot change key bindings or output. Every wait has a timeout, so a broken shell fails the
/// test instead of hanging it.
final class TerminalHarness {
    /// The prompt the shell shows when it waits for a new command.
    static let prompt = "patchbay> "

    /// Whether util-linux `script` is here (BSD `script`, as on macOS, takes other arguments).
    static var isAvailable: Bool {
        #if os(Linux)
        FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        #else
        false
        #endif
    }

    let historyFile: String
    private let process = Process()
    private let input = Pipe()
    private let output = TerminalOutput()
    /// How far `expect` has consumed the output.
    private var consumed = 0

    /// Starts `patchbay --history-file HISTORYFILE ARGUMENTS...` in `directory` (which also
    /// serves as `HOME`); `environment` adds to the pinned variables, or replaces them.
    /// `columns` sets the terminal's width (`stty cols`) before the shell starts.
    init(directory: String, historyFile: String, arguments: [String] = [], environment: [String: String] = [:], columns: Int? = nil) throws {
        self.historyFile = historyFile
        let editrc = directory + "/editrc"
        _ = FileManager.default.createFile(atPath: editrc, contents: Data())
        // `exec`: the shell that `script` starts gives the terminal to `patchbay` itself, so that
        // a Ctrl-C while a command runs reaches only `patchbay`.
        let size = columns.map { "stty cols \($0) rows 40 && " } ?? ""
        let command = size + "exec " + ([Self.binary.path, "--history-file", historyFile] + arguments).map(Self.shellQuoted).joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let inherited = ProcessInfo.processInfo.environment
        process.environment = [
            "PATH": inherited["PATH"] ?? "/usr/bin:/bin",
            "SHELL": "/bin/sh",
            "LANG": "C.UTF-8",
            "TERM": "xterm",
            "EDITRC": editrc,
            "HOME": directory,
            "NO_COLOR": "1",
        ].merging(inherited.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { pinned, _ in pinned }  // a sanitized run's settings
            .merging(environment) { _, given in given }
        let stdout = Pipe()
        process.standardInput = input
        process.standardOutput = stdout
        process.standardError = stdout
        let buffer = output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                buffer.close()
            } else {
                buffer.append(data)
            }
        }
        try process.run()
    }

    deinit { stop() }

    /// Everything the terminal showed so far (escape sequences included).
    var transcript: String { output.text }

    /// Waits until `text` appears after what earlier calls consumed; consumes up to its end.
    func expect(_ text: String, timeout: Duration = .seconds(5)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let bytes = output.bytes
            if let end = Self.find(Array(text.utf8), in: bytes, from: consumed) {
                consumed = end
                return true
            }
            if clock.now >= deadline || (!process.isRunning && output.isClosed) { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Types `keys` (raw bytes: `\r` for Enter, `\t` for Tab, `\u{03}` for Ctrl-C ...).
    func send(_ keys: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data(keys.utf8))
    }

    /// Changes the terminal's window size, as a person resizing the window does: the new size
    /// is set on the shell's terminal, and the kernel sends SIGWINCH to its foreground group.
    /// `false` when the terminal could not be found or set.
    func resize(columns: Int, rows: Int) -> Bool {
        let pid = process.processIdentifier
        let children = currentText(ofFile: "/proc/\(pid)/task/\(pid)/children")
        guard let child = children.split(separator: " ").first.flatMap({ Int32($0) }),
              let terminal = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/fd/0"),
              terminal.hasPrefix("/dev/pts/") else { return false }
        let descriptor = open(terminal, O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        return ioctl(descriptor, UInt(TIOCSWINSZ), &size) == 0
    }

    /// Waits for the shell to end; its exit status, or `nil` after the timeout. (Generous: on
    /// a loaded machine, with every terminal test running at once, an exit has taken seconds.)
    func exitStatus(timeout: Duration = .seconds(20)) async -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            if clock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    /// Ends the shell if it still runs: `patchbay` is killed first, then `script`. (`script`
    /// does not pass SIGTERM on: a `patchbay` left behind by a failed test, busy with a long
    /// evaluation, would go on using a core for the rest of the test run.)
    func stop() {
        if process.isRunning {
            let pid = process.processIdentifier
            let children = currentText(ofFile: "/proc/\(pid)/task/\(pid)/children")
            for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGKILL) }
            process.terminate()
        }
        try? input.fileHandleForWriting.close()
    }

    /// The `patchbay` executable in the build products directory, next to the test bundle;
    /// else `.build/debug/patchbay` under the package root.
    static let binary: URL = {
        let starts = [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }
        for start in starts {
            var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("patchbay")
                if FileManager.default.isExecutableFile(atPath: candidate.path), !isDirectory(candidate.path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/patchbay")
    }()

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start }
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
        }
        return nil
    }
}

/// What the terminal printed, filled by the pipe's reading handler on another thread.
final class TerminalOutput: Sendable {
    private let state = Mutex<(bytes: [UInt8], closed: Bool)>(([], false))

    func append(_ data: Data) {
        state.withLock { $0.bytes.append(contentsOf: data) }
    }

    func close() {
        state.withLock { $0.closed = true }
    }

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var isClosed: Bool { state.withLock { $0.closed } }
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
