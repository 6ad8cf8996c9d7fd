import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayRecorder
import PatchbayTestSupport
@_spi(Shell) @testable import PatchbayHistory
import Testing

@Suite struct SessionReaderTests {
    @Test func everyEventReadsBackToTheSameLine() throws {
        var generator = ValueGenerator(seed: 3)
        let events = (0..<3000).map { _ in generator.event() }
        let lines = events.enumerated().map { $1.line(seq: $0 + 1) }
        let load = try SessionReader.read(sessionBytes(lines))
        #expect(load.damage == nil)
        #expect(load.header == SessionHeader(version: 1, created: "2026-11-21T10:00:00Z"))
        #expect(load.events.count == events.count)
        for (position, recorded) in load.events.enumerated() {
            #expect(recorded.line == position + 2)
            #expect(recorded.seq == position + 1)
            #expect(recorded.event == events[position])
            #expect(recorded.event.line(seq: recorded.seq) == lines[position])
        }
    }

    @Test func decodingAnEncodedEventGivesItBackAndTheSameBytes() throws {
        // Random events of every kind: strings with escapes, controls and astral code points,
        // integers at the extremes, decimals (integral ones, -0.0, the largest and smallest),
        // and nested values. `==` on values lets 1 equal 1.0, so the bytes are compared too.
        var generator = ValueGenerator(seed: 99)
        var decoder = SessionLineDecoder()
        for seq in 1...5_000 {
            let event = generator.event()
            let line = Array(event.line(seq: seq).utf8)
            let (readSeq, decoded) = try line.withUnsafeBufferPointer { bytes throws(SessionError.Reason) in try decoder.decode(bytes) }
            #expect(readSeq == seq)
            #expect(decoded == event, "\(String(decoding: line, as: UTF8.self))")
            #expect(decoded.map { Array($0.line(seq: seq).utf8) } == line)
        }
    }

    @Test func aSkipLineWithoutRecomputedStepsIsAnOlderFilesAndReadsAsNone() throws {
        let old = #"{"seq":10,"kind":"skip","store":"app","index":2,"skipped":true}"#
        let new = #"{"seq":11,"kind":"skip","store":"app","index":2,"skipped":false,"recomputed":[{"index":3,"patch":[{"op":"remove","path":"/n"}],"hash":"00000000000000aa"},{"index":4,"patch":[],"failed":"x"}]}"#
        let load = try SessionReader.read(sessionBytes([old, new]))
        #expect(load.damage == nil)
        #expect(load.events.map(\.event) == [
            .skip(store: "app", index: 2, skipped: true, recomputed: []),
            .skip(store: "app", index: 2, skipped: false, recomputed: [
                RecomputedStep(index: 3, changes: [JSONPatch.Operation(.remove, path: JSONPointer("/n")!)], hash: StateDigest(text: "00000000000000aa")),
                RecomputedStep(index: 4, changes: [], failure: "x"),
            ]),
        ])
    }

    @Test(arguments: [
        (#"{"seq":3,"kind":"skip","store":"a","index":1,"skipped":true,"recomputed":{}}"#,
         SessionError.Reason.wrongType("recomputed", expected: "an array of recomputed steps", found: "an object")),
        (#"{"seq":3,"kind":"skip","store":"a","index":1,"skipped":true,"recomputed":[3]}"#,
         .wrongType("recomputed[0]", expected: #"an object {"index":...,"patch":...}"#, found: "an integer")),
        (#"{"seq":3,"kind":"skip","store":"a","index":1,"skipped":true,"recomputed":[{"index":2,"patch":[]},{"patch":[]}]}"#,
         .missingField("recomputed[1].index", expected: "an integer")),
        (#"{"seq":3,"kind":"skip","store":"a","index":1,"skipped":true,"recomputed":[{"index":2,"patch":[{"op":"add","path":"/a"}]}]}"#,
         .missingField("recomputed[0].patch[0].value", expected: "any JSON value")),
        (#"{"seq":3,"kind":"skip","store":"a","index":1,"skipped":true,"recomputed":[{"index":2,"patch":[],"hash":"xyz"}]}"#,
         .invalidField("recomputed[0].hash", "must be 16 hexadecimal digits")),
        (#"{"seq":3,"kind":"setup"}"#, .missingField("text", expected: "a string")),
        (#"{"seq":3,"kind":"timer","node":"s","due":4,"fires":"reducer","value":{"type":"A"},"from":1}"#,
         .missingField("reducer", expected: "a string")),
        (#"{"seq":3,"kind":"timer","node":"t","due":4,"fires":"timer","value":"x"}"#,
         .wrongType("value", expected: "an integer", found: "a string")),
        (#"{"seq":3,"kind":"timer","node":"t","due":4,"fires":"soon","value":1}"#,
         .invalidField("fires", #"expected "reducer", "delay" or "timer""#)),
    ])
    func aDamagedSkipSetupOrTimerLineSaysWhichField(line: String, reason: SessionError.Reason) throws {
        let load = try SessionReader.read(sessionBytes([line]))
        #expect(load.damage == SessionError(line: 2, reason))
    }

    @Test func anActionReadsIntoItsParts() throws {
        let line = #"{"seq":4,"kind":"action","store":"app","index":1,"action":{"type":"Increment","by":2},"patch":[{"op":"replace","path":"/count","value":2}],"hash":"00112233445566ff","cause":3}"#
        let load = try SessionReader.read(sessionBytes([line]))
        let expected = StoreStep<JSONPatch.Operation>(store: "app", index: 1, action: ["type": "Increment", "by": 2], changes: [JSONPatch.Operation(.replace, path: JSONPointer("/count")!, value: 2)], cause: 3)
        #expect(load.events == [RecordedEvent(line: 2, seq: 4, event: .action(expected, hash: StateDigest(text: "00112233445566ff")))])
    }

    @Test func spacingEscapesAndFieldOrderDoNotMatter() throws {
        let plain = #"{"seq":1,"kind":"action","store":"app","index":1,"action":{"type":"T"},"patch":[{"op":"add","path":"/a~1b/-","value":[1]},{"op":"remove","path":"/x"}],"hash":"00000000000000aa"}"#
        let spaced = #" { "hash" : "00000000000000AA" , "patch" : [ { "value" : [ 1 ] , "path" : "/a~1b/-" , "op" : "add" } , { "path" : "\/x" , "op" : "re\u006dove" } ] , "\u0073eq" : 1 , "kind" : "action" , "store" : "app" , "index" : 1 , "action" : { "type" : "T" } } "#
        let plainLoad = try SessionReader.read(sessionBytes([plain])), spacedLoad = try SessionReader.read(sessionBytes([spaced]))
        #expect(plainLoad.damage == nil && spacedLoad.damage == nil)
        #expect(plainLoad.events.count == 1 && spacedLoad.events.count == 1)
        #expect(plainLoad.events.first?.event == spacedLoad.events.first?.event)
    }

    /// The reader takes fields where the writer puts them without a lookup; any other place,
    /// an unknown field among them, or an optional field missing reads the same.
    @Test func fieldsInAnyPlaceReadTheSameAsInTheirOwn() throws {
        let members = [
            #""seq":7"#, #""kind":"action""#, #""store":"app""#, #""index":1"#, #""action":{"type":"T"}"#,
            #""patch":[{"op":"replace","path":"/a","value":1}]"#, #""hash":"00000000000000aa""#, #""failed":"no""#,
            #""cause":3"#, #""reducer":"r1""#,
        ]
        func line(_ members: [String]) -> String { "{" + members.joined(separator: ",") + "}" }
        let expected = try #require(SessionReader.read(sessionBytes([line(members)])).events.first).event
        guard case .action(let action, let hash) = expected else { Issue.record("not an action: \(expected)"); return }
        #expect(action.failure == "no" && action.cause == 3 && action.delayedReducer == "r1" && hash != nil)
        var variants = [Array(members.reversed())]
        for shift in 1..<members.count { variants.append(Array(members[shift...] + members[..<shift])) }
        for position in 0...members.count {
            var withUnknown = members
            withUnknown.insert(#""later":{"index":9}"#, at: position)
            variants.append(withUnknown)
        }
        for variant in variants {
            let load = try SessionReader.read(sessionBytes([line(variant)]))
            #expect(load.damage == nil && load.events.map(\.event) == [expected], "\(line(variant))")
        }
        // Without the optional fields, in any place, they read as absent.
        let required = members.filter { !$0.hasPrefix(#""failed""#) && !$0.hasPrefix(#""cause""#) && !$0.hasPrefix(#""reducer""#) }
        for variant in [required, Array(required.reversed()), Array(required[3...] + required[..<3])] {
            let event = try SessionReader.read(sessionBytes([line(variant)])).events.first?.event
            guard case .action(let action, let hash)? = event else { Issue.record("not an action: \(line(variant))"); continue }
            #expect(action.failure == nil && action.cause == nil && action.delayedReducer == nil && hash != nil)
        }
    }

    @Test func unknownFieldsAreIgnoredAndUnknownKindsSkipped() throws {
        let lines = [
            #"{"seq":1,"kind":"command","text":"x = 1","at":"10:00","extra":{"deep":[1,2,{"a":null}]}}"#,
            #"{"seq":2,"kind":"telemetry","patch":{"not":"a list"},"hash":7}"#,
            #"{"seq":3,"kind":"action","store":"app","index":1,"action":{"type":"T"},"patch":[{"op":"replace","path":"/a","value":1,"from":"/b"}],"timestamp":12}"#,
        ]
        let load = try SessionReader.read(sessionBytes(lines))
        #expect(load.damage == nil)
        #expect(load.unknownKindCount == 1)
        #expect(load.events.map(\.seq) == [1, 3])
        #expect(load.events[0].event == .command("x = 1"))
    }

    @Test func blankLinesAndCarriageReturnsAreAllowed() throws {
        let bytes = Array("\(SessionHeader(created: nil).line)\r\n\n   \n{\"seq\":1,\"kind\":\"command\",\"text\":\"a\"}\r\n\t\n{\"seq\":2,\"kind\":\"command\",\"text\":\"b\"}".utf8)
        let load = try SessionReader.read(bytes)
        #expect(load.damage == nil)
        #expect(load.events == [
            RecordedEvent(line: 4, seq: 1, event: .command("a")), RecordedEvent(line: 6, seq: 2, event: .command("b")),
        ])
    }

    @Test func aNewerVersionIsRefused() {
        let bytes = sessionBytes([#"{"seq":1,"kind":"command","text":"a"}"#], header: #"{"patchbay":"session","version":3}"#)
        #expect(throws: SessionError(path: "session.pb", line: 1, .newerVersion(3))) { try SessionReader.read(bytes, path: "session.pb") }
        #expect(
            SessionError(path: "session.pb", line: 1, .newerVersion(3)).description
                == "session.pb: line 1: this file is version 3; this patchbay reads versions up to 2 — update patchbay")
    }

    @Test func anActionWithoutItsPatchIsDamageInAVersion1FileAndAStepWithoutAChangeInAVersion2File() throws {
        let line = #"{"seq":1,"kind":"store","store":"app","state":{"n":0}}"#
        let action = #"{"seq":2,"kind":"action","store":"app","index":1,"action":{"type":"A"}}"#
        let old = sessionBytes([line, action])
        #expect(try SessionReader.read(old, path: "session.pb").damage
            == SessionError(path: "session.pb", line: 3, .missingField("patch", expected: "an array of JSON Patch operations")))
        let new = try SessionReader.read(sessionBytes([line, action], header: #"{"patchbay":"session","version":2}"#))
        #expect(new.damage == nil)
        #expect(new.events.last?.event == .action(StoreStep<JSONPatch.Operation>(store: "app", index: 1, action: ["type": "A"], changes: [], unrecorded: true), hash: nil))
    }

    @Test(arguments: [
        ("store app = {count: 0}", "the first line is not JSON (unexpected character at byte 1)"),
        (#"{"version":1}"#, #"the first line has no "patchbay":"session""#),
        (#"{"patchbay":"script","version":1}"#, #"the first line has no "patchbay":"session""#),
        (#"[1,2]"#, #"the first line has no "patchbay":"session""#),
        (#"{"patchbay":"session"}"#, #"the header has no integer "version""#),
        (#"{"patchbay":"session","version":"1"}"#, #"the header has no integer "version""#),
        (#"{"patchbay":"session","version":0}"#, "the header's version 0 is not a session version"),
    ])
    func aBadHeaderIsAnErrorAtLineOne(header: String, detail: String) {
        #expect(throws: SessionError(line: 1, .notASession(detail))) { try SessionReader.read(sessionBytes([], header: header)) }
    }

    @Test func anEmptyFileIsAnError() {
        #expect(throws: SessionError(line: 1, .empty)) { try SessionReader.read([]) }
        #expect(
            SessionError(path: "s.pb", line: 1, .empty).description
                == #"s.pb: line 1: the file is empty; a session file starts with {"patchbay":"session","version":1,...}"#)
    }

    @Test func aHeaderAloneIsAnEmptySession() throws {
        let load = try SessionReader.read(Array(SessionHeader(created: nil).line.utf8))
        #expect(load == SessionLoad(header: SessionHeader(created: nil), events: []))
    }

    static let good = [
        #"{"seq":1,"kind":"command","text":"store app = {count: 0}"}"#,
        #"{"seq":2,"kind":"store","store":"app","state":{"count":0}}"#,
    ]

    @Test func aLineCutShortAtTheEndKeepsWhatCameBefore() throws {
        let cut = #"{"seq":3,"kind":"action","store":"app","index":1,"action":{"type":"Incr"#
        var bytes = sessionBytes(Self.good)
        bytes += Array(cut.utf8)
        let load = try SessionReader.read(bytes, path: "s.pb")
        #expect(load.events.map(\.seq) == [1, 2])
        #expect(load.damage == SessionError(path: "s.pb", line: 4, .cutShort))
        #expect(load.damage?.description == "s.pb: line 4: the line is cut short (the recording stopped while writing it)")
    }

    @Test func aCompleteLastLineWithoutALineBreakIsRead() throws {
        var bytes = sessionBytes(Self.good)
        bytes += Array(#"{"seq":3,"kind":"command","text":"x"}"#.utf8)
        let load = try SessionReader.read(bytes)
        #expect(load.damage == nil)
        #expect(load.events.map(\.seq) == [1, 2, 3])
    }

    @Test(arguments: [
        ("garbage", SessionError.Reason.notJSON(JSONError(message: "unexpected character", offset: 0))),
        (#"{"seq":3,"kind":"command","text":"a"} x"#, .notJSON(JSONError(message: "unexpected text after the value", offset: 38))),
        (#"{"seq":3,"kind":"command" "text":"a"}"#, .notJSON(JSONError(message: "expected ',' or '}'", offset: 26))),
        (#"{"seq":3,"kind":"command","text":"a""#, .notJSON(JSONError(message: "unexpected end of the text", offset: 36))),
        (#"{"seq":3,"kind":"command","text":"a",}"#, .notJSON(JSONError(message: "expected a key", offset: 37))),
        (#"{"seq":3,"kind":"command","text":tru}"#, .notJSON(JSONError(message: "unexpected word", offset: 33))),
        (#"[1,2]"#, .notAnObject),
        (#"{"kind":"command","text":"a"}"#, .missingField("seq", expected: "an integer")),
        (#"{"seq":"3","kind":"command","text":"a"}"#, .wrongType("seq", expected: "an integer", found: "a string")),
        (#"{"seq":3.0,"kind":"command","text":"a"}"#, .wrongType("seq", expected: "an integer", found: "a decimal")),
        (#"{"seq":3,"text":"a"}"#, .missingField("kind", expected: "a string")),
        (#"{"seq":3,"kind":"command"}"#, .missingField("text", expected: "a string")),
        (#"{"seq":3,"kind":"store","store":"app"}"#, .missingField("state", expected: "any JSON value")),
        (#"{"seq":3,"kind":"skip","store":"app","index":1,"skipped":1}"#, .wrongType("skipped", expected: "true or false", found: "an integer")),
        (#"{"seq":3,"kind":"route","url":"/","pattern":"/","params":[]}"#, .wrongType("params", expected: "an object", found: "an array")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{}}"#, .missingField("patch", expected: "an array of JSON Patch operations")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":{}}"#,
         .wrongType("patch", expected: "an array of JSON Patch operations", found: "an object")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[1]}"#,
         .wrongType("patch[0]", expected: #"an object {"op":...,"path":...}"#, found: "an integer")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"path":"/a"}]}"#, .missingField("patch[0].op", expected: "a string")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"move","from":"/a","path":"/b"}]}"#,
         .invalidField("patch[0].op", #"is "move"; this patchbay reads add, remove and replace"#)),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"remove","path":"/a"},{"op":"add","path":"a"}]}"#,
         .invalidField("patch[1].path", #"is "a", which is not a JSON Pointer ("" or /key/0...)"#)),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"remove","path":"/a~2"}]}"#,
         .invalidField("patch[0].path", #"is "/a~2", which is not a JSON Pointer ("" or /key/0...)"#)),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"add","path":"/a"}]}"#,
         .missingField("patch[0].value", expected: "any JSON value")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[],"hash":"12"}"#, .invalidField("hash", "must be 16 hexadecimal digits")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[],"hash":12}"#,
         .wrongType("hash", expected: "a string", found: "an integer")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[],"cause":"2"}"#,
         .wrongType("cause", expected: "an integer", found: "a string")),
        (#"{"seq":3,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"add","path":"/a","value":[1,}]}"#,
         .notJSON(JSONError(message: "unexpected character", offset: 105))),
    ])
    func aDamagedLineStopsReadingAndSaysWhy(line: String, reason: SessionError.Reason) throws {
        let load = try SessionReader.read(sessionBytes(Self.good + [line, #"{"seq":4,"kind":"command","text":"after"}"#]))
        #expect(load.events.map(\.seq) == [1, 2])
        #expect(load.damage == SessionError(line: 4, reason))
    }

    @Test func aLineThatIsNotJSONGetsTheErrorTheJSONReaderGives() throws {
        var generator = ValueGenerator(seed: 5)
        for _ in 0..<500 {
            var bytes = Array(generator.event().line(seq: 3).utf8)
            let position = generator.int(0..<bytes.count)
            switch generator.int(0..<3) {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert([UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "\""), UInt8(ascii: " ")][generator.int(0..<4)], at: position)
            default: bytes[position] = UInt8(ascii: "x")
            }
            let load = try SessionReader.read(sessionBytes(Self.good) + bytes + [0x0A])
            do {
                _ = try JSONReader.parse(bytes)
            } catch {
                #expect(load.damage == SessionError(line: 4, .notJSON(error)), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test func damageMessagesAreOneLine() {
        #expect(SessionError(line: 4, .missingField("store", expected: "a string")).description == #"line 4: missing "store" (a string)"#)
        #expect(
            SessionError(path: "s.pb", line: 9, .wrongType("index", expected: "an integer", found: "a string")).description
                == #"s.pb: line 9: "index" must be an integer, not a string"#)
        #expect(
            SessionError(line: 2, .notJSON(JSONError(message: "expected ':'", offset: 6))).description == "line 2: not JSON: expected ':' at byte 7")
    }

    @Test func hostileLinesGiveErrorsNotCrashes() throws {
        let deep = #"{"seq":3,"kind":"publish","port":"p","value":"# + String(repeating: "[", count: 100_000) + "}"
        let huge = #"{"seq":4,"kind":"command","text":""# + String(repeating: "x", count: 10_000_000) + #""}"#
        var garbage = sessionBytes(Self.good + [huge])
        garbage += Array(deep.utf8) + [0x0A, 0xFF, 0xFE, 0x00, 0x0A]
        let load = try SessionReader.read(garbage)
        #expect(load.events.map(\.seq) == [1, 2, 4])
        #expect(load.damage?.line == 5)
        if case .notJSON(let error)? = load.damage?.reason {
            #expect(error.message == "nested more than \(SessionEvent.maxLineDepth) levels deep")
        } else {
            Issue.record("expected a JSON error, got \(String(describing: load.damage))")
        }
    }

    @Test func aFileIsReadFromItsPath() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(sessionBytes(Self.good)).write(to: URL(fileURLWithPath: path))
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.events.count == 2)
    }

    @Test func aLargeFileReadsAsItsBytesDo() throws {
        var generator = ValueGenerator(seed: 17)
        var lines = (0..<20000).map { generator.event().line(seq: $0 + 1) }
        lines.insert(#"{"seq":0,"kind":"command","text":""# + String(repeating: "y", count: 3_000_000) + #""}"#, at: 5000)
        var bytes = sessionBytes(lines)
        bytes += Array(#"{"seq":20001,"kind":"com"#.utf8)
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = try SessionReader.read(contentsOf: path)
        #expect(fromFile.events.count == 20001)
        #expect(fromFile.damage == SessionError(path: path, line: 20003, .cutShort))
        #expect(fromFile == (try SessionReader.read(bytes, path: path)))
    }

    @Test func theFileReaderPullsOneEventAtATime() throws {
        let lines = Self.good + [#"{"seq":3,"kind":"telemetry"}"#, #"{"seq":4,"kind":"setup","text":"reducer s on A : state"}"#]
        let reader = try SessionFileReader(bytes: sessionBytes(lines), path: "s.pb")
        #expect(reader.header == SessionHeader(created: "2026-11-21T10:00:00Z"))
        #expect(try reader.next()?.seq == 1)
        #expect(try reader.next()?.seq == 2)
        #expect(try reader.next() == RecordedEvent(line: 5, seq: 4, event: .setup("reducer s on A : state")))
        #expect(reader.unknownKindCount == 1)
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func damageIsThrownOnceAndEndsReading() throws {
        let reader = try SessionFileReader(bytes: sessionBytes(Self.good + ["{", #"{"seq":4,"kind":"command","text":"x"}"#]), path: "s.pb")
        _ = try reader.next()
        _ = try reader.next()
        let damage = SessionError(path: "s.pb", line: 4, .notJSON(JSONError(message: "expected a key", offset: 1)))
        #expect(throws: damage) { try reader.next() }
        #expect(reader.damage == damage)
        #expect(try reader.next() == nil)
    }

    @Test(arguments: [false, true])
    func aLineLongerThanTheLimitIsDamageAtItsLine(fromFile: Bool) throws {
        let limit = 1_000
        let long = #"{"seq":3,"kind":"command","text":""# + String(repeating: "x", count: limit) + #""}"#
        let bytes = sessionBytes(Self.good + [long, #"{"seq":4,"kind":"command","text":"x"}"#])
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let lines = fromFile ? LineSource(descriptor: open(path, O_RDONLY), limit: limit) : LineSource(bytes: bytes, limit: limit)
        let reader = try SessionFileReader(lines, path: path)
        #expect(try reader.next()?.seq == 1)
        #expect(try reader.next()?.seq == 2)
        #expect(throws: SessionError(path: path, line: 4, .lineTooLong(limit: limit))) { try reader.next() }
        // Just under the limit reads.
        let fits = #"{"seq":3,"kind":"command","text":""# + String(repeating: "x", count: limit - 40) + #""}"#
        let fitting = try SessionFileReader(LineSource(bytes: sessionBytes([fits]), limit: limit), path: nil)
        #expect(try fitting.next()?.seq == 3)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/zero"), "needs /dev/zero"))
    func aFileThatNeverEndsALineIsRefusedWithoutReadingItAll() throws {
        let error = SessionError(path: "/dev/zero", line: 1, .lineTooLong(limit: SessionFileReader.maximumLineBytes))
        #expect(throws: error) { try SessionFileReader(path: "/dev/zero") }
        #expect(
            error.description
                == "/dev/zero: line 1: the line is longer than 64 MiB, the longest a session line may be: this is not a session file, or it is damaged")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/urandom"), "needs /dev/urandom"))
    func randomBytesAreNotASession() throws {
        do {
            _ = try SessionFileReader(path: "/dev/urandom")
            Issue.record("random bytes read as a session")
        } catch {
            #expect(error.line == 1)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: SessionError(path: "/nonexistent/s.pb", .cannotOpen(errno: ENOENT))) {
            try SessionReader.read(contentsOf: "/nonexistent/s.pb")
        }
        #expect(
            SessionError(path: "/nonexistent/s.pb", .cannotOpen(errno: ENOENT)).description
                == "/nonexistent/s.pb: cannot open the file: No such file or directory")
    }
}

/// A path for a file in the temporary directory that does not exist yet.
func temporaryPath(_ suffix: String = ".pbsession") -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-\(UUID().uuidString)\(suffix)").path
}
