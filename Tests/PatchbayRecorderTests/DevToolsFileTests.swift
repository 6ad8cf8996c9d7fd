import PatchbayCore
import PatchbayGraph
import PatchbayRecorder
import PatchbayTimeTravel
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
        (#"{"actionsById":{},"computedStates":[],"stagedActionIds":[0]}"#, .liftedState),
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
