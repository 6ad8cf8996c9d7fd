import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) @testable import PatchbayShell
import Testing

// The rendering tests: how each kind of report (each `CommandReport`) reads, as text for people
// and as JSON, shown once here. The behaviour tests check what commands report as values; the
// forms those values take on the screen are pinned here, and in the tests of layouts that are
// the point (help, line wrapping, the README's transcripts).

/// One report kind's two forms: a report made by a tiny script (or built directly, for what
/// only Ctrl-C, a followed file or an editor makes), its lines for people and its JSON.
struct ReportForm: Sendable, CustomTestStringConvertible {
    /// The report's type, as declared in `Sources/PatchbayShell`.
    var kind: String
    /// Commands run first, in a fresh shell; each must succeed.
    var setup: [String] = []
    /// The command whose report is shown, unless `built` makes it.
    var command: String?
    var built: (@Sendable () -> any CommandReport)?
    /// Its lines for people (the shell's directory, where a path names it, reads `$DIR`).
    var text: [String]
    /// Whether `text` is the first lines only: the help's whole layout is HelpLayoutTests'.
    var textIsPrefix = false
    /// Its JSON, as the `result` of the command's JSON line.
    var json: String
    var jsonIsPrefix = false

    var testDescription: String { kind }

    /// The report, made in `shell`.
    func report(in shell: Shell) throws -> any CommandReport {
        if let built { return built() }
        for line in setup {
            #expect(shell.execute(line).status == .success, "\(kind): '\(line)' failed")
        }
        let command = try #require(command)
        let reply = try #require(shell.reply(to: command), "\(kind): '\(command)' holds no command")
        return try #require(reply.report, "\(kind): '\(command)' failed: \(reply.error?.message ?? "")")
    }
}

@Suite("Rendering: each report kind as text and as JSON")
struct RenderingTests {
    static let forms: [ReportForm] = [
        ReportForm(
            kind: "NoReport", setup: ["var a = 1"], command: "set a = 2",
            text: [],
            json: "null"),
        ReportForm(
            kind: "ValueReport", command: #"= {sum: 1 + 2, list: [1, "two"]}"#,
            text: [#"{sum: 3, list: [1, "two"]}"#],
            json: #"{"sum":3,"list":[1,"two"]}"#),
        ReportForm(
            kind: "NodeMade", command: "var a = 1",
            text: ["a = 1"],
            json: #"{"node":"a","value":1}"#),
        ReportForm(
            kind: "SignalMade", command: "signal s",
            text: ["s: signal (send) -> (out)"],
            json: #"{"node":"s"}"#),
        ReportForm(
            kind: "PatchMade", command: #"patch e expr expr="x + y""#,
            text: ["e: patch expr (x, y) -> (out)"],
            json: #"{"name":"e","kind":"patch expr","inputs":["x","y"],"outputs":["out"],"value":null,"state":"empty","failure":null}"#),
        ReportForm(
            kind: "PatchTypeDefined", command: "patchtype double (x) -> (out) { emit out x * 2 }",
            text: ["patch type double (x) -> (out)"],
            json: #"{"type":"double"}"#),
        ReportForm(
            kind: "WireMade", setup: ["var a = 1", "var t = 0"], command: "wire a.value -> t.set",
            text: ["wired a.value -> t.set"],
            json: #"{"wire":"a.value -> t.set","replaced":null}"#),
        ReportForm(
            kind: "WireRemoved", setup: ["var a = 1", "var t = 0", "wire a.value -> t.set"], command: "unwire t.set",
            text: ["unwired t.set"],
            json: #"{"input":"t.set","wire":"a.value -> t.set"}"#),
        ReportForm(
            kind: "BindingsEnded", setup: ["var a = 1", "var b = 2", "bind a b"], command: "unbind a b",
            text: ["unbound a <-> b"],
            json: #"{"bindings":["a <-> b"]}"#),
        ReportForm(
            kind: "ProbesAdded", setup: ["var a = 1"], command: "probe a --future",
            text: [],
            json: #"{"probes":["a.value"]}"#),
        ReportForm(
            kind: "ProbesRemoved", setup: ["var a = 1", "probe a --future"], command: "unprobe all",
            text: [],
            json: #"{"removed":1}"#),
        ReportForm(
            kind: "TransactionBegun", command: "begin",
            text: [],
            json: #"{"depth":1}"#),
        ReportForm(
            kind: "TransactionCommitted", setup: ["var a = 1", "begin", "set a = 2"], command: "commit",
            text: [],
            json: #"{"applied":true,"depth":0,"txn":1}"#),
        ReportForm(
            kind: "TransactionAborted", setup: ["begin"], command: "abort",
            text: ["aborted: the transaction's writes are dropped"],
            json: "null"),
        ReportForm(
            kind: "ClockReading", setup: ["patch t timer ms=50"], command: "clock",
            text: ["clock 0 ms, 1 timer pending, next at 50 ms"],
            json: #"{"now":0,"pending":1,"next":50}"#),
        ReportForm(
            kind: "TapFired", setup: ["patch v view x=2 y=1 width=10 height=3", "patch tp tap", "wire v.frame -> tp.view"], command: "tap v 5 2",
            text: ["tap at 5,2 fired tp"],
            json: #"{"fired":["tp"]}"#),
        ReportForm(
            kind: "ConnectorSwitched", command: "connector ui",
            text: ["connector ui open: wires and probes made now join it until 'connector end'"],
            json: #"{"connector":"ui","open":true}"#),
        ReportForm(
            kind: "ConnectorListing", setup: ["var a = 1", "var t = 0", "connector ui", "wire a.value -> t.set"], command: "connector list",
            text: ["ui  (open)", "  wire a.value -> t.set"],
            json: #"[{"connector":"ui","wires":["a.value -> t.set"],"probes":[],"open":true}]"#),
        ReportForm(
            kind: "ConnectorWiresAdded", setup: ["var a = 1", "var t = 0", "wire a.value -> t.set", "connector ui", "connector end"], command: "connector ui add t.set",
            text: ["connector ui: wire a.value -> t.set"],
            json: #"{"connector":"ui","wires":["a.value -> t.set"]}"#),
        ReportForm(
            kind: "ConnectorDisconnected", setup: ["var a = 1", "var t = 0", "connector ui", "wire a.value -> t.set", "connector end"], command: "connector ui disconnect",
            text: ["connector ui disconnected: 1 wire, 0 probes"],
            json: #"{"connector":"ui","wires":["a.value -> t.set"],"probes":[],"open":false}"#),
        ReportForm(
            kind: "NodeListing", setup: ["var a = 1", "derive b = a + 1"], command: "nodes",
            text: ["a  var  = 1", "b  derive  = 2"],
            json: #"[{"name":"a","kind":"var","inputs":["set"],"outputs":["value"],"value":1,"state":"value","failure":null},{"name":"b","kind":"derive","inputs":[],"outputs":["value"],"value":2,"state":"value","failure":null}]"#),
        ReportForm(
            kind: "PortListing", setup: ["var a = 1", "derive b = a + 1"], command: "show a",
            text: ["a.value  value port, value: 1", "  subscribers: derive b", "a.set  input, empty", "  driven by nothing (no wire, no local value)", "  no subscribers"],
            json: #"[{"port":"a.value","input":false,"valuePort":true,"state":"value","value":1,"failure":null,"driver":null,"drivers":[],"manyWires":false,"subscribers":["derive b"]},{"port":"a.set","input":true,"valuePort":true,"state":"empty","value":null,"failure":null,"driver":null,"drivers":[],"manyWires":false,"subscribers":[]}]"#),
        ReportForm(
            kind: "GraphDrawing", setup: ["var a = 1", "derive b = a + 1"], command: "graph",
            text: ["a  var  = 1", "  a.value ..> b", "b  derive  = 2"],
            json: #"{"nodes":[{"name":"a","kind":"var","inputs":["set"],"outputs":["value"],"value":1,"state":"value","failure":null},{"name":"b","kind":"derive","inputs":[],"outputs":["value"],"value":2,"state":"value","failure":null}],"edges":[{"from":"a.value","to":"b","kind":"derive","label":null}]}"#),
        ReportForm(
            kind: "GraphDot", setup: ["var a = 1", "derive b = a + 1"], command: "graph --dot",
            text: ["digraph patchbay {\n  rankdir=LR;\n  node [shape=record, fontname=\"monospace\"];\n  \"a\" [label=\"{{<in_set> set}|a\\nvar|{<out_value> value}}\"];\n  \"b\" [label=\"{b\\nderive|{<out_value> value}}\"];\n  \"a\":out_value -> \"b\" [style=dotted];\n}"],
            json: "\"digraph patchbay {\\n  rankdir=LR;\\n  node [shape=record, fontname=\\\"monospace\\\"];\\n  \\\"a\\\" [label=\\\"{{<in_set> set}|a\\\\nvar|{<out_value> value}}\\\"];\\n  \\\"b\\\" [label=\\\"{b\\\\nderive|{<out_value> value}}\\\"];\\n  \\\"a\\\":out_value -> \\\"b\\\" [style=dotted];\\n}\""),
        ReportForm(
            kind: "GraphDotWritten", setup: ["var a = 1"], command: "graph --dot g.dot",
            text: ["wrote $DIR/g.dot"],
            json: #"{"file":"$DIR/g.dot"}"#),
        ReportForm(
            kind: "PatchTypeListing", command: "patch types",
            text: ["  expr (NAME...) -> (out)                      out = the expression; each free name in it is an input port", #"                                                 expr=  the expression, e.g. "a + b" (required)"#, "  map (in) -> (out)                            out = fn applied to each value of in ($)", #"                                                 fn=  an expression over $, e.g. "$ + 1" (required)"#], textIsPrefix: true,
            json: #"[{"type":"expr","inputs":["NAME..."],"outputs":["out"],"even"#, jsonIsPrefix: true),
        ReportForm(
            kind: "ViewRendering", setup: [#"patch v view x=2 y=1 width=10 height=3 text="hi""#], command: "render",
            text: ["", "  +--------+", "  |hi      |", "  +--------+"],
            json: #"["","  +--------+","  |hi      |","  +--------+"]"#),
        ReportForm(
            kind: "CauseChain", setup: ["var a = 1", "derive b = a + 1", "set a = 5"], command: "why b",
            text: ["set a = 5 → a.value → b.value"],
            json: #"["set a = 5","a.value","b.value"]"#),
        ReportForm(
            kind: "StepShown", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc"], command: "show app #1",
            text: ["app #1 Inc  n: 0 → 1", "  site: dispatch app Inc"],
            json: #"{"store":"app","index":1,"action":{"type":"Inc"},"changes":[{"path":"n","op":"replace","old":0,"new":1}],"skipped":false,"site":{"shell":["dispatch app Inc"]}}"#),
        ReportForm(
            kind: "NodeRemoved", setup: ["var a = 1"], command: "rm a",
            text: ["removed a"],
            json: #"{"removed":"a"}"#),
        ReportForm(
            kind: "HelpOverview", command: "help",
            text: ["General:", "  = EXPR                          evaluate an expression and print its value", "  help [COMMAND [SUBCOMMAND] | functions | values | patch TYPE]"], textIsPrefix: true,
            json: #"[{"command":"=","group":"General","synopsis":"= EXPR","summa"#, jsonIsPrefix: true),
        ReportForm(
            kind: "CommandHelp", command: "help unprobe",
            text: ["unprobe NODE[.PORT] | unprobe all", "  stop probes", "", "Example:", "  unprobe total", "  unprobe all"],
            json: #"{"command":"unprobe","synopsis":"unprobe NODE[.PORT] | unprobe all","summary":"stop probes","details":[],"examples":["unprobe total","unprobe all"]}"#),
        ReportForm(
            kind: "FunctionsHelp", command: "help functions",
            text: ["Functions (lambdas only as arguments: map(xs, x => x * 2)):", "  len(x)                                     characters of a string, elements of an array, keys of an object", "  keys(object)                               the keys of an object, in order"], textIsPrefix: true,
            json: #"[{"function":"len(x)","summary":"characters of a string, ele"#, jsonIsPrefix: true),
        ReportForm(
            kind: "ValuesHelp", command: "help values",
            text: [#"Values: null, true/false, integers (64-bit, overflow is an error), decimals, "strings" or 'strings',"#, "  [arrays], {objects: \"with keys in insertion order\"}; trailing commas are fine; \"n is \\(n)\" interpolates.", "  1 == 1.0 is true; 7 / 2 is 3.5 and 6 / 3 is 2."], textIsPrefix: true,
            json: #"["Values: null, true/false, integers (64-bit, overflow is an"#, jsonIsPrefix: true),
        ReportForm(
            kind: "AproposMatches", command: "apropos unprobe",
            text: ["unprobe NODE[.PORT]  stop probes"],
            json: #"[{"command":"unprobe","synopsis":"unprobe NODE[.PORT] | unprobe all","summary":"stop probes"}]"#),
        ReportForm(
            kind: "PatchTypeHelp", command: "help patch expr",
            text: ["patch NAME expr [expr=...]", "  out = the expression; each free name in it is an input port", "  inputs: NAME...", "  outputs: out", #"  expr=  the expression, e.g. "a + b" (required)"#, "  A parameter named like an input sets its local value."],
            json: #"{"type":"expr","summary":"out = the expression; each free name in it is an input port","inputs":["NAME..."],"outputs":["out"],"eventOutputs":[],"parameters":["expr"]}"#),
        ReportForm(
            kind: "StoreMade", command: "store app = {n: 0}",
            text: ["app = {n: 0}"],
            json: #"{"store":"app","state":{"n":0}}"#),
        ReportForm(
            kind: "ReducerDefined", setup: ["store app = {n: 0}"], command: "reducer app on Inc : state.n += 1",
            text: ["r1: app on Inc : state.n += 1"],
            json: #"{"id":"r1","store":"app","type":"Inc","at":null,"when":null,"after":null,"body":"state.n += 1"}"#),
        ReportForm(
            kind: "ReducerList", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1"], command: "reducer list",
            text: ["r1: app on Inc : state.n += 1"],
            json: #"[{"id":"r1","store":"app","type":"Inc","at":null,"when":null,"after":null,"body":"state.n += 1"}]"#),
        ReportForm(
            kind: "MiddlewareDefined", setup: ["store app = {n: 0}"], command: "middleware app on Inc : drop",
            text: ["m1: app on Inc : drop"],
            json: #"{"id":"m1","store":"app","type":"Inc","body":"drop"}"#),
        ReportForm(
            kind: "MiddlewareList", setup: ["store app = {n: 0}", "middleware app on Inc : drop"], command: "middleware list",
            text: ["m1: app on Inc : drop"],
            json: #"[{"id":"m1","store":"app","type":"Inc","body":"drop"}]"#),
        ReportForm(
            kind: "StoreHandlerRemoved", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1"], command: "reducer rm r1",
            text: ["removed r1"],
            json: #"{"removed":"r1"}"#),
        ReportForm(
            kind: "StaleHistoryNoted", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "reducer app on Inc : state.n += 2",
            text: ["r2: app on Inc : state.n += 2", "note: app's 2 states were made by the old reducers; 'history recompute app' runs them again"],
            json: #"{"id":"r2","store":"app","type":"Inc","at":null,"when":null,"after":null,"body":"state.n += 2","note":"app's 2 states were made by the old reducers; 'history recompute app' runs them again"}"#),
        ReportForm(
            kind: "DispatchReport", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1"], command: "dispatch app Inc {by: 1}",
            text: ["#1 Inc  n: 0 → 1"],
            json: #"{"store":"app","index":1,"action":{"type":"Inc","by":1},"changes":[{"path":"n","op":"replace","old":0,"new":1}]}"#),
        ReportForm(
            kind: "StoreSelection", setup: ["store app = {n: 0}"], command: "use app",
            text: ["using app: commands that leave out STORE use it ('use' alone clears it)"],
            json: #"{"store":"app"}"#),
        ReportForm(
            kind: "RouteAdded", command: "route add /a/:id view=A",
            text: ["route /a/:id → A (push)"],
            json: #"{"pattern":"/a/:id","view":"A","option":"push","priority":0,"overrides":null,"wins":true,"warnings":[]}"#),
        ReportForm(
            kind: "Navigated", setup: ["route add /a/:id view=A"], command: "route /a/7",
            text: [#"/a/:id  {id: "7"}  → A (push)"#],
            json: #"{"url":"/a/7","pattern":"/a/:id","params":{"id":"7"},"view":"A","option":"push","stack":[{"view":"A","url":"/a/7","params":{"id":"7"},"content":null,"modal":false}]}"#),
        ReportForm(
            kind: "RouteExplained", setup: ["route add /a/:id view=A"], command: "route explain /a/7",
            text: ["✓ /a/:id  matched"],
            json: #"[{"pattern":"/a/:id","matched":true,"reason":null}]"#),
        ReportForm(
            kind: "RouteListing", setup: ["route add /a/:id view=A", "route add /b view=B option=modal"], command: "route list",
            text: ["/a/:id  view=A option=push", "/b  view=B option=modal"],
            json: #"[{"pattern":"/a/:id","view":"A","option":"push","priority":0,"when":null,"overriddenBy":null},{"pattern":"/b","view":"B","option":"modal","priority":0,"when":null,"overriddenBy":null}]"#),
        ReportForm(
            kind: "RouteRemoved", setup: ["route add /a/:id view=A"], command: "route rm /a/:id",
            text: ["removed route /a/:id → A (push)"],
            json: #"{"removed":"/a/:id","view":"A","priority":0}"#),
        ReportForm(
            kind: "RouteConflicts", setup: ["route add /a/:id view=A", "route add /a/:name view=B"], command: "route check",
            text: ["/a/:name is shadowed by /a/:id, added earlier with the same priority: it matches every URL /a/:name matches (e.g. /a/name), so /a/:name can never match"],
            json: #"[{"route":"/a/:name","witness":"/a/name","unreachable":true,"message":"/a/:name is shadowed by /a/:id, added earlier with the same priority: it matches every URL /a/:name matches (e.g. /a/name), so /a/:name can never match"}]"#),
        ReportForm(
            kind: "PresenterAdded", command: #"presenter A : "hi""#,
            text: ["presenter p1 for A"],
            json: #"{"id":"p1","view":"A","live":false,"when":null}"#),
        ReportForm(
            kind: "PresenterListing", setup: [#"presenter A : "hi""#], command: "presenter list",
            text: [#"p1  presenter A : "hi""#],
            json: "[{\"id\":\"p1\",\"view\":\"A\",\"live\":false,\"when\":null,\"content\":\"\\\"hi\\\"\"}]"),
        ReportForm(
            kind: "PresenterRemoved", setup: [#"presenter A : "hi""#], command: "presenter rm p1",
            text: [#"removed presenter p1 (presenter A : "hi")"#],
            json: "{\"id\":\"p1\",\"view\":\"A\",\"live\":false,\"when\":null,\"content\":\"\\\"hi\\\"\"}"),
        ReportForm(
            kind: "FeatureBegun", command: "feature f begin",
            text: ["feature f begun"],
            json: #"{"feature":"f","new":true}"#),
        ReportForm(
            kind: "FeatureEnded", setup: ["feature f begin", "var q = 1"], command: "feature end",
            text: ["feature f: var q"],
            json: #"{"feature":"f","open":false,"items":["var q"]}"#),
        ReportForm(
            kind: "FeatureListing", setup: ["feature f begin", "var q = 1", "feature end"], command: "feature list",
            text: ["f  1 definition"],
            json: #"[{"feature":"f","open":false,"items":["var q"]}]"#),
        ReportForm(
            kind: "FeatureShown", setup: ["feature f begin", "var q = 1", "feature end"], command: "feature show f",
            text: ["feature f", "  var q"],
            json: #"{"feature":"f","open":false,"items":["var q"]}"#),
        ReportForm(
            kind: "FeatureRemoved", setup: ["feature f begin", "var q = 1", "feature end"], command: "feature rm f",
            text: ["removed feature f: var q"],
            json: #"{"feature":"f","removed":["var q"]}"#),
        ReportForm(
            kind: "StackShown", setup: ["route add /a/:id view=A", #"presenter A : "hi""#, "route /a/7"], command: "stack",
            text: [#"1  A  /a/7  params {id: "7"}  content "hi""#],
            json: #"[{"view":"A","url":"/a/7","params":{"id":"7"},"content":"hi","modal":false}]"#),
        ReportForm(
            kind: "SessionReset", setup: ["var a = 1"], command: "reset",
            text: ["reset: everything defined in this session is gone"],
            json: "null"),
        ReportForm(
            kind: "ScriptLoaded", setup: ["var a = 1", "save s.pb", "reset"], command: "load s.pb",
            text: [],
            json: #"{"file":"$DIR/s.pb","commands":1}"#),
        ReportForm(
            kind: "DefinitionsSaved", setup: ["var a = 1"], command: "save s.pb",
            text: ["saved 1 definition to $DIR/s.pb"],
            json: #"{"file":"$DIR/s.pb","lines":1}"#),
        ReportForm(
            kind: "SettingsShown", command: "set",
            text: ["width    auto  (80 columns)", "pager    on  (no pager here: only an interactive terminal pages, without --no-pager)", "color    on", "truncate 200", "identity id"],
            json: #"{"width":"auto","pager":true,"color":true,"truncate":200,"identity":"id"}"#),
        ReportForm(
            kind: "RecordingStarted", setup: ["store app = {n: 0}"], command: "record r.jsonl",
            text: ["recording into $DIR/r.jsonl (it starts with what exists: 1 store and the definitions)"],
            json: #"{"recording":"$DIR/r.jsonl","pendingTimers":0}"#),
        ReportForm(
            kind: "RecordingStopped", setup: ["record r.jsonl", "var a = 1"], command: "record stop",
            text: ["stopped recording into $DIR/r.jsonl (1 event)"],
            json: #"{"stopped":"$DIR/r.jsonl","events":1}"#),
        ReportForm(
            kind: "RecordingStatus", setup: ["record r.jsonl", "var a = 1"], command: "record",
            text: ["recording into $DIR/r.jsonl: 1 event"],
            json: #"{"recording":"$DIR/r.jsonl","events":1}"#),
        ReportForm(
            kind: "ReplayPaused", setup: ["record r.jsonl", "store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc", "record stop", "reset"], command: "replay r.jsonl --step",
            text: ["replay of r.jsonl paused before step 1 of 4: store app = {n: 0}"],
            json: #"{"paused":0,"steps":4}"#),
        ReportForm(
            kind: "ReplayFinished", setup: ["record r.jsonl", "store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc", "record stop", "reset"], command: "replay r.jsonl --verify",
            text: ["verified 4 steps of r.jsonl: every effect matches the recording"],
            json: #"{"verified":true,"steps":4,"failed":0,"divergence":null}"#),
        ReportForm(
            kind: "BreakpointSet", setup: ["store app = {n: 0}"], command: "break app when state.n > 1",
            text: ["break when state.n > 1 in app"],
            json: #"{"break":"state.n > 1"}"#),
        ReportForm(
            kind: "Inspected", setup: ["record r.jsonl", "store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc", "record stop", "reset"], command: "inspect r.jsonl",
            text: ["inspected $DIR/r.jsonl: app (2 actions)"],
            json: #"{"file":"$DIR/r.jsonl","stores":["app"]}"#),
        ReportForm(
            kind: "DevToolsExported", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "export devtools app d.json",
            text: ["exported 2 actions of app to $DIR/d.json"],
            json: #"{"store":"app","file":"$DIR/d.json","actions":2,"lifted":false}"#),
        ReportForm(
            kind: "SwiftTestExported",
            built: { SwiftTestExported(store: "todos", path: "/t/T.swift", from: 0, to: 4, actions: 3, leftOut: 1, checks: 12) },
            text: ["exported steps #1 to #4 of todos to /t/T.swift as a Swift test: 3 actions, 12 checks (1 skipped or failed step left out)"],
            json: #"{"store":"todos","file":"/t/T.swift","from":0,"to":4,"actions":3,"leftOut":1,"checks":12}"#),
        ReportForm(
            kind: "DevToolsImported", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc", "export devtools app d.json", "store copy = {n: 0}", "reducer copy on Inc : state.n += 1"], command: "import devtools d.json copy",
            text: ["imported 2 actions into copy"],
            json: #"{"store":"copy","actions":2,"failed":0,"skipped":[],"current":2,"replaced":0,"replacedBranches":0}"#),
        ReportForm(
            kind: "HistoryListing", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "history",
            text: ["   #0 (initial state)", "   #1 Inc  n", ">  #2 Inc  n"],
            json: #"[{"index":1,"action":{"type":"Inc"},"changes":[{"path":"n","op":"replace","old":0,"new":1}],"skipped":false,"failed":false,"current":false},{"index":2,"action":{"type":"Inc"},"changes":[{"path":"n","op":"replace","old":1,"new":2}],"skipped":false,"failed":false,"current":true}]"#),
        ReportForm(
            kind: "HistoryChart", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "history --chart n --spark",
            text: ["app.n from #0 to #2", "▁▄█", "  ▲", "min 0 at #0, max 2 at #2; ▲ #2 (current): 2"],
            json: #"{"store":"app","path":"n","from":0,"to":2,"current":2,"points":[{"index":0,"value":0},{"index":1,"value":1},{"index":2,"value":2}]}"#),
        ReportForm(
            kind: "RouteHistory", setup: ["route add /a/:id view=A", "route /a/7"], command: "history router",
            text: [#"#1 /a/7  /a/:id  {id: "7"}  → A (push)"#],
            json: #"[{"url":"/a/7","pattern":"/a/:id","params":{"id":"7"},"view":"A","option":"push"}]"#),
        ReportForm(
            kind: "StoreAtStep", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "jump 1",
            text: ["app at #1 of 2: {n: 1}"],
            json: #"{"store":"app","index":1,"count":2,"state":{"n":1}}"#),
        ReportForm(
            kind: "StateDiff", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "diff",
            text: ["n: 1 → 2"],
            json: #"[{"path":"n","op":"replace","old":1,"new":2}]"#),
        ReportForm(
            kind: "MinimizedHistory",
            setup: ["store app = {n: 0}", "reducer app on Add : state.n += action.by", "dispatch app Add {by: 1}", "dispatch app Add {by: 5}",
                    "dispatch app Add {by: 1}"],
            command: "history minimize --until state.n > 5",
            text: ["app: 2 of 3 actions still fail (state.n > 5 comes to hold), found in 4 runs of the reducers; removing any one of them makes it pass:",
                   "  #1 Add {by: 1}", "      n: 0 → 1", "! #2 Add {by: 5}", "      n: 1 → 6", "    → state.n > 5 holds"],
            json: #"{"store":"app","failure":"until","condition":"state.n > 5","actions":3,"kept":[{"index":1,"action":{"type":"Add","by":1},"#
                + #""changes":[{"path":"n","op":"replace","old":0,"new":1}],"failure":null,"fails":false},{"index":2,"action":{"type":"Add","by":5},"#
                + #""changes":[{"path":"n","op":"replace","old":1,"new":6}],"failure":null,"fails":true}],"reason":"state.n > 5 holds","runs":4,"#
                + #""budget":2000,"minimal":true,"file":null}"#),
        ReportForm(
            kind: "Recomputed", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc", "reducer r1 : state.n += 2"], command: "history recompute",
            text: ["recomputed 2 actions of app with its reducers as they are now: 2 states changed, the first at #1:", "n: 1 → 2"],
            json: #"{"store":"app","actions":2,"changed":2,"firstChanged":1,"firstChanges":[{"path":"n","op":"replace","old":1,"new":2}]}"#),
        ReportForm(
            kind: "SkipToggled", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "skip 1",
            text: ["skipped #1: 2 states changed"],
            json: #"{"index":1,"skipped":true,"changed":2}"#),
        ReportForm(
            kind: "BlameListing", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "blame n",
            text: ["#1 Inc  0 → 1", "#2 Inc  1 → 2"],
            json: #"[{"index":1,"action":{"type":"Inc"},"old":0,"new":1},{"index":2,"action":{"type":"Inc"},"old":1,"new":2}]"#),
        ReportForm(
            kind: "FoundStates", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "find state.n > 0",
            text: ["#1 Inc", "#2 Inc"],
            json: "[1,2]"),
        ReportForm(
            kind: "BranchListing", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc", "jump 1", "dispatch app Inc"], command: "branch",
            text: ["  main  2 actions", "* b1  2 actions, from main at #1"],
            json: #"[{"name":"main","count":2,"current":false,"from":null,"at":null},{"name":"b1","count":2,"current":true,"from":"main","at":1}]"#),
        ReportForm(
            kind: "HistoryRewritten", setup: ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch app Inc", "dispatch app Inc"], command: "history commit",
            text: ["committed: the current state is the initial state now (2 actions squashed)"],
            json: #"{"committed":2}"#),
        ReportForm(
            kind: "EditCancelled", built: { EditCancelled(reducer: "r1", reason: "the file was left empty") },
            text: ["edit r1: cancelled (the file was left empty); r1 is unchanged"],
            json: #"{"reducer":"r1","cancelled":"the file was left empty"}"#),
        ReportForm(
            kind: "InterruptedAfterWriting", built: { InterruptedAfterWriting(result: DefinitionsSaved(path: "s.pb", definitions: 2), files: ["s.pb"]) },
            text: ["saved 2 definitions to s.pb", "interrupted after s.pb was written, which stays"],
            json: #"{"result":{"file":"s.pb","lines":2},"interrupted":true,"written":["s.pb"]}"#),
        ReportForm(
            kind: "StoppedFollowing", built: { StoppedFollowing(path: "r.jsonl", reason: .idle(seconds: 2), actions: 3) },
            text: ["stopped following r.jsonl: it did not grow for 2 s (3 new actions read)"],
            json: #"{"stoppedFollowing":"r.jsonl","actions":3}"#),
        ReportForm(
            kind: "ListeningStarted", built: { ListeningStarted(host: "0.0.0.0", port: 4321, token: "t0k", isLoopback: false, idleSeconds: 2) },
            text: [#"listening on 0.0.0.0:4321 for one app: connect it with Recorder(store: store, connectingTo: "THIS-MACHINE", port: 4321, token: "t0k")"#,
                   "the app must send the token t0k first (the address is not loopback); nothing is encrypted: across a network you do not trust, "
                    + "listen on loopback and use an SSH tunnel",
                   "listening on 0.0.0.0:4321: new actions appear as they arrive, until nothing arrives for 2 s, the app disconnects, or Ctrl-C"],
            json: #"{"listening":"0.0.0.0:4321","host":"0.0.0.0","port":4321,"loopback":false,"token":"t0k"}"#),
        ReportForm(
            kind: "AppConnected", built: { AppConnected(peer: "127.0.0.1:50000") },
            text: ["an app connected from 127.0.0.1:50000"],
            json: #"{"connected":"127.0.0.1:50000"}"#),
        ReportForm(
            kind: "ReplayDiverged", built: { ReplayDiverged(divergence: ReplayDivergence(
                step: 3, line: 5, command: "dispatch app Inc", expected: nil, actual: nil, states: (expected: ["n": 2], actual: ["n": 3]))) },
            text: ["  n: 2 → 3"],
            json: #"{"step":3,"line":5,"command":"dispatch app Inc","expected":null,"actual":null,"diff":[{"path":"n","op":"replace","old":2,"new":3}]}"#),
    ]

    /// A report's kind: its type's name, without generic arguments (`StaleHistoryNoted`).
    static func kind(of report: any CommandReport) -> String {
        String(String(describing: type(of: report)).prefix { $0 != "<" })
    }

    @Test(arguments: forms)
    func reportReadsAsTextAndAsJSON(_ form: ReportForm) throws {
        let shell = Shell.scratch()
        let report = try form.report(in: shell)
        #expect(Self.kind(of: report) == form.kind)
        let directory = try #require(shell.options.directory)
        let text = report.lines(in: shell.style).map { $0.replacingOccurrences(of: directory, with: "$DIR") }
        let json = report.json.jsonText.replacingOccurrences(of: directory, with: "$DIR")
        if form.textIsPrefix {
            #expect(Array(text.prefix(form.text.count)) == form.text)
            #expect(text.count > form.text.count)
        } else {
            #expect(text == form.text)
        }
        if form.jsonIsPrefix {
            #expect(json.hasPrefix(form.json), "\(json.prefix(200))")
        } else {
            #expect(json == form.json)
        }
        // What the shell prints is those forms: the command's own lines close its text output,
        // and its JSON line holds the JSON as `result`.
        if let command = form.command, !form.textIsPrefix {
            let printed = Shell.scratch()
            let json = Shell.scratch(ShellOptions(json: true))
            for line in form.setup {
                _ = printed.execute(line)
                _ = json.execute(line)
            }
            let lines = printed.execute(command).lines.filter { $0.stream == .output }.map(\.text)
            #expect(lines.suffix(text.count).map { $0.replacingOccurrences(of: printed.options.directory ?? "", with: "$DIR") } == text)
            let last = try #require(json.execute(command).lines.last?.text)
            #expect(last.replacingOccurrences(of: json.options.directory ?? "", with: "$DIR").hasSuffix(#""result":"# + form.json + "}"))
        }
    }

    /// The forms show every kind of report the shell has, once: a new kind is shown here too.
    @Test func theFormsCoverEveryReportKindOnce() throws {
        let kinds = Self.forms.map(\.kind)
        #expect(Set(kinds).count == kinds.count, "a kind is shown twice: \(kinds)")
        let declared = try Self.declaredReportKinds()
        #expect(declared.contains("HistoryListing"), "the scan of Sources/PatchbayShell found \(declared)")
        #expect(Set(kinds).subtracting(declared).sorted() == [], "shown but not declared")
        #expect(declared.subtracting(kinds).sorted() == [], "declared but not shown")
    }

    /// The types `Sources/PatchbayShell` declares as conforming to `CommandReport`.
    static func declaredReportKinds() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/PatchbayShell")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        let declaration = #/(?m)^\s*(?:struct|enum|final class|class|extension)\s+(\w+)(?:<[^>{]*>)?\s*:[^{]*\bCommandReport\b/#
        var kinds: Set<String> = []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: declaration) { kinds.insert(String(match.1)) }
        }
        return kinds
    }
}
