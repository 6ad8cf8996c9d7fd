@_spi(Shell) import PatchbayCore

/// Parses route patterns over their UTF-8 bytes and expands optional groups the way JLRoutes 2.1
/// does (`JLRParsingUtilities.expandOptionalRoutePatternsForPattern`).
enum PatternParser {
    private enum Kind {
        case literal(String)
        case variable(String)
        case wildcard
    }

    private struct Segment {
        var kind: Kind
        /// The segment as written.
        var text: String
        /// UTF-8 offset of the segment in the pattern.
        var offset: Int
    }

    /// Text outside groups is a required part, the text of each group an optional part.
    private struct Part {
        var optional: Bool
        var segments: [Segment]
        /// UTF-8 offset where the part's text starts (just after `(` for a group).
        var offset: Int
    }

    /// The expansions of `text` in the order they are tried.
    static func expansions(of text: String) throws(RoutingError) -> [ExpandedPattern] {
        let bytes = Array(text.utf8)
        if let scheme = bytes.withUnsafeBufferPointer(URLLayout.schemeLength), scheme + 1 < bytes.count, bytes[scheme + 1] == UInt8(ascii: "/") {
            let path = String(decoding: bytes[(scheme + 1)...], as: UTF8.self)
            throw RoutingError(.schemeInPattern(scheme: String(decoding: bytes[..<scheme], as: UTF8.self), path: path), at: 0..<scheme + 1)
        }
        let parts = try self.parts(of: bytes)

        // Limits and the wildcard rule, checked over the whole pattern in text order.
        let groups = parts.filter(\.optional)
        if groups.count > RoutePattern.maximumGroups {
            let open = groups[RoutePattern.maximumGroups].offset - 1
            throw RoutingError(.tooManyGroups(limit: RoutePattern.maximumGroups), at: open..<open + 1)
        }
        let all = parts.flatMap(\.segments)
        if let star = all.firstIndex(where: { if case .wildcard = $0.kind { true } else { false } }), star != all.count - 1 {
            throw RoutingError(.wildcardNotLast, at: all[star].offset..<all[star].offset + 1)
        }

        guard !groups.isEmpty else { return [expansion(all)] }

        // Every in-order combination that keeps all required parts: JLRoutes enumerates subsets of
        // the parts by counting in binary, the first part being the lowest bit.
        var candidates: [ExpandedPattern] = []
        candidates.reserveCapacity(1 << groups.count)
        for mask in 0..<(1 << groups.count) {
            var segments: [Segment] = []
            var group = 0
            for part in parts {
                if part.optional {
                    if mask & (1 << group) != 0 { segments += part.segments }
                    group += 1
                } else {
                    segments += part.segments
                }
            }
            candidates.append(expansion(segments))
        }
        // Longest first, as JLRoutes sorts them (by NSString length, i.e. UTF-16); ties keep the
        // enumeration order.
        return candidates.enumerated()
            .sorted { a, b in
                let (la, lb) = (a.element.text.utf16.count, b.element.text.utf16.count)
                return la != lb ? la > lb : a.offset < b.offset
            }
            .map(\.element)
    }

    private static func expansion(_ segments: [Segment]) -> ExpandedPattern {
        var result = ExpandedPattern(segments: [], hasWildcard: false, text: "/" + segments.map(\.text).joined(separator: "/"))
        result.segments.reserveCapacity(segments.count)
        for segment in segments {
            switch segment.kind {
            case .literal(let literal): result.segments.append(.literal(literal))
            case .variable(let name): result.segments.append(.variable(name))
            case .wildcard: result.hasWildcard = true
            }
        }
        return result
    }

    /// Splits the pattern into required and optional parts.
    private static func parts(of bytes: [UInt8]) throws(RoutingError) -> [Part] {
        var parts: [Part] = []
        var groupStart: Int?
        var partStart = 0
        var total = 0
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "("):
                if groupStart != nil { throw RoutingError(.nestedGroup, at: index..<index + 1) }
                if let part = try part(bytes, partStart..<index, optional: false, total: &total) { parts.append(part) }
                groupStart = index
                partStart = index + 1
            case UInt8(ascii: ")"):
                guard let open = groupStart else { throw RoutingError(.unmatchedClosingParenthesis, at: index..<index + 1) }
                guard let part = try part(bytes, partStart..<index, optional: true, total: &total) else {
                    throw RoutingError(.emptyGroup, at: open..<index + 1)
                }
                parts.append(part)
                groupStart = nil
                partStart = index + 1
            default:
                break
            }
        }
        if let open = groupStart { throw RoutingError(.unclosedGroup, at: open..<bytes.count) }
        if let part = try part(bytes, partStart..<bytes.count, optional: false, total: &total) { parts.append(part) }
        return parts
    }

    /// The segments of one part, with the slashes at both ends dropped; nil when nothing is left.
    /// `total` counts the segments of the pattern so far, to stop at the limit.
    private static func part(_ bytes: [UInt8], _ range: Range<Int>, optional: Bool, total: inout Int) throws(RoutingError) -> Part? {
        let slash = UInt8(ascii: "/")
        var start = range.lowerBound
        var end = range.upperBound
        while start < end, bytes[start] == slash { start += 1 }
        while end > start, bytes[end - 1] == slash { end -= 1 }
        guard start < end else { return nil }

        var segments: [Segment] = []
        var segmentStart = start
        for index in start...end where index == end || bytes[index] == slash {
            if index == segmentStart {
                throw RoutingError(.emptySegment, at: index - 1..<index + 1)
            }
            total += 1
            if total > RoutePattern.maximumSegments {
                throw RoutingError(.tooManySegments(limit: RoutePattern.maximumSegments), at: segmentStart..<index)
            }
            segments.append(try segment(bytes, segmentStart..<index))
            segmentStart = index + 1
        }
        return Part(optional: optional, segments: segments, offset: range.lowerBound)
    }

    private static func segment(_ bytes: [UInt8], _ range: Range<Int>) throws(RoutingError) -> Segment {
        let text = String(decoding: bytes[range], as: UTF8.self)
        if range.count == 1, bytes[range.lowerBound] == UInt8(ascii: "*") {
            return Segment(kind: .wildcard, text: text, offset: range.lowerBound)
        }
        guard bytes[range.lowerBound] == UInt8(ascii: ":") else {
            return Segment(kind: .literal(text), text: text, offset: range.lowerBound)
        }
        // JLRoutes drops the colon, then a trailing '#' when something is left before it.
        var name = bytes[(range.lowerBound + 1)..<range.upperBound]
        if name.count > 1, name.last == UInt8(ascii: "#") { name = name.dropLast() }
        guard !name.isEmpty else { throw RoutingError(.emptyVariableName, at: range) }
        return Segment(kind: .variable(String(decoding: name, as: UTF8.self)), text: text, offset: range.lowerBound)
    }
}
