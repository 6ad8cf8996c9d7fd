import Foundation
@_spi(Shell) import PatchbayShell
import Testing

// `--json` output of the dataflow commands: one line per command, one line per delivery.
// `DataflowSession` is in DataflowShellTests.swift.

@Suite("Shell JSON: dataflow")
struct DataflowShellJSONTests {
    @Test func aProbeDeliveryIsAnEventLineBeforeTheCommandsResult() {
        let session = DataflowSession(json: true)
        #expect(session.run("var x = 1\nprobe x.value\nset x = 3") == [
            #"{"ok":true,"command":"var x = 1","result":{"node":"x","value":1}}"#,
            #"{"event":"probe","port":"x.value","value":1,"txn":0}"#,
            #"{"ok":true,"command":"probe x.value","result":{"probes":["x.value"]}}"#,
            #"{"event":"probe","port":"x.value","value":3,"txn":1}"#,
            #"{"ok":true,"command":"set x = 3","result":null}"#,
        ])
    }

    @Test func probeEventsCarryTheirTransaction() {
        let session = DataflowSession(json: true)
        session.run("var x = 0\nprobe x --future\nset x = 1\nset x = 2\nset x = 3\nset x = 4\nset x = 5\nset x = 6")
        #expect(session.run("set x = {a: [1, 2.5, null]}") == [
            #"{"event":"probe","port":"x.value","value":{"a":[1,2.5,null]},"txn":7}"#,
            #"{"ok":true,"command":"set x = {a: [1, 2.5, null]}","result":null}"#,
        ])
    }

    @Test func graphGivesNodesAndEdges() throws {
        let session = DataflowSession(json: true)
        session.run("var x = 1\nderive y = x * 2\nvar t = 0\nwire x.value -> t.set when $ > 0 : $ + 1")
        let lines = session.run("graph")
        #expect(lines == [
            #"{"ok":true,"command":"graph","result":{"nodes":["#
                + #"{"name":"x","kind":"var","inputs":["set"],"outputs":["value"],"value":1,"state":"value","failure":null},"#
                + #"{"name":"y","kind":"derive","inputs":[],"outputs":["value"],"value":2,"state":"value","failure":null},"#
                + #"{"name":"t","kind":"var","inputs":["set"],"outputs":["value"],"value":2,"state":"value","failure":null}],"#
                + #""edges":[{"from":"x.value","to":"y","kind":"derive","label":null},"#
                + #"{"from":"x.value","to":"t.set","kind":"wire","label":"when $ > 0 : $ + 1"}]}}"#,
        ])
        let object = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let result = try #require(object["result"] as? [String: Any])
        #expect(Set(result.keys) == ["nodes", "edges"])
    }

    @Test func anErrorIsOneLineWithLineAndColumn() {
        let session = DataflowSession(json: true)
        session.run("var a = 1\nvar b = 2\nwire a.value -> b.set")
        #expect(session.run("wire b.value -> a.set") == [
            #"{"ok":false,"command":"wire b.value -> a.set","error":{"message":"the wire would close a cycle: a -> b -> a; use a delay edge (~>) or bind for feedback","line":1,"column":6}}"#,
        ])
        #expect(session.run("set b.set = 3") == [
            #"{"ok":false,"command":"set b.set = 3","error":{"message":"b.set is driven by the wire a.value -> b.set; unwire b.set first","line":1,"column":7}}"#,
        ])
    }

    @Test func aFailingNodeIsAnErrorEventAndTheCommandStillSucceeds() {
        let session = DataflowSession(json: true)
        session.run("var z = 1\nderive q = 10 / z")
        #expect(session.run("set z = 0") == [
            #"{"event":"error","message":"q failed: division by zero in '10 / z'"}"#,
            #"{"ok":true,"command":"set z = 0","result":null}"#,
        ])
    }

    @Test func aRunawayLoopIsOneFailedCommand() {
        let session = DataflowSession(json: true)
        session.run("var a = 0\nvar b = 0\npatch inc map fn=\"$ + 1\"\nwire a.value -> inc.in\nwire inc.out -> b.set")
        #expect(session.run("bind b a") == [
            #"{"ok":false,"command":"bind b a","error":{"message":"did not settle after 100 follow-up transactions (writes from callbacks); ports involved: b.value, a.value","line":1,"column":1}}"#,
        ])
        #expect(session.run("= 1 + 1") == [#"{"ok":true,"command":"= 1 + 1","result":2}"#])
    }

    @Test func logPatchesWriteLogEvents() {
        let session = DataflowSession(json: true)
        session.run("var x = 1\npatch l log")
        #expect(session.run("wire x.value -> l.in") == [
            #"{"event":"log","node":"l","value":1,"txn":1}"#,
            #"{"ok":true,"command":"wire x.value -> l.in","result":{"wire":"x.value -> l.in","replaced":null}}"#,
        ])
    }

    @Test func inspectionCommandsGiveStructuredResults() {
        let session = DataflowSession(json: true)
        session.run("var x = 1\nderive y = x * 2\nset x = 3\nvar t = 0\nvar u = 5\nwire x.value -> t.set")
        #expect(session.run("why y") == [#"{"ok":true,"command":"why y","result":["set x = 3","x.value","y.value"]}"#])
        #expect(session.run("show t.set") == [
            #"{"ok":true,"command":"show t.set","result":[{"port":"t.set","input":true,"valuePort":true,"state":"value","value":3,"failure":null,"driver":"wire x.value -> t.set","drivers":["wire x.value -> t.set"],"manyWires":false,"subscribers":[]}]}"#,
        ])
        #expect(session.run("wire u.value -> t.set") == [
            #"{"ok":true,"command":"wire u.value -> t.set","result":{"wire":"u.value -> t.set","replaced":"x.value -> t.set"}}"#,
        ])
        #expect(session.run("clock\ntick 5") == [
            #"{"ok":true,"command":"clock","result":{"now":0,"pending":0,"next":null}}"#,
            #"{"ok":true,"command":"tick 5","result":{"now":5}}"#,
        ])
        #expect(session.run("begin\nbegin\ncommit") == [
            #"{"ok":true,"command":"begin","result":{"depth":1}}"#,
            #"{"ok":true,"command":"begin","result":{"depth":2}}"#,
            #"{"ok":true,"command":"commit","result":{"applied":false,"depth":1,"txn":3}}"#,
        ])
    }
}
