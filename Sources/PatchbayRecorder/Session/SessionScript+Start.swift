extension SessionScript {
    /// Reads the session file at `path` for a replay that starts at once: the lines of about
    /// its first eighth are read before this returns, on all the cores; the others are read
    /// meanwhile on a thread of their own, while the replay runs the first commands, and added
    /// to the script by `rest`, which waits for them. `rest` is `nil` when the script is whole
    /// (a small file, or damage in its first part).
    ///
    /// Throws as `read(contentsOf:)` does, before returning: the header is in the first part.
    package static func start(contentsOf path: String) throws(SessionError) -> (script: SessionScript, rest: SessionScriptRest?) {
        let bytes = try SessionReader.contents(of: path)
        return try start(bytes, path: path, firstBytes: max(bytes.count / 8, 1 << 20), splitting: .automatic)
    }

    /// `start(contentsOf:)` for `bytes`, with a first part of `firstBytes` (and the rest of its
    /// last line), read as `splitting` says.
    static func start(_ bytes: [UInt8], path: String?, firstBytes: Int, splitting: SessionSplitting)
        throws(SessionError) -> (script: SessionScript, rest: SessionScriptRest?)
    {
        var loader = SessionLoader<SessionScript>(path: path, size: bytes.count, splitting: splitting)
        let first = min(firstBytes, bytes.count)
        let used = try bytes.withUnsafeBufferPointer { bytes throws(SessionError) in
            try loader.take(UnsafeBufferPointer(rebasing: bytes[..<first]), atEnd: first == bytes.count)
        }
        // A header longer than the first part, or too little left to be worth a thread.
        guard loader.hasHeader, loader.wantsMore, used < bytes.count, used > 0 else {
            return (try read(bytes, path: path, splitting: splitting), nil)
        }
        var script = loader.takeContent(preparingFor: bytes.count - used)
        script.bytes = bytes
        // One thread: the other core runs the commands.
        loader.splitting = SessionSplitting(maximumPieces: 1, minimumPieceBytes: splitting.minimumPieceBytes, chunkBytes: splitting.chunkBytes)
        return (script, SessionScriptRest(reading: bytes, from: used, with: loader))
    }
}
