@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import Testing

// Route patterns (PatchbayHost.docc/Routing.md): syntax, optional-group expansion exactly as
// JLRoutes 2.1 does it, and malformed patterns reported with the UTF-8 column.

@Suite struct RoutingPatternTests {
    private func expansions(_ text: String) throws -> [String] { try RoutePattern(text).expandedPatterns }

    private func error(_ text: String) -> RoutingError? {
        do {
            _ = try RoutePattern(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func plainPatternsHaveOneExpansion() throws {
        #expect(try expansions("/user/view/:userID") == ["/user/view/:userID"])
        #expect(try expansions("list/:v/*") == ["/list/:v/*"])  // no leading slash: the same pattern
        #expect(try expansions("/") == ["/"])
        #expect(try expansions("") == ["/"])
        #expect(try RoutePattern("/a/b/").text == "/a/b/")  // the original text is kept
    }

    @Test func trailingSlashIsIgnored() throws {
        // Deliberate difference: in JLRoutes `/a/b/` has the components [a, b, ""] and never matches.
        #expect(try expansions("/a/b/") == ["/a/b"])
        #expect(try expansions("//a//") == ["/a"])
    }

    @Test func optionalGroupsExpandLongestFirst() throws {
        #expect(
            try expansions("/path/:thing(/new)(/anotherpath/:anotherthing)") == [
                "/path/:thing/new/anotherpath/:anotherthing", "/path/:thing/anotherpath/:anotherthing",
                "/path/:thing/new", "/path/:thing",
            ])
    }

    @Test func groupsMayCarryTheirSlashEitherSide() throws {
        // O14: `/(rest/):object/(app/):id`.
        #expect(
            try expansions("/(rest/):object/(app/):id") == [
                "/rest/:object/app/:id", "/rest/:object/:id", "/:object/app/:id", "/:object/:id",
            ])
        // A group always starts a segment, as in JLRoutes.
        #expect(try expansions("/a(b)") == ["/a/b", "/a"])
    }

    @Test func allOptionalPatternsIncludeTheRoot() throws {
        #expect(try expansions("(/foo)") == ["/foo", "/"])  // O15
        #expect(try expansions("/(/a)(/b)") == ["/a/b", "/a", "/b", "/"])
    }

    @Test func threeGroupsGiveEveryInOrderCombination() throws {
        // Equal lengths keep JLRoutes' enumeration order (binary counting, first group lowest).
        #expect(
            try expansions("/p(/a)(/b)(/c)") == [
                "/p/a/b/c", "/p/a/b", "/p/a/c", "/p/b/c", "/p/a", "/p/b", "/p/c", "/p",
            ])
        #expect(try expansions("/p(/a)(/b)(/c)").count == 8)
    }

    @Test func wildcardInsideTheLastGroup() throws {
        let pattern = try RoutePattern("/files(/*)")
        #expect(pattern.expandedPatterns == ["/files/*", "/files"])
        #expect(pattern.expansions[0].hasWildcard)
        #expect(!pattern.expansions[1].hasWildcard)
    }

    @Test func segmentKinds() throws {
        let pattern = try RoutePattern("/a/:id/:name#/b*/*")
        let expansion = pattern.expansions[0]
        #expect(expansion.segments == [.literal("a"), .variable("id"), .variable("name"), .literal("b*")])
        #expect(expansion.hasWildcard)
        #expect(pattern.parameterNames == ["id", "name", "*"])
        // '#' is dropped from a name only when something is left.
        #expect(try RoutePattern("/:#").expansions[0].segments == [.variable("#")])
        #expect(try RoutePattern("/::x").expansions[0].segments == [.variable(":x")])
    }

    @Test func patternsCompareByText() throws {
        #expect(try RoutePattern("/a/:x") == RoutePattern("/a/:x"))
        #expect(try RoutePattern("/a/:x") != RoutePattern("/a/:y"))
        #expect(try RoutePattern("/a/:x").description == "/a/:x")
    }

    @Test func unclosedGroup() {
        #expect(error("/a(/b") == RoutingError(.unclosedGroup, at: 2..<5))
        #expect(error("(") == RoutingError(.unclosedGroup, at: 0..<1))
    }

    @Test func unmatchedClosingParenthesis() {
        #expect(error("/a/b)") == RoutingError(.unmatchedClosingParenthesis, at: 4..<5))
        #expect(error("/a(/b))") == RoutingError(.unmatchedClosingParenthesis, at: 6..<7))
    }

    @Test func nestedGroups() {
        #expect(error("/a(/b(/c))") == RoutingError(.nestedGroup, at: 5..<6))
    }

    @Test func emptyGroups() {
        #expect(error("/a()") == RoutingError(.emptyGroup, at: 2..<4))
        #expect(error("/a(/)") == RoutingError(.emptyGroup, at: 2..<5))
    }

    @Test func wildcardMustBeLast() {
        #expect(error("/a/*/b") == RoutingError(.wildcardNotLast, at: 3..<4))
        #expect(error("/*/tz/tm/paid") == RoutingError(.wildcardNotLast, at: 1..<2))  // issue #122
        #expect(error("/a(/*)/b") == RoutingError(.wildcardNotLast, at: 4..<5))
        #expect(error("/a(/*)(/b)") == RoutingError(.wildcardNotLast, at: 4..<5))
        #expect(error("/*/*") == RoutingError(.wildcardNotLast, at: 1..<2))
    }

    @Test func emptyVariableName() {
        // JLRoutes names this variable ":"; we report it.
        #expect(error("/a/:/b") == RoutingError(.emptyVariableName, at: 3..<4))
        #expect(error("/:") == RoutingError(.emptyVariableName, at: 1..<2))
    }

    @Test func emptySegment() {
        #expect(error("/a//b") == RoutingError(.emptySegment, at: 2..<4))
    }

    @Test func columnsAreUTF8Offsets() {
        // "/café/" is 7 bytes: the ':' is at offset 7.
        let failure = error("/café/:")
        #expect(failure == RoutingError(.emptyVariableName, at: 7..<8))
        #expect(failure?.column == 7)
        #expect(failure?.isPatternError == true)
    }

    @Test func limits() {
        let groups = String(repeating: "(/a)", count: RoutePattern.maximumGroups + 1)
        #expect(error(groups) == RoutingError(.tooManyGroups(limit: RoutePattern.maximumGroups), at: 40..<41))
        let long = String(repeating: "/a", count: RoutePattern.maximumSegments + 1)
        #expect(error(long)?.reason == .tooManySegments(limit: RoutePattern.maximumSegments))
        // A huge pattern fails fast with a clear error instead of building anything.
        let huge = String(repeating: "/x", count: 2_000_000)
        #expect(error(huge)?.reason == .tooManySegments(limit: RoutePattern.maximumSegments))
    }

    @Test func errorMessagesAreOneLine() {
        #expect(error("/a(/b")?.description == "unclosed optional group; add the closing ')'")
        #expect(error("/a/*/b")?.description == "'*' must be the last segment of a pattern")
        #expect(error("/a/:")?.description == "a ':' segment needs a name, e.g. :id")
    }
}
