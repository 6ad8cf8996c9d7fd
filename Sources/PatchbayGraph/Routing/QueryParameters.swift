@_spi(Shell) import PatchbayCore

internal import OrderedCollections

/// Query items, read the way JLRoutes reads them through `NSURLComponents.queryItems`.
enum QueryParameters {
    /// The query items of the request, the URL's own then the fragment's: items are separated by
    /// `&`, a name from its value by the first `=`; an item without `=` is skipped, `name=` gives
    /// `""`. Names and values are percent-decoded once; in values, a `+` written in the query is a
    /// space (one decoded from `%2B` is a plus). A repeated name gives an array, in order.
    static func items(of request: RouteRequest) throws(RoutingError) -> Value.Members {
        var grouped = OrderedDictionary<String, [Value]>()
        if let query = request.query { try read(query, of: request, into: &grouped) }
        if let query = request.fragmentQuery { try read(query, of: request, into: &grouped) }
        var items = Value.Members(minimumCapacity: grouped.count)
        for (name, values) in grouped { items[name] = values.count == 1 ? values[0] : .array(values) }
        return items
    }

    private static func read(
        _ range: Range<Int>, of request: RouteRequest, into items: inout OrderedDictionary<String, [Value]>
    ) throws(RoutingError) {
        let bytes = request.bytes
        var start = range.lowerBound
        while start <= range.upperBound {
            var end = start
            while end < range.upperBound, bytes[end] != UInt8(ascii: "&") { end += 1 }
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            if equals < end {
                let name = try PercentDecoding.decode(
                    UnsafeBufferPointer(rebasing: bytes[start..<equals]), plusIsSpace: false,
                    mayContainPercent: request.hasPercent, origin: start)
                let value = try PercentDecoding.decode(
                    UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusIsSpace: true,
                    mayContainPercent: request.hasPercent, origin: equals + 1)
                items[name, default: []].append(.string(value))
            }
            start = end + 1
        }
    }
}
