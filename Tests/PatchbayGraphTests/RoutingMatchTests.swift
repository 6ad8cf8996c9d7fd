@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import Testing

// JLRoutes' matching behaviour (PatchbayHost.docc/Routing.md), one case at a time,
// each also checked against the ordered scan (the oracle the trie must agree with).

/// A router with `patterns` registered in order at priority 0; the payload is the pattern text.
func makeRouter(_ patterns: String...) throws -> Router<String> {
    var router = Router<String>()
    for pattern in patterns { router.add(try RoutePattern(pattern), payload: pattern) }
    return router
}

extension Router {
    /// The parameters of the match, checked against the ordered scan.
    func parameters(_ url: String, extra: [String: Value] = [:]) throws -> Value.Members? {
        try checkedMatch(url, extra: extra)?.parameters
    }

    /// `match`, checked against the ordered scan.
    func checkedMatch(_ url: String, extra: [String: Value] = [:]) throws -> RouteResult<Payload>? {
        let result = try match(url, extra: extra)
        let oracle = try scanMatch(url, extra: extra)
        #expect(result?.route == oracle?.route && result?.expansionIndex == oracle?.expansionIndex, "\(url)")
        #expect(result?.parameters == oracle?.parameters, "\(url)")
        return result
    }
}

@Suite struct RoutingMatchTests {
    // MARK: Paths

    @Test func rootAndEmptyPaths() throws {
        let router = try makeRouter("/")
        for url in ["/", "", "tests://", "tests:///", "//", "tests://localhost/", "https://www.example.com"] {
            #expect(try router.checkedMatch(url)?.payload == "/", "\(url)")
        }
        #expect(try router.checkedMatch("/a") == nil)
        #expect(try makeRouter("").checkedMatch("tests://")?.payload == "")
    }

    @Test func literalsAreCaseSensitive() throws {
        let router = try makeRouter("/test", "/a/b")
        #expect(try router.checkedMatch("tests://test")?.payload == "/test")
        #expect(try router.checkedMatch("/test/")?.payload == "/test")
        #expect(try router.checkedMatch("/TEST") == nil)  // D03
        #expect(try router.checkedMatch("/a/b")?.payload == "/a/b")
        #expect(try router.checkedMatch("/a/b/c") == nil)
        #expect(try router.checkedMatch("/a") == nil)
    }

    @Test func variables() throws {
        let router = try makeRouter("/user/view/:userID")
        #expect(try router.parameters("tests://user/view/joeldev") == ["userID": "joeldev"])
        #expect(try router.parameters("/user/view/joeldev/") == ["userID": "joeldev"])
        #expect(try router.parameters("/user/view") == nil)  // a variable never matches a missing segment
        #expect(try router.parameters("/user/view/a/b") == nil)
    }

    @Test func interleavedVariables() throws {
        let router = try makeRouter("/post/:postID/edit/:field", "/:object/:action/:primaryKey")
        #expect(try router.parameters("/post/123/edit/title") == ["postID": "123", "field": "title"])
        let result = try router.checkedMatch("/user/view/42")
        #expect(result?.payload == "/:object/:action/:primaryKey")
        #expect(result?.parameters == ["object": "user", "action": "view", "primaryKey": "42"])
    }

    @Test func emptyMiddleSegmentsAreValues() throws {
        #expect(try makeRouter("/a/:x/b").parameters("/a//b") == ["x": ""])
    }

    @Test func variableNamedTwiceKeepsTheLastValue() throws {
        #expect(try makeRouter("/:a/:a").parameters("/x/y") == ["a": "y"])
    }

    @Test func trailingHashIsDroppedFromNamesAndValues() throws {
        let router = try makeRouter("/:object#/view/:id")
        #expect(try router.parameters("tests://user#/view/joeldev") == ["object": "user", "id": "joeldev"])
        // A lone '#' stays; an encoded %23 stays (decoding happens after the '#' is dropped).
        #expect(try makeRouter("/a/:x").parameters("/a/#") == ["x": "#"])
        #expect(try makeRouter("/a/:x").parameters("/a/b%23") == ["x": "b#"])
    }

    // MARK: Wildcards

    @Test func wildcardTakesTheRest() throws {
        let router = try makeRouter("/wildcard/*")
        #expect(try router.parameters("/wildcard/a/b/c") == ["*": ["a", "b", "c"]])
        #expect(try router.parameters("/wildcard/a") == ["*": ["a"]])
        #expect(try router.parameters("/wildcard") == ["*": []])  // R15: zero segments
        #expect(try router.parameters("/wildcard/") == ["*": []])
        #expect(try router.parameters("/wildcar") == nil)
        #expect(try router.parameters("/other/a") == nil)
    }

    @Test func wildcardSegmentsStayAsWritten() throws {
        let router = try makeRouter("/files/*")
        #expect(try router.parameters("/files/a%20b/c") == ["*": ["a%20b", "c"]])
        #expect(try router.parameters("/files/x/wildcard#") == ["*": ["x", "wildcard#"]])
    }

    @Test func wildcardAfterVariables() throws {
        #expect(try makeRouter("/list/:v/*").parameters("/list/a/b/c") == ["v": "a", "*": ["b", "c"]])
        #expect(try makeRouter("list/:v/*").parameters("/list/a") == ["v": "a", "*": []])
    }

    @Test func rootWildcardMatchesEverything() throws {
        let router = try makeRouter("/*")
        #expect(try router.parameters("/a/b") == ["*": ["a", "b"]])
        #expect(try router.parameters("myapp://user/1") == ["*": ["user", "1"]])
        // Deliberate difference: the root has no segments, so `*` is [] (JLRoutes: [""]).
        #expect(try router.parameters("/") == ["*": []])
    }

    // MARK: Optional groups

    @Test func optionalGroupsMatchEveryCombination() throws {
        let router = try makeRouter("/path/:thing(/new)(/anotherpath/:anotherthing)")
        var result = try router.checkedMatch("/path/abc/new/anotherpath/def")
        #expect(result?.parameters == ["thing": "abc", "anotherthing": "def"])
        #expect(result?.matchedPattern == "/path/:thing/new/anotherpath/:anotherthing")
        result = try router.checkedMatch("/path/abc/anotherpath/def")
        #expect(result?.matchedPattern == "/path/:thing/anotherpath/:anotherthing")
        result = try router.checkedMatch("/path/abc/new")
        #expect(result?.matchedPattern == "/path/:thing/new")
        #expect(result?.parameters == ["thing": "abc"])
        result = try router.checkedMatch("/path/abc")
        #expect(result?.matchedPattern == "/path/:thing")
        #expect(result?.pattern.text == "/path/:thing(/new)(/anotherpath/:anotherthing)")
        #expect(try router.checkedMatch("/path/abc/anotherpath") == nil)
        #expect(try router.checkedMatch("/path") == nil)
    }

    @Test func longerExpansionsWinAmbiguities() throws {
        // O14: `/rest/app/bbb` matches `/rest/:object/:id` before `/:object/app/:id`.
        let router = try makeRouter("/(rest/):object/(app/):id")
        let result = try router.checkedMatch("/rest/app/bbb")
        #expect(result?.parameters == ["object": "app", "id": "bbb"])
        #expect(result?.matchedPattern == "/rest/:object/:id")
        #expect(try router.parameters("/x/y") == ["object": "x", "id": "y"])
        #expect(try router.parameters("/x/app/y") == ["object": "x", "id": "y"])
    }

    @Test func allOptionalPatterns() throws {
        let foo = try makeRouter("(/foo)")
        #expect(try foo.checkedMatch("/")?.matchedPattern == "/")  // O15
        #expect(try foo.checkedMatch("/foo")?.matchedPattern == "/foo")
        let ab = try makeRouter("(/a)(/b)")
        for url in ["/", "/a", "/b", "/a/b"] { #expect(try ab.checkedMatch(url) != nil, "\(url)") }
        #expect(try ab.checkedMatch("/b/a") == nil)  // in order only
        let variables = try makeRouter("(/:a)(/:b)")
        #expect(try variables.parameters("/x") == ["a": "x"])  // `/:a` is tried before `/:b`
        #expect(try variables.parameters("/x/y") == ["a": "x", "b": "y"])
    }

    @Test func optionalWildcard() throws {
        let router = try makeRouter("/files(/*)")
        #expect(try router.checkedMatch("/files")?.matchedPattern == "/files/*")  // longest first
        #expect(try router.parameters("/files/a/b") == ["*": ["a", "b"]])
    }

    // MARK: Query and precedence

    @Test func queryItemsBecomeParameters() throws {
        let router = try makeRouter("/search")
        #expect(try router.parameters("/search?q=swift&page=2") == ["q": "swift", "page": "2"])
        #expect(try router.parameters("/search?tag=a&tag=b") == ["tag": ["a", "b"]])  // A01
        #expect(try router.parameters("/search?flag&x=") == ["x": ""])  // D06, D07
        #expect(try router.parameters("/search?q=a+b&r=a%2Bb") == ["q": "a b", "r": "a+b"])
    }

    @Test func pathBeatsQueryAndExtraBeatsBoth() throws {
        let router = try makeRouter("/user/:id")
        // R12, D15: the path variable wins; it comes first, query items follow.
        #expect(try router.parameters("/user/7?id=9&x=1") == ["id": "7", "x": "1"])
        // D05: extra values win over both, keeping the parameter's place; new ones come last, sorted.
        let result = try router.checkedMatch("/user/7?x=1", extra: ["id": 42, "z": true, "y": nil])
        #expect(result?.parameters == ["id": 42, "x": "1", "y": nil, "z": true])
        #expect(result?.extra == ["id": 42, "z": true, "y": nil])
        #expect(try makeRouter("/files/*").parameters("/files/a?*=q") == ["*": ["a"]])
    }

    @Test func fragmentQueryMergesIntoParameters() throws {
        let router = try makeRouter("/a")
        #expect(try router.parameters("/a#foo=bar") == ["foo": "bar"])
        #expect(try router.parameters("/a?x=1#x=2") == ["x": ["1", "2"]])
        // An empty fragment extends the path with '#'.
        #expect(try router.parameters("/a#") == nil)
        #expect(try makeRouter("/xyz/wildcard").parameters("/xyz/wildcard#") == nil)
        #expect(try makeRouter("/user#/view/:id").parameters("tests://user#/view/joeldev") == ["id": "joeldev"])
    }

    // MARK: Percent-decoding

    @Test func variablesArePercentDecodedOnce() throws {
        let router = try makeRouter("/user/:id")
        #expect(try router.parameters("/user/a%2Fb") == ["id": "a/b"])  // U01: %2F does not split
        #expect(try router.parameters("/user/caf%C3%A9") == ["id": "café"])
        #expect(try router.parameters("/user/%3F%26%3D%23") == ["id": "?&=#"])
        #expect(try router.parameters("/user/100%2525") == ["id": "100%25"])  // once, never twice
        #expect(try router.parameters("/user/a+b") == ["id": "a+b"])  // '+' is not a space in a path
        #expect(try router.parameters("/user/a%2Bb") == ["id": "a+b"])  // DP01: not a space either
    }

    @Test func literalsCompareAsWritten() throws {
        // D12, D13: literals are compared with the URL's percent-encoded segment.
        let router = try makeRouter("/caf%C3%A9", "/café")
        #expect(try router.checkedMatch("/caf%C3%A9")?.payload == "/caf%C3%A9")
        #expect(try router.checkedMatch("/café")?.payload == "/café")
        #expect(try makeRouter("/café").checkedMatch("/caf%C3%A9") == nil)
    }

    @Test func malformedPercentEncodingIsAnError() throws {
        let router = try makeRouter("/user/:id")
        #expect(throws: RoutingError(.malformedPercentEscape("%G1"), at: 6..<9)) { try router.match("/user/%G1") }
        #expect(throws: RoutingError(.malformedPercentEscape("%"), at: 9..<10)) { try router.match("/nomatch/%") }
        #expect(throws: RoutingError(.invalidUTF8("%E9"), at: 6..<9)) { try router.match("/user/%E9") }
        #expect(throws: RoutingError.self) { try router.scanMatch("/user/%E9") }
        // Undecodable bytes are fine where nothing is decoded: a literal compares as written.
        #expect(try makeRouter("/user/%E9").checkedMatch("/user/%E9") != nil)
    }

    // MARK: Hosts

    @Test func hostAsPath() throws {
        let router = try makeRouter("/user/:id", "/:id")
        #expect(try router.parameters("myapp://user/42") == ["id": "42"])
        #expect(try router.checkedMatch("myapp://user/42")?.payload == "/user/:id")
        #expect(try router.parameters("myapp://user.profile/42") == ["id": "42"])  // dotted host: dropped
        #expect(try router.checkedMatch("myapp://user.profile/42")?.payload == "/:id")
        #expect(try router.checkedMatch("https://localhost/x")?.payload == "/:id")
        #expect(try router.parameters("https://www.mydomain.com/sign_in") == ["id": "sign_in"])
        #expect(try router.parameters("myapp://user:8080/42") == ["id": "42"])
    }

    // MARK: Order

    @Test func higherPriorityFirst() throws {
        var router = Router<String>()
        router.add(try RoutePattern("/test/:x"), payload: "low")
        router.add(try RoutePattern("/test/:y"), priority: 10, payload: "high")
        router.add(try RoutePattern("/test/:z"), priority: 5, payload: "middle")
        #expect(try router.checkedMatch("/test/1")?.payload == "high")
        #expect(router.routes.map(\.payload) == ["high", "middle", "low"])
        #expect(try router.checkedMatch("/test/1")?.priority == 10)
    }

    @Test func equalPriorityInRegistrationOrder() throws {
        var router = Router<String>()
        router.add(try RoutePattern("/a/:x"), priority: 3, payload: "first")
        router.add(try RoutePattern("/a/:y"), priority: 3, payload: "second")
        router.add(try RoutePattern("/a/b"), priority: 3, payload: "third")
        #expect(try router.checkedMatch("/a/b")?.payload == "first")
        #expect(router.routes.map(\.payload) == ["first", "second", "third"])
        // Negative priorities go after the default 0 (JLRoutes' are unsigned; ours are Int).
        router.add(try RoutePattern("/a/c"), priority: -1, payload: "negative")
        router.add(try RoutePattern("/a/c"), payload: "zero")
        #expect(router.routes.map(\.payload) == ["first", "second", "third", "zero", "negative"])
    }

    @Test func backtrackingFindsLaterRoutes() throws {
        // vapor/vapor#3213: a literal that leads nowhere must not hide a variable route.
        let router = try makeRouter("/google/callback", "/:provider")
        #expect(try router.checkedMatch("/google")?.payload == "/:provider")
        #expect(try router.checkedMatch("/google/callback")?.payload == "/google/callback")
        // ... nor a wildcard registered earlier than a more specific literal path.
        let mixed = try makeRouter("/a/*", "/a/b/c")
        #expect(try mixed.checkedMatch("/a/b/c")?.payload == "/a/*")
        #expect(try mixed.checkedMatch("/a/b")?.payload == "/a/*")
    }

    // MARK: Guards

    @Test func declinedGuardPassesToTheNextRoute() throws {
        var router = Router<String>()
        var seen: [String] = []
        router.add(try RoutePattern("/user/:id"), payload: "admins") { result in
            seen.append("admins \(result.parameters["id"]!)")
            return result.parameters["id"] == "0"
        }
        router.add(try RoutePattern("/user/:name"), payload: "everyone")
        #expect(try router.match("/user/0")?.payload == "admins")
        #expect(try router.match("/user/7")?.payload == "everyone")
        #expect(seen == ["admins \"0\"", "admins \"7\""])
        #expect(router.routes.map(\.hasGuard) == [true, false])
    }

    @Test func guardRunsForEachMatchingExpansion() throws {
        var router = Router<String>()
        var seen: [String] = []
        router.add(try RoutePattern("/a(/:x)(/:y)"), payload: "optional") { result in
            seen.append(result.matchedPattern)
            return result.parameters["x"] != nil && result.parameters["y"] != nil
        }
        router.add(try RoutePattern("/a/*"), payload: "rest")
        // `/a/:x/:y` does not match `/a/1`; `/a/:x` and `/a/:y` do, and both decline.
        #expect(try router.match("/a/1")?.payload == "rest")
        #expect(seen == ["/a/:x", "/a/:y"])
        seen = []
        #expect(try router.match("/a/1/2")?.payload == "optional")
        #expect(seen == ["/a/:x/:y"])
    }

    @Test func guardSeesQueryAndExtraValues() throws {
        var router = Router<String>()
        router.add(try RoutePattern("/item/:id"), payload: "guarded") { result in
            result.parameters["mode"] == "edit" && result.extra["user"] == "admin"
        }
        router.add(try RoutePattern("/item/:id"), payload: "fallback")
        #expect(try router.match("/item/1?mode=edit", extra: ["user": "admin"])?.payload == "guarded")
        #expect(try router.match("/item/1?mode=edit")?.payload == "fallback")
        #expect(try router.scanMatch("/item/1?mode=edit")?.payload == "fallback")
    }

    @Test func guardDecliningEverythingGivesNoMatch() throws {
        var router = Router<Void>()
        router.add(try RoutePattern("/a")) { _ in false }
        #expect(try router.match("/a") == nil)
        #expect(throws: RoutingError.self) { try router.resolve("/a") }
    }

    // MARK: Table changes and results

    @Test func removeRebuildsTheTable() throws {
        var router = Router<String>()
        let first = router.add(try RoutePattern("/a/:x"), payload: "variable")
        router.add(try RoutePattern("/a/b"), payload: "literal")
        #expect(try router.checkedMatch("/a/b")?.payload == "variable")
        #expect(router.remove(first)?.payload == "variable")
        #expect(router.remove(first) == nil)
        #expect(router[first] == nil)
        #expect(try router.checkedMatch("/a/b")?.payload == "literal")
        #expect(try router.checkedMatch("/a/c") == nil)
        #expect(router.routes.count == 1)
    }

    @Test func routersAreValues() throws {
        var original = try makeRouter("/a")
        let copy = original
        original.add(try RoutePattern("/b"), payload: "/b")
        #expect(try original.checkedMatch("/b") != nil)
        #expect(try copy.checkedMatch("/b") == nil)
        #expect(try copy.checkedMatch("/a") != nil)
    }

    @Test func resultDescribesTheMatch() throws {
        var router = Router<Int>()
        let id = router.add(try RoutePattern("/message/:username(/reply)"), priority: 2, payload: 7)
        let result = try #require(try router.match("/message/Max%20Mustermann?x=1"))
        #expect(result.route == id)
        #expect(result.payload == 7)
        #expect(result.priority == 2)
        #expect(result.url == "/message/Max%20Mustermann?x=1")
        #expect(result.matchedPattern == "/message/:username")
        #expect(result.expansionIndex == 1)
        #expect(result.parameters == ["username": "Max Mustermann", "x": "1"])
        #expect(result.extra == [:])
    }

    @Test func resolveNamesTheClosestPattern() throws {
        let router = try makeRouter("/user/:id", "/post/:id/edit")
        #expect(try router.resolve("/user/1").payload == "/user/:id")
        #expect(throws: RoutingError(.noRouteMatches(url: "/post/1", closest: "/post/:id/edit",
            because: "the path has 2 segments, the pattern needs 3 segments"), at: 0..<7)) {
            try router.resolve("/post/1")
        }
        let error = #expect(throws: RoutingError.self) { try router.resolve("/post/1") }
        #expect(error?.description == "no route matches /post/1; closest pattern /post/:id/edit failed because the path has 2 segments, the pattern needs 3 segments")
        #expect(throws: RoutingError(.noRouteMatches(url: "/x", closest: nil, because: nil), at: 0..<2)) {
            try Router<Void>().resolve("/x")
        }
    }

    @Test func manyRoutes() throws {
        // The W4 table: 1,010 routes; every URL checked against the scan.
        var router = Router<Int>()
        for i in 0..<100 { for j in 0..<10 { router.add(try RoutePattern("/section\(i)/:id/item\(j)"), payload: i * 10 + j) } }
        for k in 0..<10 { router.add(try RoutePattern("/files\(k)/*"), payload: 1000 + k) }
        #expect(try router.checkedMatch("/section97/305540/item1")?.payload == 971)
        #expect(try router.checkedMatch("/section97/305540/other1") == nil)
        #expect(try router.checkedMatch("/files3/a1/b2")?.parameters == ["*": ["a1", "b2"]])
        #expect(try router.checkedMatch("/unknown5/x/y") == nil)
        #expect(router.conflicts().isEmpty)
    }
}

@Suite struct RoutingPatternIndexTests {
    @Test func aRouteIsFoundByItsPatternText() throws {
        var router = try makeRouter("/a/:id", "/b(/:x)", "/c/*")
        let high = router.add(try RoutePattern("/d"), priority: 5, payload: "/d")
        for text in ["/a/:id", "/b(/:x)", "/c/*", "/d"] {
            #expect(router.route(withPattern: text)?.payload == text)
        }
        #expect(router.route(withPattern: "/d")?.id == high)
        #expect(router.route(withPattern: "/a/:other") == nil)
        #expect(router.route(withPattern: "/e") == nil)
    }

    @Test func removingARouteForgetsItsPatternButNotAnEarlierTwin() throws {
        var router = try makeRouter("/a/:id", "/b")
        let twin = router.add(try RoutePattern("/a/:id"), priority: -1, payload: "twin")
        #expect(router.route(withPattern: "/a/:id")?.id == twin)
        router.remove(twin)
        #expect(router.route(withPattern: "/a/:id")?.payload == "/a/:id")
        let first = router.route(withPattern: "/a/:id")!.id
        router.remove(first)
        #expect(router.route(withPattern: "/a/:id") == nil)
        #expect(router.route(withPattern: "/b")?.payload == "/b")
    }

    @Test func conflictsAfterAddAreTheSameWhateverTheTableSize() throws {
        // The check after `add` sorts the overlapping routes instead of scanning the whole table:
        // its answer must not change with unrelated routes around.
        var small = try makeRouter("/x/:a", "/x/b")
        var large = Router<String>()
        for i in 0..<500 { large.add(try RoutePattern("/filler\(i)/:id"), payload: "f\(i)") }
        large.add(try RoutePattern("/x/:a"), payload: "/x/:a")
        large.add(try RoutePattern("/x/b"), payload: "/x/b")
        let added = [small.add(try RoutePattern("/x/*"), priority: 0, payload: "w"), large.add(try RoutePattern("/x/*"), payload: "w")]
        let described = [small.conflicts(involving: added[0]), large.conflicts(involving: added[1])].map { $0.map(\.description) }
        #expect(!described[0].isEmpty)
        #expect(described[0] == described[1])
        let lowered = [small.add(try RoutePattern("/x/:c"), payload: "c"), large.add(try RoutePattern("/x/:c"), payload: "c")]
        #expect(small.conflicts(involving: lowered[0]).map(\.description) == large.conflicts(involving: lowered[1]).map(\.description))
    }
}
