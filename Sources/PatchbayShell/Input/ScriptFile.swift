import Foundation

/// Reads script files for `load`.
enum ScriptFile {
    static func read(_ path: String, at range: Range<Int>) throws(ShellError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ShellError(.file(path: path, detail: "no such file"), at: range)
        }
        guard !isDirectory.boolValue else {
            throw ShellError(.file(path: path, detail: "it is a directory"), at: range)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShellError(.file(path: path, detail: "permission denied or unreadable"), at: range)
        }
        return [UInt8](data)
    }
}
