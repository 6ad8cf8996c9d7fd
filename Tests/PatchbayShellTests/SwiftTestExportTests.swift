import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) @testable import PatchbayShell
import Testing

@Suite("export swift-test")
struct SwiftTestExportTests {
    private func tallySession(_ commands: [String]) throws -> DataflowSession {
        let session = DataflowSession()
        try session.shell.host([HostedFixtures.tally()])
        for command in commands { _ = try session.report(command, as: DispatchReport.self) }
        return session
    }

    private func read(_ session: DataflowSession, _ file: String) throws -> [String] {
        let directory = try #require(session.shell.options.directory)
        return try String(contentsOfFile: directory + "/" + file, encoding: .utf8).components(separatedBy: "\n")
    }

    @Test func eachStepSendsItsActionAsASwiftValueAndChecksWhatItChanged() throws {
        let session = try tallySession(["dispatch tally add {amount: 2}", "dispatch tally note {_0: \"milk\"}", "dispatch tally double"])
        let exported = try session.report("export swift-test TallyAsRecorded.swift --reducer HostedFixtures.tallyReducer()",
                                          as: SwiftTestExported.self)
        #expect(exported.store == "tally" && exported.from == 0 && exported.to == 3 && exported.actions == 3 && exported.leftOut == 0)
        let lines = try read(session, "TallyAsRecorded.swift")
        #expect(lines.contains("@testable import PatchbayShellTests"))
        #expect(lines.contains("func tallyAsRecorded() throws {"))
        #expect(lines.contains("    let reducer = HostedFixtures.tallyReducer()"))
        #expect(lines.contains(#"        {"total":0,"log":[]}"#))
        let steps = lines.drop { !$0.hasPrefix("    // #1") }
        #expect(Array(steps) == [
            "    // #1 add {amount: 2}",
            "    reducer(&state, TallyAction.add(amount: 2))",
            "    #expect(state.total == 2)",
            "",
            "    // #2 note {_0: \"milk\"}",
            "    reducer(&state, TallyAction.note(\"milk\"))",
            "    try #require(state.log.count == 1)",
            "    #expect(state.log[0] == \"milk\")",
            "",
            "    // #3 double",
            "    reducer(&state, TallyAction.double)",
            "    #expect(state.total == 4)",
            "}",
            "",
        ])
        #expect(exported.checks == 4)
    }

    @Test func aRangeStartsFromItsStateAndLeavesSkippedStepsOut() throws {
        let session = try tallySession(["dispatch tally add {amount: 1}", "dispatch tally add {amount: 10}",
                                        "dispatch tally add {amount: 100}", "dispatch tally double"])
        _ = session.run("skip tally 3")
        let exported = try session.report("export swift-test Range.swift tally --reducer r --from 1 --to 4", as: SwiftTestExported.self)
        #expect(exported.from == 1 && exported.to == 4 && exported.actions == 2 && exported.leftOut == 1)
        let lines = try read(session, "Range.swift")
        #expect(lines.contains(#"        {"total":1,"log":[]}"#))
        #expect(lines.filter { $0.hasPrefix("    reducer(&state, ") }
            == ["    reducer(&state, TallyAction.add(amount: 10))", "    reducer(&state, TallyAction.double)"])
        // The states the recording holds: with #3 skipped, 11 doubled.
        #expect(lines.contains("    #expect(state.total == 22)"))
    }

    @Test func badRequestsAreOneLineErrorsThatWriteNothing() throws {
        let session = try tallySession(["dispatch tally add {amount: 1}"])
        _ = session.run("store counter = {n: 0}")
        let cases: [(command: String, message: String, column: Int)] = [
            ("export swift-test T.swift tally", "say which Swift expression gives the app's reducer", 18),
            ("export swift-test T.swift counter --reducer r", "counter is not an app's store", 26),
            ("export swift-test T.swift tally --reducer r --to 5", "tally has 1 action, so there is no step #5", 49),
            ("export swift-test T.swift tally --reducer r --from 1 --to 0", "--to 0 comes before --from 1", 58),
            ("export swift-test T.swift tally --reducer r --module 9x", "--module takes a Swift module name", 53),
            ("export swift-test T.swift tally --reducer r --bogus", "unexpected '--bogus'", 44),
        ]
        _ = session.run("store other = {n: 0}")
        for (command, message, column) in cases {
            let error = try session.shell.shellError(command)
            #expect(error.message.contains(message), "\(command): \(error.message)")
            #expect(error.range.lowerBound == column, "\(command): \(error.range)")
        }
        let directory = try #require(session.shell.options.directory)
        #expect(!FileManager.default.fileExists(atPath: directory + "/T.swift"))

        let twoApps = DataflowSession()
        try twoApps.shell.host([HostedFixtures.tally(), HostedFixtures.wallet()])
        #expect(try twoApps.shell.shellError("export swift-test T.swift --reducer r").message.contains(
            "name the one to export"))
    }

    @Test func anExistingFileIsKeptWithoutForce() throws {
        let session = try tallySession(["dispatch tally add {amount: 1}"])
        let directory = try #require(session.shell.options.directory)
        try "mine".write(toFile: directory + "/T.swift", atomically: true, encoding: .utf8)
        _ = try session.shell.shellError("export swift-test T.swift --reducer r")
        #expect(try String(contentsOfFile: directory + "/T.swift", encoding: .utf8) == "mine")
        _ = try session.report("export swift-test T.swift --reducer r --force", as: SwiftTestExported.self)
        #expect(try String(contentsOfFile: directory + "/T.swift", encoding: .utf8).contains("TallyAction.add(amount: 1)"))
    }

    @Test func theFunctionIsNamedAfterTheFile() {
        #expect(Shell.testFunctionName("Tests/AppTests/TodosAsRecorded.swift") == "todosAsRecorded")
        #expect(Shell.testFunctionName("my-session.swift") == "mysession")
        #expect(Shell.testFunctionName("2024.swift") == "recorded2024")
    }
}
