import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// Issue 15, seed parity with VISPER's wireframe, through the shell: routing driven by the graph
// (`router.open`), several registrations of one pattern ranked by priority, presenters with ids,
// guards, the whole route result and live content, and modal layering.

// The shell is the routing tests' `RouteSession`.

private let tutorial = """
    route add /start view=Start
    route add /message/:username view=Message option=modal
    presenter Message : {greeting: "Hello \\(params.username)!"}
    """

@Suite("router.open: the graph routes")
struct RouterOpenShellTests {
    @Test func aSignalWiredIntoRouterOpenNavigatesAsTheRouteCommandDoes() {
        let wired = RouteSession()
        wired.run(tutorial + "\nsignal go\nwire go.out -> router.open\nprobe router.route --future")
        #expect(wired.run("send go \"/start\"") == [
            #"router.route = {url: "/start", pattern: "/start", params: {}, view: "Start", option: "push"}  (txn 2)"#,
            "router.open /start: /start  {}  → Start (push)",
        ])
        wired.run("send go \"/message/Ada\"")
        let typed = RouteSession()
        typed.run(tutorial + "\nroute /start\nroute /message/Ada")
        #expect(wired.stack == typed.stack)
        #expect(wired.run("history router") == typed.run("history router"))
    }

    @Test func anObjectGivesTheUrlTheOptionAndExtraParameters() {
        let session = RouteSession()
        session.run(tutorial + "\nvar target = null\nwire target.value -> router.open")
        session.run(#"set target = {url: "/message/Ada", option: "push", from: "list"}"#)
        #expect(session.stack == [
            #"1  Message  /message/Ada  params {username: "Ada", from: "list"}  content {greeting: "Hello Ada!"}"#,
        ])
    }

    @Test func aTapOnAViewRoutesToTheMessage() {
        let session = RouteSession()
        session.run(tutorial + """

            patch card view text="Ada" width=10 height=2
            patch tapper tap
            wire card.frame -> tapper.view
            wire tapper.x -> router.open : "/message/" + card.text
            route /start
            """)
        #expect(session.stack == ["1  Start  /start"])
        session.run("tap card 2 1")
        #expect(session.stack == [
            "1  Start  /start",
            #"2  Message (modal)  /message/Ada  params {username: "Ada"}  content {greeting: "Hello Ada!"}"#,
        ])
    }

    @Test func aStoresStateDrivesNavigation() {
        let session = RouteSession()
        session.run(tutorial + """

            store app = {screen: "/start"}
            reducer app on Open : state.screen = action.url
            wire app.state -> router.open : $.screen
            """)
        #expect(session.stack == ["1  Start  /start"])
        session.run("dispatch app Open {url: \"/message/Bob\"}")
        #expect(session.stack.last == #"2  Message (modal)  /message/Bob  params {username: "Bob"}  content {greeting: "Hello Bob!"}"#)
    }

    @Test func anUnmatchedUrlMarksTheDeliveryFailedPrintsTheErrorOnceAndChangesNothing() {
        let session = RouteSession()
        session.run(tutorial + "\nsignal go\nwire go.out -> router.open\nroute /start\nprobe router.route --future")
        let typed = RouteSession()
        typed.run(tutorial)
        let expected = typed.errorLine("route /nowhere")
        let before = session.run("stack\nhistory router")
        let outcome = session.shell.execute("send go \"/nowhere\"")
        #expect(outcome.status == .success)
        let message = String(expected.dropFirst("error: ".count))
        #expect(outcome.lines.map(\.text) == ["error: router failed: wire go.out -> router.open: \(message)"])
        #expect(session.run("stack\nhistory router") == before)
        #expect(session.run("show router.open").contains("  failed: wire go.out -> router.open: \(message)"))
        // A later good value clears the mark.
        session.run("send go \"/start\"")
        #expect(!session.run("show router.open").contains { $0.contains("failed") })
    }

    @Test func aValueThatIsNotARouteRequestIsAnError() {
        let session = RouteSession()
        session.run(tutorial + "\nsignal go\nwire go.out -> router.open")
        #expect(session.errors(of: "send go 42") == [
            "error: router failed: wire go.out -> router.open: router.open takes a URL string or {url, option, ...params}, not int",
        ])
        #expect(session.errors(of: "send go \"start\"") == [
            #"error: router failed: wire go.out -> router.open: router.open takes a URL string or {url, option, ...params}: "#
                + #""start" is not a URL (it starts with / or a scheme)"#,
        ])
        #expect(session.errors(of: #"send go {url: "/start", option: "sideways"}"#) == [
            "error: router failed: wire go.out -> router.open: router.open takes a URL string or {url, option, ...params}; "
                + #"option is one of push, modal, replace, root, back, not "sideways""#,
        ])
        #expect(session.stack == ["the stack is empty"])
    }

    @Test func insideATransactionTheUrlIsRoutedAfterTheCommitAndAbortDropsIt() {
        let session = RouteSession()
        session.run(tutorial + "\nsignal go\nwire go.out -> router.open\nbegin\nsend go \"/start\"")
        #expect(session.stack == ["the stack is empty"])
        session.run("commit")
        #expect(session.stack == ["1  Start  /start"])
        session.run("begin\nsend go \"/message/Ada\"\nabort")
        #expect(session.stack == ["1  Start  /start"])
    }

    @Test func routingTheRouteBackIntoRouterOpenStopsAsARunawayLoop() {
        let session = RouteSession()
        session.run("route add /a view=A\nwire router.route -> router.open : $.url")
        let outcome = session.shell.execute("route /a")
        #expect(outcome.status == .failure)
        #expect(outcome.lines.last?.text.contains("did not settle after 100 follow-up transactions") == true)
        #expect(session.stack == ["the stack is empty"])
    }

    @Test func jsonAnnouncesTheRouteAsAnEvent() {
        let session = RouteSession(json: true)
        session.run(tutorial + "\nsignal go\nwire go.out -> router.open")
        #expect(session.run("send go \"/start\"") == [
            #"{"event":"route","url":"/start","pattern":"/start","params":{},"view":"Start","option":"push"}"#,
            #"{"ok":true,"command":"send go \"/start\"","result":null}"#,
        ])
    }
}

@Suite("route add: several registrations of one pattern (VISPER priorities)")
struct RoutePriorityShellTests {
    // VISPER's DefaultComposedControllerProvider picks the responsible provider with the highest
    // priority, whatever the order they were added in.
    @Test func theHighestPriorityWinsWhateverTheOrderOfRegistration() {
        let session = RouteSession()
        session.run("route add /start view=Low priority=0\nroute add /start view=High priority=10")
        #expect(session.run("route add /start view=Mid priority=5") == [
            "route /start → Mid (push)", "view=High (priority 10) takes /start before it",
        ])
        #expect(session.run("route /start") == ["/start  {}  → High (push)"])
        #expect(session.run("route list") == [
            "/start  view=High option=push  priority=10",
            "/start  view=Mid option=push  priority=5  (overridden by view=High)",
            "/start  view=Low option=push  (overridden by view=High)",
        ])
        #expect(session.run("route rm /start view=High") == ["removed route /start → High (push)"])
        #expect(session.run("route /start") == ["/start  {}  → Mid (push)"])
    }

    @Test func atEqualPriorityTheLaterRegistrationOverridesAsAFeatureAddedLater() {
        let session = RouteSession()
        session.run("route add /start view=First\nroute add /start view=Second")
        #expect(session.run("route /start") == ["/start  {}  → Second (push)"])
        session.run("route rm /start view=Second")
        #expect(session.run("route /start") == ["/start  {}  → First (push)"])
    }

    @Test func aHandlerWithAPriorityAtLeastTheViewsTakesTheRoute() {
        let session = RouteSession()
        session.run("route add /start view=Start priority=3\nroute /start")
        session.run("route add /start priority=1")
        #expect(session.run("route /start") == ["/start  {}  → Start (push)"])
        #expect(session.run("route add /start priority=3") == [
            "route /start (a handler: it only sends on router.route)", "it takes /start before view=Start (priority 3)",
        ])
        #expect(session.run("route /start") == ["/start  {}  (handler: no view)"])
        #expect(session.stack == ["1  Start  /start", "2  Start  /start"])
        #expect(session.run("route rm /start handler") == ["removed route /start (a handler)"])
        #expect(session.run("route list") == ["/start  view=Start option=push  priority=3", "/start  priority=1  (overridden by view=Start)"])
        #expect(session.run("route /start") == ["/start  {}  → Start (push)"])
    }

    @Test func aDecliningGuardPassesToTheNextRegistrationOfThePattern() {
        let session = RouteSession()
        session.run("route add /user/:id view=Guest\nroute add /user/:id view=Admin priority=1 when params.id == \"0\"")
        #expect(session.run("route /user/0") == [#"/user/:id  {id: "0"}  → Admin (push)"#])
        #expect(session.run("route /user/7") == [#"/user/:id  {id: "7"}  → Guest (push)"#])
    }

    @Test func aPatternWhoseRegistrationsAllDeclinePassesToTheNextPattern() {
        let session = RouteSession()
        session.run("""
            route add /user/:id view=Admin when params.id == "0"
            route add /user/:id view=Owner when params.id == "1"
            route add /user/* view=Fallback priority=-1
            """)
        #expect(session.run("route /user/1") == [#"/user/:id  {id: "1"}  → Owner (push)"#])
        #expect(session.run("route /user/2") == [#"/user/*  {"*": ["2"]}  → Fallback (push)"#])
    }

    @Test func routeRmOfAPatternRegisteredTwiceAsksWhich() {
        let session = RouteSession()
        session.run("route add /start view=A\nroute add /start view=B")
        #expect(session.errorLine("route rm /start")
            == "error: /start is registered 2 times (view=B, view=A); say which: route rm /start view=NAME, or route rm /start handler")
        #expect(session.errorLine("route rm /start view=C") == "error: /start has no registration with view=C (it has view=B, view=A)")
        #expect(session.errorLine("route rm /start handler") == "error: /start has no registration with handler (it has view=B, view=A)")
        #expect(session.errorLine("route rm /start sideways")
            .hasPrefix("error: expected view=NAME or handler after the pattern, found 'sideways'; usage: route add"))
        #expect(session.run("route list") == ["/start  view=B option=push", "/start  view=A option=push  (overridden by view=B)"])
    }

    @Test func routeCheckStillReportsShadowingButNotTheRegistrationsOfOnePattern() {
        let session = RouteSession()
        session.run("route add /a/:x view=X\nroute add /a/b view=B\nroute add /a/:x view=Y")
        #expect(session.run("route check") == [
            "/a/b is shadowed by /a/:x, added earlier with the same priority: it matches every URL /a/b matches (e.g. /a/b), "
                + "so /a/b can never match",
        ])
        #expect(session.run("route /a/b") == [#"/a/:x  {x: "b"}  → Y (push)"#])
    }

    @Test func raisingAPatternsPriorityMovesItBeforeThePatternsItOvertakes() {
        let session = RouteSession()
        session.run("route add /a/:x view=X\nroute add /a/b view=B priority=1")
        #expect(session.run("route /a/b") == ["/a/b  {}  → B (push)"])
        session.run("route add /a/:x view=Y priority=2")
        #expect(session.run("route /a/b") == [#"/a/:x  {x: "b"}  → Y (push)"#])
        session.run("route rm /a/:x view=Y")
        #expect(session.run("route /a/b") == ["/a/b  {}  → B (push)"])
    }

    @Test func jsonSaysWhichRegistrationWins() {
        let session = RouteSession(json: true)
        session.run("route add /start view=A priority=2")
        #expect(session.run("route add /start view=B") == [
            #"{"ok":true,"command":"route add /start view=B","result":{"pattern":"/start","view":"B","option":"push","priority":0,"#
                + #""overrides":"view=A","wins":false,"warnings":[]}}"#,
        ])
        #expect(session.run("route list") == [
            #"{"ok":true,"command":"route list","result":[{"pattern":"/start","view":"A","option":"push","priority":2,"when":null,"#
                + #""overriddenBy":null},{"pattern":"/start","view":"B","option":"push","priority":0,"when":null,"overriddenBy":"view=A"}]}"#,
        ])
    }

    @Test func routeRmCompletesTheSelectors() {
        let session = RouteSession()
        session.run("route add /start view=A")
        #expect(session.complete("route rm /start ") == ["handler", "view="])
    }
}

@Suite("presenter: VISPER's presenters")
struct PresenterShellTests {
    @Test func aPresenterSeesTheWholeRouteResult() {
        let session = RouteSession()
        session.run("""
            route add /message/:username view=Message option=modal
            presenter Message : {who: params.username, url: url, pattern: route.pattern, option: route.option}
            route /message/Ada option=push
            """)
        #expect(session.stack == [
            #"1  Message  /message/Ada  params {username: "Ada"}  content {who: "Ada", url: "/message/Ada", "#
                + #"pattern: "/message/:username", option: "push"}"#,
        ])
    }

    @Test func aPresenterWithAFalseWhenIsNotResponsible() {
        let session = RouteSession()
        session.run("""
            route add /message/:username view=Message
            presenter Message : {greeting: "Hello"}
            presenter Message when params.username == "Ada" : {badge: "friend"}
            route /message/Ada
            route /message/Bob
            """)
        #expect(session.stack == [
            #"1  Message  /message/Ada  params {username: "Ada"}  content {greeting: "Hello", badge: "friend"}"#,
            #"2  Message  /message/Bob  params {username: "Bob"}  content {greeting: "Hello"}"#,
        ])
    }

    @Test func presentersHaveIdsAndCanBeListedAndRemoved() {
        let session = RouteSession()
        #expect(session.run("presenter list") == ["no presenters yet"])
        #expect(session.run("presenter Message : 1") == ["presenter p1 for Message"])
        #expect(session.run("presenter Start --live when url != \"/\" : {n: 2}") == ["presenter p2 for Start (live)"])
        #expect(session.run("presenter list") == [
            "p1  presenter Message : 1", #"p2  presenter Start --live when url != "/" : {n: 2}"#,
        ])
        #expect(session.run("presenter list Start") == [#"p2  presenter Start --live when url != "/" : {n: 2}"#])
        #expect(session.complete("presenter rm ") == ["p1", "p2"])
        #expect(session.run("presenter rm p1") == ["removed presenter p1 (presenter Message : 1)"])
        #expect(session.errorLine("presenter rm p1") == "error: no presenter 'p1' (presenters: p2)")
        #expect(session.run("presenter list Message") == ["no presenters for Message"])
    }

    @Test func aViewNamedListCanStillHaveAPresenter() {
        let session = RouteSession()
        #expect(session.run("presenter list : {rows: 3}") == ["presenter p1 for list"])
        #expect(session.run("presenter list") == ["p1  presenter list : {rows: 3}"])
    }

    @Test func aLivePresenterFollowsTheNodesItReadsWhileASampledOneKeepsWhatItSaw() {
        let session = RouteSession()
        session.run("""
            var user = "Ada"
            store app = {unread: 1}
            reducer app on Read : state.unread = 0
            route add /profile view=Profile
            presenter Profile : {sampled: user}
            presenter Profile --live : {live: user, unread: app.unread}
            route /profile
            """)
        #expect(session.stack == [#"1  Profile  /profile  content {sampled: "Ada", live: "Ada", unread: 1}"#])
        session.run("set user = \"Bob\"\ndispatch app Read")
        #expect(session.stack == [#"1  Profile  /profile  content {sampled: "Ada", live: "Bob", unread: 0}"#])
        session.run("back\nset user = \"Cy\"\nroute /profile")
        #expect(session.stack == [#"1  Profile  /profile  content {sampled: "Cy", live: "Cy", unread: 0}"#])
    }

    @Test func aLivePresenterThatFailsOnAChangeIsReportedAndKeepsTheEntry() {
        let session = RouteSession()
        session.run("var n = 1\nroute add /p view=P\npresenter P --live : {inverse: 1 / n}\nroute /p")
        #expect(session.errors(of: "set n = 0").first?.hasPrefix("error: presenter p1 (P) failed: division by zero") == true)
        #expect(session.stack == ["1  P  /p"])
        session.run("set n = 2")
        #expect(session.stack == ["1  P  /p  content {inverse: 0.5}"])
    }

    @Test func aLivePresenterFollowsAStoreThroughTimeTravel() {
        let session = RouteSession()
        session.run("""
            store app = {n: 0}
            reducer app on Add : state.n += 1
            route add /count view=Count
            presenter Count --live : {n: app.n}
            route /count
            dispatch app Add
            dispatch app Add
            """)
        #expect(session.stack == ["1  Count  /count  content {n: 2}"])
        session.run("jump app 1")
        #expect(session.stack == ["1  Count  /count  content {n: 1}"])
    }

    @Test func jsonGivesPresentersWithTheirIds() {
        let session = RouteSession(json: true)
        #expect(session.run("presenter Message --live when url != \"/\" : {n: 1}") == [
            #"{"ok":true,"command":"presenter Message --live when url != \"/\" : {n: 1}","result":{"id":"p1","view":"Message","#
                + #""live":true,"when":"url != \"/\""}}"#,
        ])
        #expect(session.run("presenter list") == [
            #"{"ok":true,"command":"presenter list","result":[{"id":"p1","view":"Message","live":true,"when":"url != \"/\"","#
                + #""content":"{n: 1}"}]}"#,
        ])
        #expect(session.run("presenter rm p1") == [
            #"{"ok":true,"command":"presenter rm p1","result":{"id":"p1","view":"Message","live":true,"when":"url != \"/\"","#
                + #""content":"{n: 1}"}}"#,
        ])
    }

    @Test func aPresenterMisspelledAfterItsViewIsAnError() {
        let session = RouteSession()
        #expect(session.errorLine("presenter Message --lve : 1")
            .hasPrefix("error: expected ':' and the content (or --live, when EXPR before it), found '--lve'; usage: presenter VIEW"))
    }
}

@Suite("stack: modal layering")
struct ModalLayeringShellTests {
    @Test func withAModalUpPushReplaceAndRootActUnderItAndDismissRevealsTheStack() {
        let session = RouteSession()
        session.run("""
            route add /start view=Start
            route add /list view=List
            route add /detail view=Detail option=replace
            route add /home view=Home option=root
            route add /alert view=Alert option=modal
            route /start
            route /alert
            route /list
            """)
        #expect(session.stack == ["1  Start  /start", "2  List  /list", "3  Alert (modal)  /alert"])
        session.run("route /detail")
        #expect(session.stack == ["1  Start  /start", "2  Detail  /detail", "3  Alert (modal)  /alert"])
        session.run("route /home")
        #expect(session.stack == ["1  Home  /home", "2  Alert (modal)  /alert"])
        #expect(session.run("dismiss") == ["dismissed Alert", "1  Home  /home"])
    }

    @Test func backToWithAModalUpReplacesTheTopOfTheStackAndClosesTheModal() {
        let session = RouteSession()
        session.run("route add /a view=A\nroute add /b view=B\nroute add /m/:n view=M option=modal")
        session.run("route /a\nroute /b\nroute /m/1\nroute /m/2\nroute /a option=back")
        #expect(session.stack == ["1  A  /a", "2  A  /a", #"3  M (modal)  /m/1  params {n: "1"}"#])
    }
}

@Suite("routing: save, record and replay")
struct RouteSeedRouteSessionTests {
    static let definitions = """
        var user = "Ada"
        route add /start view=Start
        route add /start view=Home priority=2
        route add /start priority=2 when params.x == "h"
        route add /message/:username view=Message option=modal
        presenter Message when params.username != "" : {greeting: "Hello \\(params.username)!"}
        presenter Start --live : {user: user}
        presenter Home : {home: true}
        signal go
        wire go.out -> router.open
        """

    @Test func aSavedSessionLoadsBackToTheSameRoutesAndPresenters() throws {
        let directory = TemporaryDirectory()
        let session = RouteSession()
        session.run("presenter Gone : 1\npresenter rm p1\n" + Self.definitions)
        session.run("save \(directory.path)/saved.pb")
        let saved = try String(contentsOfFile: directory.path + "/saved.pb", encoding: .utf8)
        #expect(saved.contains("# presenter ids restart at p1 when this is loaded: p2 becomes p1, p3 becomes p2, p4 becomes p3"))
        let loaded = RouteSession()
        loaded.run("load \(directory.path)/saved.pb")
        #expect(loaded.run("route list") == session.run("route list"))
        #expect(loaded.run("presenter list").map { $0.dropFirst(2) } == session.run("presenter list").map { $0.dropFirst(2) })
        for command in ["send go \"/start\"", "send go \"/start?x=h\"", "send go \"/message/Bo\"", "set user = \"Cy\""] {
            #expect(loaded.run(command) == session.run(command), "\(command)")
        }
        #expect(loaded.stack == session.stack)
    }

    @Test func aRecordingThatRoutesFromTheGraphReplaysAndVerifies() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/routes.jsonl"
        let session = RouteSession()
        session.run("record \(path)\n" + Self.definitions + """

            send go "/start"
            send go "/message/Bo"
            route add /message/:username view=Chat priority=1
            send go {url: "/message/Cy", option: "root"}
            dismiss
            route rm /message/:username view=Chat
            presenter rm p1
            route /message/Di
            record stop
            """)
        let replayed = Shell.scratch().execute("replay \"\(path)\" --verify")
        #expect(replayed.status == .success, "\(replayed.lines.map(\.text))")
        #expect(replayed.lines.last?.text.hasPrefix("verified ") == true)
    }
}

@Suite("feature: VISPER's features")
struct FeatureShellTests {
    static let chat = """
        store app = {screens: []}
        feature Chat begin
        route add /chat/:who view=Chat option=modal
        presenter Chat : {title: "Chat with \\(params.who)"}
        reducer app on Opened : state.screens = append(state.screens, action.view)
        patch card view text="Ada"
        wire router.route -> app.dispatch when $.view != null : {type: "Opened", view: $.view}
        feature end
        """

    @Test func aFeatureGroupsWhatItDefinesAndShowsIt() throws {
        let session = RouteSession()
        let printed = session.run(Self.chat)
        #expect(printed.last == "feature Chat: route /chat/:who view=Chat, presenter p1 (Chat), reducer r1 (app), patch card (view), "
            + "wire router.route -> app.dispatch")
        #expect(session.run("feature list") == ["Chat  5 definitions"])
        #expect(session.run("feature show Chat") == [
            "feature Chat", "  route /chat/:who view=Chat", "  presenter p1 (Chat)", "  reducer r1 (app)", "  patch card (view)",
            "  wire router.route -> app.dispatch",
        ])
        session.run("route /chat/Ada")
        #expect(try session.value("state app").isIdentical(to: ["screens": ["Chat"]]))
    }

    @Test func featureRmRemovesEverythingItAddedAsAUnitAndSaysWhat() {
        let session = RouteSession()
        session.run("route add /start view=Start\n" + Self.chat)
        #expect(session.run("feature rm Chat") == [
            "removed feature Chat: route /chat/:who view=Chat, presenter p1 (Chat), reducer r1 (app), patch card (view), "
                + "wire router.route -> app.dispatch",
        ])
        #expect(session.run("route list") == ["/start  view=Start option=push"])
        #expect(session.run("presenter list\nreducer list") == ["no presenters yet", "no reducers yet"])
        #expect(session.run("nodes").map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["router", "app"])
        #expect(session.run("feature list") == ["no features yet"])
        #expect(session.errorLine("feature show Chat") == "error: no feature 'Chat' (no features yet)")
    }

    @Test func featureRmLeavesWhatWasRemovedOrReplacedSince() {
        let session = RouteSession()
        session.run(Self.chat + "\nrm card\nroute add /chat/:who view=Other")
        #expect(session.run("feature rm Chat") == [
            "removed feature Chat: route /chat/:who view=Chat, presenter p1 (Chat), reducer r1 (app), "
                + "wire router.route -> app.dispatch",
        ])
        #expect(session.run("route list") == ["/chat/:who  view=Other option=push"])
    }

    @Test func routerFeatureAnnouncesAddedChangedAndRemovedFeatures() {
        let session = RouteSession()
        session.run("probe router.feature --future")
        #expect(session.run("feature Badge begin\nvar unread = 0\nfeature end").contains(
            #"router.feature = {feature: "Badge", event: "added", items: ["var unread"]}  (txn 1)"#))
        #expect(session.run("feature Badge begin") == ["feature Badge reopened: what follows adds to it"])
        #expect(session.run("signal ping\nfeature end").contains(
            #"router.feature = {feature: "Badge", event: "changed", items: ["var unread", "signal ping"]}  (txn 2)"#))
        #expect(session.run("feature rm Badge").first
            == #"router.feature = {feature: "Badge", event: "removed", items: ["var unread", "signal ping"]}  (txn 3)"#)
    }

    @Test func featureErrorsChangeNothing() {
        let session = RouteSession()
        #expect(session.errorLine("feature end") == "error: no feature is open; start one with 'feature NAME begin'")
        session.run("feature A begin")
        #expect(session.errorLine("feature B begin") == "error: feature A is open; close it with 'feature end' first")
        #expect(session.errorLine("feature rm A") == "error: feature A is open; close it with 'feature end' first")
        #expect(session.errorLine("feature A").hasPrefix("error: missing 'begin' after the feature's name (feature A begin)"))
        #expect(session.run("feature list") == ["A (open)  0 definitions"])
        #expect(session.complete("feature ") == ["A", "end", "list", "rm", "show"])
        #expect(session.complete("feature rm ") == ["A"])
    }

    @Test func aSavedSessionLoadsBackWithItsFeatures() throws {
        let directory = TemporaryDirectory()
        let session = RouteSession()
        session.run(Self.chat + "\nvar plain = 1\nfeature Empty begin\nfeature end")
        session.run("save \(directory.path)/features.pb")
        let saved = try String(contentsOfFile: directory.path + "/features.pb", encoding: .utf8)
        #expect(saved.contains("feature Chat begin\nroute add /chat/:who view=Chat option=modal\n"))
        #expect(saved.contains("feature Empty begin\nfeature end"))
        let loaded = RouteSession()
        loaded.run("load \(directory.path)/features.pb")
        #expect(loaded.run("feature list") == session.run("feature list"))
        // The same definitions, in the order the saved script makes them.
        #expect(loaded.run("feature show Chat").sorted() == session.run("feature show Chat").sorted())
        loaded.run("feature rm Chat")
        session.run("feature rm Chat")
        #expect(loaded.run("nodes") == session.run("nodes"))
    }

    @Test func aRecordingStartedInsideAFeatureKeepsItOpen() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/open.jsonl"
        let session = RouteSession()
        session.run("feature Chat begin\nvar a = 1\nrecord \(path)\nvar b = 2\nfeature end\nrecord stop")
        let replay = Shell.scratch()
        let replayed = replay.execute("replay \"\(path)\" --verify")
        #expect(replayed.status == .success, "\(replayed.lines.map(\.text))")
        #expect(replay.execute("feature show Chat").lines.map(\.text) == ["feature Chat", "  var a", "  var b"])
    }

    @Test func aRecordingWithFeaturesReplaysAndVerifies() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/features.jsonl"
        let session = RouteSession()
        session.run("record \(path)\n" + Self.chat + "\nroute /chat/Ada\nfeature rm Chat\nrecord stop")
        let replayed = Shell.scratch().execute("replay \"\(path)\" --verify")
        #expect(replayed.status == .success, "\(replayed.lines.map(\.text))")
        #expect(replayed.lines.last?.text.hasPrefix("verified ") == true)
    }
}
