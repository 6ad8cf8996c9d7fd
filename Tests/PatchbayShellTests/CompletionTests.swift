import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayShell
import Testing

@Suite("Tab completion")
struct CompletionTests {
    @Test func theFirstWordCompletesToCommands() {
        let completion = Shell.scratch().complete("he", cursor: 2)
        #expect(completion.candidates == ["help"])
        #expect(completion.range == 0..<2)
    }

    @Test func anEmptyLineOffersEveryCommand() {
        let candidates = Shell.scratch().complete("", cursor: 0).candidates
        #expect(candidates.contains("load"))
        #expect(candidates.contains("quit"))
        #expect(candidates.contains("exit"))
        #expect(!candidates.contains("="))
    }

    @Test func severalCandidatesShareAPrefix() {
        let completion = Completion(range: 0..<1, candidates: ["reset", "reducer", "replay"])
        #expect(completion.commonPrefix == "re")
    }

    @Test func helpCompletesCommandsAndTopics() {
        #expect(Shell.scratch().complete("help f", cursor: 6).candidates == ["feature", "find", "functions"])
        #expect(Shell.scratch().complete("help lo", cursor: 7).candidates == ["load"])
    }

    @Test func loadCompletesFileNames() {
        let directory = TemporaryDirectory()
        _ = directory.write("demo.pb", "")
        _ = directory.write("data.json", "")
        _ = directory.write(".hidden", "")
        let shell = Shell.scratch(fileNames: FileNameLister(baseDirectory: directory.path))
        #expect(shell.complete("load d", cursor: 6).candidates == ["data.json", "demo.pb"])
        #expect(shell.complete("load de", cursor: 7).candidates == ["demo.pb"])
        #expect(shell.complete("load ", cursor: 5).candidates == ["data.json", "demo.pb"])
    }

    @Test func theCursorDecidesTheWord() {
        let completion = Shell.scratch().complete("lo more", cursor: 2)
        #expect(completion.candidates == ["load"])
        #expect(completion.range == 0..<2)
    }

    @Test func expressionsCompleteFunctionsAndNodes() {
        let shell = Shell.scratch()
        _ = shell.execute("var left = 1")
        #expect(shell.complete("= le", cursor: 4).candidates == ["left", "len"])
        #expect(shell.complete("= max(le", cursor: 8).candidates == ["left", "len"])
    }

    @Test func nodeCommandsCompleteNodeNames() {
        let shell = Shell.scratch()
        _ = shell.execute("var apple = 1")
        _ = shell.execute("signal apricot")
        #expect(shell.complete("send ap", cursor: 7).candidates == ["apple", "apricot"])
        #expect(shell.complete("rm apr", cursor: 6).candidates == ["apricot"])
    }

    @Test func portsCompleteAfterTheDot() {
        let shell = Shell.scratch()
        _ = shell.execute("var a = 1")
        _ = shell.execute("patch double map fn=\"$ * 2\"")
        #expect(shell.complete("wire a.v", cursor: 8).candidates == ["a.value"])
        #expect(shell.complete("wire a.value -> double.", cursor: 23).candidates == ["double.in", "double.out"])
        #expect(shell.complete("probe double.o", cursor: 14).candidates == ["double.out"])
    }

    @Test func unwireCompletesTheInputOrTheSourceThenTheArrow() {
        let shell = Shell.scratch()
        _ = shell.execute("store app = {}")
        _ = shell.execute("signal apricot")
        #expect(shell.complete("unwire ap", cursor: 9).candidates == ["app", "apricot"])
        #expect(shell.complete("unwire app.d", cursor: 12).candidates == ["app.dispatch"])
        #expect(shell.complete("unwire apricot.out ", cursor: 19).candidates == ["->"])
        #expect(shell.complete("unwire apricot.out -> app.", cursor: 26).candidates == ["app.action", "app.dispatch", "app.state"])
        #expect(shell.complete("unwire apricot.out -> app.dispatch ", cursor: 35).candidates == [])
    }

    @Test func patchCompletesItsTypes() {
        let shell = Shell.scratch()
        #expect(shell.complete("patch p co", cursor: 10).candidates == ["combine", "counter"])
        #expect(shell.complete("patch t", cursor: 7).candidates == ["types"])
    }
}

@Suite("Tab completion: time travel and sessions")
struct TimeTravelCompletionTests {
    private func shell() -> Shell {
        let shell = Shell.scratch()
        for command in ["store app = {n: 0}", "store cart = {items: []}", "reducer app on Inc : state.n += 1",
                        "dispatch app Inc", "jump app 0", "dispatch app Inc"] {
            _ = shell.execute(command)
        }
        return shell
    }

    @Test func timeTravelCommandsCompleteStoresAndOptions() {
        let shell = shell()
        #expect(shell.complete("jump c", cursor: 6).candidates == ["cart"])
        #expect(shell.complete("jump app e", cursor: 10).candidates == ["end"])
        #expect(shell.complete("history --t", cursor: 11).candidates == ["--to", "--trace", "--type"])
        #expect(shell.complete("history app --tr", cursor: 16).candidates == ["--trace"])
        #expect(shell.complete("history app --type I", cursor: 20).candidates == ["Inc"])
        #expect(shell.complete("history app --not I", cursor: 19).candidates == ["Inc"])
        #expect(shell.complete("history --n", cursor: 11).candidates == ["--not"])
        #expect(shell.complete("history app --g", cursor: 15).candidates == ["--grep"])
        #expect(shell.complete("history --failed --s", cursor: 20).candidates == ["--skipped", "--spark"])
        #expect(shell.complete("history --from e", cursor: 16).candidates == ["end"])
        #expect(shell.complete("history --grep ", cursor: 15).candidates == [])
        #expect(shell.complete("history s", cursor: 9).candidates == ["sweep"])
        #expect(shell.complete("blame a", cursor: 7).candidates == ["app"])
    }

    @Test func historyMinimizeCompletesItsStoreItsOptionsAndItsCondition() {
        let shell = shell()
        func candidates(_ line: String) -> [String] { shell.complete(line, cursor: line.utf8.count).candidates }
        #expect(candidates("history m") == ["minimize"])
        #expect(candidates("history minimize c") == ["cart"])
        #expect(candidates("history minimize app --d") == ["--diverges"])
        #expect(candidates("history minimize app --b") == ["--budget"])
        #expect(candidates("history minimize --budget ") == [])
        #expect(candidates("history minimize app --f") == ["--fails", "--force"])
        // The condition runs to the end of the command: names an expression uses, no options.
        #expect(candidates("history minimize --until st") == ["str"])
        #expect(candidates("history minimize --until state.n > 1 --") == [])
    }

    @Test func aReducerOrMiddlewareWithAnIdCompletesAsWithout() {
        let shell = shell()
        #expect(shell.complete("reducer r7 = ca", cursor: 15).candidates == ["cart"])
        #expect(shell.complete("reducer r7 = app o", cursor: 18).candidates == ["on"])
        #expect(shell.complete("reducer r7 = app on I", cursor: 21).candidates == ["Inc"])
        #expect(shell.complete("middleware m2 = ca", cursor: 18).candidates == ["cart"])
    }

    @Test func checkoutCompletesBranchNames() {
        #expect(shell().complete("checkout b", cursor: 10).candidates == ["b1"])
        #expect(shell().complete("checkout app m", cursor: 14).candidates == ["main"])
    }

    @Test func sessionCommandsCompleteTheirWords() {
        let shell = shell()
        #expect(shell.complete("record s", cursor: 8).candidates.contains("stop"))
        #expect(shell.complete("replay x.jsonl --v", cursor: 18).candidates == ["--verify"])
        #expect(shell.complete("replay x.jsonl --a", cursor: 18).candidates == ["--allow-files"])
        #expect(shell.complete("record x.jsonl --", cursor: 17).candidates == ["--force", "--sync"])
        #expect(shell.complete("inspect x.jsonl --f", cursor: 19).candidates == ["--follow", "--force"])
        #expect(shell.complete("inspect x.jsonl --follow --i", cursor: 28).candidates == ["--idle"])
        #expect(shell.complete("inspect x.jsonl --follow --idle ", cursor: 32).candidates.isEmpty)
        #expect(shell.complete("export d", cursor: 8).candidates == ["devtools"])
        #expect(shell.complete("export devtools c", cursor: 17).candidates == ["cart"])
    }
}

@Suite("Tab completion in context: state paths, route patterns, file names, nothing")
struct ContextCompletionTests {
    private func shell(_ commands: [String] = ["store app = {count: 0, user: {name: 'Max', nick: 'M'}, items: [{title: 'a'}, {title: 'b'}]}"])
        -> Shell
    {
        let shell = Shell.scratch()
        for command in commands { #expect(shell.execute(command).status == .success, "\(command)") }
        return shell
    }

    private func candidates(_ shell: Shell, _ line: String) -> [String] {
        shell.complete(line, cursor: line.utf8.count).candidates
    }

    @Test func stateCompletesPathsOfTheStore() {
        let shell = shell()
        #expect(candidates(shell, "state app.user.n") == ["app.user.name", "app.user.nick"])
        #expect(candidates(shell, "state app.us") == ["app.user"])
        #expect(candidates(shell, "state app user.na") == ["user.name"])
        #expect(candidates(shell, "state app.items[") == ["app.items[0]", "app.items[1]"])
        #expect(candidates(shell, "state app.items[1].t") == ["app.items[1].title"])
        // With one store, its paths come without its name, and after a leading dot.
        #expect(candidates(shell, "state us") == ["user"])
        #expect(candidates(shell, "state .user.na") == [".user.name"])
        #expect(candidates(shell, "state app --t") == ["--tree"])
    }

    @Test func blameFindAndHistoryCompletePaths() {
        let shell = shell(["store app = {count: 0, user: {name: 'Max'}}", "store other = {counter: 1}"])
        #expect(candidates(shell, "blame app user.n") == ["user.name"])
        #expect(candidates(shell, "blame other cou") == ["counter"])
        #expect(candidates(shell, "find app state.user.n") == ["state.user.name"])
        #expect(candidates(shell, "history app --path user.n") == ["user.name"])
        #expect(candidates(shell, "history other --chart c") == ["counter"])
        #expect(candidates(shell, "history app --c") == ["--chart"])
        #expect(candidates(shell, "diff app 0 1 --path user.n") == ["user.name"])
        #expect(candidates(shell, "diff app --p") == ["--path"])
    }

    @Test func routeExplainAndRmCompletePatterns() {
        let shell = shell(["route add /message/:username view=Message", "route add /about view=About"])
        #expect(candidates(shell, "route explain /m") == ["/message/:username"])
        #expect(candidates(shell, "route rm /a") == ["/about"])
        #expect(candidates(shell, "route list ").isEmpty)
    }

    @Test func fileNamesCompletePastADot() {
        let directory = TemporaryDirectory()
        try? FileManager.default.createDirectory(atPath: directory.path + "/sessions", withIntermediateDirectories: true)
        _ = directory.write("sessions/todos.jsonl", "")
        _ = directory.write("sessions/todos.pb", "")
        let shell = Shell.scratch(fileNames: FileNameLister(baseDirectory: directory.path))
        #expect(candidates(shell, "load sessions/todos.j") == ["sessions/todos.jsonl"])
        #expect(candidates(shell, "load sessions/todos.") == ["sessions/todos.jsonl", "sessions/todos.pb"])
        #expect(candidates(shell, "replay sessions/todos.j") == ["sessions/todos.jsonl"])
        #expect(candidates(shell, "inspect sessions/todos.j") == ["sessions/todos.jsonl"])
    }

    @Test func commandsThatTakeNothingCompleteNothing() {
        let shell = shell()
        for command in ["reset ", "quit ", "nodes ", "clock ", "begin ", "commit ", "render ", "stack "] {
            #expect(candidates(shell, command).isEmpty, "\(command)")
        }
        // Ones that take something still complete.
        #expect(candidates(shell, "jump ").contains("end"))
    }

    @Test func setCompletesSettingsAndTheirValues() {
        let shell = shell(["var wide = 1"])
        #expect(candidates(shell, "set w") == ["wide", "width"])
        #expect(candidates(shell, "set pager o") == ["off", "on"])
    }

    /// A hosted enum's cases cannot be listed through `Codable`: completion offers the types
    /// the mapping was given, then those dispatched.
    @Test func aHostedStoreCompletesTheActionTypesItsMappingKnows() throws {
        let named = HostedStore("tally", initialState: Tally(), reducer: HostedFixtures.tallyReducer(),
                                actions: .codable(knownTypes: ["add", "double", "note"]))
        let shell = try HostedFixtures.session([named]).shell
        #expect(shell.complete("dispatch tally ", cursor: 15).candidates == ["add", "double", "note"])
        let unnamed = try HostedFixtures.session().shell
        #expect(unnamed.complete("dispatch tally ", cursor: 15).candidates == [])
        _ = unnamed.execute("dispatch tally double")
        #expect(unnamed.complete("dispatch tally ", cursor: 15).candidates == ["double"])
        #expect(try HostedFixtures.session([HostedFixtures.wallet()]).shell.complete("dispatch wallet ", cursor: 16).candidates
            == ["Deposit", "Withdraw"])
    }
}
