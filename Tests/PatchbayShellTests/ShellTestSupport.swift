import Foundation
@_spi(Shell) import PatchbayShell

/// Runs commands through a fresh shell and splits what they print by stream.
struct ShellRun {
    var output: [String] = []
    var errors: [String] = []
    var failures = 0

    /// `written` sees each line as the script prints it (what a test does at a point of the run).
    init(_ script: String, json: Bool = false, keepGoing: Bool = false, name: String = "test.pb",
         written: @escaping (OutputLine) -> Void = { _ in }) {
        let shell = Shell.scratch(ShellOptions(json: json))
        var collected: [OutputLine] = []
        var runner = ScriptRunner(shell: shell, name: name, keepGoing: keepGoing) { line in
            collected.append(line)
            written(line)
        }
        runner.run(Array(script.utf8))
        failures = runner.failures
        for line in collected {
            if line.stream == .output { output.append(line.text) } else { errors.append(line.text) }
        }
    }
}

extension Shell {
    /// A shell for a test, in a new temporary directory of its own unless `options` names one:
    /// the files its commands name by relative paths (`record x.jsonl`, `save s.pb`) are made
    /// there, never in the package the tests run in. The directories go when the tests end.
    static func scratch(_ options: ShellOptions = ShellOptions(), fileNames: FileNameLister = FileNameLister()) -> Shell {
        var options = options
        if options.directory == nil { options.directory = ScratchDirectories.make() }
        return Shell(options: options, fileNames: fileNames)
    }
}

/// The temporary directories of the tests' shells, in one directory of the test process's,
/// removed when the process exits.
enum ScratchDirectories {
    static let root: String = {
        let root = NSTemporaryDirectory() + "patchbay-shell-tests-\(getpid())"
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ScratchDirectories.root) }
        return root
    }()

    static func make() -> String {
        let path = root + "/" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// A temporary directory removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "patchbay-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ contents: String) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: Data(contents.utf8))
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
