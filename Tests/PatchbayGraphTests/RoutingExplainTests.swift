@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import Testing

// `route explain URL` (why each pattern matched or did not) and the error of a URL no route
// matches, naming the closest pattern and why it failed.

@Suite struct RoutingExplainTests {
    private func router() throws -> Router<String> {
        var router = Router<String>()
        router.add(try RoutePattern("/user/:id"), payload: "guarded") { $0.parameters["id"] != "0" }
        router.add(try RoutePattern("/user/:id/edit"), payload: "edit")
        router.add(try RoutePattern("/post/:id"), payload: "post")
        router.add(try RoutePattern("/user/*"), payload: "rest")
        return router
    }

    @Test func eachRouteInOrderWithItsFirstReason() throws {
        let explanation = try router().explain("/user/0")
        #expect(explanation.segments == ["user", "0"])
        #expect(explanation.entries.map(\.pattern) == ["/user/:id", "/user/:id/edit", "/post/:id", "/user/*"])
        #expect(
            explanation.entries.map(\.outcome) == [
                .guardDeclined,
                .segmentCount(expected: 3, orMore: false, actual: 2),
                .literalMismatch(segment: 0, expected: "post", found: "user"),
                .matched,
            ])
        #expect(explanation.entries.map(\.matched) == [false, false, false, true])
        #expect(explanation.selected == 3)
        #expect(try router().match("/user/0")?.payload == "rest")
        #expect(explanation.closestFailure?.pattern == "/user/:id")
    }

    @Test func laterRoutesAreExplainedAfterTheSelectedOne() throws {
        let explanation = try router().explain("/user/7")
        #expect(explanation.selected == 0)
        #expect(explanation.entries.map(\.matched) == [true, false, false, true])
    }

    @Test func outcomesDescribeThemselves() {
        typealias Outcome = RouteExplanation.Outcome
        #expect(Outcome.matched.description == "matched")
        #expect(Outcome.guardDeclined.description == "its guard declined")
        #expect(Outcome.segmentCount(expected: 3, orMore: false, actual: 2).description == "the path has 2 segments, the pattern needs 3 segments")
        #expect(Outcome.segmentCount(expected: 2, orMore: true, actual: 1).description == "the path has 1 segment, the pattern needs at least 2 segments")
        #expect(Outcome.literalMismatch(segment: 0, expected: "view", found: "VIEW").description == "segment 1 is 'VIEW', the pattern needs 'view'")
    }

    @Test func wildcardPatternsFailWhereThePathEnds() throws {
        let explanation = try makeRouter("/a/b/*", "/x/b/*").explain("/a")
        #expect(explanation.entries.map(\.outcome) == [
            .segmentCount(expected: 2, orMore: true, actual: 1),
            .literalMismatch(segment: 0, expected: "x", found: "a"),
        ])
    }

    @Test func closestFailurePrefersAgreeingLiteralsAndTypos() throws {
        let router = try makeRouter("/:a/:b/:c", "/user/:id", "/post/:id/edit")
        #expect(try router.closestFailure("/usre/7")?.pattern == "/user/:id")  // a likely typo
        #expect(try router.closestFailure("/usre/7")?.outcome == .literalMismatch(segment: 0, expected: "user", found: "usre"))
        #expect(try router.closestFailure("/post/1")?.pattern == "/post/:id/edit")
        #expect(try Router<Void>().closestFailure("/x") == nil)
        // Nothing failed: no closest failure.
        #expect(try makeRouter("/x").closestFailure("/x") == nil)
    }

    @Test func optionalPatternsReportTheirClosestExpansion() throws {
        let entry = try makeRouter("/p/:x(/edit)").explain("/p/1/view").entries[0]
        #expect(entry.expansion == "/p/:x/edit")
        #expect(entry.outcome == .literalMismatch(segment: 2, expected: "edit", found: "view"))
        let matched = try makeRouter("/p/:x(/edit)").explain("/p/1").entries[0]
        #expect(matched.expansion == "/p/:x")
        #expect(matched.outcome == .matched)
    }

    @Test func explainReportsMalformedURLs() throws {
        #expect(throws: RoutingError(.malformedPercentEscape("%x"), at: 1..<3)) { try router().explain("/%x") }
    }
}
