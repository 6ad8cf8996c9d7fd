import Foundation
@_spi(Shell) import PatchbayShell

/// The user's editor for `edit REDUCER`: `VISUAL`, else `EDITOR` (a command, run by `/bin/sh`
/// with the file's path after it, so that `code --wait` works), at an interactive terminal only.
/// The text goes to a new temporary file (readable by the user only), the editor gets the
/// terminal as the pager does (see `PagerProcess.runAtTerminal`), and the file is read back
/// and removed when the editor exits.
enum TerminalEditor {
    /// The editor the environment names, or `nil` when neither `VISUAL` nor `EDITOR` is set to
    /// a command.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ExternalEditor? {
        let named = ["VISUAL", "EDITOR"].lazy.compactMap { environment[$0]?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        guard let command = named else { return nil }
        return ExternalEditor(name: command) { text throws(EditorFailure) in try edit(text, with: command) }
    }

    private static func edit(_ text: String, with command: String) throws(EditorFailure) -> String {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("patchbay-edit-XXXXXX.pb").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
        guard descriptor >= 0 else { throw EditorFailure("could not be given a file (no temporary file: \(String(cString: strerror(errno))))") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(path) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        } catch {
            throw EditorFailure("could not be given a file (\(error.localizedDescription))")
        }
        if let failure = PagerProcess.runAtTerminal(command + " \"$1\"", arguments: ["patchbay-edit", path]).failure {
            throw EditorFailure(failure)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EditorFailure("left no file to read at \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
