@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import PatchbayTestSupport
import Testing

// The compiled trie must return exactly what the ordered scan returns
// (priorities, registration order, optional-group order, guards passing on, backtracking), checked
// on random route tables and URLs from a seeded SplitMix64. The same runs check that the conflict
// analysis is sound: a route reported as unreachable is never chosen, and every witness URL is
// matched by both routes of its pair.

/// Records the guard calls of one match, so the trie's and the scan's can be compared.
private final class GuardLog {
    var calls: [String] = []
}

private struct Generator {
    var random: SplitMix64

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let literals = ["a", "b", "c", "ab", "A", "a%20b", "user#"]
    static let names = ["x", "y", "id"]

    mutating func segment() -> String { chance(60) ? pick(Self.literals) : ":" + pick(Self.names) }

    /// A pattern of up to four segments, some in optional groups, perhaps ending with `*`.
    mutating func pattern() -> String {
        var text = ""
        var groups = 0
        for _ in 0..<below(5) {
            if groups < 3, chance(30) {
                text += chance(70) ? "(/" + segment() + ")" : "(/" + segment() + "/" + segment() + ")"
                groups += 1
            } else {
                text += "/" + segment()
            }
        }
        if chance(25) { text += chance(70) ? "/*" : "(/*)" }
        if chance(10) { text += "/" }
        return text.isEmpty ? "/" : text
    }

    mutating func url() -> String {
        var path: [String] = []
        for _ in 0..<below(6) { path.append(pick(Self.literals + ["zz", "", "a+b", "%41", "b#c"])) }
        var url = pick(["", "", "tests://", "https://example.com"])
        url += url == "tests://" ? path.joined(separator: "/") : "/" + path.joined(separator: "/")
        if chance(25) { url += pick(["?x=1&x=2", "?id=7&q=a+b", "?y=%2B", "?flag", "?*=q"]) }
        if chance(15) { url += pick(["#", "#/a", "#x=1", "#/b?id=3", "#k=&j=1"]) }
        if chance(3) { url += "%zz" }
        return url
    }
}

@Suite struct RoutingDifferentialTests {
    @Test func trieAgreesWithTheOrderedScan() throws {
        var generator = Generator(random: SplitMix64(seed: 0xC0FF_EE00_D1FF))
        var cases = 0
        var matches = 0
        var declines = 0
        for _ in 0..<250 {
            let log = GuardLog()
            var router = Router<Int>()
            var unreachable: Set<RouteID> = []
            var patterns: [String] = []
            for number in 0..<(1 + generator.below(12)) {
                let text = generator.pattern()
                patterns.append(text)
                let pattern = try RoutePattern(text)
                let priority = generator.pick([0, 0, 0, 1, 2, -1])
                if generator.chance(25) {
                    let salt = generator.below(3)
                    router.add(pattern, priority: priority, payload: number) { result in
                        let key = "\(result.route) \(result.matchedPattern) \(result.parameters)"
                        log.calls.append(key)
                        return (key.utf8.reduce(salt) { $0 &+ Int($1) }) % 3 != 0
                    }
                } else {
                    router.add(pattern, priority: priority, payload: number)
                }
            }
            if generator.chance(20), let victim = router.routes.randomElement(using: &generator.random) {
                router.remove(victim.id)
            }

            for conflict in router.conflicts() {
                if conflict.isUnreachable { unreachable.insert(conflict.route.id) }
                guard let witness = conflict.witness else { continue }
                guard case .overlap(let earlier, _) = conflict.kind else {
                    guard case .shadowed(let earlier, _) = conflict.kind else { continue }
                    try expectBothMatch(witness, router, earlier.id, conflict.route.id)
                    continue
                }
                try expectBothMatch(witness, router, earlier.id, conflict.route.id)
            }

            for _ in 0..<40 {
                let url = generator.url()
                let extra: [String: Value] = generator.chance(10) ? ["id": 1] : [:]
                log.calls = []
                let trie = Result { () throws(RoutingError) -> RouteResult<Int>? in try router.match(url, extra: extra) }
                let trieCalls = log.calls
                log.calls = []
                let scan = Result { () throws(RoutingError) -> RouteResult<Int>? in try router.scanMatch(url, extra: extra) }
                let scanCalls = log.calls
                cases += 1
                switch (trie, scan) {
                case (.success(let a), .success(let b)):
                    #expect(a?.route == b?.route, "\(url) in \(patterns)")
                    #expect(a?.expansionIndex == b?.expansionIndex, "\(url) in \(patterns)")
                    #expect(a?.parameters == b?.parameters, "\(url) in \(patterns)")
                    #expect(trieCalls == scanCalls, "\(url) in \(patterns)")
                    if let a {
                        matches += 1
                        #expect(!unreachable.contains(a.route), "\(url) chose unreachable \(a.pattern) in \(patterns)")
                    }
                    if !scanCalls.isEmpty, a == nil || scanCalls.count > 1 { declines += 1 }
                    // explain selects the same route.
                    if generator.chance(10) {
                        let explanation = try router.explain(url, extra: extra)
                        let selected = explanation.selected.map { explanation.entries[$0].route }
                        #expect(selected == a?.route, "\(url) in \(patterns)")
                    }
                case (.failure(let a), .failure(let b)):
                    #expect(a == b, "\(url)")
                default:
                    Issue.record("trie \(trie) and scan \(scan) differ for \(url) in \(patterns)")
                }
            }
        }
        #expect(cases == 10_000)
        // The tables are dense enough to exercise matches and declined guards.
        #expect(matches > 2_000)
        #expect(declines > 100)
    }

    private func expectBothMatch(_ witness: String, _ router: Router<Int>, _ earlier: RouteID, _ later: RouteID) throws {
        let explanation = try router.explain(witness)
        for id in [earlier, later] {
            let entry = explanation.entries.first { $0.route == id }
            let patternMatched = entry?.outcome == .matched || entry?.outcome == .guardDeclined
            #expect(patternMatched, "witness \(witness) for \(id)")
        }
    }

    @Test func largeTablesAgreeToo() throws {
        // Many routes sharing prefixes: deep backtracking across literal and variable branches.
        var generator = Generator(random: SplitMix64(seed: 42))
        var router = Router<Int>()
        for number in 0..<400 {
            router.add(try RoutePattern(generator.pattern()), priority: generator.pick([0, 0, 1]), payload: number)
        }
        for _ in 0..<1_500 {
            let url = generator.url()
            let trie = try? router.match(url)
            let scan = try? router.scanMatch(url)
            #expect(trie?.route == scan?.route && trie?.parameters == scan?.parameters, "\(url)")
        }
    }
}
