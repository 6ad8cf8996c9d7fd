import Dispatch

/// The part of a session file after the one a replay started with (see
/// `SessionScript.start(contentsOf:)`), read on a thread of its own: the thread reads the
/// file's bytes, their lines, and makes the whole script, so that the replay's thread only
/// takes it.
///
/// It is `@unchecked Sendable` because the thread writes `whole` while the replay holds the
/// object, yet they never touch it at once: the thread writes it once, then signals `done`;
/// `add(to:)` reads it only after waiting for `done`.
package final class SessionScriptRest: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// The whole script, once the thread made it.
    private var whole: SessionScript?
    /// Why the thread could not read the rest of the file.
    private var failure: SessionError?

    /// Starts reading the rest of `file` into `bytes`, whose lines from `start` on are read by
    /// `loader`, which read the lines before them into `first`.
    init(after first: SessionScript, reading file: SessionFile, into bytes: SessionBytes, from start: Int,
         with loader: SessionLoader<SessionScript>) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var (loader, bytes) = (loader, bytes)
            do throws(SessionError) {
                try file.readAll(into: &bytes)
                _ = try loader.take(bytes[start..<bytes.count], atEnd: true)
                var rest = try loader.finish()
                // The lists of the first part are copied here, not on the replay's thread.
                var script = first
                script.moveContent(of: &rest.content, lineOffset: 0)
                script.bytes = bytes
                script.damage = rest.damage
                whole = script
            } catch {
                failure = error
            }
            done.signal()
        }
    }

    /// Waits for the rest of the file, then makes `script` (the first part's, as
    /// `SessionScript.start(contentsOf:)` gave it) the whole script: every command and effect,
    /// and the damage, if any. A file that could not be read further ends in its damage. Call
    /// it once.
    package func add(to script: inout SessionScript) {
        done.wait()
        if let whole {
            script = whole
        } else {
            script.damage = failure
        }
        whole = nil
    }
}
