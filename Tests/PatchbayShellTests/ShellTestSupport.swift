import Foundation
import PatchbayShell

/// Runs commands through a fresh shell and splits what they print by stream.
struct ShellRun {
    var output: [String] = []
    var errors: [String] = []
    var failures = 0

    init(_ script: String, json: Bool = false, keepGoing: Bool = false, name: String = "test.pb") {
        let shell = Shell(options: ShellOptions(json: json))
        var collected: [OutputLine] = []
        var runner = ScriptRunner(shell: shell, name: name, keepGoing: keepGoing) { collected.append($0) }
        runner.run(Array(script.utf8))
        failures = runner.failures
        for line in collected {
            if line.stream == .output { output.append(line.text) } else { errors.append(line.text) }
        }
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
