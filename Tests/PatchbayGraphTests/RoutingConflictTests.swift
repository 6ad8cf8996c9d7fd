@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import Testing

// `route add` warns when the new pattern is shadowed by, or shadows, a pattern of the
// same priority, with an example URL both match. `route check` lists all such pairs.

@Suite struct RoutingConflictTests {
    private func side(_ router: Router<String>, _ id: Int) -> RouteConflict.Side {
        let route = router[RouteID(rawValue: id)]!
        return RouteConflict.Side(id: route.id, pattern: route.pattern.text, priority: route.priority, hasGuard: route.hasGuard)
    }

    @Test func specificAfterGeneralIsShadowed() throws {
        let router = try makeRouter("/a/:x", "/a/b")
        let conflicts = router.conflicts()
        #expect(conflicts == [RouteConflict(route: side(router, 1), kind: .shadowed(earlier: side(router, 0), witness: "/a/b"))])
        #expect(conflicts[0].witness == "/a/b")
        #expect(conflicts[0].isUnreachable)
        #expect(
            conflicts[0].description
                == "/a/b is shadowed by /a/:x, added earlier with the same priority: it matches every URL /a/b matches (e.g. /a/b), so /a/b can never match")
        // The witness really goes to the earlier route.
        #expect(try router.match(conflicts[0].witness!)?.payload == "/a/:x")
    }

    @Test func generalAfterSpecificOverlaps() throws {
        let router = try makeRouter("/a/b", "/a/:x")
        let conflicts = router.conflicts()
        #expect(conflicts == [RouteConflict(route: side(router, 1), kind: .overlap(earlier: side(router, 0), witness: "/a/b"))])
        #expect(!conflicts[0].isUnreachable)
        #expect(
            conflicts[0].description
                == "/a/:x overlaps /a/b, added earlier with the same priority: both match /a/b, which goes to /a/b")
    }

    @Test func duplicatesAndRenamedVariables() throws {
        let router = try makeRouter("/a/:x", "/a/:y", "/a/:x")
        let conflicts = router.conflicts()
        #expect(conflicts.map(\.route.id.rawValue) == [1, 2, 2])
        #expect(conflicts.map(\.witness) == ["/a/y", "/a/x", "/a/x"])
        #expect(conflicts.allSatisfy { if case .shadowed = $0.kind { true } else { false } })
    }

    @Test func differentPrioritiesAreNoPairButCanMakeARouteUnreachable() throws {
        var router = Router<String>()
        router.add(try RoutePattern("/a/b"), payload: "/a/b")
        router.add(try RoutePattern("/a/:x"), priority: 10, payload: "/a/:x")
        let conflicts = router.conflicts()
        #expect(conflicts == [RouteConflict(route: side(router, 0), kind: .unreachable(coveredBy: [side(router, 1)]))])
        #expect(conflicts[0].description == "/a/b can never match: /a/:x (tried first, without guards) match every URL it matches")
    }

    @Test func aGuardedEarlierRouteDoesNotMakeALaterOneUnreachable() throws {
        var router = Router<String>()
        router.add(try RoutePattern("/a/:x"), payload: "guarded") { _ in true }
        router.add(try RoutePattern("/a/b"), payload: "/a/b")
        let conflicts = router.conflicts()
        #expect(conflicts.count == 1)
        #expect(!conflicts[0].isUnreachable)
        #expect(conflicts[0].description.hasSuffix("so /a/b matches only when that route's guard declines"))
    }

    @Test func unionOfEarlierRoutesCoversAnOptionalPattern() throws {
        let router = try makeRouter("/a/:x", "/a", "/a(/b)")
        let conflicts = router.conflicts()
        #expect(
            conflicts == [
                RouteConflict(route: side(router, 2), kind: .overlap(earlier: side(router, 0), witness: "/a/b")),
                RouteConflict(route: side(router, 2), kind: .overlap(earlier: side(router, 1), witness: "/a")),
                RouteConflict(route: side(router, 2), kind: .unreachable(coveredBy: [side(router, 0), side(router, 1)])),
            ])
    }

    @Test func wildcards() throws {
        let catchAllFirst = try makeRouter("/files/*", "/files/:name")
        #expect(
            catchAllFirst.conflicts() == [
                RouteConflict(route: side(catchAllFirst, 1), kind: .shadowed(earlier: side(catchAllFirst, 0), witness: "/files/name"))
            ])
        let catchAllLast = try makeRouter("/files/:name", "/files/*")
        #expect(
            catchAllLast.conflicts() == [
                RouteConflict(route: side(catchAllLast, 1), kind: .overlap(earlier: side(catchAllLast, 0), witness: "/files/name"))
            ])
        // `/a/*` also matches `/a`.
        let exactFirst = try makeRouter("/a", "/a/*")
        #expect(exactFirst.conflicts().map(\.witness) == ["/a"])
        // Every length must be covered: `/a/:x/*` and `/a` together cover `/a/*`.
        let pieces = try makeRouter("/a/:x/*", "/a", "/a/*")
        #expect(pieces.conflicts().last == RouteConflict(route: side(pieces, 2), kind: .unreachable(coveredBy: [side(pieces, 0), side(pieces, 1)])))
        // `/*` first shadows everything.
        let root = try makeRouter("/*", "/", "/a/b/c")
        #expect(root.conflicts().map(\.witness) == ["/", "/a/b/c"])
    }

    @Test func impossiblePatterns() throws {
        let router = try makeRouter("/a/x?y", "/b/100%")
        let conflicts = router.conflicts()
        #expect(
            conflicts.map(\.kind) == [
                .impossible(segment: 1, text: "x?y", why: "'?' starts a URL's query, so no path segment contains it"),
                .impossible(segment: 1, text: "100%", why: "'%' must be followed by two hex digits in a URL"),
            ])
        #expect(conflicts.allSatisfy { $0.isUnreachable })
        #expect(
            conflicts[0].description
                == "/a/x?y can never match: segment 2 is 'x?y', and '?' starts a URL's query, so no path segment contains it")
    }

    @Test func noConflicts() throws {
        // `/a/b/*` (the trailing slash is ignored) overlaps `/a/b` and `/a/:x/:y`, nothing else does.
        #expect(try makeRouter("/a/b", "/a/c", "/a/:x/:y", "/b/:x", "/a/b/*/").conflicts().map(\.witness) == ["/a/b", "/a/b/y"])
        #expect(try makeRouter("/a/b", "/a/c", "/b/:x", "/a/:x/:y").conflicts().isEmpty)
        // A route's own expansions overlapping each other is what optional groups are for.
        #expect(try makeRouter("/(rest/):object/(app/):id").conflicts().isEmpty)
    }

    @Test func conflictsInvolvingARouteJustAdded() throws {
        var router = try makeRouter("/a/:x", "/c")
        let added = router.add(try RoutePattern("/a/b"), payload: "/a/b")
        #expect(router.conflicts(involving: added).map(\.witness) == ["/a/b"])
        #expect(router.conflicts(involving: RouteID(rawValue: 0)).map(\.route.id) == [added])
        #expect(router.conflicts(involving: RouteID(rawValue: 1)).isEmpty)
        // A new route of higher priority that covers an existing one makes it unreachable.
        let general = router.add(try RoutePattern("/c"), priority: 1, payload: "/c first")
        let involving = router.conflicts(involving: general)
        #expect(involving == [RouteConflict(route: side(router, 1), kind: .unreachable(coveredBy: [side(router, 3)]))])
        #expect(router.conflicts(involving: RouteID(rawValue: 99)).isEmpty)
    }

    @Test func witnessesUseTheLiteralsOfBothPatterns() throws {
        let router = try makeRouter("/:a/b/:c", "/x/:b/c")
        #expect(router.conflicts().map(\.witness) == ["/x/b/c"])
        #expect(try router.match("/x/b/c")?.payload == "/:a/b/:c")
        // Encoded literals appear as written.
        let encoded = try makeRouter("/caf%C3%A9/:x", "/:y/1")
        #expect(encoded.conflicts().map(\.witness) == ["/caf%C3%A9/1"])
    }
}
