import Foundation
import Synchronization
import Testing

/// A child process started with piped standard streams, whose output is collected on other
/// threads and whose end is awaited with a deadline: a child that hangs is killed and fails the
/// test, and never hangs the test run. (`Process.waitUntilExit()` is not used: it waits without
/// a deadline, and on some Linux hosts it has been seen not to return at all.)
final class ChildProcess: @unchecked Sendable {
    // `process` is configured before `run()` and read after; the collected bytes are behind locks.
    let process = Process()
    private let input = Pipe()
    private let output = Collected()
    private let errors = Collected()
    private let ended = DispatchSemaphore(value: 0)

    /// The temporary directory the child runs in when the test names none, removed with this.
    private let scratch: String?

    /// Starts `executable arguments...` in `directory`, else in a temporary directory of its
    /// own (so that a relative path it writes never lands in the package the tests run in);
    /// `NO_COLOR` is set, then `environment` is added. Standard error goes to `errors` unless
    /// `mergingErrors`, which sends it to `output`.
    init(_ executable: URL = PatchbayProcess.binary, _ arguments: [String] = [], environment: [String: String] = [:],
         directory: String? = nil, mergingErrors: Bool = false) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { _, new in new }
            .merging(environment) { _, new in new }
        if directory == nil {
            let path = NSTemporaryDirectory() + "patchbay-process-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            scratch = path
        } else {
            scratch = nil
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? scratch!)
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = input
        process.standardOutput = stdout
        process.standardError = mergingErrors ? stdout : stderr
        let semaphore = ended
        process.terminationHandler = { _ in semaphore.signal() }
        // The feeding writes fail with EPIPE once the child is gone, instead of raising SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        output.collect(stdout.fileHandleForReading)
        if !mergingErrors { errors.collect(stderr.fileHandleForReading) }
        try? stderr.fileHandleForWriting.close()
    }

    /// A child a failed test left running is killed: it must not go on using a core.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    /// What the child printed on standard output so far.
    var printed: String { output.text }

    /// What the child printed on standard error so far.
    var printedErrors: String { errors.text }

    /// Writes `bytes` to the child's standard input on another thread (a large input cannot
    /// block the test while the child's output fills its pipe), then closes it if `closing`.
    func feed(_ bytes: some Collection<UInt8>, closing: Bool = true) {
        let data = Data(bytes)
        let handle = input.fileHandleForWriting
        Thread {
            try? handle.write(contentsOf: data)
            if closing { try? handle.close() }
        }.start()
    }

    /// Closes the child's standard input.
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits until `condition` holds, polling; `false` after `timeout`.
    func wait(until condition: () -> Bool, timeout: Duration = .seconds(60)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    /// Waits until standard output holds `text`; `false` after `timeout` or when the child ended
    /// without printing it.
    func waitUntilPrinted(_ text: String, timeout: Duration = .seconds(60)) -> Bool {
        wait(until: { printed.contains(text) || !process.isRunning }, timeout: timeout) && printed.contains(text)
    }

    /// Waits for the child to end and its output to be read to the end. A child still running
    /// after `timeout` is killed, and the test fails naming `what`: `false`.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(300), _ what: @autoclosure () -> String = "the child process",
                     sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let seconds = Double(timeout.components.seconds)
        guard ended.wait(timeout: .now() + seconds) == .success else {
            kill(process.processIdentifier, SIGKILL)
            _ = ended.wait(timeout: .now() + 10)
            Issue.record("\(what()) did not end within \(timeout): killed. It printed:\n\(printed)\(printedErrors)",
                         sourceLocation: sourceLocation)
            return false
        }
        ended.signal()  // later waits return at once
        output.waitForEnd()
        errors.waitForEnd()
        return true
    }

    /// The exit status (after `waitForExit`).
    var status: Int32 { process.terminationStatus }

    /// Whether the child ended by a signal it did not handle (after `waitForExit`).
    var endedBySignal: Bool { process.terminationReason == .uncaughtSignal }

    /// Bytes a pipe delivered, read to its end by a thread of their own.
    private final class Collected: Sendable {
        private let state = Mutex<[UInt8]>([])
        private let done = DispatchSemaphore(value: 0)
        private let collecting = Atomic<Bool>(false)

        func collect(_ handle: FileHandle) {
            collecting.store(true, ordering: .sequentiallyConsistent)
            Thread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    state.withLock { $0 += data }
                }
                done.signal()
            }.start()
        }

        /// Waits (at most 10 s: a grandchild may hold the pipe open) for the end of the pipe.
        func waitForEnd() {
            guard collecting.load(ordering: .sequentiallyConsistent) else { return }
            _ = done.wait(timeout: .now() + 10)
            done.signal()
        }

        var text: String { String(decoding: state.withLock { $0 }, as: UTF8.self) }
    }
}

/// The text of the file at `path` as it is now; "" when it cannot be read. Read through a file
/// handle, not `String(contentsOfFile:)`: Foundation's whole-file read of an empty file keeps the
/// buffer it allocated (LeakSanitizer finds it), and a file a test polls is often still empty.
func currentText(ofFile path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
}

/// Runs the built `patchbay` binary to its end.
enum PatchbayProcess {
    struct Result {
        var status: Int32
        var output: String
        var errors: String

        var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// The `patchbay` executable next to the test bundle in the build products directory.
    static let binary: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("patchbay")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/patchbay")
    }()

    /// Runs `patchbay arguments...` with `input` on standard input (a pipe, so script mode).
    static func run(_ arguments: [String] = [], input: some Collection<UInt8> = [UInt8](), environment: [String: String] = [:],
                    directory: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        let child = try ChildProcess(binary, arguments, environment: environment, directory: directory)
        child.feed(input)
        let ended = child.waitForExit("patchbay \(arguments.joined(separator: " "))", sourceLocation: sourceLocation)
        return Result(status: ended ? child.status : -1, output: child.printed, errors: child.printedErrors)
    }

    static func run(_ arguments: [String] = [], script: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        try run(arguments, input: Array(script.utf8), sourceLocation: sourceLocation)
    }
}
