@_spi(Shell) import PatchbayCore

/// A URL taken apart the way JLRoutes takes it apart (`JLRRouteRequest`), by hand over its UTF-8
/// bytes, without Foundation (whose URL and path helpers differ between Linux and Apple).
///
/// - The scheme (`tests:`) is skipped. After `//`, the authority runs to the next `/`, `?` or `#`;
///   its host (without `user@` and `:port`) becomes the first path segment unless it is empty,
///   `localhost`, or contains a `.`.
/// - The path runs to `?` or `#`; the query from `?` to `#`; the fragment is the rest.
/// - A fragment is read as a small URL of its own: its path runs to its first `?`, and without a
///   `?` its path doubles as its query. When the first item of that query has a non-empty value,
///   the fragment's query items count after the URL's own. Unless the fragment was only such a
///   query, `#` and the fragment's path are appended to the path (`user#/view/x` gives the segments
///   `user#`, `view`, `x`; an empty fragment appends just `#`).
/// - One leading and one trailing `/` are dropped and the rest is split on `/`. An empty path has
///   no segments (JLRoutes has one empty segment there; see `Router`).
/// - Every `%` must start an escape of two hex digits, or the URL is malformed.
///
/// The buffers are only valid inside `withRequest(for:_:)`.
struct RouteRequest {
    /// The URL's UTF-8 bytes.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The normalized path: a slice of `bytes`, or a copy when its pieces are not adjacent.
    let path: UnsafeBufferPointer<UInt8>
    /// For segment i, its start at 2i and end at 2i+1 in `path`; then, from 2·count, two words
    /// per segment caching its `LiteralHash.Key` (hash 0 until computed).
    private let storage: UnsafeMutableBufferPointer<Int>
    /// The number of path segments.
    let count: Int
    /// The URL's query, without the `?`.
    let query: Range<Int>?
    /// The fragment's query items, when they count (see above).
    let fragmentQuery: Range<Int>?
    /// Whether the URL contains a `%` at all.
    let hasPercent: Bool
    /// Where each piece of `path` sits in the URL, for error columns.
    private let pieces: PathPieces

    @inline(__always)
    func segmentStart(_ index: Int) -> Int { storage[2 &* index] }

    @inline(__always)
    func segmentEnd(_ index: Int) -> Int { storage[2 &* index &+ 1] }

    /// The bytes of segment `index`, as written.
    @inline(__always)
    func segment(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: path[segmentStart(index)..<segmentEnd(index)])
    }

    /// The hash and packed word of segment `index` (`LiteralHash.Key`), computed once.
    @inline(__always)
    func segmentKey(_ index: Int) -> LiteralHash.Key {
        let slot = 2 &* count &+ 2 &* index
        let cached = UInt64(bitPattern: Int64(storage[slot]))
        if cached != 0 {
            return LiteralHash.Key(hash: cached, word: UInt64(bitPattern: Int64(storage[slot &+ 1])))
        }
        let key = LiteralHash.Key(segment(index))
        storage[slot] = Int(Int64(bitPattern: key.hash))
        storage[slot &+ 1] = Int(Int64(bitPattern: key.word))
        return key
    }

    /// Segment `index` as written, still percent-encoded.
    func rawSegment(_ index: Int) -> String { String(decoding: segment(index), as: UTF8.self) }

    /// Whether segment `index` is exactly `literal`.
    @inline(__always)
    func segment(_ index: Int, equals literal: String) -> Bool {
        let bytes = segment(index)
        var literal = literal
        return literal.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// The offset within the URL of `offset` within the path.
    func urlOffset(ofPathOffset offset: Int) -> Int { pieces.urlOffset(of: offset) }

    /// Segment `index` as a variable's value: a trailing `#` dropped (when something is left), then
    /// percent-decoded once. `+` stays a `+`.
    func variableValue(_ index: Int) throws(RoutingError) -> String {
        var bytes = segment(index)
        if bytes.count > 1, bytes[bytes.count - 1] == UInt8(ascii: "#") {
            bytes = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 1)])
        }
        return try PercentDecoding.decode(
            bytes, plusIsSpace: false, mayContainPercent: hasPercent, origin: urlOffset(ofPathOffset: segmentStart(index)))
    }

    /// The segments as written.
    var rawSegments: [String] { (0..<count).map(rawSegment) }

    /// Runs `body` on `url` taken apart.
    static func withRequest<R>(for url: String, _ body: (RouteRequest) throws(RoutingError) -> R) throws(RoutingError) -> R {
        do {
            // `withContiguousStorageIfAvailable` rethrows untyped errors; only `RoutingError`s come.
            if let result = try url.utf8.withContiguousStorageIfAvailable({ bytes throws -> R in try parse(bytes, body) }) {
                return result
            }
        } catch {
            throw error as! RoutingError
        }
        var copy = url
        copy.makeContiguousUTF8()
        return try withRequest(for: copy, body)
    }

    private static func parse<R>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (RouteRequest) throws(RoutingError) -> R
    ) throws(RoutingError) -> R {
        let hasPercent = try PercentDecoding.validate(bytes)
        let layout = URLLayout(bytes)
        if let range = layout.contiguousPath {
            let path = UnsafeBufferPointer(rebasing: bytes[range])
            let pieces = PathPieces(single: range.lowerBound)
            return try split(bytes, path, layout, hasPercent, pieces, body)
        }
        // Rare: a host with a port or user, or a query before a fragment that extends the path.
        var joined: [UInt8] = []
        var pieces = PathPieces(single: 0)
        for (index, piece) in [layout.host, layout.path, layout.fragmentPath].compactMap({ $0 }).enumerated() {
            pieces.append((joined.count, piece.lowerBound), isFirst: index == 0)
            joined += bytes[piece]
        }
        return try joined.withUnsafeBufferPointer { (path) throws(RoutingError) -> R in
            try split(bytes, path, layout, hasPercent, pieces, body)
        }
    }

    private static func split<R>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ path: UnsafeBufferPointer<UInt8>, _ layout: URLLayout,
        _ hasPercent: Bool, _ pieces: PathPieces, _ body: (RouteRequest) throws(RoutingError) -> R
    ) throws(RoutingError) -> R {
        let slash = UInt8(ascii: "/")
        var start = 0
        var end = path.count
        if start < end, path[start] == slash { start += 1 }
        if start < end, path[end - 1] == slash { end -= 1 }
        var count = 0
        if start < end {
            count = 1
            for index in start..<end where path[index] == slash { count += 1 }
        }
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(1, 4 * count)) {
            (storage) throws(RoutingError) -> R in
            if count > 0 {
                var segment = 0
                var segmentStart = start
                for index in start..<end where path[index] == slash {
                    storage[2 * segment] = segmentStart
                    storage[2 * segment + 1] = index
                    segment += 1
                    segmentStart = index + 1
                }
                storage[2 * segment] = segmentStart
                storage[2 * segment + 1] = end
                for slot in (2 * count)..<(4 * count) { storage[slot] = 0 }
            }
            let request = RouteRequest(
                bytes: bytes, path: path, storage: storage, count: count, query: layout.query,
                fragmentQuery: layout.fragmentQuery, hasPercent: hasPercent, pieces: pieces)
            return try body(request)
        }
    }
}

/// Where the (at most three) pieces of the normalized path start, in the path and in the URL.
private struct PathPieces {
    typealias Start = (path: Int, url: Int)
    private var first: Start
    private var second: Start?
    private var third: Start?

    init(single url: Int) { first = (0, url) }

    mutating func append(_ start: Start, isFirst: Bool) {
        if isFirst { first = start } else if second == nil { second = start } else { third = start }
    }

    func urlOffset(of offset: Int) -> Int {
        var result = first.url + (offset - first.path)
        if let second, second.path <= offset { result = second.url + (offset - second.path) }
        if let third, third.path <= offset { result = third.url + (offset - third.path) }
        return result
    }
}

/// The positions of a URL's parts (see `RouteRequest`).
struct URLLayout {
    /// The host, when it counts as the first path segment.
    var host: Range<Int>?
    /// The path proper.
    var path: Range<Int> = 0..<0
    /// `#` and the fragment's path, when appended to the path.
    var fragmentPath: Range<Int>?
    var query: Range<Int>?
    var fragmentQuery: Range<Int>?

    /// The whole normalized path when its pieces are adjacent in the URL.
    var contiguousPath: Range<Int>? {
        if let host, host.upperBound != path.lowerBound { return nil }
        if let fragmentPath, fragmentPath.lowerBound != path.upperBound { return nil }
        return (host?.lowerBound ?? path.lowerBound)..<(fragmentPath?.upperBound ?? path.upperBound)
    }

    /// The length of the URL's RFC 3986 scheme, `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
    /// when a `:` follows it; nil when the URL has no scheme.
    static func schemeLength(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        guard n > 0, b[0].isSchemeLetter else { return nil }
        var j = 1
        while j < n, b[j].isSchemeLetter || b[j].isSchemeDigit || b[j] == UInt8(ascii: "+") || b[j] == UInt8(ascii: "-")
            || b[j] == UInt8(ascii: ".")
        {
            j += 1
        }
        return j < n && b[j] == UInt8(ascii: ":") ? j : nil
    }

    init(_ b: UnsafeBufferPointer<UInt8>) {
        let n = b.count
        var i = 0

        if let scheme = Self.schemeLength(b) { i = scheme + 1 }

        // Authority, and the host as the first path segment.
        if i + 1 < n, b[i] == UInt8(ascii: "/"), b[i + 1] == UInt8(ascii: "/") {
            let authorityStart = i + 2
            var authorityEnd = authorityStart
            while authorityEnd < n, !b[authorityEnd].endsAuthority { authorityEnd += 1 }
            var hostStart = authorityStart
            for k in authorityStart..<authorityEnd where b[k] == UInt8(ascii: "@") { hostStart = k + 1 }
            var hostEnd = authorityEnd
            var k = authorityEnd - 1
            while k >= hostStart, b[k].isSchemeDigit { k -= 1 }
            if k >= hostStart, b[k] == UInt8(ascii: ":") { hostEnd = k }
            let host = UnsafeBufferPointer(rebasing: b[hostStart..<hostEnd])
            if !host.isEmpty, !host.elementsEqual("localhost".utf8), !host.contains(UInt8(ascii: ".")) {
                self.host = hostStart..<hostEnd
            }
            i = authorityEnd
        }

        // Path and query.
        let pathStart = i
        while i < n, b[i] != UInt8(ascii: "?"), b[i] != UInt8(ascii: "#") { i += 1 }
        path = pathStart..<i
        if i < n, b[i] == UInt8(ascii: "?") {
            let queryStart = i + 1
            i = queryStart
            while i < n, b[i] != UInt8(ascii: "#") { i += 1 }
            query = queryStart..<i
        }

        // Fragment.
        guard i < n else { return }
        let hash = i
        let fragmentStart = i + 1
        var fragmentPathEnd = fragmentStart
        while fragmentPathEnd < n, b[fragmentPathEnd] != UInt8(ascii: "?") { fragmentPathEnd += 1 }
        let fragmentPath = fragmentStart..<fragmentPathEnd
        let ownQuery = fragmentPathEnd < n ? (fragmentPathEnd + 1)..<n : fragmentPath
        // The first query item has a non-empty value.
        var containsQuery = false
        var k = ownQuery.lowerBound
        while k < ownQuery.upperBound, b[k] != UInt8(ascii: "&") {
            if b[k] == UInt8(ascii: "=") {
                containsQuery = k + 1 < ownQuery.upperBound && b[k + 1] != UInt8(ascii: "&")
                break
            }
            k += 1
        }
        if containsQuery { fragmentQuery = ownQuery }
        let sameText = UnsafeBufferPointer(rebasing: b[fragmentPath]).elementsEqual(UnsafeBufferPointer(rebasing: b[ownQuery]))
        if !containsQuery || !sameText {
            self.fragmentPath = hash..<fragmentPathEnd
        }
    }
}

extension UInt8 {
    fileprivate var isSchemeLetter: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
    }

    fileprivate var isSchemeDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    fileprivate var endsAuthority: Bool {
        self == UInt8(ascii: "/") || self == UInt8(ascii: "?") || self == UInt8(ascii: "#")
    }
}
