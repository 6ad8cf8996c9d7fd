@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
import PatchbayTestSupport
@_spi(Shell) import PatchbayHistory
import Testing

/// The exact text of each kind of line.
@Suite struct SessionEncodingTests {
    @Test func theHeaderLine() {
        #expect(SessionHeader(created: "2026-11-21T10:00:00Z").line == #"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}"#)
        #expect(SessionHeader(created: nil).line == #"{"patchbay":"session","version":1}"#)
    }

    @Test func commandStoreAndCheckpointLines() {
        #expect(SessionEvent.command("store app = {count: 0}").line(seq: 1) == #"{"seq":1,"kind":"command","text":"store app = {count: 0}"}"#)
        #expect(SessionEvent.store(name: "app", state: ["count": 0]).line(seq: 2) == #"{"seq":2,"kind":"store","store":"app","state":{"count":0}}"#)
        #expect(
            SessionEvent.checkpoint(store: "app", index: 1000, state: ["count": 2, "items": [1.5, "x"]]).line(seq: 5)
                == #"{"seq":5,"kind":"checkpoint","store":"app","index":1000,"state":{"count":2,"items":[1.5,"x"]}}"#)
    }

    /// A store line says when the store was hosted (an app's store), so that a shell that does
    /// not host it can refuse to replay the recording; a line without the field (every older
    /// file) reads as a store of the shell's own, and a field of the wrong type is damage.
    @Test func aHostedStoreLineSaysSoAndOlderLinesReadAsNotHosted() throws {
        let hosted = SessionEvent.store(name: "app", state: ["count": 0], hosted: true)
        let line = hosted.line(seq: 2)
        #expect(line == #"{"seq":2,"kind":"store","store":"app","state":{"count":0},"hosted":true}"#)
        let old = #"{"seq":3,"kind":"store","store":"app","state":{"count":0}}"#
        let load = try SessionReader.read(sessionBytes([line, old]))
        #expect(load.events.map(\.event) == [hosted, .store(name: "app", state: ["count": 0], hosted: false)])
        let damaged = try SessionReader.read(sessionBytes([#"{"seq":1,"kind":"store","store":"app","state":{},"hosted":"yes"}"#]))
        #expect(damaged.damage?.detail.contains("hosted") == true)
    }

    @Test func anActionLine() {
        let action = StoreStep<JSONPatch.Operation>(store: "app", index: 1, action: ["type": "Increment", "by": 2], changes: [JSONPatch.Operation(.replace, path: JSONPointer([.key("count")]), value: 2)])
        #expect(
            SessionEvent.action(action, hash: StateDigest(text: "00112233445566ff")).line(seq: 4)
                == #"{"seq":4,"kind":"action","store":"app","index":1,"action":{"type":"Increment","by":2},"patch":[{"op":"replace","path":"/count","value":2}],"hash":"00112233445566ff"}"#
        )
    }

    @Test func anActionLineWithItsOptionalFields() {
        let action = StoreStep<JSONPatch.Operation>(store: "app", index: 7, action: ["type": "Load"], changes: [], failure: "reducer r2: no key 'x'", cause: 6, delayedReducer: "r3")
        #expect(
            SessionEvent.action(action, hash: StateDigest(text: "0000000000000001")).line(seq: 9)
                == #"{"seq":9,"kind":"action","store":"app","index":7,"action":{"type":"Load"},"patch":[],"hash":"0000000000000001","failed":"reducer r2: no key 'x'","cause":6,"reducer":"r3"}"#
        )
        let bare = StoreStep<JSONPatch.Operation>(store: "app", index: 1, action: ["type": "A"], changes: [])
        #expect(SessionEvent.action(bare, hash: nil).line(seq: 1) == #"{"seq":1,"kind":"action","store":"app","index":1,"action":{"type":"A"},"patch":[]}"#)
    }

    @Test func patchOperationsEscapeTheirPointers() {
        let changes = [
            ValueChange(path: [.key("items"), .index(2)], operation: .add, old: nil, new: ["title": "milk"]),
            ValueChange(path: [.key("a/b"), .key("~c"), .key("q\"")], operation: .remove, old: 1, new: nil),
            ValueChange(path: [], operation: .replace, old: 1, new: 2),
        ]
        let action = StoreStep<JSONPatch.Operation>(store: "s", index: 1, action: ["type": "T"], changes: JSONPatch.operations(changes))
        #expect(
            SessionEvent.action(action, hash: nil).line(seq: 1)
                == #"{"seq":1,"kind":"action","store":"s","index":1,"action":{"type":"T"},"patch":[{"op":"add","path":"/items/2","value":{"title":"milk"}},{"op":"remove","path":"/a~1b/~0c/q\""},{"op":"replace","path":"","value":2}]}"#
        )
    }

    @Test func publishRouteAndErrorLines() {
        #expect(SessionEvent.publish(port: "x.value", value: 3).line(seq: 6) == #"{"seq":6,"kind":"publish","port":"x.value","value":3}"#)
        let route = SessionRoute(url: "/message/Max", pattern: "/message/:username", params: ["username": "Max"])
        #expect(
            SessionEvent.route(route).line(seq: 7)
                == #"{"seq":7,"kind":"route","url":"/message/Max","pattern":"/message/:username","params":{"username":"Max"}}"#)
        var presented = route
        presented.view = "Message"
        presented.option = "modal"
        #expect(
            SessionEvent.route(presented).line(seq: 7)
                == #"{"seq":7,"kind":"route","url":"/message/Max","pattern":"/message/:username","params":{"username":"Max"},"view":"Message","option":"modal"}"#
        )
        #expect(
            SessionEvent.error(command: "dispatch nope", message: "no store 'nope'\n").line(seq: 8)
                == #"{"seq":8,"kind":"error","text":"dispatch nope","message":"no store 'nope'\n"}"#)
    }

    @Test func timeTravelLines() {
        #expect(SessionEvent.jump(store: "app", index: 3).line(seq: 9) == #"{"seq":9,"kind":"jump","store":"app","index":3}"#)
        #expect(
            SessionEvent.skip(store: "app", index: 2, skipped: true, recomputed: []).line(seq: 10)
                == #"{"seq":10,"kind":"skip","store":"app","index":2,"skipped":true,"recomputed":[]}"#)
        #expect(
            SessionEvent.skip(store: "app", index: 2, skipped: false, recomputed: []).line(seq: 11)
                == #"{"seq":11,"kind":"skip","store":"app","index":2,"skipped":false,"recomputed":[]}"#)
        #expect(SessionEvent.reset(store: "app", state: [:]).line(seq: 12) == #"{"seq":12,"kind":"reset","store":"app","state":{}}"#)
    }

    @Test func aSkipLineCarriesTheStepsItRecomputed() {
        let recomputed = [
            RecomputedStep(index: 2, changes: []),
            RecomputedStep(index: 3, changes: [JSONPatch.Operation(.replace, path: JSONPointer([.key("n")]), value: 1)],
                        hash: StateDigest(text: "00000000000000ff"), failure: "no key 'x'"),
        ]
        #expect(
            SessionEvent.skip(store: "s", index: 2, skipped: true, recomputed: recomputed).line(seq: 9)
                == #"{"seq":9,"kind":"skip","store":"s","index":2,"skipped":true,"recomputed":[{"index":2,"patch":[]},{"index":3,"patch":[{"op":"replace","path":"/n","value":1}],"hash":"00000000000000ff","failed":"no key 'x'"}]}"#
        )
    }

    @Test func aSetupLine() {
        #expect(SessionEvent.setup("reducer s on Add : state.n += 1").line(seq: 3) == #"{"seq":3,"kind":"setup","text":"reducer s on Add : state.n += 1"}"#)
        #expect(SessionEvent.setup("x").kind == "setup")
    }

    @Test func valuesAreWrittenAsJSONTextWritesThem() {
        var generator = ValueGenerator(seed: 11)
        for _ in 0..<300 {
            let value = generator.value()
            #expect(SessionEvent.publish(port: "p.v", value: value).line(seq: 1) == #"{"seq":1,"kind":"publish","port":"p.v","value":"# + value.jsonText + "}")
        }
    }

    @Test func eachEventNamesItsKind() {
        #expect(SessionEvent.command("x").kind == "command")
        #expect(SessionEvent.reset(store: "a", state: nil).kind == "reset")
    }
}
