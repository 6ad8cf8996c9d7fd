@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// The wireframe (PatchbayHost.docc/Routing.md): the navigation stack on its own, then `Graph`
// navigation, where a matched route runs the presenters of its view, updates the stack and sends
// its result on the event port `router.route`. Pattern matching itself is covered by the
// Routing*Tests.

/// An entry for the stack tests; `present(_:as:)` decides whether it is modal.
private func screen(_ view: String, _ url: String? = nil) -> NavigationStack.Entry {
    NavigationStack.Entry(view: view, url: url ?? "/\(view.lowercased())", params: [:], content: nil, isModal: false)
}

extension NavigationStack {
    /// The stack bottom first, modals marked with `*`: `["Start", "Message*"]`.
    fileprivate var views: [String] { entries.map { $0.view + ($0.isModal ? "*" : "") } }

    /// A stack built by presenting each view in turn.
    fileprivate static func with(_ steps: [(String, RoutingOption)]) -> NavigationStack {
        var stack = NavigationStack()
        for (view, option) in steps { stack.present(screen(view), as: option) }
        return stack
    }
}

@Suite("Navigation stack: what each routing option does")
struct WireframeStackOptionTests {
    @Test func theStackStartsEmpty() {
        let stack = NavigationStack()
        #expect(stack.entries.isEmpty)
        #expect(stack.value == [])
    }

    @Test func pushAddsOnTop() {
        var stack = NavigationStack()
        stack.present(screen("Start"), as: .push)
        #expect(stack.views == ["Start"])
        stack.present(screen("List"), as: .push)
        #expect(stack.views == ["Start", "List"])
    }

    @Test func modalPresentsOverEverythingAndModalsStackToo() {
        var stack = NavigationStack.with([("Start", .push)])
        stack.present(screen("Message"), as: .modal)
        stack.present(screen("Confirm"), as: .modal)
        #expect(stack.views == ["Start", "Message*", "Confirm*"])
    }

    @Test func theOptionAloneDecidesWhetherAnEntryIsModal() {
        var stack = NavigationStack()
        var flagged = screen("A")
        flagged.isModal = true
        stack.present(flagged, as: .push)
        stack.present(screen("B"), as: .modal)
        #expect(stack.views == ["A", "B*"])
    }

    @Test func replaceOnAnEmptyStackAddsTheView() {
        var stack = NavigationStack()
        stack.present(screen("Start"), as: .replace)
        #expect(stack.views == ["Start"])
    }

    @Test func replaceSwapsOnlyTheTopEntry() {
        var stack = NavigationStack.with([("Start", .push), ("List", .push)])
        stack.present(screen("Detail"), as: .replace)
        #expect(stack.views == ["Start", "Detail"])
    }

    @Test func withAModalUpReplaceSwapsTheTopOfTheStackUnderIt() {
        var stack = NavigationStack.with([("Start", .push), ("Message", .modal)])
        stack.present(screen("Detail"), as: .replace)
        #expect(stack.views == ["Detail", "Message*"])
        #expect(stack.navigation.map(\.view) == ["Detail"])
        #expect(stack.modals.map(\.view) == ["Message"])
    }

    @Test func withAModalUpPushGoesUnderItAndRootResetsTheStackUnderIt() {
        var stack = NavigationStack.with([("Start", .push), ("Message", .modal), ("List", .push)])
        #expect(stack.views == ["Start", "List", "Message*"])
        stack.present(screen("Home"), as: .root)
        #expect(stack.views == ["Home", "Message*"])
        stack.dismiss()
        #expect(stack.views == ["Home"])
        stack.present(screen("Home"), as: .root)
        var empty = NavigationStack()
        empty.present(screen("Home"), as: .root)
        #expect(empty.views == ["Home"])
    }

    @Test func backOnAnEmptyStackAddsTheView() {
        var stack = NavigationStack()
        stack.present(screen("Start"), as: .back)
        #expect(stack.views == ["Start"])
    }

    @Test func backWithOneEntryReplacesIt() {
        // Nothing is below the top: the view takes the only place.
        var stack = NavigationStack.with([("Start", .push)])
        stack.present(screen("Home"), as: .back)
        #expect(stack.views == ["Home"])
    }

    @Test func backWithSeveralEntriesReplacesTheEntryBelowTheTopAndPops() {
        var stack = NavigationStack.with([("Start", .push), ("List", .push), ("Detail", .push)])
        stack.present(NavigationStack.Entry(view: "Edited", url: "/edited", params: ["id": 7], content: "x", isModal: false),
                      as: .back)
        #expect(stack.views == ["Start", "Edited"])
        #expect(stack.entries.last?.params == ["id": 7])
        #expect(stack.entries.last?.content == "x")
    }
}

@Suite("Navigation stack: back and dismiss")
struct WireframeStackBackDismissTests {
    @Test func backPopsTheTopAndReturnsIt() {
        var stack = NavigationStack.with([("Start", .push), ("Message", .modal)])
        #expect(stack.back()?.view == "Message")
        #expect(stack.views == ["Start"])
        #expect(stack.back()?.view == "Start")
        #expect(stack.views == [])
    }

    @Test func backOnAnEmptyStackReturnsNil() {
        var stack = NavigationStack()
        #expect(stack.back() == nil)
        #expect(stack.entries.isEmpty)
    }

    @Test func dismissClosesTheTopModalAndRevealsTheStackAsPushesUnderTheModalsLeftIt() {
        var stack = NavigationStack.with([
            ("Start", .push), ("Message", .modal), ("Thread", .push), ("Compose", .modal), ("Attach", .push),
        ])
        #expect(stack.views == ["Start", "Thread", "Attach", "Message*", "Compose*"])
        #expect(stack.dismiss().map(\.view) == ["Compose"])
        #expect(stack.views == ["Start", "Thread", "Attach", "Message*"])
        #expect(stack.dismiss().map(\.view) == ["Message"])
        #expect(stack.views == ["Start", "Thread", "Attach"])
    }

    @Test func backToWithAModalUpReplacesTheTopOfTheStackAndDismissesTheModal() {
        var stack = NavigationStack.with([("Start", .push), ("List", .push), ("Message", .modal)])
        stack.present(screen("Home"), as: .back)
        #expect(stack.views == ["Start", "Home"])
    }

    @Test func dismissWithoutAModalDoesNothing() {
        var stack = NavigationStack.with([("Start", .push), ("List", .push)])
        #expect(stack.dismiss().isEmpty)
        #expect(stack.views == ["Start", "List"])
        var empty = NavigationStack()
        #expect(empty.dismiss().isEmpty)
        #expect(empty.entries.isEmpty)
    }

    @Test func theStackAsAValueListsViewUrlParamsContentAndModal() {
        var stack = NavigationStack()
        stack.present(NavigationStack.Entry(view: "Start", url: "/start", params: [:], content: nil, isModal: false), as: .push)
        stack.present(NavigationStack.Entry(view: "Message", url: "/message/Max", params: ["username": "Max"],
                                            content: ["greeting": "Hi"], isModal: false), as: .modal)
        #expect(stack.value == [
            ["view": "Start", "url": "/start", "params": [:], "content": nil, "modal": false],
            ["view": "Message", "url": "/message/Max", "params": ["username": "Max"], "content": ["greeting": "Hi"],
             "modal": true],
        ])
        #expect("\(stack.value)" == #"[{view: "Start", url: "/start", params: {}, content: null, modal: false}, "#
            + #"{view: "Message", url: "/message/Max", params: {username: "Max"}, content: {greeting: "Hi"}, modal: true}]"#)
    }
}

// MARK: - Graph navigation

extension Graph {
    /// `route add` with the pattern and guard written as text.
    @discardableResult
    fileprivate func route(_ pattern: String, view: String? = nil, option: RoutingOption = .push, priority: Int = 0,
                           when condition: String? = nil) throws -> [RouteConflict] {
        try addRoute(RoutePattern(pattern), view: view, option: option, priority: priority,
                     when: condition.map { try Expression($0) }).conflicts
    }

    fileprivate func presenter(_ view: String, _ expression: String) throws {
        addPresenter(for: view, try Expression(expression))
    }

    /// Probes `router.route` and returns a function giving what it received since the last call.
    fileprivate func watchRoutes() throws -> () -> [Value] {
        _ = try probe("router", port: "route")
        return { [unowned self] in
            takeEvents().compactMap { event in
                if case .probe("router.route", let value, _) = event { return value }
                return nil
            }
        }
    }

    /// The error events since the last call, as text.
    fileprivate func errorEvents() -> [String] {
        takeEvents().compactMap { event in
            if case .error(let error) = event { return "\(error)" }
            return nil
        }
    }

    /// The stack, bottom first, modals marked with `*`.
    fileprivate var views: [String] { stack.views }
}

extension RouteSummary {
    /// Every field: `/first view=First option=modal priority=0 when EXPR`.
    fileprivate var text: String {
        [pattern, view.map { "view=\($0)" }, "option=\(option.rawValue)", "priority=\(priority)", condition.map { "when \($0)" }]
            .compactMap { $0 }.joined(separator: " ")
    }
}

/// The error `navigate` throws, or nil when it does not throw.
private func navigationError(_ graph: Graph, _ url: String, extra: [String: Value] = [:]) -> GraphError? {
    do {
        try graph.navigate(to: url, extra: extra)
        return nil
    } catch {
        return error
    }
}

@Suite("Graph: navigating presents views")
struct WireframeGraphNavigationTests {
    @Test func theVisperTutorialFlow() throws {
        let graph = Graph()
        try graph.route("/start", view: "Start")
        try graph.route("/message/:username", view: "Message", option: .modal)
        try graph.presenter("Message", #"{greeting: "Hello \(params.username)!"}"#)

        let start = try graph.navigate(to: "/start")
        #expect(start.pattern == "/start")
        #expect(start.view == "Start")
        #expect(start.option == .push)
        #expect(graph.views == ["Start"])

        let message = try graph.navigate(to: "/message/Max%20Mustermann")
        #expect(message.url == "/message/Max%20Mustermann")
        #expect(message.pattern == "/message/:username")
        #expect(message.params == ["username": "Max Mustermann"])
        #expect(message.view == "Message")
        #expect(message.option == .modal)
        #expect(message.stack == graph.stack)
        #expect(graph.views == ["Start", "Message*"])
        #expect(graph.stack.entries[0].content == nil)
        #expect(graph.stack.entries[1] == NavigationStack.Entry(
            view: "Message", url: "/message/Max%20Mustermann", params: ["username": "Max Mustermann"],
            content: ["greeting": "Hello Max Mustermann!"], isModal: true, pattern: "/message/:username", option: .modal))
    }

    @Test func presentersReadParamsUrlAndNodes() throws {
        let graph = Graph()
        try graph.createVariable("salutation", value: "Welcome")
        try graph.route("/user/:id", view: "User")
        try graph.presenter("User", #"{title: "\(salutation), \(params.id)", from: url, page: params.page}"#)
        try graph.navigate(to: "/user/42?page=2")
        #expect(graph.stack.entries.last?.content == ["title": "Welcome, 42", "from": "/user/42?page=2", "page": "2"])
    }

    @Test func presentersRunAtEachPresentationWithTheNodesValuesThen() throws {
        let graph = Graph()
        try graph.createVariable("count", value: 1)
        try graph.route("/c", view: "C")
        try graph.presenter("C", "{count: count}")
        try graph.navigate(to: "/c")
        try graph.set("count", to: 2)
        try graph.navigate(to: "/c")
        #expect(graph.stack.entries.map(\.content) == [["count": 1], ["count": 2]])
    }

    @Test func severalPresentersMergeTheirObjectsLaterKeysWinning() throws {
        let graph = Graph()
        try graph.route("/p", view: "P")
        try graph.presenter("P", "{a: 1, b: 1}")
        try graph.presenter("P", "{b: 2, c: 3}")
        try graph.navigate(to: "/p")
        let content = try #require(graph.stack.entries.last?.content)
        #expect(content == ["a": 1, "b": 2, "c": 3])
        #expect("\(content)" == "{a: 1, b: 2, c: 3}")
    }

    @Test func aPresenterGivingSomethingOtherThanAnObjectReplacesTheContent() throws {
        let graph = Graph()
        try graph.route("/p", view: "P")
        try graph.presenter("P", "{a: 1}")
        try graph.presenter("P", #""just text""#)
        try graph.route("/q", view: "Q")
        try graph.presenter("Q", "[1, 2]")
        try graph.presenter("Q", "{a: 1}")
        try graph.navigate(to: "/p")
        try graph.navigate(to: "/q")
        #expect(graph.stack.entries.map(\.content) == ["just text", ["a": 1]])
    }

    @Test func presentersBelongToTheViewWhicheverRouteShowsIt() throws {
        let graph = Graph()
        try graph.route("/a", view: "Shared")
        try graph.route("/b/:x", view: "Shared")
        try graph.presenter("Shared", "{x: params?.x ?? url}")
        try graph.navigate(to: "/a")
        try graph.navigate(to: "/b/9")
        #expect(graph.stack.entries.map(\.content) == [["x": "/a"], ["x": "9"]])
        #expect(graph.viewNames == ["Shared"])
    }

    @Test func aFailingPresenterIsReportedAndTheViewIsPresentedWithTheOtherPresentersContent() throws {
        let graph = Graph()
        try graph.route("/broken", view: "Broken")
        try graph.presenter("Broken", "{a: 1}")
        try graph.presenter("Broken", "params.missing")
        _ = graph.takeEvents()
        let navigation = try graph.navigate(to: "/broken")
        #expect(navigation.view == "Broken")
        #expect(graph.views == ["Broken"])
        #expect(graph.stack.entries[0].content == ["a": 1])
        #expect(graph.errorEvents() == [
            "presenter p2 (Broken) failed: no key 'missing' in an empty object in 'params.missing'; use ?. or ?? to read optional data",
        ])
    }

    @Test func aRouteWithoutAViewOnlySendsOnRouterRoute() throws {
        let graph = Graph()
        try graph.route("/start", view: "Start")
        try graph.route("/ping/:n")
        try graph.navigate(to: "/start")
        let routes = try graph.watchRoutes()
        let navigation = try graph.navigate(to: "/ping/3")
        #expect(navigation.view == nil)
        #expect(navigation.stack == graph.stack)
        #expect(graph.views == ["Start"])
        #expect(routes() == [["url": "/ping/3", "pattern": "/ping/:n", "params": ["n": "3"], "view": nil, "option": "push"]])
    }

    @Test func theOptionGivenToNavigateOverridesTheRoutes() throws {
        let graph = Graph()
        try graph.route("/start", view: "Start")
        try graph.route("/message/:username", view: "Message", option: .modal)
        try graph.navigate(to: "/start")
        let routes = try graph.watchRoutes()
        let pushed = try graph.navigate(to: "/message/Ada", option: .push)
        #expect(pushed.option == .push)
        #expect(graph.views == ["Start", "Message"])
        #expect(routes().first?["option"] == "push")
        try graph.navigate(to: "/message/Bob", option: .root)
        #expect(graph.views == ["Message"])
        try graph.navigate(to: "/message/Eve")
        #expect(graph.views == ["Message", "Message*"])
    }

    @Test func extraValuesBeatPathParametersWhichBeatQueryItems() throws {
        let graph = Graph()
        try graph.route("/user/:id", view: "User")
        let fromPath = try graph.navigate(to: "/user/7?id=8&tab=posts")
        #expect(fromPath.params == ["id": "7", "tab": "posts"])
        #expect("\(fromPath.params)" == #"{id: "7", tab: "posts"}"#)
        let fromExtra = try graph.navigate(to: "/user/7?id=8&tab=posts", extra: ["id": 9, "tab": ["a", "b"], "more": true])
        #expect(fromExtra.params == ["id": 9, "tab": ["a", "b"], "more": true])
        #expect(graph.stack.entries.last?.params == ["id": 9, "tab": ["a", "b"], "more": true])
    }

    @Test func theRouterRouteEventCarriesUrlPatternParamsViewAndOption() throws {
        let graph = Graph()
        try graph.route("/message/:username", view: "Message", option: .modal)
        let routes = try graph.watchRoutes()
        let navigation = try graph.navigate(to: "/message/Max%20Mustermann?from=list")
        let sent = routes()
        #expect(sent == [[
            "url": "/message/Max%20Mustermann?from=list", "pattern": "/message/:username",
            "params": ["username": "Max Mustermann", "from": "list"], "view": "Message", "option": "modal",
        ]])
        #expect(sent.first.map { "\($0)" } == #"{url: "/message/Max%20Mustermann?from=list", pattern: "/message/:username", "#
            + #"params: {username: "Max Mustermann", from: "list"}, view: "Message", option: "modal"}"#)
        #expect(navigation.value == sent.first)
        #expect(navigation.value["stack"] == nil)
    }

    @Test func routerRouteIsAnEventPortThatNeverReplays() throws {
        let graph = Graph()
        try graph.route("/a")
        try graph.navigate(to: "/a")
        let routes = try graph.watchRoutes()
        #expect(routes() == [])
        try graph.createVariable("last", value: nil)
        try graph.wire(from: PortAddress(node: "router", port: "route"), to: PortAddress(node: "last", port: "set"),
                       transform: Expression("$.url"))
        #expect(graph.lookup(name: "last") == .value(nil))
        try graph.navigate(to: "/a?x=1")
        #expect(graph.lookup(name: "last") == .value("/a?x=1"))
    }

    @Test func navigatingInsideAnAbortedTransactionSendsNothing() throws {
        let graph = Graph()
        try graph.route("/a", view: "A")
        let routes = try graph.watchRoutes()
        try graph.begin()
        try graph.navigate(to: "/a")
        #expect(routes() == [])
        try graph.abort()
        #expect(routes() == [])
        try graph.begin()
        try graph.navigate(to: "/a?n=2")
        #expect(routes() == [])
        #expect(try graph.commit())
        #expect(routes().map { $0["url"] } == ["/a?n=2"])
    }

    @Test func anUnmatchedUrlThrowsAndChangesNothing() throws {
        let graph = Graph()
        try graph.route("/start", view: "Start")
        try graph.navigate(to: "/start")
        let routes = try graph.watchRoutes()
        let error = navigationError(graph, "/stat")
        guard case .routing(let routing, let text) = error else {
            Issue.record("expected a routing error, got \(String(describing: error))")
            return
        }
        #expect(text == "/stat")
        #expect(routing.reason == .noRouteMatches(
            url: "/stat", closest: "/start", because: "segment 1 is 'stat', the pattern needs 'start'"))
        #expect(graph.views == ["Start"])
        #expect(routes() == [])
    }

    @Test func backAndDismissOnTheGraphThrowWhenThereIsNothingToClose() throws {
        let graph = Graph()
        #expect(throws: GraphError.emptyStack) { try graph.back() }
        #expect(throws: GraphError.noModal) { try graph.dismiss() }
        try graph.route("/start", view: "Start")
        try graph.route("/m", view: "M", option: .modal)
        try graph.navigate(to: "/start")
        #expect(throws: GraphError.noModal) { try graph.dismiss() }
        try graph.navigate(to: "/m")
        try graph.navigate(to: "/start")
        #expect(graph.views == ["Start", "Start", "M*"])
        #expect(try graph.dismiss().map(\.view) == ["M"])
        #expect(try graph.back().view == "Start")
        #expect(graph.views == ["Start"])
    }
}

@Suite("Graph: guards")
struct WireframeGraphGuardTests {
    @Test func aFalseGuardPassesToTheNextRoute() throws {
        let graph = Graph()
        try graph.route("/user/:id", view: "User", when: #"params.id != "0""#)
        try graph.route("/user/:name", view: "Guest")
        #expect(try graph.navigate(to: "/user/42").view == "User")
        let guest = try graph.navigate(to: "/user/0")
        #expect(guest.view == "Guest")
        #expect(guest.pattern == "/user/:name")
        #expect(guest.params == ["name": "0"])
        #expect(graph.errorEvents() == [])
    }

    @Test func aGuardReadsUrlAndNodes() throws {
        let graph = Graph()
        try graph.createVariable("loggedIn", value: false)
        try graph.route("/inbox", view: "Inbox", when: #"loggedIn && url != "/inbox?skip""#)
        try graph.route("/:page", view: "Login", priority: -1)
        #expect(try graph.navigate(to: "/inbox").view == "Login")
        try graph.set("loggedIn", to: true)
        #expect(try graph.navigate(to: "/inbox").view == "Inbox")
        #expect(try graph.navigate(to: "/inbox?skip").view == "Login")
    }

    @Test func aGuardThatFailsToEvaluateDeclinesAndReportsAnErrorEvent() throws {
        let graph = Graph()
        try graph.route("/g", view: "G", when: "nosuch.flag")
        try graph.route("/:page", view: "Fallback", priority: -1)
        #expect(try graph.navigate(to: "/g").view == "Fallback")
        #expect(graph.errorEvents() == ["route /g failed: unknown name 'nosuch'"])
    }

    @Test func aGuardThatFailsWithNoOtherRouteIsReportedOnceAndNothingMatches() throws {
        let graph = Graph()
        try graph.route("/g", view: "G", when: "nosuch.flag")
        let error = navigationError(graph, "/g")
        guard case .routing(let routing, _) = error else {
            Issue.record("expected a routing error, got \(String(describing: error))")
            return
        }
        #expect(routing.reason == .noRouteMatches(url: "/g", closest: "/g", because: "its guard declined"))
        #expect(graph.errorEvents() == ["route /g failed: unknown name 'nosuch'"])
        #expect(graph.views == [])
    }

    @Test func aGuardMustGiveABool() throws {
        let graph = Graph()
        try graph.route("/g", view: "G", when: "1")
        try graph.route("/:page", view: "Fallback", priority: -1)
        #expect(try graph.navigate(to: "/g").view == "Fallback")
        #expect(graph.errorEvents() == ["route /g failed: its when must give a bool, not int"])
    }
}

@Suite("Graph: managing routes")
struct WireframeGraphRouteTests {
    @Test func routeRmRemovesTheRoute() throws {
        let graph = Graph()
        try graph.route("/a", view: "A")
        try graph.route("/b", view: "B")
        try graph.removeRoute("/a")
        #expect(graph.routePatterns == ["/b"])
        guard case .routing(let routing, _) = navigationError(graph, "/a") else {
            Issue.record("/a still matches")
            return
        }
        #expect(routing.reason == .noRouteMatches(url: "/a", closest: "/b", because: "segment 1 is 'a', the pattern needs 'b'"))
        try graph.route("/a", view: "Again")
        #expect(try graph.navigate(to: "/a").view == "Again")
    }

    @Test func removingAnUnknownPatternNamesTheRoutes() throws {
        let graph = Graph()
        #expect(throws: GraphError.unknownRoute("/a", existing: [])) { try graph.removeRoute("/a") }
        try graph.route("/b")
        try graph.route("/c/:x")
        #expect(throws: GraphError.unknownRoute("/c/:y", existing: ["/b", "/c/:x"])) { try graph.removeRoute("/c/:y") }
        #expect("\(GraphError.unknownRoute("/c/:y", existing: ["/b", "/c/:x"]))" == "no route /c/:y (routes: /b, /c/:x)")
        #expect(graph.routePatterns == ["/b", "/c/:x"])
    }

    @Test func aPatternRegisteredAgainWithAHigherPriorityTakesItsUrls() throws {
        let graph = Graph()
        try graph.route("/start", view: "Start")
        #expect(try graph.route("/start", view: "Other", priority: 3).isEmpty)
        #expect(try graph.navigate(to: "/start").view == "Other")
        #expect(graph.routeSummaries.map(\.text) == ["/start view=Other option=push priority=3",
                                                     "/start view=Start option=push priority=0"])
        #expect(graph.routePatterns == ["/start"])
    }

    @Test func addRouteReturnsTheConflictsWithRoutesOfTheSamePriority() throws {
        let graph = Graph()
        #expect(try graph.route("/a/b").isEmpty)
        let overlap = try graph.route("/a/:x")
        #expect(overlap.map(\.description) == [
            "/a/:x overlaps /a/b, added earlier with the same priority: both match /a/b, which goes to /a/b",
        ])
        #expect(overlap.map(\.witness) == ["/a/b"])
        #expect(overlap.map(\.isUnreachable) == [false])

        let shadowed = try graph.route("/a/c", priority: 0)
        #expect(shadowed.map(\.route.pattern) == ["/a/c"])
        #expect(shadowed.map(\.witness) == ["/a/c"])
        #expect(shadowed.map(\.isUnreachable) == [true])

        #expect(try graph.route("/a/d", priority: 1).isEmpty)
        #expect(graph.routeConflicts().count == 2)
    }

    @Test func routeSummariesAreInMatchOrder() throws {
        let graph = Graph()
        try graph.route("/low", priority: -1)
        try graph.route("/first", view: "First", option: .modal)
        try graph.route("/high", priority: 2, when: "true")
        try graph.route("/second")
        #expect(graph.routeSummaries.map(\.text) == [
            "/high option=push priority=2 when true",
            "/first view=First option=modal priority=0",
            "/second option=push priority=0",
            "/low option=push priority=-1",
        ])
    }

    @Test func viewNamesComeFromRoutesAndPresentersSorted() throws {
        let graph = Graph()
        try graph.route("/z", view: "Zebra")
        try graph.presenter("Apple", "1")
        try graph.route("/m", view: "Mango")
        try graph.route("/h")
        #expect(graph.viewNames == ["Apple", "Mango", "Zebra"])
    }
}
