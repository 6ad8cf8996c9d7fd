import Foundation
@_spi(Shell) import PatchbayShell
import Testing

// Errors about files name the file once (never `error: F: F: cannot open the file`), and with
// --json a failing `replay --verify` says where it diverged in the error object, and nothing
// but JSON lines reaches the output.

@Suite("Errors that name a file, and JSON divergences")
struct PathErrorShellTests {
    /// Every command that reads or writes a file, on every kind of bad file: the first line of
    /// the error names the file exactly once.
    @Test func everyErrorAboutAFileNamesItOnce() throws {
        let directory = TemporaryDirectory()
        let missing = directory.path + "/missing-file.jsonl"
        let folder = directory.path + "/a-folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let notSession = directory.write("not-a-session.jsonl", "hello\n")
        let newer = directory.write("newer-version.jsonl", #"{"patchbay":"session","version":9}"# + "\n")
        let empty = directory.write("empty-file.jsonl", "")
        let noDirectory = directory.path + "/no-such-directory/out.jsonl"
        var checked = 0
        for file in [missing, folder, notSession, newer, empty, noDirectory] {
            for form in ["load F", "replay F --force", "replay F --verify --force", "inspect F --force", "inspect F --follow --force",
                         "record F", "save F", "import devtools F", "export devtools app F"] {
                let text = form.replacingOccurrences(of: "F", with: file)
                let session = DataflowSession()
                session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch Inc")
                let outcome = session.shell.execute(text)
                guard outcome.status == .failure else { continue }
                let message = try #require(outcome.lines.first { $0.stream == .error }?.text.split(separator: "\n").first.map(String.init))
                let name = URL(fileURLWithPath: file).lastPathComponent
                #expect(message.components(separatedBy: name).count == 2, "\(text): \(message)")
                checked += 1
            }
        }
        #expect(checked > 30)
    }

    @Test func aFailingVerifyInJSONGivesTheDivergenceAndOnlyJSONLines() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/counter.jsonl"
        let recorder = DataflowSession()
        recorder.run("record \(path)\nstore app = {count: 0}\nreducer app on Add : state.count += action.by\ndispatch Add {by: 2}\nrecord stop")
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "state.count += action.by", with: "state.count += action.by * 2")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = DataflowSession(json: true).shell.execute("replay \(path) --verify")
        #expect(outcome.status == .failure)
        let output = outcome.lines.filter { $0.stream == .output }
        #expect(output.count == 1, "\(output.map(\.text))")
        let line = try #require(output.first?.text)
        #expect(line.hasPrefix(#"{"ok":false,"command":"replay "#))
        #expect(line.contains(#""divergence":{"step":3,"line":6,"command":"dispatch Add {by: 2}","expected":{"kind":"action","store":"app","index":1,"#))
        #expect(line.contains(#""diff":[{"path":"count","op":"replace","old":2,"new":4}]}}}"#), "\(line)")
        #expect(line.contains("(recorded → now, in divergence.diff)"))
        // People get the diff as lines, as before.
        let human = DataflowSession().shell.execute("replay \(path) --verify").lines.map(\.text)
        #expect(human.contains("  count: 2 → 4"))
        #expect(human.contains { $0.contains("(recorded → now, above)") })
    }

    @Test func aRunawayCommandInJSONIsOneLineThatSaysWhatWasTakenBack() {
        let session = DataflowSession(json: true)
        session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1\nwire app.state -> app.dispatch when $.n > 0 : {type: 'Inc'}")
        let lines = session.shell.execute("dispatch app Inc").lines.filter { $0.stream == .output }.map(\.text)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix(#"{"ok":false,"#) == true)
        #expect(lines.first?.contains(#""restored":["app"]"#) == true, "\(lines)")
    }
}
