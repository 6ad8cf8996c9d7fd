import Foundation
import PatchbayCore
@testable import PatchbayRecorder
import Testing

/// A replay's reading of a session (`SessionScript`) holds what `SessionReader` reads, in
/// another shape: the same commands on the same lines, each effect line with its `seq` and
/// the event it reads into, and the same damage, however the lines are written.
@Suite struct SessionScriptTests {
    /// Checks that the script of `bytes` holds what their load holds.
    static func expectSameAsLoad(_ bytes: [UInt8], splitting: SessionSplitting = .automatic,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let load = try SessionReader.read(bytes, path: "s.pb", splitting: splitting)
        let script = try SessionScript.read(bytes, path: "s.pb", splitting: splitting)
        #expect(script.damage == load.damage, sourceLocation: sourceLocation)
        // The events from the first command on, as the script's commands and effects give them.
        var events: [RecordedEvent] = []
        for index in script.commands.indices {
            events.append(RecordedEvent(line: script.commands[index].line, seq: 0, event: .command(script.commands[index].text)))
            for effect in script.effects(ofCommand: index) {
                let recorded = script.effects[effect]
                let event = try #require(script.event(ofEffect: effect), sourceLocation: sourceLocation)
                events.append(RecordedEvent(line: recorded.line, seq: recorded.seq, event: event))
            }
        }
        var expected = Array(load.events.drop { if case .command = $0.event { false } else { true } })
        for index in expected.indices where expected[index].event.kind == "command" { expected[index].seq = 0 }
        #expect(events == expected, sourceLocation: sourceLocation)
    }

    /// A session of random events, commands among them, each line as the writer writes it.
    static func lines(count: Int, seed: UInt64) -> [String] {
        var generator = ValueGenerator(seed: seed)
        return (0..<count).map { generator.event().line(seq: $0 + 1) }
    }

    @Test func aScriptHoldsTheCommandsAndEffectsOfTheLoad() throws {
        let lines = Self.lines(count: 3000, seed: 21)
        try Self.expectSameAsLoad(sessionBytes(lines))
    }

    @Test(arguments: [2, 3, 4, 7])
    func aSplitReadGivesTheScriptOfAWholeRead(pieces: Int) throws {
        var lines = Self.lines(count: 3000, seed: UInt64(30 + pieces))
        lines.insert(#"{"seq":0,"kind":"telemetry"}"#, at: 1500)
        lines.insert("", at: 2000)
        let splitting = SessionSplitting(maximumPieces: pieces, minimumPieceBytes: 1 << 10, chunkBytes: 1 << 30)
        try Self.expectSameAsLoad(sessionBytes(lines), splitting: splitting)
    }

    @Test func effectsBeforeTheFirstCommandBelongToNoStep() throws {
        let script = try SessionScript.read(sessionBytes([
            #"{"seq":1,"kind":"store","store":"app","state":{}}"#,
            #"{"seq":2,"kind":"command","text":"a"}"#,
            #"{"seq":3,"kind":"jump","store":"app","index":0}"#,
            #"{"seq":4,"kind":"command","text":"b"}"#,
        ]))
        #expect(script.commands.map(\.text) == ["a", "b"])
        #expect(script.commands.map(\.line) == [3, 5])
        #expect(script.effects(ofCommand: 0).map { script.event(ofEffect: $0) } == [.jump(store: "app", index: 0)])
        #expect(script.effects(ofCommand: 1).isEmpty)
    }

    @Test func linesInAnotherFormReadAsTheWritersLinesDo() throws {
        let lines = [
            #"{"seq":1,"kind":"command","text":"dispatch app Set {key: \"a\"}"}"#,
            #" { "seq" : 2 , "kind" : "action" , "store" : "app" , "index" : 1 , "action" : { "type" : "Set" } , "patch" : [ ] } "#,
            #"{"kind":"store","seq":3,"state":{"a":1},"store":"app","color":"blue"}"#,
            #"{"seq":4,"kind":"publish","port":"x.value","value":"\u00e9\ud83d\ude00"}"#,
            #"{"seq":5,"kind":"publish","port":"x.value","value":1e300}"#,
            #"{"seq":6,"kind":"checkpoint","store":"app","index":1,"state":{"n":12345678901234567890}}"#,
            #"{"seq":7,"kind":"jump","store":"app","index":1}"# + "\r",
            #"{"seq":8,"kind":"command","text":"\u0041"}"#,
        ]
        try Self.expectSameAsLoad(sessionBytes(Array(lines.prefix(5))))
        try Self.expectSameAsLoad(sessionBytes(lines))
    }

    @Test(arguments: [
        "garbage",
        #"{"seq":3,"kind":"command","text":"a"} x"#,
        #"{"seq":3,"kind":"jump","store":"app"}"#,
        #"{"seq":3,"kind":"jump","store":"app","index":"1"}"#,
        #"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"remove","path":"/a~2"}]}"#,
        #"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"add","path":"/a"}]}"#,
        #"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[],"hash":"12"}"#,
        #"{"seq":3,"kind":"publish","port":"p","value":99999999999999999999}"#,
        #"{"seq":3,"kind":"publish","port":"p","value":1e999}"#,
        #"{"seq":3,"kind":"publish","port":"p","value":"\ud800"}"#,
        #"{"seq":3,"kind":"command","text":"\x"}"#,
    ])
    func aDamagedLineStopsTheScriptWhereItStopsTheLoad(line: String) throws {
        let good = [
            #"{"seq":1,"kind":"command","text":"store app = {count: 0}"}"#,
            #"{"seq":2,"kind":"store","store":"app","state":{"count":0}}"#,
        ]
        let bytes = sessionBytes(good + [line, #"{"seq":4,"kind":"command","text":"after"}"#])
        try Self.expectSameAsLoad(bytes)
        let script = try SessionScript.read(bytes)
        #expect(script.damage?.line == 4)
        #expect(script.commands.map(\.text) == ["store app = {count: 0}"])
    }

    @Test func bytesThatAreNotUTF8AreDamageAsForTheLoad() throws {
        let good = #"{"seq":1,"kind":"command","text":"a"}"#
        for bad: [UInt8] in [[0xFF], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3, 0xA9]] {
            let line = Array(#"{"seq":2,"kind":"error","text":"x"#.utf8) + bad + Array(#"","message":"m"}"#.utf8)
            try Self.expectSameAsLoad(sessionBytes([good]) + line + [0x0A])
        }
    }

    @Test func aLastLineCutShortIsDamage() throws {
        var bytes = sessionBytes(Self.lines(count: 200, seed: 22))
        bytes += Array(#"{"seq":201,"kind":"action","store":"app","ind"#.utf8)
        try Self.expectSameAsLoad(bytes)
        #expect(try SessionScript.read(bytes).damage?.reason == .cutShort)
    }

    @Test func changedLinesGiveTheDamageTheLoadGives() throws {
        // Bytes taken out, put in or changed anywhere in writer's lines: whatever the check
        // accepts must read, and whatever it gives up on is read in full.
        var generator = ValueGenerator(seed: 23)
        let replacements = Array(#",}{[]":\ 0129aefx-.+eE~/"#.utf8) + [0x7F, 0x01, 0xC3, 0xA9, 0xFF]
        for _ in 0..<3000 {
            var bytes = Array(generator.event().line(seq: 3).utf8)
            for _ in 0..<generator.int(1..<3) {
                let position = generator.int(0..<bytes.count)
                switch generator.int(0..<3) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(replacements[generator.int(0..<replacements.count)], at: position)
                default: bytes[position] = replacements[generator.int(0..<replacements.count)]
                }
            }
            let session = sessionBytes([#"{"seq":1,"kind":"command","text":"a"}"#]) + bytes + Array("\n{\"seq\":4,\"kind\":\"command\",\"text\":\"b\"}\n".utf8)
            try Self.expectSameAsLoad(session)
        }
    }

    @Test func aBadHeaderOrAMissingFileIsTheErrorTheReaderGives() throws {
        #expect(throws: SessionError(path: "s.pb", line: 1, .empty)) { try SessionScript.read([], path: "s.pb") }
        let newer = sessionBytes([], header: #"{"patchbay":"session","version":2}"#)
        #expect(throws: SessionError(line: 1, .newerVersion(2))) { try SessionScript.read(newer) }
        #expect(throws: SessionError(path: "/nonexistent/s.pb", .cannotOpen(errno: ENOENT))) {
            try SessionScript.read(contentsOf: "/nonexistent/s.pb")
        }
    }

    @Test func aFileReadsAsItsBytesDo() throws {
        var lines = Self.lines(count: 12_000, seed: 24)
        lines.insert(#"{"seq":0,"kind":"command","text":""# + String(repeating: "y", count: 300_000) + #""}"#, at: 5000)
        let bytes = sessionBytes(lines)
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = try SessionScript.read(contentsOf: path)
        let fromBytes = try SessionScript.read(bytes, path: path)
        #expect(fromFile.commands.map(\.text) == fromBytes.commands.map(\.text))
        #expect(fromFile.commands.map(\.line) == fromBytes.commands.map(\.line))
        #expect(fromFile.effects.count == fromBytes.effects.count)
        #expect(fromFile.effects.indices.allSatisfy { fromFile.event(ofEffect: $0) == fromBytes.event(ofEffect: $0) })
    }
}

/// Comparing an event with a recorded effect line: byte for byte when the line is as the
/// writer writes it, as events otherwise.
@Suite struct SessionScriptMatchingTests {
    static let action = SessionEvent.action(SessionAction(
        store: "app", index: 1, action: ["type": "Set", "key": "a", "value": 2],
        patch: [JSONPatch.Operation(.replace, path: JSONPointer("/a")!, value: 2)], hash: StateDigest(["a": 2])))

    /// A script of one command whose one effect is `line`.
    static func script(effect line: String) throws -> SessionScript {
        try SessionScript.read(sessionBytes([#"{"seq":1,"kind":"command","text":"dispatch app Set {key: \"a\", value: 2}"}"#, line]))
    }

    @Test func anEventMatchesTheLineWrittenForIt() throws {
        let script = try Self.script(effect: Self.action.line(seq: 7))
        var scratch: [UInt8] = []
        #expect(script.matches(Self.action, effect: 0, scratch: &scratch))
    }

    @Test func anEventMatchesALineInAnotherFormThatSaysTheSame() throws {
        let hash = StateDigest(["a": 2]).text
        for line in [
            #"{"kind":"action","seq":7,"store":"app","index":1,"action":{"value":2,"key":"a","type":"Set"},"patch":[{"path":"/a","op":"replace","value":2}],"hash":"\#(hash)"}"#,
            #"{"seq":7,"kind":"action","store":"app","index":1,"action":{"type":"Set","key":"a","value":2.0},"patch":[{"op":"replace","path":"/a","value":2}],"hash":"\#(hash.uppercased())","at":"10:00"}"#,
            #" {"seq": 7, "kind": "action", "store": "app", "index": 1, "action": {"type": "Set", "key": "\u0061", "value": 2}, "patch": [{"op": "replace", "path": "\/a", "value": 2}], "hash": "\#(hash)"} "#,
        ] {
            let script = try Self.script(effect: line)
            var scratch: [UInt8] = []
            #expect(script.matches(Self.action, effect: 0, scratch: &scratch), "\(line)")
        }
    }

    @Test func anEventDoesNotMatchALineThatSaysSomethingElse() throws {
        var other = Self.action
        if case .action(var action) = other {
            action.patch = [JSONPatch.Operation(.replace, path: JSONPointer("/a")!, value: 3)]
            other = .action(action)
        }
        var scratch: [UInt8] = []
        #expect(!(try Self.script(effect: other.line(seq: 7))).matches(Self.action, effect: 0, scratch: &scratch))
        #expect(!(try Self.script(effect: SessionEvent.jump(store: "app", index: 1).line(seq: 7))).matches(Self.action, effect: 0, scratch: &scratch))
    }

    @Test func everyEventMatchesItsOwnLineAndNotAnothers() throws {
        var generator = ValueGenerator(seed: 25)
        let events = (0..<2000).map { _ in generator.event() }.filter { $0.kind != "command" }
        let lines = [#"{"seq":1,"kind":"command","text":"c"}"#] + events.enumerated().map { $1.line(seq: $0 + 2) }
        let script = try SessionScript.read(sessionBytes(lines))
        #expect(script.effects(ofCommand: 0).count == events.count)
        var scratch: [UInt8] = []
        for (index, event) in events.enumerated() {
            #expect(script.matches(event, effect: index, scratch: &scratch))
            let other = events[(index + 1) % events.count]
            #expect(script.matches(other, effect: index, scratch: &scratch) == (other == event))
        }
    }
}

/// A replay starts on the first part of a file while the rest is read: with the rest added,
/// the script is the one a whole read gives, wherever the parts meet.
@Suite struct SessionScriptStartTests {
    /// The script's content, comparable.
    static func content(_ script: SessionScript) -> [String] {
        script.commands.map { "command \($0.text) line \($0.line) from \($0.firstEffect)" }
            + script.effects.map { "effect line \($0.line) seq \($0.seq) at \($0.start)+\($0.count)" }
            + ["damage \(String(describing: script.damage))"]
    }

    /// A file of `bytes`, removed when the test ends.
    final class File {
        let path = temporaryPath()

        init(_ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// The script started with a first part of `firstBytes`, before its rest is added.
        func start(firstBytes: Int) throws -> (script: SessionScript, rest: SessionScriptRest?) {
            try SessionScript.start(SessionFile(opening: path), firstBytes: firstBytes, splitting: .automatic)
        }

        /// The script started with a first part of `firstBytes`, its rest added, and whether it
        /// had a rest.
        func started(firstBytes: Int) throws -> (script: SessionScript, hadRest: Bool) {
            var (script, rest) = try start(firstBytes: firstBytes)
            rest?.add(to: &script)
            return (script, rest != nil)
        }

        /// The script read whole.
        func whole() throws -> SessionScript {
            try SessionScript.read(contentsOf: path)
        }
    }

    @Test(arguments: [1, 100, 5_000, 50_000, 200_000, 10_000_000])
    func theRestMakesTheWholeScript(firstBytes: Int) throws {
        let bytes = sessionBytes(SessionScriptTests.lines(count: 3000, seed: 61))
        let file = try File(bytes)
        let whole = try file.whole()
        let (script, hadRest) = try file.started(firstBytes: firstBytes)
        #expect(hadRest == (firstBytes > 1 && firstBytes < bytes.count))
        #expect(Self.content(script) == Self.content(whole))
        for index in script.effects.indices.prefix(300) {
            #expect(script.event(ofEffect: index) == whole.event(ofEffect: index))
        }
    }

    @Test func aStepWhoseEffectsGoOnInTheRestGetsThemAll() throws {
        var lines = [#"{"seq":1,"kind":"command","text":"a"}"#]
        lines += (2...2000).map { #"{"seq":\#($0),"kind":"jump","store":"app","index":\#($0)}"# }
        lines.append(#"{"seq":2001,"kind":"command","text":"b"}"#)
        let bytes = sessionBytes(lines)
        let (script, hadRest) = try File(bytes).started(firstBytes: bytes.count / 2)
        #expect(hadRest)
        #expect(script.commands.map(\.text) == ["a", "b"])
        #expect(script.effects(ofCommand: 0).count == 1999)
    }

    @Test(arguments: [0.2, 0.8])
    func damageIsFoundInEitherPart(at fraction: Double) throws {
        var lines = SessionScriptTests.lines(count: 3000, seed: 62)
        lines[Int(Double(lines.count) * fraction)] = "garbage"
        let bytes = sessionBytes(lines)
        let file = try File(bytes)
        let (script, hadRest) = try file.started(firstBytes: bytes.count / 2)
        #expect(hadRest == (fraction > 0.5))
        #expect(script.damage != nil)
        #expect(Self.content(script) == Self.content(try file.whole()))
    }

    @Test func aFileWhoseCommandsAreAllInTheRestHasThemOnceAdded() throws {
        let effects = (1...3000).map { #"{"seq":\#($0),"kind":"store","store":"s\#($0)","state":{}}"# }
        var (script, rest) = try File(sessionBytes(effects + [#"{"seq":3001,"kind":"command","text":"last"}"#])).start(firstBytes: 1000)
        #expect(script.commands.isEmpty)
        rest?.add(to: &script)
        #expect(script.commands.map(\.text) == ["last"])
    }

    @Test func aHeaderLongerThanTheFirstPartIsReadWithTheRest() throws {
        let header = #"{"patchbay":"session","version":1,"created":""# + String(repeating: "x", count: 5000) + #""}"#
        let file = try File(sessionBytes(SessionScriptTests.lines(count: 100, seed: 63), header: header))
        let (script, hadRest) = try file.started(firstBytes: 1000)
        #expect(!hadRest)
        #expect(Self.content(script) == Self.content(try file.whole()))
        let newer = try File(sessionBytes([], header: #"{"patchbay":"session","version":2}"#))
        #expect(throws: SessionError(path: newer.path, line: 1, .newerVersion(2))) { try newer.start(firstBytes: 10) }
    }

    @Test func aFileLongerThanWhenItWasOpenedIsReadToItsEnd() throws {
        let lines = SessionScriptTests.lines(count: 3000, seed: 64)
        let first = sessionBytes(Array(lines.prefix(1000)))
        let file = try File(first)
        let opened = try SessionFile(opening: file.path)
        // Written after the size was taken, before the rest is read.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.dropFirst(1000).map { $0 + "\n" }.joined().utf8))
        try handle.close()
        var (script, rest) = try SessionScript.start(opened, firstBytes: first.count / 4, splitting: .automatic)
        #expect(rest != nil)
        rest?.add(to: &script)
        #expect(Self.content(script) == Self.content(try file.whole()))
        #expect(script.effects.indices.allSatisfy { script.event(ofEffect: $0) != nil })
    }

    @Test func aFileThatCannotBeOpenedIsAnError() {
        #expect(throws: SessionError(path: "/nonexistent/s.pb", .cannotOpen(errno: ENOENT))) {
            try SessionScript.start(contentsOf: "/nonexistent/s.pb")
        }
    }
}
