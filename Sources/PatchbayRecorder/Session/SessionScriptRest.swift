import Dispatch

/// The lines of a session file after those a replay started with (see
/// `SessionScript.start(contentsOf:)`), read on a thread of their own.
///
/// It is `@unchecked Sendable` because the thread writes `read` while the replay holds the
/// object, yet they never touch it at once: the thread writes it once, then signals `done`;
/// `add(to:)` reads it only after waiting for `done`.
package final class SessionScriptRest: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// What the thread read.
    private var read: SessionLoader<SessionScript>.Loaded?
    /// Why it could not read it (the header was read before, so this does not happen).
    private var failure: SessionError?

    /// Starts reading `bytes` from `start` with `loader`, which read the lines before it.
    init(reading bytes: [UInt8], from start: Int, with loader: SessionLoader<SessionScript>) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var loader = loader
            do throws(SessionError) {
                _ = try bytes.withUnsafeBufferPointer { bytes throws(SessionError) in
                    try loader.take(UnsafeBufferPointer(rebasing: bytes[start...]), atEnd: true)
                }
                read = try loader.finish()
            } catch {
                failure = error
            }
            done.signal()
        }
    }

    /// Waits for the rest of the file to be read, then adds its commands and effects to
    /// `script`, which holds those before them, and its damage, if any. Call it once.
    package func add(to script: inout SessionScript) {
        done.wait()
        if var read {
            script.moveContent(of: &read.content, lineOffset: 0)
            script.damage = read.damage
        } else {
            script.damage = failure
        }
        read = nil
    }
}
