import Foundation

/// Lists file names for completion: the entries of the directory a partial path names.
@_spi(Shell)
public struct FileNameLister: Sendable {
    /// The directory relative paths start from; `nil` for the current directory.
    public var baseDirectory: String?

    public init(baseDirectory: String? = nil) {
        self.baseDirectory = baseDirectory
    }

    /// Paths that complete `partial`: `sess` gives `sessions/`; directories end in `/`.
    /// Hidden entries appear only when `partial`'s last component starts with a dot.
    func names(matching partial: String) -> [String] {
        let slash = partial.lastIndex(of: "/")
        let directoryPart = slash.map { String(partial[...$0]) } ?? ""
        let namePrefix = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
        var directory = directoryPart.isEmpty ? "." : directoryPart
        if !directory.hasPrefix("/"), let baseDirectory { directory = baseDirectory + "/" + directory }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return entries.filter { entry in
            entry.hasPrefix(namePrefix) && (!entry.hasPrefix(".") || namePrefix.hasPrefix("."))
        }.map { entry in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + entry, isDirectory: &isDirectory)
            return directoryPart + entry + (isDirectory.boolValue ? "/" : "")
        }.sorted()
    }
}
