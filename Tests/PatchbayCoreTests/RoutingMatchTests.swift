@testable import PatchbayCore
import Testing

// SPEC 5.2 and research/routing.md section 1: JLRoutes' matching behaviour, one case at a time.

/// A router with `patterns` registered in order at priority 0, payload = the pattern text.
func makeRouter(_ patterns: String...) throws -> Router<String> {
    var router = Router<String>()
    for pattern in patterns { router.add(try RoutePattern(pattern), payload: pattern) }
    return router
}

extension Router {
    /// The parameters of the match, asserting the trie and the ordered scan agree.
    func parameters(_ url: String, extra: [String: Value] = [:]) throws -> Value.Members? {
        try checkedMatch(url, extra: extra)?.parameters
    }

    /// `match`, checked against the ordered scan.
    func checkedMatch(_ url: String, extra: [String: Value] = [:]) throws -> RouteResult<Payload>? {
        let result = try match(url, extra: extra)
        let oracle = try scanMatch(url, extra: extra)
        #expect(result?.route == oracle?.route && result?.expansionIndex == oracle?.expansionIndex)
        #expect(result?.parameters == oracle?.parameters)
        return result
    }
}

@Suite struct RoutingMatchTests {
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
        #expect(try router.checkedMatch("/TEST") == nil)
        #expect(try router.checkedMatch("/a/b")?.payload == "/a/b")
        #expect(try router.checkedMatch("/a/b/c") == nil)
        #expect(try router.checkedMatch("/a") == nil)
    }
}
