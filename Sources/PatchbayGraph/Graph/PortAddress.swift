@_spi(Shell) import PatchbayCore

/// A port written `NODE.PORT`.
@_spi(Shell)
public struct PortAddress: Hashable, Sendable, CustomStringConvertible, Comparable {
    public var node: String
    public var port: String

    public init(node: String, port: String) {
        self.node = node
        self.port = port
    }

    public var description: String { "\(node).\(port)" }

    public static func < (a: PortAddress, b: PortAddress) -> Bool { a.description < b.description }
}
