import PatchbayCore
@testable import PatchbayRecorder
import Testing

@Suite struct SessionLineBufferTests {
    /// Events whose lines hold every kind of value, escapes and long text.
    static let events: [SessionEvent] = [
        .command(#"dispatch app Set {key: "k1", value: -42}"#),
        .command("tab\there, newline\n, bell \u{07}, delete \u{7F}, quote \" and backslash \\, café, 日本"),
        .store(name: "app", state: ["n": 0, "ratio": 0.25, "big": 1e300, "flags": [true, false, .null], "empty": [:], "list": []]),
        .publish(port: "x.value", value: ["nested": ["deeper": ["deepest": "a/b~c"]]]),
        .checkpoint(store: "app", index: 9_223_372_036_854_775_807, state: .int(-9_223_372_036_854_775_808)),
        .action(SessionAction(store: "app", index: 3, action: ["type": "Move", "to": "a/b~c"],
                              patch: [JSONPatch.Operation(.add, path: JSONPointer([.key("a/b~c"), .index(2)]), value: ["x": 1]),
                                      JSONPatch.Operation(.remove, path: JSONPointer("/gone")!)],
                              hash: StateDigest(["n": 1]), failure: "no \"such\" key", cause: 2, delayedReducer: "r4")),
        .command(String(repeating: "long line ", count: 2_000)),
    ]

    @Test func aLineInTheBufferIsTheLineInAnArray() {
        var buffer = SessionLineBuffer(capacity: 16)
        var array: [UInt8] = []
        for (seq, event) in Self.events.enumerated() {
            event.encode(seq: seq + 1, into: &buffer)
            buffer.append(0x0A)
            event.encode(seq: seq + 1, into: &array)
            array.append(0x0A)
        }
        let (bytes, count) = (Array(buffer.bytes), buffer.count)
        #expect(bytes == array)
        #expect(count > 20_000, "it grew past its first capacity many times")
    }

    @Test func removingAllEmptiesTheBufferForTheNextLines() {
        var buffer = SessionLineBuffer(capacity: 64)
        SessionEvent.command("first").encode(seq: 1, into: &buffer)
        buffer.removeAll()
        let emptied = buffer.isEmpty
        #expect(emptied)
        SessionEvent.command("second").encode(seq: 2, into: &buffer)
        let text = String(decoding: buffer.bytes, as: UTF8.self)
        #expect(text == #"{"seq":2,"kind":"command","text":"second"}"#)
    }
}
