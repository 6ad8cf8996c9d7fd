@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// The routing commands as a user types them: `route add`, `route URL`, `route explain`,
// `route list | rm | check`, `presenter`, `stack`, `back`, `dismiss`, and the `router.route`
// port. Each command goes through `Shell.execute`; errors come back as one entry: the message,
// the command, and a caret under the column.

/// A shell for the routing tests (here and in RouteSeedParityShellTests).
final class RouteSession {
    let shell: Shell

    let json: Bool

    init(json: Bool = false) {
        self.json = json
        shell = Shell.scratch(ShellOptions(json: json))
    }

    /// Runs each line as a command and returns everything printed, in order; every command must
    /// succeed.
    @discardableResult
    func run(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        script.split(separator: "\n").flatMap { line in
            let outcome = shell.execute(String(line))
            #expect(outcome.status == .success, "\(line): \(outcome.lines.map(\.text))", sourceLocation: sourceLocation)
            return outcome.lines.map(\.text)
        }
    }

    /// Runs one command that must fail and returns what it printed (the error last).
    func fail(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let outcome = shell.execute(command)
        #expect(outcome.status == .failure, sourceLocation: sourceLocation)
        // With --json an error is the command's one line on standard output.
        #expect(outcome.lines.last?.stream == (json ? .output : .error), sourceLocation: sourceLocation)
        return outcome.lines.map(\.text)
    }

    /// Runs one command that must fail and returns the first line of its error.
    func errorLine(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        fail(command, sourceLocation: sourceLocation).last.map { String($0.prefix { $0 != "\n" }) } ?? ""
    }

    /// What a command that succeeds printed on standard error (warnings, a failed delivery).
    func errors(of command: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let outcome = shell.execute(command)
        #expect(outcome.status == .success, "\(command): \(outcome.lines.map(\.text))", sourceLocation: sourceLocation)
        return outcome.lines.filter { $0.stream == .error }.map(\.text)
    }

    /// The stack and the routes as `stack` and `route list` print them.
    var snapshot: [String] { run("stack\nroute list") }

    var stack: [String] { run("stack") }

    func complete(_ line: String) -> [String] {
        shell.complete(line, cursor: line.utf8.count).candidates
    }
}

/// An error entry: the message, then the command and a caret under `column` (from 0) spanning
/// `width` characters.
private func error(_ message: String, _ command: String, column: Int, width: Int) -> String {
    "error: \(message)\n  \(command)\n  " + String(repeating: " ", count: column) + "^" + String(repeating: "~", count: width - 1)
}

/// A screen of the stack as `stack` shows it: the view, whether it is a modal, its URL, params
/// and content (as written, see `Value.isIdentical(to:)`).
private struct Screen {
    var view: String
    var modal = false
    var url: String
    var params: Value = [:]
    var content: Value = .null

    func matches(_ entry: NavigationStack.Entry) -> Bool {
        entry.view == view && entry.isModal == modal && entry.url == url && entry.params.isIdentical(to: params)
            && entry.content.isIdentical(to: content)
    }
}

extension RouteSession {
    /// Runs `route URL ...`, which must navigate, and returns where it went.
    fileprivate func navigate(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Navigation {
        try report(command, as: Navigated.self, sourceLocation: sourceLocation).navigation
    }

    /// Checks the stack as `command` shows it (`stack`, or `back` or `dismiss`): its screens, bottom
    /// first, then the modals, and the view `back` closed or those `dismiss` dismissed.
    fileprivate func expectStack(_ screens: [Screen], after command: String = "stack", closed: String? = nil, dismissed: [String]? = nil,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let shown = try report(command, as: StackShown.self, sourceLocation: sourceLocation)
        let entries = shown.stack.entries
        #expect(entries.count == screens.count && zip(screens, entries).allSatisfy { $0.matches($1) }, "\(entries)",
                sourceLocation: sourceLocation)
        switch shown.closing {
        case .back(let entry)?: #expect(entry.view == closed && dismissed == nil, sourceLocation: sourceLocation)
        case .dismissed(let entries)?: #expect(entries.map(\.view) == dismissed && closed == nil, sourceLocation: sourceLocation)
        case nil: #expect(closed == nil && dismissed == nil, sourceLocation: sourceLocation)
        }
    }

    /// Runs `route add ...` and returns the registration it made, with what it overrides and its conflicts.
    fileprivate func add(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RouteAdded {
        try report(command, as: RouteAdded.self, sourceLocation: sourceLocation)
    }

    /// The registrations as `route list` has them, a summary each.
    fileprivate func routes(sourceLocation: SourceLocation = #_sourceLocation) throws -> [RouteSummary] {
        try report("route list", as: RouteListing.self, sourceLocation: sourceLocation).routes
    }
}

/// Checks a navigation: the pattern matched, the params (as written), the view and the option.
private func expectNavigation(_ navigation: Navigation, _ pattern: String, _ params: Value, _ view: String?, _ option: RoutingOption,
                              sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(navigation.pattern == pattern && navigation.view == view && navigation.option == option, "\(navigation)",
            sourceLocation: sourceLocation)
    #expect(navigation.params.isIdentical(to: params), "\(navigation.params)", sourceLocation: sourceLocation)
}

private let tutorial = """
    route add /start view=Start
    route add /message/:username view=Message option=modal
    presenter Message : {greeting: "Hello \\(params.username)!"}
    """

@Suite("route: the VISPER tutorial flow")
struct RouteShellTutorialTests {
    @Test func startIsPushedAndMessageIsPresentedModallyWithItsGreeting() throws {
        let session = RouteSession()
        #expect(session.run(tutorial) == [
            "route /start → Start (push)",
            "route /message/:username → Message (modal)",
            "presenter p1 for Message",
        ])
        expectNavigation(try session.navigate("route /start"), "/start", [:], "Start", .push)
        expectNavigation(try session.navigate("route /message/Max%20Mustermann"), "/message/:username", ["username": "Max Mustermann"], "Message", .modal)
        try session.expectStack([
            Screen(view: "Start", url: "/start"),
            Screen(view: "Message", modal: true, url: "/message/Max%20Mustermann", params: ["username": "Max Mustermann"],
                   content: ["greeting": "Hello Max Mustermann!"]),
        ])
    }

    @Test func theStackStartsEmpty() throws {
        try RouteSession().expectStack([])
    }

    @Test func backClosesTheTopAndPrintsTheStack() throws {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start\nroute /message/Ada")
        try session.expectStack([Screen(view: "Start", url: "/start")], after: "back", closed: "Message")
        try session.expectStack([], after: "back", closed: "Start")
    }

    @Test func aPushWithAModalUpGoesUnderItAndDismissRevealsIt() throws {
        let session = RouteSession()
        session.run(tutorial + "\nroute add /list view=List\nroute /start\nroute /message/Ada\nroute /list")
        try session.expectStack([Screen(view: "Start", url: "/start"), Screen(view: "List", url: "/list")], after: "dismiss", dismissed: ["Message"])
    }

    @Test func modalsStackAndDismissClosesOneAtATime() throws {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start\nroute /message/Ada\nroute /message/Bob")
        try session.expectStack([
            Screen(view: "Start", url: "/start"),
            Screen(view: "Message", modal: true, url: "/message/Ada", params: ["username": "Ada"], content: ["greeting": "Hello Ada!"]),
        ], after: "dismiss", dismissed: ["Message"])
    }

    @Test func backOnAnEmptyStackIsAnError() throws {
        let session = RouteSession()
        try session.expectError("back", "the navigation stack is empty", at: 0..<4)
    }

    /// Found by the command fuzzer: naming `router` makes its node, and a command that failed
    /// after it left the node behind (`nodes` listed it, `save` wrote nothing for it).
    @Test func aCommandThatFailsAfterNamingTheRouterLeavesNoRouterNode() {
        let session = RouteSession()
        for command in ["wire router.route -> p.count", "pipe router.route -> k : state.n = 1", "wire p.out -> router.open"] {
            #expect(session.fail(command).count == 1)
            #expect(session.run("nodes") == ["no nodes yet (create one with var, derive, signal, knot or patch)"], "after \(command)")
        }
        // Nor does its error list it among the nodes that exist.
        session.run("signal s")
        #expect(session.fail("wire router.route -> s2.in").first?.contains("no node 's2' (nodes: s)") == true)
        // A command that uses it keeps it, and from then on errors list it.
        session.run("probe router.route")
        #expect(session.run("nodes").contains { $0.hasPrefix("router") })
        #expect(session.fail("wire router.route -> s2.in").first?.contains("no node 's2' (nodes: router, s)") == true)
        #expect(session.fail("wire s.out -> s3.in").first?.contains("no node 's3' (nodes: router, s)") == true)
    }

    @Test func dismissWithoutAModalIsAnErrorAndKeepsTheStack() throws {
        let session = RouteSession()
        try session.expectError("dismiss", "no modal is presented", at: 0..<7)
        session.run(tutorial + "\nroute /start")
        try session.expectError("dismiss", "no modal is presented", at: 0..<7)
        try session.expectStack([Screen(view: "Start", url: "/start")])
    }
}

@Suite("route add, list, rm, check")
struct RouteShellManagementTests {
    @Test func routeAddSaysWhatTheRouteDoes() throws {
        let session = RouteSession()
        let start = try session.add("route add /start view=Start")
        #expect(start.pattern == "/start" && start.view == "Start" && start.option == .push && start.priority == 0)
        #expect(start.addition.conflicts.isEmpty && start.addition.overrides == nil)
        let settings = try session.add("route add /settings view=Settings option=root priority=2")
        #expect(settings.pattern == "/settings" && settings.view == "Settings" && settings.option == .root && settings.priority == 2)
        #expect(settings.addition.conflicts.isEmpty && settings.addition.overrides == nil)
        let ping = try session.add("route add /ping/:n")
        #expect(ping.pattern == "/ping/:n" && ping.view == nil && ping.addition.conflicts.isEmpty && ping.addition.overrides == nil)
    }

    @Test func routeAddWarnsAboutAConflictWithTheWitnessUrl() throws {
        let session = RouteSession()
        session.run("route add /a/b view=B")
        let x = try session.add("route add /a/:x view=X")
        #expect(x.pattern == "/a/:x" && x.view == "X" && x.option == .push && x.addition.overrides == nil)
        #expect(x.addition.conflicts.map(\.description) == [
            "/a/:x overlaps /a/b, added earlier with the same priority: both match /a/b, which goes to /a/b",
        ])
        let c = try session.add("route add /a/c")
        #expect(c.pattern == "/a/c" && c.view == nil && c.addition.overrides == nil)
        #expect(c.addition.conflicts.map(\.description) == [
            "/a/c is shadowed by /a/:x, added earlier with the same priority: it matches every URL /a/c matches (e.g. /a/c), so /a/c can never match",
        ])
    }

    @Test func routesOfDifferentPrioritiesDoNotWarn() throws {
        let session = RouteSession()
        session.run("route add /a/:x")
        let b = try session.add("route add /a/b priority=1")
        #expect(b.pattern == "/a/b" && b.view == nil && b.priority == 1 && b.addition.conflicts.isEmpty && b.addition.overrides == nil)
        #expect(try session.report("route check", as: RouteConflicts.self).conflicts.isEmpty)
    }

    @Test func routeCheckListsEveryConflict() throws {
        let session = RouteSession()
        #expect(try session.report("route check", as: RouteConflicts.self).conflicts.isEmpty)
        session.run("route add /message/:username view=Message\nroute add /message/bob view=Bob\nroute add /a/b\nroute add /a/:x")
        #expect(try session.report("route check", as: RouteConflicts.self).conflicts.map(\.description) == [
            "/message/bob is shadowed by /message/:username, added earlier with the same priority: it matches every URL "
                + "/message/bob matches (e.g. /message/bob), so /message/bob can never match",
            "/a/:x overlaps /a/b, added earlier with the same priority: both match /a/b, which goes to /a/b",
        ])
    }

    @Test func routeListShowsPriorityOrderThenRegistrationOrder() throws {
        let session = RouteSession()
        #expect(try session.routes().isEmpty)
        session.run("""
            route add /low priority=-1
            route add /start view=Start
            route add /high view=High option=modal priority=5
            route add /user/:id view=User when params.id != "0"
            route add /ping
            """)
        let routes = try session.routes()
        #expect(routes.map(\.pattern) == ["/high", "/start", "/user/:id", "/ping", "/low"])
        #expect(routes.map(\.view) == ["High", "Start", "User", nil, nil])
        #expect(routes.map(\.option) == [.modal, .push, .push, .push, .push])
        #expect(routes.map(\.priority) == [5, 0, 0, 0, -1])
        #expect(routes.map(\.condition) == [nil, nil, #"params.id != "0""#, nil, nil])
        #expect(routes.allSatisfy { $0.overriddenBy == nil })
    }

    @Test func routeRmRemovesARoute() throws {
        let session = RouteSession()
        session.run("route add /a view=A\nroute add /b view=B")
        let removed = try session.report("route rm /a", as: RouteRemoved.self)
        #expect(removed.pattern == "/a" && removed.removed.view == "A" && removed.removed.option == .push)
        #expect(try session.routes().map { [$0.pattern, $0.view] } == [["/b", "B"]])
        #expect(session.fail("route /a").last?.hasPrefix("error: no route matches /a; closest pattern /b") == true)
        let again = try session.add("route add /a view=A")
        #expect(again.pattern == "/a" && again.view == "A" && again.option == .push && again.addition.overrides == nil)
    }

    @Test func routeRmOfAnUnknownPatternNamesTheRoutes() throws {
        let session = RouteSession()
        try session.expectError("route rm /a", "no route /a (no routes yet)", at: 9..<11)
        session.run("route add /b\nroute add /c/:x")
        try session.expectError("route rm /c/:y", "no route /c/:y (routes: /b, /c/:x)", at: 9..<14)
    }

    @Test func aPatternAddedAgainAtTheSamePriorityOverridesTheEarlierRegistration() throws {
        let session = RouteSession()
        session.run("route add /start view=Start")
        let again = try session.add("route add /start view=Again")
        #expect(again.pattern == "/start" && again.view == "Again" && again.option == .push && again.addition.conflicts.isEmpty)
        #expect(again.addition.overrides?.view == "Start" && again.addition.overrides?.priority == 0 && again.addition.wins)
        let routes = try session.routes()
        #expect(routes.map(\.pattern) == ["/start", "/start"] && routes.map(\.view) == ["Again", "Start"])
        #expect(routes.map(\.option) == [.push, .push] && routes.map(\.overriddenBy) == [nil, "view=Again"])
        expectNavigation(try session.navigate("route /start"), "/start", [:], "Again", .push)
    }
}

@Suite("route add: malformed patterns")
struct RouteShellPatternErrorTests {
    @Test func anUnclosedGroupIsRefusedWithTheCaretAtTheParenthesis() throws {
        // Typed at the prompt, an open '(' continues the line; `execute` sees the whole command.
        let session = RouteSession()
        let command = "route add /user/:id(/edit view=User"
        try session.expectError(command, "unclosed optional group; add the closing ')'", at: 19..<25)
        #expect(try session.routes().isEmpty)
    }

    @Test func aWildcardMustBeLast() throws {
        let session = RouteSession()
        try session.expectError("route add /files/*/x", "'*' must be the last segment of a pattern", at: 17..<18)
    }

    @Test func aVariableNeedsAName() throws {
        let session = RouteSession()
        try session.expectError("route add /user/:/edit", "a ':' segment needs a name, e.g. :id", at: 16..<17)
        try session.expectError("route add /user/:", "a ':' segment needs a name, e.g. :id", at: 16..<17)
        #expect(try session.routes().isEmpty)
    }

    /// Before, `tests:/test` was taken as the two segments `tests:` and `test`, a pattern that
    /// the URL `tests:/test` (whose scheme is ignored) never matched.
    @Test func aPatternWithASchemeIsRefusedAndSaysWhatToWrite() throws {
        let session = RouteSession()
        try session.expectError("route add tests:/test view=T", "a pattern has no scheme: URLs of every scheme ('tests:' too) are routed alike; write '/test'", at: 10..<16)
        #expect(try session.routes().isEmpty)
        session.run("route add /test view=T")
        expectNavigation(try session.navigate("route tests:/test"), "/test", [:], "T", .push)
    }

    @Test func unknownSettingsAndOptionsAreRefused() throws {
        let session = RouteSession()
        let badOption = session.fail("route add /q view=Q option=bogus")
        #expect(badOption.first?.hasPrefix("error: unknown option 'bogus' (push, modal, replace, root, back); usage: route add") == true)
        #expect(badOption.first?.hasSuffix("\n  route add /q view=Q option=bogus\n                             ^~~~~") == true)
        let badSetting = session.fail("route add /q view=Q colour=1")
        #expect(badSetting.first?.hasPrefix("error: unknown setting 'colour' (view, option, priority, when)") == true)
        #expect(badSetting.first?.hasSuffix("\n  route add /q view=Q colour=1\n                      ^~~~~~") == true)
        #expect(try session.routes().isEmpty)
    }
}

@Suite("route URL: navigating")
struct RouteShellNavigationTests {
    @Test func extraValuesAndAnOptionOverrideTheRoute() throws {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start")
        expectNavigation(try session.navigate(#"route /message/Max username="Ada" count=1+1 option=push"#),
                         "/message/:username", ["username": "Ada", "count": 2], "Message", .push)
        try session.expectStack([
            Screen(view: "Start", url: "/start"),
            Screen(view: "Message", url: "/message/Max", params: ["username": "Ada", "count": 2], content: ["greeting": "Hello Ada!"]),
        ])
        expectNavigation(try session.navigate("route /start option=root"), "/start", [:], "Start", .root)
        try session.expectStack([Screen(view: "Start", url: "/start")])
    }

    @Test func queryItemsBecomeParamsAndAPathParameterBeatsThem() throws {
        let session = RouteSession()
        session.run("route add /user/:id view=User")
        expectNavigation(try session.navigate("route /user/7?id=8&tag=a&tag=b&q=hello+world"),
                         "/user/:id", ["id": "7", "tag": ["a", "b"], "q": "hello world"], "User", .push)
        expectNavigation(try session.navigate("route /user/7?id=8 id=9"), "/user/:id", ["id": 9], "User", .push)
    }

    @Test func aRouteWithoutAViewOnlySends() throws {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start\nroute add /ping/:n\nvar last = null\nwire router.route -> last.set")
        expectNavigation(try session.navigate("route /ping/5"), "/ping/:n", ["n": "5"], nil, .push)
        try session.expectStack([Screen(view: "Start", url: "/start")])
        #expect(try session.value("= last").isIdentical(to: ["url": "/ping/5", "pattern": "/ping/:n", "params": ["n": "5"], "view": .null, "option": "push"]))
    }

    @Test func aFalseGuardPassesToTheNextRoute() {
        let session = RouteSession()
        session.run("""
            route add /user/:id(/:tab) view=User when params.id != "0"
            route add /user/:id view=Guest priority=-1
            """)
        #expect(session.run("route /user/42/posts?sort=asc") == [
            #"/user/:id(/:tab)  {id: "42", tab: "posts", sort: "asc"}  → User (push)"#,
        ])
        #expect(session.run("route /user/0") == [#"/user/:id  {id: "0"}  → Guest (push)"#])
    }

    @Test func aGuardThatFailsIsReportedOnceAndDeclines() {
        let session = RouteSession()
        session.run("route add /g view=G when nosuch.flag")
        #expect(session.fail("route /g") == [
            "error: route /g failed: unknown name 'nosuch'",
            error("no route matches /g; closest pattern /g failed because its guard declined", "route /g", column: 6, width: 2),
        ])
        session.run("route add /:page view=Fallback priority=-1")
        #expect(session.run("route /g") == [
            "error: route /g failed: unknown name 'nosuch'",
            #"/:page  {page: "g"}  → Fallback (push)"#,
        ])
    }

    @Test func anUnmatchedUrlNamesTheClosestPatternAndWhy() throws {
        let session = RouteSession()
        try session.expectError("route /start", "no route matches /start", at: 6..<12)
        session.run(tutorial + "\nroute add /a/:x")
        try session.expectError("route /mesage/Max", "no route matches /mesage/Max; closest pattern /message/:username failed because segment 1 is 'mesage', "
                  + "the pattern needs 'message'", at: 6..<17)
        try session.expectError("route /start/now", "no route matches /start/now; closest pattern /start failed because the path has 2 segments, "
                  + "the pattern needs 1 segment", at: 6..<16)
    }

    @Test func malformedPercentEncodingIsAnErrorWithACaret() throws {
        let session = RouteSession()
        session.run(tutorial)
        try session.expectError("route /message/%zz", "malformed percent-escape '%zz'; write '%' as %25", at: 15..<18)
        try session.expectError("route /message/Max%2", "malformed percent-escape '%2'; write '%' as %25", at: 18..<20)
        try session.expectError("route explain /message/%G1", "malformed percent-escape '%G1'; write '%' as %25", at: 23..<26)
    }

    @Test func aWordThatIsNotAUrlIsRefused() {
        let session = RouteSession()
        let printed = session.fail("route start")
        #expect(printed.first?.hasPrefix(
            "error: expected a URL starting with / or a scheme (myapp://..., tests:/...), or add, explain, list, rm, check, found 'start'") == true)
        #expect(printed.first?.hasSuffix("\n  route start\n        ^~~~~") == true)
    }

    @Test func aUrlWithASchemeButNoAuthorityIsAUrl() {
        let session = RouteSession()
        session.run("route add /test view=Test")
        session.run("route add /*")
        #expect(session.run("route tests:/test") == [#"/test  {}  → Test (push)"#])
        #expect(session.run("route tests:/") == [#"/*  {"*": []}  (handler: no view)"#])
        #expect(session.run("route x-app.v2+beta:/test?a=1") == [#"/test  {a: "1"}  → Test (push)"#])
        // Not a scheme: it must start with a letter and end at the colon.
        #expect(session.fail("route 1tests:/test").first?.hasPrefix("error: expected a URL starting with /") == true)
        #expect(session.fail("route te_st:/test").first?.hasPrefix("error: expected a URL starting with /") == true)
    }

    @Test func aUrlWithASchemeUsesItsHostAsTheFirstSegment() {
        let session = RouteSession()
        session.run("route add /user/view/:id view=User")
        #expect(session.run("route myapp://user/view/42") == [#"/user/view/:id  {id: "42"}  → User (push)"#])
    }

    @Test func routerRouteFeedsAStoreAndAPatch() throws {
        let session = RouteSession()
        session.run(tutorial + """

            store app = {screens: []}
            reducer app on Navigated : state.screens = append(state.screens, action.view)
            wire router.route -> app.dispatch when $.view != null : {type: "Navigated", view: $.view}
            patch greet map fn="upper($.params?.username ?? $.url)"
            wire router.route -> greet.in
            probe greet.out --future
            """)
        // The patch hears the route in the route's own transaction; the wire's dispatch runs as
        // the follow-up transaction after it (queued, never nested).
        #expect(session.run("route /message/Max") == [
            #"greet.out = "MAX"  (txn 1)"#,
            #"#1 Navigated  screens[0]: + "Message""#,
            #"/message/:username  {username: "Max"}  → Message (modal)"#,
        ])
        #expect(session.run("route /start option=root") == [
            #"greet.out = "/START"  (txn 3)"#,
            #"#2 Navigated  screens[1]: + "Start""#,
            "/start  {}  → Start (root)",
        ])
        #expect(try session.value("state app").isIdentical(to: ["screens": ["Message", "Start"]]))
    }

    @Test func insideATransactionTheRouteIsSentAtCommitAndDroppedByAbort() throws {
        let session = RouteSession()
        session.run("route add /a view=A\nvar last = null\nwire router.route -> last.set : $.url\nbegin\nroute /a?n=1\nabort")
        #expect(try session.value("= last").isIdentical(to: .null))
        session.run("begin\nroute /a?n=2")
        #expect(try session.value("= last").isIdentical(to: .null))
        session.run("commit")
        #expect(try session.value("= last").isIdentical(to: "/a?n=2"))
    }
}

@Suite("route explain")
struct RouteShellExplainTests {
    @Test func eachPatternSaysWhyItMatchedOrNot() {
        let session = RouteSession()
        #expect(session.run("route explain /message") == ["no routes yet (add one with route add PATTERN)"])
        session.run(tutorial + """

            route add /user/:id(/:tab) view=User when params.id != "0"
            route add /user/:id view=Guest priority=-1
            """)
        #expect(session.run("route explain /message") == [
            "✗ /start  segment 1 is 'message', the pattern needs 'start'",
            "✗ /message/:username  the path has 1 segment, the pattern needs 2 segments",
            "✗ /user/:id(/:tab) (as /user/:id)  the path has 1 segment, the pattern needs 2 segments",
            "✗ /user/:id  the path has 1 segment, the pattern needs 2 segments",
        ])
        #expect(session.run("route explain /user/0") == [
            "✗ /start  the path has 2 segments, the pattern needs 1 segment",
            "✗ /message/:username  segment 1 is 'user', the pattern needs 'message'",
            "✗ /user/:id(/:tab) (as /user/:id)  its guard declined",
            "✓ /user/:id  matched",
        ])
        #expect(session.run("route explain /user/5/posts") == [
            "✗ /start  the path has 3 segments, the pattern needs 1 segment",
            "✗ /message/:username  the path has 3 segments, the pattern needs 2 segments",
            "✓ /user/:id(/:tab) (as /user/:id/:tab)  matched",
            "✗ /user/:id  the path has 3 segments, the pattern needs 2 segments",
        ])
    }

    @Test func explainingChangesNothing() {
        let session = RouteSession()
        session.run(tutorial + "\nvar last = null\nwire router.route -> last.set")
        session.run("route explain /start\nroute explain /message/Max")
        #expect(session.run("stack\n= last") == ["the stack is empty", "null"])
    }
}

@Suite("route: JSON results")
struct RouteShellJSONTests {
    @Test func routeUrlGivesTheResultWithTheStack() {
        let session = RouteSession(json: true)
        session.run(tutorial + "\nroute /start")
        #expect(session.run("route /message/Max%20Mustermann") == [
            #"{"ok":true,"command":"route /message/Max%20Mustermann","result":{"url":"/message/Max%20Mustermann","#
                + #""pattern":"/message/:username","params":{"username":"Max Mustermann"},"view":"Message","option":"modal","#
                + #""stack":[{"view":"Start","url":"/start","params":{},"content":null,"modal":false},"#
                + #"{"view":"Message","url":"/message/Max%20Mustermann","params":{"username":"Max Mustermann"},"#
                + #""content":{"greeting":"Hello Max Mustermann!"},"modal":true}]}}"#,
        ])
    }

    @Test func aHandlerRouteHasANullView() {
        let session = RouteSession(json: true)
        session.run("route add /ping")
        #expect(session.run("route /ping") == [
            #"{"ok":true,"command":"route /ping","result":{"url":"/ping","pattern":"/ping","params":{},"view":null,"#
                + #""option":"push","stack":[]}}"#,
        ])
    }

    @Test func routeExplainGivesPatternMatchedAndReason() {
        let session = RouteSession(json: true)
        session.run(tutorial)
        #expect(session.run("route explain /message/Ada") == [
            #"{"ok":true,"command":"route explain /message/Ada","result":["#
                + #"{"pattern":"/start","matched":false,"reason":"the path has 2 segments, the pattern needs 1 segment"},"#
                + #"{"pattern":"/message/:username","matched":true,"reason":null}]}"#,
        ])
    }

    @Test func anUnmatchedUrlIsAnErrorWithItsColumn() {
        let session = RouteSession(json: true)
        session.run(tutorial)
        #expect(session.fail("route /nowhere") == [
            #"{"ok":false,"command":"route /nowhere","error":{"message":"no route matches /nowhere; closest pattern "#
                + #"/start failed because segment 1 is 'nowhere', the pattern needs 'start'","line":1,"column":7}}"#,
        ])
    }
}

@Suite("route: completion and help")
struct RouteShellCompletionTests {
    @Test func routeOffersItsSubcommandsAndThePatterns() {
        let session = RouteSession()
        session.run(tutorial)
        #expect(session.complete("route ") == ["/message/:username", "/start", "add", "check", "explain", "list", "rm"])
        #expect(session.complete("route e") == ["explain"])
    }

    @Test func routeRmOffersThePatterns() {
        let session = RouteSession()
        #expect(session.complete("route rm ") == [])
        session.run(tutorial)
        #expect(session.complete("route rm ") == ["/message/:username", "/start"])
    }

    @Test func aPartlyTypedPatternCompletes() {
        let session = RouteSession()
        session.run(tutorial)
        #expect(session.complete("route rm /mes") == ["/message/:username"])
    }

    @Test func routeAddOffersItsSettings() {
        let session = RouteSession()
        #expect(session.complete("route add /x ") == ["option=", "priority=", "view=", "when"])
    }

    @Test func presenterOffersItsSubcommandsAndTheViewNames() {
        let session = RouteSession()
        #expect(session.complete("presenter ") == ["list", "rm"])
        session.run("route add /start view=Start\nroute add /ping\npresenter Badge : 1")
        #expect(session.complete("presenter ") == ["Badge", "Start", "list", "rm"])
        #expect(session.complete("presenter S") == ["Start"])
    }

    @Test func helpRouteShowsTheUsageAndAnExample() {
        let lines = RouteSession().run("help route")
        let text = lines.joined(separator: "\n")
        // The synopsis, wrapped to 80 columns between its forms.
        #expect(lines.prefix(3).joined(separator: " ").split(separator: " ").joined(separator: " ") == "route add PATTERN [view=NAME] [option=push|modal|replace|root|back] [priority=N] [when EXPR] "
            + "| route URL [NAME=EXPR ...] [option=...] | route explain URL | route list | route rm PATTERN [view=NAME | handler] | route check")
        #expect(text.contains("a route without view= only sends"))
        #expect(text.contains("Example:\n  route add /start view=Start\n  route add /message/:username view=Message option=modal"))
    }
}

@Suite("route: bad input changes nothing")
struct RouteShellErrorStateTests {
    @Test func failingCommandsLeaveTheStackAndTheRoutesAsTheyWere() {
        let session = RouteSession()
        session.run(tutorial + "\npresenter Broken : params.missing\nroute add /broken view=Broken\nroute /start\nroute /message/Ada")
        let before = session.snapshot
        #expect(before == [
            "1  Start  /start",
            #"2  Message (modal)  /message/Ada  params {username: "Ada"}  content {greeting: "Hello Ada!"}"#,
            "/start  view=Start option=push",
            "/message/:username  view=Message option=modal",
            "/broken  view=Broken option=push",
        ])
        for command in [
            "route rm /start view=Nope", "route rm /start handler", "route rm /start view", "presenter rm p9", "route add /x(/y", "route add /x/*/y", "route add /x/:",
            "route add /x view=X option=sideways", "route /nowhere", "route /message/%zz", "route /start x=nosuch",
            "route /start option=sideways", "route /start foo", "route rm /nope", "route explain /a%",
        ] {
            _ = session.fail(command)
            #expect(session.snapshot == before, "\(command)")
        }
    }

    @Test func aFailingPresenterIsAnErrorAtPresentationButTheViewIsPresented() {
        let session = RouteSession()
        session.run("presenter Broken : params.missing\nroute add /broken view=Broken")
        let outcome = session.shell.execute("route /broken")
        #expect(outcome.status == .success)
        #expect(outcome.lines.map(\.text) == [
            "error: presenter p1 (Broken) failed: no key 'missing' in an empty object in 'params.missing'; "
                + "use ?. or ?? to read optional data",
            "/broken  {}  → Broken (push)",
        ])
        #expect(outcome.lines.first?.stream == .error)
        #expect(session.run("stack") == ["1  Broken  /broken"])
    }
}
