import Foundation

/// Reads script files for `load` (and, through `bytes(atPath:)`, the host's script files and
/// rc file).
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

    static func read(_ path: String, at range: Range<Int>) throws(ShellError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ShellError(.file(path: path, detail: "no such file"), at: range)
        }
        guard !isDirectory.boolValue else {
            throw ShellError(.file(path: path, detail: "it is a directory"), at: range)
        }
        guard let bytes = bytes(atPath: path) else {
            throw ShellError(.file(path: path, detail: "permission denied or unreadable"), at: range)
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
