extension SessionScript {
    /// Reads the session file at `path` for a replay that starts at once: the lines of about
    /// its first quarter are read before this returns, on all the cores; the rest of the file
    /// is read meanwhile on a thread of its own, while the replay runs the first commands, and
    /// makes the whole script when `rest` adds it (waiting for it). `rest` is `nil` when the
    /// script is whole already (a small file, or damage in its first part).
    ///
    /// Throws as `read(contentsOf:)` does, before returning: the header is in the first part.
    package static func start(contentsOf path: String) throws(SessionError) -> (script: SessionScript, rest: SessionScriptRest?) {
        let file = try SessionFile(opening: path)
        return try start(file, firstBytes: max(file.size / 4, 1 << 20), splitting: .automatic)
    }

    /// `start(contentsOf:)` with a first part of `firstBytes` (and the rest of its last line),
    /// read as `splitting` says.
    static func start(_ file: SessionFile, firstBytes: Int, splitting: SessionSplitting)
        throws(SessionError) -> (script: SessionScript, rest: SessionScriptRest?)
    {
        var bytes = SessionBytes(capacity: file.size + 1)
        let atEnd = try bytes.read(file, upTo: firstBytes)
        var loader = SessionLoader<SessionScript>(path: file.path, size: file.size, splitting: splitting)
        let used = try loader.take(bytes[0..<bytes.count], atEnd: atEnd)
        // A header longer than the first part: the whole file is read now.
        guard loader.hasHeader else {
            try file.readAll(into: &bytes)
            return (try read(bytes, path: file.path, splitting: splitting), nil)
        }
        guard !atEnd, loader.wantsMore else {
            let loaded = try loader.finish()
            var script = loaded.content
            script.bytes = bytes
            script.damage = loaded.damage
            return (script, nil)
        }
        var script = loader.takeContent(preparingFor: file.size - used)
        script.bytes = bytes
        // One thread: the other core runs the commands.
        loader.splitting = SessionSplitting(maximumPieces: 1, minimumPieceBytes: splitting.minimumPieceBytes, chunkBytes: splitting.chunkBytes)
        return (script, SessionScriptRest(after: script, reading: file, into: bytes, from: used, with: loader))
    }
}
