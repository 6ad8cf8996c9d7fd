@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayShell
import RoutingKit

/// Matching URLs against a route table (workload W4, `RoutingMix`): our `Router` against
/// RoutingKit 4.9.3's `TrieRouter` (the peer, which the target is set against) and a minimal trie
/// (the floor), all from the URL string; and our time per URL with
/// 10,000 routes against 10 routes of the same shape.
///
/// Every trial counts the URLs that matched and sums index + 1 of the routes they matched (each
/// route's payload is its index), and checks both against what the URL generator knows each URL
/// must match (`RoutingMix`); at the full size, the W4 mix itself is checked against
/// its known 900,371 matches and checksum 476,147,147.
struct RoutingBenchmarks: BenchmarkGroup {
    let name = "Routing"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let urls = mode == .quick ? 20_000 : RoutingMix.w4FullURLs
        // R2's trials are short; a few more URLs keep its quick numbers from being all noise.
        let sectionURLs = mode == .quick ? 50_000 : 1_000_000
        let w4 = Shared {
            let mix = RoutingMix.w4(urls: urls)
            try mix.checkAgainstAnchors()
            return mix
        }
        let small = Shared { RoutingMix.sections(1, urls: sectionURLs) }
        let large = Shared { RoutingMix.sections(1000, urls: sectionURLs) }
        return [
            BenchmarkRow(
                id: "R1", title: "W4 route 1,010 patterns, URL string -> match + params",
                ours: Self.router(w4, urls: urls),
                reference: Reference(kind: .peer, name: "RoutingKit TrieRouter", workload: Self.routingKit(w4, urls: urls)),
                target: .ratioAtMost(0.4),
                secondReference: Reference(kind: .floor, name: "minimal trie", workload: Self.minimalTrie(w4, urls: urls))
            ),
            BenchmarkRow(
                id: "R2", title: "W4 sections: Router with 10,000 routes vs 10",
                ours: Self.router(large, urls: sectionURLs),
                reference: Reference(kind: .floor, name: "ours with 10 routes", workload: Self.router(small, urls: sectionURLs)),
                target: .ratioAtMost(1.2)
            ),
            BenchmarkRow(
                id: "R3", title: "route add in the shell: 10,000 routes vs 5,000 (vs 2,500), per route",
                ours: Self.registration(10_000),
                reference: Reference(kind: .baseline, name: "ours, 5,000 routes", workload: Self.registration(5_000)),
                target: .secondsBelow(0.3, operations: 10_000),
                secondReference: Reference(kind: .baseline, name: "ours, 2,500 routes", workload: Self.registration(2_500)),
                notes: { ours, half, quarter in
                    // Constant time per route gives 1 per doubling; time linear in the routes, 2.
                    let perDoubling = quarter.map { (ours / $0).squareRoot() } ?? .nan
                    return ["route add: 10,000 routes in \(formatted(ours * 10_000 / 1e9, digits: 3)) s; time per route "
                        + "x\(formatted(ours / (half ?? .nan), digits: 2)) from 5,000 to 10,000 routes, "
                        + "x\(formatted(perDoubling, digits: 2)) per doubling from 2,500 to 10,000"]
                }
            ),
        ]
    }

    /// `route add` of the W4 section patterns (`/section{1000+i}/:id/item{j}`) in a fresh shell,
    /// `count` times; each command must succeed without warnings.
    static func registration(_ count: Int) -> Workload {
        Workload(operations: count) {
            let commands = RoutingMix.sections(count / 10, urls: 0).patterns.map { "route add \($0)" }
            let shell = Shell()
            return Trial(expectedChecksum: count) {
                var added = 0
                for command in commands {
                    let outcome = shell.execute(command)
                    if outcome.status == .success, outcome.lines.count == 1 { added += 1 }
                }
                return added
            }
        }
    }

    /// The URLs each trial matches untimed before its timed loop, so that the loop measures
    /// matching in a steady state rather than the first reads of a table just built (which, in
    /// the quick runs' short loops, would weigh on large tables most).
    static let warmUpURLs = 100_000

    /// A trial that matches `urls` with `match`, which gives the matched route's index or nil,
    /// after matching up to `warmUpURLs` of them untimed.
    static func trial(_ mix: RoutingMix, _ match: @escaping (String) throws -> Int?) throws -> Trial {
        let urls = mix.urls
        func pass(_ urls: ArraySlice<String>) throws -> Int {
            var matches = 0
            var indexSum = 0
            for url in urls {
                if let index = try match(url) {
                    matches &+= 1
                    indexSum &+= index &+ 1
                }
            }
            return RoutingMix.checksum(matches: matches, indexSum: indexSum)
        }
        blackHole(try pass(urls.prefix(warmUpURLs)))
        return Trial(expectedChecksum: mix.expectedChecksum) { try pass(urls[...]) }
    }

    /// Our `Router<Int>`, built afresh for every trial; each route's payload is its index.
    static func router(_ mix: Shared<RoutingMix>, urls count: Int) -> Workload {
        Workload(operations: count) {
            let mix = try mix.get()
            var built = Router<Int>()
            for (index, pattern) in mix.patterns.enumerated() {
                built.add(try RoutePattern(pattern), payload: index)
            }
            let router = built
            return try trial(mix) { url in try router.match(url)?.payload }
        }
    }

    /// The peer on W4: RoutingKit's `TrieRouter<Int>`, `/files{k}/*` registered as the
    /// catchall `**`; per URL a UTF-8 split into `[String]`, then `route(path:parameters:)` with a
    /// fresh `Parameters` given the router's logger (created once, with the router).
    static func routingKit(_ mix: Shared<RoutingMix>, urls count: Int) -> Workload {
        Workload(operations: count) {
            let mix = try mix.get()
            let router = TrieRouter(Int.self)
            for (index, pattern) in mix.patterns.enumerated() {
                let path = pattern.hasSuffix("/*") ? pattern.dropLast() + "**" : Substring(pattern)
                router.register(index, at: String(path).pathComponents)
            }
            let logger = router.logger
            return try trial(mix) { url in
                let path = url.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
                var parameters = Parameters(logger)
                return router.route(path: path, parameters: &parameters)
            }
        }
    }

    /// The floor of W4: a minimal trie in this module, walked over the URL's bytes without
    /// a segment array, its variables put as `Substring`s into a buffer the caller reuses.
    static func minimalTrie(_ mix: Shared<RoutingMix>, urls count: Int) -> Workload {
        Workload(operations: count) {
            let mix = try mix.get()
            let trie = MinimalTrie()
            for (index, pattern) in mix.patterns.enumerated() { trie.insert(pattern, output: index) }
            let parameters = ParameterBuffer()
            return try trial(mix) { url in
                let index = trie.match(url, parameters: &parameters.values)
                return index >= 0 ? index : nil
            }
        }
    }
}

/// The minimal trie's reused buffer of variable values.
final class ParameterBuffer {
    var values: [Substring] = []

    init() { values.reserveCapacity(8) }
}

/// The floor of W4: literal children in a `[Substring: Node]`, one variable child, an output and
/// a wildcard output per node. No backtracking: a literal wins over the variable, and a dead end
/// falls back to the deepest wildcard passed (as RoutingKit does), which is enough for W4.
final class MinimalTrie {
    final class Node {
        var literals: [Substring: Node] = [:]
        var variable: Node?
        var output = -1
        var wildcardOutput = -1
    }

    let root = Node()

    func insert(_ pattern: String, output: Int) {
        var node = root
        for segment in pattern.split(separator: "/") {
            if segment == "*" {
                node.wildcardOutput = output
                return
            }
            if segment.hasPrefix(":") {
                if node.variable == nil { node.variable = Node() }
                node = node.variable!
            } else {
                if node.literals[segment] == nil { node.literals[segment] = Node() }
                node = node.literals[segment]!
            }
        }
        node.output = output
    }

    /// The output matching `url`, or -1; the variables' values replace `parameters`' contents.
    func match(_ url: String, parameters: inout [Substring]) -> Int {
        parameters.removeAll(keepingCapacity: true)
        let bytes = url.utf8
        let slash = UInt8(ascii: "/")
        var node = root
        var wildcard = -1
        var start = bytes.startIndex
        let end = bytes.endIndex
        while start < end {
            if bytes[start] == slash {
                start = bytes.index(after: start)
                continue
            }
            var stop = start
            while stop < end, bytes[stop] != slash { stop = bytes.index(after: stop) }
            let segment = url[start..<stop]
            if node.wildcardOutput >= 0 { wildcard = node.wildcardOutput }
            if let next = node.literals[segment] {
                node = next
            } else if let variable = node.variable {
                parameters.append(segment)
                node = variable
            } else {
                return wildcard
            }
            start = stop
        }
        return node.output >= 0 ? node.output : wildcard
    }
}
