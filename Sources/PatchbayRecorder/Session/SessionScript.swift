package import PatchbayCore

/// A session file read for a replay: its commands, each with the lines of the effects recorded
/// after it, up to any damage.
///
/// Only the command lines are decoded. An effect line is kept as its bytes (the file is kept
/// whole), with its `seq`, once it is known to read without error (see `SessionLineCheck`; a
/// line in another form is read in full to know it): a replay that does not verify wants no
/// more of it, and a verification compares each event a command causes, as it would be written,
/// with the recorded line, byte for byte (see `matches(_:effect:scratch:)`).
///
/// Damage is found as `SessionReader` finds it: reading stops at the first damaged line, the
/// same message tells which line and why, and the commands before it are kept.
package struct SessionScript: Sendable {
    /// A command as recorded.
    package struct Command: Sendable {
        /// The command's text.
        package var text: String
        /// The file's line that holds it.
        package var line: Int
        /// The index in `effects` of its first effect.
        var firstEffect: Int
        /// Whether it is a `setup` line, run without verifying.
        package var isSetup = false
    }

    /// An effect line: where its bytes are, and its `seq`.
    struct Effect: Sendable {
        var line: Int
        var seq: Int
        /// Where the line starts in `bytes`, and how many bytes it has (without its line break).
        var start: Int
        var count: Int
    }

    /// The commands, in file order.
    package private(set) var commands: [Command] = []
    /// The effect lines, in file order: those of command `i` from its `firstEffect` up to that
    /// of the next command.
    private(set) var effects: [Effect] = []
    /// The file's bytes, where the effect lines are.
    var bytes = SessionBytes(capacity: 0)
    /// The first damaged line, if any: nothing after it was read.
    package internal(set) var damage: SessionError?

    /// A script of no commands.
    init() {}

    /// Reads the session file at `path`. Throws when the file cannot be read or does not start
    /// with a header this reader accepts; damage after the header is kept in `damage`.
    static func read(contentsOf path: String) throws(SessionError) -> SessionScript {
        try read(contentsOf: path, splitting: .automatic)
    }

    /// Reads a session from `bytes`; `path`, when given, names the file in errors.
    static func read(_ bytes: [UInt8], path: String? = nil) throws(SessionError) -> SessionScript {
        try read(bytes, path: path, splitting: .automatic)
    }

    /// `read(contentsOf:)`, splitting as `splitting` says.
    static func read(contentsOf path: String, splitting: SessionSplitting) throws(SessionError) -> SessionScript {
        let file = try SessionFile(opening: path)
        var bytes = SessionBytes(capacity: file.size + 1)
        try file.readAll(into: &bytes)
        return try read(bytes, path: path, splitting: splitting)
    }

    /// `read(_:path:)`, splitting as `splitting` says.
    static func read(_ bytes: [UInt8], path: String? = nil, splitting: SessionSplitting) throws(SessionError) -> SessionScript {
        try read(SessionBytes(bytes), path: path, splitting: splitting)
    }

    /// The script of all the bytes put in `bytes`.
    static func read(_ bytes: SessionBytes, path: String?, splitting: SessionSplitting) throws(SessionError) -> SessionScript {
        var loader = SessionLoader<SessionScript>(path: path, size: bytes.count, splitting: splitting)
        _ = try loader.take(bytes[0..<bytes.count], atEnd: true)
        let loaded = try loader.finish()
        var script = loaded.content
        script.bytes = bytes
        script.damage = loaded.damage
        return script
    }

    /// The indexes in `effects` of the effects recorded before the first command.
    package var effectsBeforeFirstCommand: Range<Int> {
        0..<(commands.first?.firstEffect ?? effects.count)
    }

    /// The indexes in `effects` of the effects of command `index`.
    package func effects(ofCommand index: Int) -> Range<Int> {
        commands[index].firstEffect..<(index + 1 < commands.count ? commands[index + 1].firstEffect : effects.count)
    }

    /// The event of effect line `index`, read in full; `nil` only if it no longer reads, which
    /// the check that kept it rules out.
    package func event(ofEffect index: Int) -> SessionEvent? {
        let effect = effects[index]
        var parser = SessionLineParser()
        guard (try? parser.parse(bytes[effect.start..<(effect.start + effect.count)])) != nil else { return nil }
        return try? SessionEvent.decode(&parser.fields)
    }

    /// Whether `event` is what effect line `index` recorded. It is when writing it with the
    /// line's `seq` gives the line's bytes (the usual case: the line was written so), which is
    /// found without writing it (see `SessionLineMatcher`); otherwise the line is read and its
    /// event compared, as a line in another form may still say the same. `scratch` is working
    /// space, kept to be used again.
    package func matches(_ event: SessionEvent, effect index: Int, scratch: inout [UInt8]) -> Bool {
        matches(effect: index, scratch: &scratch) { seq, matcher in event.encode(seq: seq, into: &matcher) } || self.event(ofEffect: index) == event
    }

    /// Whether `write` writes effect line `index`, given its `seq`.
    private func matches(effect index: Int, scratch: inout [UInt8], _ write: (Int, inout SessionLineMatcher) -> Void) -> Bool {
        let effect = effects[index]
        var matcher = SessionLineMatcher(bytes[effect.start..<(effect.start + effect.count)], scratch: scratch)
        scratch = []
        write(effect.seq, &matcher)
        scratch = matcher.scratchSpace
        return matcher.matchesWholeLine
    }
}

extension SessionScript: SessionContent {
    mutating func prepare(forBytes byteCount: Int) {
        commands.removeAll(keepingCapacity: true)
        effects.removeAll(keepingCapacity: true)
        // Room for a command and an effect every 128 bytes (a dispatch of one action takes
        // about 250) saves growing the lists, and copying them, as they fill; what is not
        // used is not touched either.
        commands.reserveCapacity(byteCount / 128)
        effects.reserveCapacity(byteCount / 128)
    }

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, offset: Int, parser: inout SessionLineParser)
        throws(SessionError.Reason) -> Bool
    {
        if let seq = SessionLineCheck.seq(ofEffect: bytes) {
            effects.append(Effect(line: line, seq: seq, start: offset, count: bytes.count))
            return true
        }
        if let text = SessionLineCheck.text(ofCommand: bytes) {
            commands.append(Command(text: text, line: line, firstEffect: effects.count))
            return true
        }
        try parser.parse(bytes)
        let seq = try parser.fields.int(.seq)
        switch try SessionEvent.decode(&parser.fields) {
        case .command(let text)?:
            commands.append(Command(text: text, line: line, firstEffect: effects.count))
        case .setup(let text)?:
            commands.append(Command(text: text, line: line, firstEffect: effects.count, isSetup: true))
        case _?:
            effects.append(Effect(line: line, seq: seq, start: offset, count: bytes.count))
        case nil:
            return false
        }
        return true
    }

    mutating func finishPiece() {}

    mutating func moveContent(of piece: inout SessionScript, lineOffset: Int) {
        let effectOffset = effects.count
        // Once, at the size wanted (a list shared with the replay's script is copied here).
        commands.reserveCapacity(commands.count + piece.commands.count)
        effects.reserveCapacity(effects.count + piece.effects.count)
        for var command in piece.commands {
            command.line += lineOffset
            command.firstEffect += effectOffset
            commands.append(command)
        }
        for var effect in piece.effects {
            effect.line += lineOffset
            effects.append(effect)
        }
        piece.prepare(forBytes: 0)
    }
}
