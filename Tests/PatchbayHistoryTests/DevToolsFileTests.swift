import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
import PatchbayTestSupport
@_spi(Shell) import PatchbayHistory
import Testing

@Suite struct DevToolsFileTests {
    static let exported = """
        {
        \t"payload": "[{\\"type\\":\\"INCREMENT\\"},{\\"type\\":\\"INCREMENT\\"},{\\"type\\":\\"DECREMENT\\"}]",
        \t"preloadedState": "{\\"counter\\":0}"
        }
        """

    @Test func aFileIsWrittenAsReduxDevToolsWritesIt() {
        let file = DevToolsFile(actions: [["type": "INCREMENT"], ["type": "INCREMENT"], ["type": "DECREMENT"]], preloadedState: ["counter": 0])
        #expect(file.text == Self.exported)
        let withoutState = DevToolsFile(actions: [], preloadedState: nil)
        #expect(withoutState.text == "{\n\t\"payload\": \"[]\"\n}")
    }

    @Test func aReduxDevToolsExportIsRead() throws {
        let file = try DevToolsFile(parsing: Self.exported)
        #expect(file.actions == [["type": "INCREMENT"], ["type": "INCREMENT"], ["type": "DECREMENT"]])
        #expect(file.preloadedState == ["counter": 0])
    }

    @Test func whatIsWrittenReadsBack() throws {
        var generator = ValueGenerator(seed: 8)
        for _ in 0..<200 {
            let actions = (0..<generator.int(0..<5)).map { _ in Value.object(["type": .string(generator.name()), "payload": generator.value()]) }
            let file = DevToolsFile(actions: actions, preloadedState: generator.int(0..<3) == 0 ? nil : generator.value())
            #expect(try DevToolsFile(parsing: file.text) == file)
        }
    }

    @Test func theStateIsOptionalAndABareArrayIsAccepted() throws {
        #expect(try DevToolsFile(parsing: #"{"payload":"[{\"type\":\"A\",\"n\":1}]"}"#) == DevToolsFile(actions: [["type": "A", "n": 1]], preloadedState: nil))
        #expect(try DevToolsFile(parsing: #"{"payload":"[]","preloadedState":null}"#) == DevToolsFile(actions: [], preloadedState: nil))
        #expect(try DevToolsFile(parsing: #"[{"type":"A"},{"type":"B"}]"#) == DevToolsFile(actions: [["type": "A"], ["type": "B"]], preloadedState: nil))
        #expect(try DevToolsFile(parsing: #"{"payload":"[]","preloadedState":"null"}"#).preloadedState == .some(.null))
    }

    @Test(arguments: [
        (#"{"payload": "[]""#, DevToolsError.notJSON(JSONError(message: "unexpected end of the text", offset: 16))),
        (#""text""#, .notAnExport(found: "a string")),
        (#"{"actions":[]}"#, .missingPayload),
        (#"{"actionsById":{},"stagedActionIds":{}}"#, .invalidLifted(key: "stagedActionIds", detail: "must be an array of action ids, found an object")),
        (#"{"actionsById":[],"stagedActionIds":[0]}"#, .invalidLifted(key: "actionsById", detail: "must be an object of actions by id, found an array")),
        (#"{"actionsById":{},"stagedActionIds":[0,1]}"#, .invalidLifted(key: "actionsById", detail: "has no action 1, which \"stagedActionIds\" lists")),
        (#"{"actionsById":{"1":{"type":"PERFORM_ACTION","action":{"kind":"A"}}},"stagedActionIds":[0,1]}"#,
         .invalidLifted(key: "actionsById", detail: "action 1 (1 in \"stagedActionIds\") must be an object with a string \"type\", found an object without one")),
        (#"{"actionsById":{},"stagedActionIds":[0],"currentStateIndex":2}"#, .invalidLifted(key: "currentStateIndex", detail: "must be a step from 0 to 0, found 2")),
        (#"{"actionsById":{},"stagedActionIds":[0],"skippedActionIds":"1"}"#, .invalidLifted(key: "skippedActionIds", detail: "must be an array of action ids, found a string")),
        (#"{"payload":"[{\"type\":\"A\",\"at\":{\"$jsan\":\"q1\"}}]"}"#, .jsan("unknown \"$jsan\" tag \"q1\" at $[0].at")),
        (#"{"payload":"[{\"type\":\"A\",\"to\":{\"$jsan\":\"$[3]\"}}]"}"#, .jsan("the reference \"$[3]\" at $[0].to points to nothing in the file")),
        (#"{"payload":"[{\"type\":\"A\",\"to\":{\"$jsan\":\"$..\"}}]"}"#, .jsan("\"$..\" at $[0].to is not a path")),
        (#"{"payload":[{"type":"A"}]}"#, .notAString(key: "payload", found: "an array")),
        (#"{"payload":"[]","preloadedState":{"counter":0}}"#, .notAString(key: "preloadedState", found: "an object")),
        (#"{"payload":"[{\"type\":\"A\"},]"}"#, .innerJSON(key: "payload", JSONError(message: "unexpected character", offset: 14))),
        (#"{"payload":"[]","preloadedState":"{counter:0}"}"#, .innerJSON(key: "preloadedState", JSONError(message: "expected a key", offset: 1))),
        (#"{"payload":"{\"type\":\"A\"}"}"#, .payloadNotAnArray(found: "an object")),
        (#"{"payload":"[{\"type\":\"A\"},{\"kind\":\"B\"}]"}"#, .invalidAction(index: 1, found: "an object without one")),
        (#"[{"type":"A"},"B"]"#, .invalidAction(index: 1, found: "a string")),
        (#"[{"type":1}]"#, .invalidAction(index: 0, found: "an object without one")),
    ])
    func errorsSayWhichKeyAndWhy(text: String, error: DevToolsError) {
        #expect(throws: error) { try DevToolsFile(parsing: text) }
    }

    // MARK: Files as Redux DevTools writes them (Tests/DevToolsFixtures)

    static func fixture(_ name: String) throws -> DevToolsFile {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try DevToolsFile(parsing: String(contentsOf: directory.appendingPathComponent("DevToolsFixtures/\(name)"), encoding: .utf8))
    }

    static let todoActions: [Value] = [["type": "ADD_TODO", "text": "milk"], ["type": "ADD_TODO", "text": "bread"],
                                       ["type": "TOGGLE_TODO", "index": 0], ["type": "SET_FILTER", "filter": "done"]]

    @Test func theDefaultExportIsRead() throws {
        #expect(try Self.fixture("todos-default.json")
                == DevToolsFile(actions: Self.todoActions, preloadedState: ["todos": [], "filter": "all"]))
    }

    @Test func jsanDatesAreISOTextAndUndefinedIsLeftOutOfObjectsAndNullInArrays() throws {
        let file = try Self.fixture("todos-serialize.json")
        #expect(file.actions == [
            ["type": "ADD_TODO", "text": "milk", "at": "2023-11-14T22:13:20.000Z"],
            ["type": "ADD_TODO", "text": "bread", "at": "2023-11-14T22:14:20.000Z", "tags": ["x", nil]],
            ["type": "TOGGLE_TODO", "index": 0],
        ])
        #expect(file.preloadedState == ["todos": [], "filter": "all"])
    }

    @Test func jsanReferencesBecomeCopiesAndCyclesCircular() throws {
        let file = try Self.fixture("nodes-circular.json")
        let node: Value = ["id": 1, "children": [["id": 2, "parent": "[CIRCULAR]"]]]
        #expect(file.actions == [
            ["type": "SELECT", "node": node],
            ["type": "SELECT", "node": node],
            ["type": "TICK", "at": "2023-11-14T22:13:20.000Z"],
            // A cycle through arrays alone, which jsan writes as a reference to the array.
            ["type": "LIST", "list": ["[CIRCULAR]", 1]],
        ])
        #expect(file.preloadedState == ["selected": nil, "ticks": 0])
    }

    @Test func theMonitorsLiftedStateIsRead() throws {
        let expected = DevToolsFile(actions: Self.todoActions, preloadedState: ["todos": [], "filter": "all"], skipped: [2], current: 3)
        #expect(try Self.fixture("todos-lifted.json") == expected)
    }

    @Test func theLiftedStateWithSerializeResolvesItsReferences() throws {
        let file = try Self.fixture("todos-lifted-serialize.json")
        #expect(file.actions == [
            ["type": "ADD_TODO", "text": "milk", "at": "2023-11-14T22:13:21.500Z"],
            ["type": "ADD_TODO", "text": "bread", "at": "2023-11-14T22:13:23.200Z"],
            ["type": "TOGGLE_TODO", "index": 0], ["type": "SET_FILTER", "filter": "done"],
        ])
        // `committedState` is a reference to `computedStates[0].state`.
        #expect(file.preloadedState == ["todos": [], "filter": "all"])
        #expect(file.skipped == [2] && file.current == 3)
    }

    @Test func theLiftedFormReadsBack() throws {
        var generator = ValueGenerator(seed: 15)
        for _ in 0..<100 {
            let actions = (0..<generator.int(0..<6)).map { _ in Value.object(["type": .string(generator.name()), "payload": generator.value()]) }
            let skipped = actions.indices.map { $0 + 1 }.filter { _ in generator.int(0..<3) == 0 }
            let file = DevToolsFile(actions: actions, preloadedState: generator.int(0..<4) == 0 ? nil : generator.value(),
                                    skipped: skipped, current: generator.int(0...actions.count))
            let states = (0...actions.count).map { _ in (state: generator.value(), error: String?.none) }
            #expect(try DevToolsFile(parsing: file.liftedText(computedStates: states)) == file)
        }
    }

    @Test func aLiftedStateIsWrittenAsTheMonitorWritesIt() {
        let file = DevToolsFile(actions: [["type": "A"]], preloadedState: ["n": 0], skipped: [1], current: 0)
        #expect(file.liftedText(computedStates: [(["n": 0], nil), (["n": 0], "r1: boom")]) == #"{"nextActionId":2,"stagedActionIds":[0,1],"#
            + #""skippedActionIds":[1],"currentStateIndex":0,"isLocked":false,"isPaused":false,"actionsById":{"0":{"type":"PERFORM_ACTION","#
            + #""action":{"type":"@@INIT"},"timestamp":0},"1":{"type":"PERFORM_ACTION","action":{"type":"A"},"timestamp":0}},"#
            + #""computedStates":[{"state":{"n":0}},{"state":{"n":0},"error":"r1: boom"}],"committedState":{"n":0}}"#)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"), (1_700_000_000_000, "2023-11-14T22:13:20.000Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"), (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
        (8.64e15, "+275760-09-13T00:00:00.000Z"), (-8.64e15, "-271821-04-20T00:00:00.000Z"),
    ])
    func datesAreWrittenAsJavaScriptWritesThem(milliseconds: Double, text: String) {
        #expect(JSANDecoder.isoText(milliseconds: milliseconds) == text)
    }

    @Test func jsanEdgesAreRead() throws {
        // A member called `$jsan` is wrapped in an array; paths name odd keys in brackets;
        // an invalid date and NaN are null; a Map is its pairs.
        let text = #"[{"type":"A","$jsan":["kept"],"odd key":{"v":1},"copy":{"$jsan":"$[0][\"odd key\"]"},"#
            + #""bad":{"$jsan":"dNaN"},"nan":{"$jsan":"n"},"map":{"$jsan":"m[[\"k\",1]]"},"re":{"$jsan":"rgi,a.b"}}]"#
        #expect(try DevToolsFile(parsing: text).actions == [[
            "type": "A", "$jsan": "kept", "odd key": ["v": 1], "copy": ["v": 1], "bad": nil, "nan": nil, "map": [["k", 1]], "re": "/a.b/gi",
        ]])
    }

    @Test func referencesThatMultiplyAreRefused() {
        // Each level holds the one before twice: 2^30 values once expanded.
        var levels = [#"{"type":"A","l0":[1,2]"#]
        for level in 1...30 { levels.append(#","l\#(level)":[{"$jsan":"$[0].l\#(level - 1)"},{"$jsan":"$[0].l\#(level - 1)"}]"#) }
        let text = "[" + levels.joined() + "}]"
        #expect(throws: DevToolsError.jsan("its references expand to more than \(JSANDecoder.maximumValues) values")) {
            try DevToolsFile(parsing: text)
        }
    }

    @Test func errorsReadAsOneLine() {
        #expect(
            DevToolsError.notAString(key: "payload", found: "an array").description
                == #""payload" must be a string holding JSON (Redux DevTools encodes it twice), found an array"#)
        #expect(
            DevToolsError.innerJSON(key: "payload", JSONError(message: "unexpected character", offset: 13)).description
                == #"the string in "payload" is not JSON: unexpected character at byte 14 of the string"#)
        #expect(
            DevToolsError.invalidAction(index: 1, found: "a string").description
                == #"action 2 in "payload" must be an object with a string "type", found a string"#)
    }
}
