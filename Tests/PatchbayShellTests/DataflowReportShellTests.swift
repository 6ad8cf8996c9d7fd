import Foundation
@_spi(Shell) import PatchbayShell
import Testing

// The text and `--json` forms of dataflow results that other suites do not pin, each pair made
// from one report. `DataflowSession` is in DataflowShellTests.swift.

@Suite("Shell: dataflow reports, text and JSON")
struct DataflowReportShellTests {
    @Test func disconnectingAConnectorCountsWhatItEnded() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0\nconnector empty\nconnector end")
        #expect(session.run("connector empty disconnect") == ["connector empty disconnected: 0 wires, 0 probes (nothing left to end)"])
        session.run("connector one\nwire a.value -> b.set\nconnector end")
        #expect(session.run("connector one disconnect") == ["connector one disconnected: 1 wire, 0 probes"])

        let json = DataflowSession(json: true)
        json.run("var a = 1\nvar b = 0\nconnector c\nwire a.value -> b.set\nprobe b --future")
        #expect(json.run("connector c disconnect") == [
            #"{"ok":true,"command":"connector c disconnect","result":{"connector":"c","wires":["a.value -> b.set"],"probes":["b"],"open":true}}"#,
        ])
    }

    @Test func tapGivesThePatchesItFired() {
        let session = DataflowSession(json: true)
        session.run("patch v view x=2 y=1 width=10 height=3\npatch tp tap\nwire v.frame -> tp.view")
        #expect(session.run("tap v 5 2") == [#"{"ok":true,"command":"tap v 5 2","result":{"fired":["tp"]}}"#])
        #expect(session.run("tap v 50 2") == [#"{"ok":true,"command":"tap v 50 2","result":{"fired":[]}}"#])
    }

    @Test func patchTypesListsEachTypeWithItsPortsAndWhetherAUserDefinedIt() throws {
        let session = DataflowSession(json: true)
        session.run("patchtype minmax (a, b) -> (low, high) { emit low min([a, b]); emit high max([a, b]) }")
        let line = try #require(session.run("patch types").first)
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let types = try #require(object["result"] as? [[String: Any]])
        let minmax = try #require(types.last)
        #expect(minmax["type"] as? String == "minmax")
        #expect(minmax["inputs"] as? [String] == ["a", "b"])
        #expect(minmax["outputs"] as? [String] == ["low", "high"])
        #expect(minmax["parameters"] as? [String] == [])
        #expect(minmax["userDefined"] as? Bool == true)
        #expect(types.dropLast().allSatisfy { $0["userDefined"] as? Bool == false })
        let view = try #require(types.first { $0["type"] as? String == "view" })
        #expect((view["parameters"] as? [String])?.contains("width") == true)
    }

    @Test func tickGivesTheTimeAndClockAddsItsTimers() {
        let session = DataflowSession(json: true)
        #expect(session.run("clock") == [#"{"ok":true,"command":"clock","result":{"now":0,"pending":0,"next":null}}"#])
        #expect(session.run("tick 5") == [#"{"ok":true,"command":"tick 5","result":{"now":5}}"#])
    }

    @Test func unwireShowsTheWireWhenTheSourceIsNamedAndTheInputWhenNot() {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0\nwire a.value -> b.set")
        #expect(session.run("unwire a.value -> b.set") == ["unwired a.value -> b.set"])
        session.run("wire a.value -> b.set")
        #expect(session.run("unwire b.set") == ["unwired b.set"])

        let json = DataflowSession(json: true)
        json.run("var a = 1\nvar b = 0\nwire a.value -> b.set")
        #expect(json.run("unwire b.set") == [#"{"ok":true,"command":"unwire b.set","result":{"input":"b.set","wire":"a.value -> b.set"}}"#])
    }
}
