import Foundation

/// Runs the built `patchbay` binary with piped standard streams.
struct PatchbayProcess {
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
                    directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let data = Data(input)
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: data)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errors = ErrorCollector(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                      errors: String(decoding: errors.finish(), as: UTF8.self))
    }

    static func run(_ arguments: [String] = [], script: String) throws -> Result {
        try run(arguments, input: Array(script.utf8))
    }
}

/// Reads a pipe to its end on another thread, so neither pipe can fill and block the child.
final class ErrorCollector: @unchecked Sendable {
    // `data` is written by the reading thread before `done` is signalled, and read only after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}
