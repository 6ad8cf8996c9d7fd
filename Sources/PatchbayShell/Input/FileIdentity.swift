import Foundation
@_spi(Shell) import PatchbayRecorder

/// Which file a path names (its device and inode), so that two paths to one file are known
/// for the same: a file being read is never opened for writing.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` (following links), or `nil` when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// What a file that is not a regular one is (`a device`), for an error that says so; `nil`
    /// for a regular file.
    static func kind(_ mode: mode_t) -> String? {
        SessionError.fileKind(UInt32(mode))
    }
}
