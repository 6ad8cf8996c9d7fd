import PatchbayCore
@testable import PatchbayShell
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

private let tutorial = """
    route add /start view=Start
    route add /message/:username view=Message option=modal
    presenter Message : {greeting: "Hello \\(params.username)!"}
    """

@Suite("route: the VISPER tutorial flow")
struct RouteShellTutorialTests {
    @Test func startIsPushedAndMessageIsPresentedModallyWithItsGreeting() {
        let session = RouteSession()
        #expect(session.run(tutorial) == [
            "route /start → Start (push)",
            "route /message/:username → Message (modal)",
            "presenter p1 for Message",
        ])
        #expect(session.run("route /start") == ["/start  {}  → Start (push)"])
        #expect(session.run("route /message/Max%20Mustermann") == [
            #"/message/:username  {username: "Max Mustermann"}  → Message (modal)"#,
        ])
        #expect(session.run("stack") == [
            "1  Start  /start",
            #"2  Message (modal)  /message/Max%20Mustermann  params {username: "Max Mustermann"}  "#
                + #"content {greeting: "Hello Max Mustermann!"}"#,
        ])
    }

    @Test func theStackStartsEmpty() {
        #expect(RouteSession().run("stack") == ["the stack is empty"])
    }

    @Test func backClosesTheTopAndPrintsTheStack() {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start\nroute /message/Ada")
        #expect(session.run("back") == ["closed Message", "1  Start  /start"])
        #expect(session.run("back") == ["closed Start", "the stack is empty"])
    }

    @Test func aPushWithAModalUpGoesUnderItAndDismissRevealsIt() {
        let session = RouteSession()
        session.run(tutorial + "\nroute add /list view=List\nroute /start\nroute /message/Ada\nroute /list")
        #expect(session.run("dismiss") == ["dismissed Message", "1  Start  /start", "2  List  /list"])
    }

    @Test func modalsStackAndDismissClosesOneAtATime() {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start\nroute /message/Ada\nroute /message/Bob")
        #expect(session.run("dismiss") == [
            "dismissed Message",
            "1  Start  /start",
            #"2  Message (modal)  /message/Ada  params {username: "Ada"}  content {greeting: "Hello Ada!"}"#,
        ])
    }

    @Test func backOnAnEmptyStackIsAnError() {
        let session = RouteSession()
        #expect(session.fail("back") == [error("the navigation stack is empty", "back", column: 0, width: 4)])
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

    @Test func dismissWithoutAModalIsAnErrorAndKeepsTheStack() {
        let session = RouteSession()
        #expect(session.fail("dismiss") == [error("no modal is presented", "dismiss", column: 0, width: 7)])
        session.run(tutorial + "\nroute /start")
        #expect(session.fail("dismiss") == [error("no modal is presented", "dismiss", column: 0, width: 7)])
        #expect(session.run("stack") == ["1  Start  /start"])
    }
}

@Suite("route add, list, rm, check")
struct RouteShellManagementTests {
    @Test func routeAddSaysWhatTheRouteDoes() {
        let session = RouteSession()
        #expect(session.run("route add /start view=Start") == ["route /start → Start (push)"])
        #expect(session.run("route add /settings view=Settings option=root priority=2") == ["route /settings → Settings (root)"])
        #expect(session.run("route add /ping/:n") == ["route /ping/:n (a handler: it only sends on router.route)"])
    }

    @Test func routeAddWarnsAboutAConflictWithTheWitnessUrl() {
        let session = RouteSession()
        session.run("route add /a/b view=B")
        #expect(session.run("route add /a/:x view=X") == [
            "route /a/:x → X (push)",
            "warning: /a/:x overlaps /a/b, added earlier with the same priority: both match /a/b, which goes to /a/b",
        ])
        #expect(session.run("route add /a/c") == [
            "route /a/c (a handler: it only sends on router.route)",
            "warning: /a/c is shadowed by /a/:x, added earlier with the same priority: it matches every URL /a/c matches "
                + "(e.g. /a/c), so /a/c can never match",
        ])
    }

    @Test func routesOfDifferentPrioritiesDoNotWarn() {
        let session = RouteSession()
        session.run("route add /a/:x")
        #expect(session.run("route add /a/b priority=1") == ["route /a/b (a handler: it only sends on router.route)"])
        #expect(session.run("route check") == ["no conflicts"])
    }

    @Test func routeCheckListsEveryConflict() {
        let session = RouteSession()
        #expect(session.run("route check") == ["no conflicts"])
        session.run("route add /message/:username view=Message\nroute add /message/bob view=Bob\nroute add /a/b\nroute add /a/:x")
        #expect(session.run("route check") == [
            "/message/bob is shadowed by /message/:username, added earlier with the same priority: it matches every URL "
                + "/message/bob matches (e.g. /message/bob), so /message/bob can never match",
            "/a/:x overlaps /a/b, added earlier with the same priority: both match /a/b, which goes to /a/b",
        ])
    }

    @Test func routeListShowsPriorityOrderThenRegistrationOrder() {
        let session = RouteSession()
        #expect(session.run("route list") == ["no routes yet"])
        session.run("""
            route add /low priority=-1
            route add /start view=Start
            route add /high view=High option=modal priority=5
            route add /user/:id view=User when params.id != "0"
            route add /ping
            """)
        #expect(session.run("route list") == [
            "/high  view=High option=modal  priority=5",
            "/start  view=Start option=push",
            #"/user/:id  view=User option=push  when params.id != "0""#,
            "/ping",
            "/low  priority=-1",
        ])
    }

    @Test func routeRmRemovesARoute() {
        let session = RouteSession()
        session.run("route add /a view=A\nroute add /b view=B")
        #expect(session.run("route rm /a") == ["removed route /a → A (push)"])
        #expect(session.run("route list") == ["/b  view=B option=push"])
        #expect(session.fail("route /a").last?.hasPrefix("error: no route matches /a; closest pattern /b") == true)
        #expect(session.run("route add /a view=A") == ["route /a → A (push)"])
    }

    @Test func routeRmOfAnUnknownPatternNamesTheRoutes() {
        let session = RouteSession()
        #expect(session.fail("route rm /a") == [error("no route /a (no routes yet)", "route rm /a", column: 9, width: 2)])
        session.run("route add /b\nroute add /c/:x")
        #expect(session.fail("route rm /c/:y") == [
            error("no route /c/:y (routes: /b, /c/:x)", "route rm /c/:y", column: 9, width: 5),
        ])
    }

    @Test func aPatternAddedAgainAtTheSamePriorityOverridesTheEarlierRegistration() {
        let session = RouteSession()
        session.run("route add /start view=Start")
        #expect(session.run("route add /start view=Again") == [
            "route /start → Again (push)", "it takes /start before view=Start (priority 0)",
        ])
        #expect(session.run("route list") == ["/start  view=Again option=push", "/start  view=Start option=push  (overridden by view=Again)"])
        #expect(session.run("route /start") == ["/start  {}  → Again (push)"])
    }
}

@Suite("route add: malformed patterns")
struct RouteShellPatternErrorTests {
    @Test func anUnclosedGroupIsRefusedWithTheCaretAtTheParenthesis() {
        // Typed at the prompt, an open '(' continues the line; `execute` sees the whole command.
        let session = RouteSession()
        let command = "route add /user/:id(/edit view=User"
        #expect(session.fail(command) == [
            error("unclosed optional group; add the closing ')'", command, column: 19, width: 6),
        ])
        #expect(session.run("route list") == ["no routes yet"])
    }

    @Test func aWildcardMustBeLast() {
        let session = RouteSession()
        #expect(session.fail("route add /files/*/x") == [
            error("'*' must be the last segment of a pattern", "route add /files/*/x", column: 17, width: 1),
        ])
    }

    @Test func aVariableNeedsAName() {
        let session = RouteSession()
        #expect(session.fail("route add /user/:/edit") == [
            error("a ':' segment needs a name, e.g. :id", "route add /user/:/edit", column: 16, width: 1),
        ])
        #expect(session.fail("route add /user/:") == [
            error("a ':' segment needs a name, e.g. :id", "route add /user/:", column: 16, width: 1),
        ])
        #expect(session.run("route list") == ["no routes yet"])
    }

    /// Before, `tests:/test` was taken as the two segments `tests:` and `test`, a pattern that
    /// the URL `tests:/test` (whose scheme is ignored) never matched.
    @Test func aPatternWithASchemeIsRefusedAndSaysWhatToWrite() {
        let session = RouteSession()
        #expect(session.fail("route add tests:/test view=T") == [
            error("a pattern has no scheme: URLs of every scheme ('tests:' too) are routed alike; write '/test'",
                  "route add tests:/test view=T", column: 10, width: 6),
        ])
        #expect(session.run("route list") == ["no routes yet"])
        session.run("route add /test view=T")
        #expect(session.run("route tests:/test") == ["/test  {}  → T (push)"])
    }

    @Test func unknownSettingsAndOptionsAreRefused() {
        let session = RouteSession()
        let badOption = session.fail("route add /q view=Q option=bogus")
        #expect(badOption.first?.hasPrefix("error: unknown option 'bogus' (push, modal, replace, root, back); usage: route add") == true)
        #expect(badOption.first?.hasSuffix("\n  route add /q view=Q option=bogus\n                             ^~~~~") == true)
        let badSetting = session.fail("route add /q view=Q colour=1")
        #expect(badSetting.first?.hasPrefix("error: unknown setting 'colour' (view, option, priority, when)") == true)
        #expect(badSetting.first?.hasSuffix("\n  route add /q view=Q colour=1\n                      ^~~~~~") == true)
        #expect(session.run("route list") == ["no routes yet"])
    }
}

@Suite("route URL: navigating")
struct RouteShellNavigationTests {
    @Test func extraValuesAndAnOptionOverrideTheRoute() {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start")
        #expect(session.run(#"route /message/Max username="Ada" count=1+1 option=push"#) == [
            #"/message/:username  {username: "Ada", count: 2}  → Message (push)"#,
        ])
        #expect(session.run("stack") == [
            "1  Start  /start",
            #"2  Message  /message/Max  params {username: "Ada", count: 2}  content {greeting: "Hello Ada!"}"#,
        ])
        #expect(session.run("route /start option=root") == ["/start  {}  → Start (root)"])
        #expect(session.run("stack") == ["1  Start  /start"])
    }

    @Test func queryItemsBecomeParamsAndAPathParameterBeatsThem() {
        let session = RouteSession()
        session.run("route add /user/:id view=User")
        #expect(session.run("route /user/7?id=8&tag=a&tag=b&q=hello+world") == [
            #"/user/:id  {id: "7", tag: ["a", "b"], q: "hello world"}  → User (push)"#,
        ])
        #expect(session.run("route /user/7?id=8 id=9") == ["/user/:id  {id: 9}  → User (push)"])
    }

    @Test func aRouteWithoutAViewOnlySends() throws {
        let session = RouteSession()
        session.run(tutorial + "\nroute /start\nroute add /ping/:n\nvar last = null\nwire router.route -> last.set")
        #expect(session.run("route /ping/5") == [#"/ping/:n  {n: "5"}  (handler: no view)"#])
        #expect(session.run("stack") == ["1  Start  /start"])
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

    @Test func anUnmatchedUrlNamesTheClosestPatternAndWhy() {
        let session = RouteSession()
        #expect(session.fail("route /start") == [error("no route matches /start", "route /start", column: 6, width: 6)])
        session.run(tutorial + "\nroute add /a/:x")
        #expect(session.fail("route /mesage/Max") == [
            error("no route matches /mesage/Max; closest pattern /message/:username failed because segment 1 is 'mesage', "
                  + "the pattern needs 'message'", "route /mesage/Max", column: 6, width: 11),
        ])
        #expect(session.fail("route /start/now") == [
            error("no route matches /start/now; closest pattern /start failed because the path has 2 segments, "
                  + "the pattern needs 1 segment", "route /start/now", column: 6, width: 10),
        ])
    }

    @Test func malformedPercentEncodingIsAnErrorWithACaret() {
        let session = RouteSession()
        session.run(tutorial)
        #expect(session.fail("route /message/%zz") == [
            error("malformed percent-escape '%zz'; write '%' as %25", "route /message/%zz", column: 15, width: 3),
        ])
        #expect(session.fail("route /message/Max%2") == [
            error("malformed percent-escape '%2'; write '%' as %25", "route /message/Max%2", column: 18, width: 2),
        ])
        #expect(session.fail("route explain /message/%G1") == [
            error("malformed percent-escape '%G1'; write '%' as %25", "route explain /message/%G1", column: 23, width: 3),
        ])
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
