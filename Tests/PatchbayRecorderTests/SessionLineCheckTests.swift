import PatchbayCore
@testable import PatchbayRecorder
import Testing

/// The quick check of a line: it knows the lines the writer writes, and gives up ("not sure")
/// on anything else, which the full reader then reads.
@Suite struct SessionLineCheckTests {
    static func seq(_ line: String) -> Int? {
        var line = line
        return line.withUTF8 { SessionLineCheck.seq(ofEffect: $0) }
    }

    static func text(_ line: String) -> String? {
        var line = line
        return line.withUTF8 { SessionLineCheck.text(ofCommand: $0) }
    }

    @Test func theWritersLinesPass() {
        var generator = ValueGenerator(seed: 41)
        var checked = 0
        for seq in 1...3000 {
            let event = generator.event()
            let line = event.line(seq: seq)
            // The check gives up on \u escapes, exponents of three digits and integers of 19.
            guard !line.contains(#"\u"#), !line.contains("e+300"), !line.contains("922337203685477580") else { continue }
            checked += 1
            if case .command(let text) = event {
                #expect(Self.seq(line) == nil)
                #expect(Self.text(line) == text, "\(line)")
            } else {
                #expect(Self.seq(line) == seq, "\(line)")
                #expect(Self.text(line) == nil)
            }
        }
        #expect(checked > 1000)
    }

    @Test func everyKindPasses() {
        let hash = StateDigest(["a": 1]).text
        let lines = [
            #"{"seq":1,"kind":"store","store":"app","state":{"a":[1,-2.5,true,false,null,"x"]}}"#,
            #"{"seq":2,"kind":"action","store":"app","index":1,"action":{"type":"T"},"patch":[{"op":"add","path":"/a/-","value":1},{"op":"remove","path":"/b~0~1"},{"op":"replace","path":"","value":{}}],"hash":"\#(hash)","failed":"no","cause":3,"reducer":"r1"}"#,
            #"{"seq":3,"kind":"checkpoint","store":"app","index":1,"state":{}}"#,
            #"{"seq":4,"kind":"publish","port":"x.value","value":1.5e-07}"#,
            #"{"seq":5,"kind":"route","url":"/m/Max","pattern":"/m/:name","params":{"name":"Max"},"view":"Message","option":"modal"}"#,
            #"{"seq":6,"kind":"error","text":"= \"nope\"","message":"unknown name 'nope'"}"#,
            #"{"seq":7,"kind":"jump","store":"app","index":0}"#,
            #"{"seq":8,"kind":"skip","store":"app","index":2,"skipped":false}"#,
            #"{"seq":9,"kind":"reset","store":"app","state":[]}"#,
            #"{"seq":10,"kind":"checkout","store":"app","branch":"main"}"#,
            #"{"seq":11,"kind":"sweep","store":"app"}"#,
        ]
        #expect(lines.map(Self.seq) == Array(1...11))
    }

    @Test(arguments: [
        #"{"seq":1,"kind":"jump","store":"app","index":0} "#,
        #"{"seq":1,"kind":"jump","store":"app","index":0}"# + "\r",
        #"{"seq": 1,"kind":"jump","store":"app","index":0}"#,
        #"{"kind":"jump","seq":1,"store":"app","index":0}"#,
        #"{"seq":1,"kind":"jump","store":"app","index":0,"at":"10:00"}"#,
        #"{"seq":1,"kind":"telemetry"}"#,
        #"{"seq":1,"kind":"jump","store":"\u0061pp","index":0}"#,
        #"{"seq":1234567890123456789,"kind":"sweep","store":"app"}"#,
        #"{"seq":01,"kind":"sweep","store":"app"}"#,
        #"{"seq":1,"kind":"publish","port":"p","value":1e300}"#,
        #"{"seq":1,"kind":"publish","port":"p","value":1234567890123456789.5}"#,
        #"{"seq":1,"kind":"publish","port":"p","value":1.}"#,
        #"{"seq":1,"kind":"publish","port":"p","value":tru}"#,
        #"{"seq":1,"kind":"route","url":"/","pattern":"/","params":[]}"#,
        #"{"seq":1,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"move","path":"/a"}]}"#,
        #"{"seq":1,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"remove","path":"/a~2"}]}"#,
        #"{"seq":1,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"remove","path":"a"}]}"#,
        #"{"seq":1,"kind":"action","store":"app","index":1,"action":{},"patch":[{"op":"remove","path":"/a","value":1}]}"#,
        #"{"seq":1,"kind":"action","store":"app","index":1,"action":{},"patch":[],"hash":"00112233445566FF"}"#,
        #"{"seq":1,"kind":"action","store":"app","index":1,"action":{},"patch":[],"cause":1,"hash":"0011223344556677"}"#,
        #"{"seq":1,"kind":"error","text":"a"# + "\t" + #"b","message":"m"}"#,
        #"{"seq":1,"kind":"error","text":"a\"# + "\t" + #"b","message":"m"}"#,
        #"{"seq":1,"kind":"skip","store":"app","index":2,"skipped":1}"#,
    ])
    func anythingElseIsLeftToTheReader(line: String) {
        #expect(Self.seq(line) == nil)
    }

    @Test func nestingNearTheReadersLimitIsLeftToTheReader() {
        let shallow = #"{"seq":1,"kind":"publish","port":"p","value":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        let deep = #"{"seq":1,"kind":"publish","port":"p","value":"# + String(repeating: "[", count: Value.maxDepth) + String(repeating: "]", count: Value.maxDepth) + "}"
        #expect(Self.seq(shallow) == 1)
        #expect(Self.seq(deep) == nil)
    }

    @Test func aCommandsTextIsUnescapedAsTheReaderDoes() throws {
        for text in ["", "x", #"dispatch app Set {key: "k1", value: 2}"#, "a\\b\n\r\t\u{08}\u{0C}/", "é 😀 ü"] {
            let line = SessionEvent.command(text).line(seq: 3)
            #expect(Self.text(line) == text)
        }
        #expect(Self.text(#"{"seq":3,"kind":"command","text":"a\/b"}"#) == "a/b")
        #expect(Self.text(#"{"seq":3,"kind":"command","text":"\u0041"}"#) == nil)
        #expect(Self.text(#"{"seq":3,"kind":"command","text":"a","at":1}"#) == nil)
        #expect(Self.text(#"{"seq":3,"kind":"command","text":"a"#) == nil)
    }
}
